# SPDX-License-Identifier: GPL-2.0
#
# samples/samples.mk - the example programs on libhybridnet, built the way
# a user builds theirs: with pkg-config, against the build tree
# ($(O)/libhybridnet-uninstalled.pc, lib/lib.mk), dynamically linked.
# Included by the top-level Makefile after lib/lib.mk.
#
#   make samples   $(O)/samples/pingpong and $(O)/samples/circuit
#                  (docs/tutorial.md; make check-vm-run runs them in the
#                  VM)
#
# samples/demo.c is the exception: make demo runs it from the initramfs,
# linked -static (selftests/drivers/hybridnet/vm.mk).

HN_SAMPLES	:= $(O)/samples/pingpong $(O)/samples/circuit

.PHONY: samples
all: samples
samples: $(HN_SAMPLES)

$(HN_SAMPLES): $(O)/samples/%: samples/%.c $(HNLIB_PC_UNINST) $(HNLIB_SO)
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CFLAGS) $< \
		$$(PKG_CONFIG_PATH=$(O) pkg-config --cflags --libs libhybridnet) \
		-o $@
