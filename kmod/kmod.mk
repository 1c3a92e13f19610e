# SPDX-License-Identifier: GPL-2.0
#
# kmod/kmod.mk - build hybridnet.ko and libhybridnet; included by the
# top-level Makefile.
#
#   make module         kmod/hybridnet.ko, against KDIR
#   make lib            also build/libhybridnet.a (lib/lib.mk)
#   make module-clean
#
# KDIR defaults to the running kernel's build tree if there is one, else
# to the newest installed /usr/src/linux-headers-*-amd64.  Kbuild gets
# O= (empty): our O is not its output tree.

KDIR ?= $(or $(wildcard /lib/modules/$(shell uname -r)/build), \
	$(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | \
		sort -V | tail -n 1))

HN_KO		:= kmod/hybridnet.ko
HN_KMOD_SRC	:= $(wildcard kmod/*.c kmod/*.h kmod/core/*.c kmod/core/*.h) \
		   kmod/Kbuild uapi/linux/hybridnet.h

.PHONY: module module-clean
all: module

module: $(HN_KO)

$(HN_KO): $(HN_KMOD_SRC) kmod/kmod.mk
	@test -n "$(KDIR)" && test -d "$(KDIR)" || \
		{ echo "no kernel build tree (KDIR=$(KDIR)): run 'make deps'"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(realpath $(CURDIR)/kmod) O= CONFIG_HYBRIDNET=m modules

module-clean:
	@if test -n "$(KDIR)" && test -d "$(KDIR)"; then \
		$(MAKE) -C $(KDIR) M=$(realpath $(CURDIR)/kmod) O= clean; fi
	rm -f $(HN_KO)

clean: module-clean

-include lib/lib.mk
