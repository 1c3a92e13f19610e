# SPDX-License-Identifier: GPL-2.0
#
# tools/hntraffic/hntraffic.mk - hntraffic, synthetic traffic through
# /dev/hybridnet; included from the top-level Makefile (after kmod/kmod.mk,
# which gives $(HNLIB)).
#
#   make                     also builds $(O)/hntraffic
#   make hntraffic           $(O)/hntraffic
#   $(O)/vm/bin/hntraffic    linked -static for the VM's initramfs, which
#                            has no libc (selftests/drivers/hybridnet/vm.mk
#                            lists it among the VM's programs)
#
# The traffic options are hnsim's: tools/hnsim/topts.c is compiled into
# both tools, and so is tools/common/ (as into hnctl).  No libnl:
# hntraffic uses the device only (lib/hn_dev.c).

HNT_SRC	:= $(wildcard tools/hntraffic/*.c) tools/hnsim/topts.c $(COMMON_SRC)
HNT_DEP	:= $(HNT_SRC) $(wildcard tools/hntraffic/*.h) tools/hnsim/topts.h \
	   $(COMMON_HDR) $(O)/libhncore.a $(HNLIB)
HNT_FLAGS := -Itools/hntraffic -Itools/hnsim -pthread

.PHONY: hntraffic
all: $(O)/hntraffic
hntraffic: $(O)/hntraffic

$(O)/hntraffic: $(HNT_DEP)
	$(CC) $(BASE) $(CFLAGS) $(HNT_FLAGS) $(HNT_SRC) $(HNLIB) \
		$(O)/libhncore.a -o $@

$(O)/vm/bin/hntraffic: $(HNT_DEP)
	@mkdir -p $(@D)
	$(CC) $(BASE) -O2 -g -static $(HNT_FLAGS) $(HNT_SRC) $(HNLIB) \
		$(O)/libhncore.a -o $@
