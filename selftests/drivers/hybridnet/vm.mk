# SPDX-License-Identifier: GPL-2.0
#
# selftests/drivers/hybridnet/vm.mk - the module tests, the demo and the
# device benchmark, each in a qemu (TCG) VM booted with the harness of
# selftests/vm/.  Included by the top-level Makefile.
#
#   make check-vm   module + static test programs + initramfs, boot, TAP to
#                   $(O)/tap/check-vm.tap (a step of "make check")
#   make vm-shell   boot to a shell with the module loaded
#   make demo       traffic between several nodes, statistics
#   make bench-vm   /dev/hybridnet vs AF_UNIX SOCK_SEQPACKET, msgs/s
#
# The VM boots the kernel the module is built for (KDIR's release).

HN_VM		:= $(O)/vm
HN_VM_SRCDIR	:= selftests/drivers/hybridnet
HN_VM_PROGS	:= $(patsubst $(HN_VM_SRCDIR)/%.c,%,$(wildcard $(HN_VM_SRCDIR)/*.c))
# and hntraffic, built -static by tools/hntraffic/hntraffic.mk
HN_VM_BIN	:= $(HN_VM_PROGS:%=$(HN_VM)/bin/%) $(HN_VM)/bin/hntraffic \
		   $(HN_VM)/bin/hnctl $(HN_VM)/bin/hnctl-vm.sh
HN_INITRD	:= $(HN_VM)/initrd.gz
HN_KREL		= $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
			$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
HN_KIMG		= /boot/vmlinuz-$(HN_KREL)
HN_VM_RUN	= selftests/vm/run.sh -k $(HN_KIMG)
HN_VM_TIMEOUT	?= 300

.PHONY: check-vm vm-shell demo bench-vm vm-initrd
CHECK_STEPS += check-vm

$(HN_VM)/bin/%: $(HN_VM_SRCDIR)/%.c $(HN_VM_SRCDIR)/*.h $(HNLIB) $(O)/libhncore.a $(KSFT)
	@mkdir -p $(@D)
	$(CC) $(TBASE) -O2 -g -static -pthread -I$(O)/ksft -I$(HN_VM_SRCDIR) -Ikmod/core \
		$< $(HNLIB) $(O)/libhncore.a -o $@

# hnctl, static (tools/hnctl/hnctl.mk, included after this file), and the
# script that tests it against the module
$(HN_VM)/bin/hnctl: $(O)/static/hnctl
	@mkdir -p $(@D)
	cp $< $@

$(HN_VM)/bin/hnctl-vm.sh: $(HN_VM_SRCDIR)/hnctl-vm.sh
	@mkdir -p $(@D)
	cp $< $@

vm-initrd: $(HN_INITRD)

$(HN_INITRD): $(HN_KO) $(HN_VM_BIN) $(HN_VM_SRCDIR)/vm-run.sh \
	      selftests/vm/mkinitramfs.sh
	selftests/vm/mkinitramfs.sh -o $@ -m $(HN_KO) -b $(HN_VM)/bin/ \
		-s $(HN_VM_SRCDIR)/vm-run.sh

# A dmesg WARNING/BUG/Oops, a timeout or a failing script makes run.sh
# fail: that becomes a "not ok" line.
check-vm: $(HN_INITRD)
	@mkdir -p $(O)/tap
	@test -r $(HN_KIMG) || { echo "not ok - check-vm: no $(HN_KIMG)" \
		> $(O)/tap/check-vm.tap; exit 1; }
	@start=$$(date +%s); \
	HN_APPEND="hn.run=check" $(HN_VM_RUN) -t $(HN_VM_TIMEOUT) \
		-o $(HN_VM)/check $(HN_INITRD) > $(O)/tap/check-vm.tap; \
	rc=$$?; \
	if [ $$rc -ne 0 ]; then echo "not ok - VM run failed (kernel warning, timeout or test failure): logs in $(HN_VM)/check" >> $(O)/tap/check-vm.tap; fi; \
	echo "# check-vm: VM run took $$(( $$(date +%s) - start )) s" >> $(O)/tap/check-vm.tap; \
	cat $(O)/tap/check-vm.tap; \
	exit $$rc

vm-shell: $(HN_INITRD)
	@printf 'insmod /lib/hn/hybridnet.ko && echo "hybridnet loaded: /dev/hybridnet, /sys/class/misc/hybridnet"\n' \
		> $(HN_VM)/profile
	@rm -rf $(HN_VM)/shellroot && mkdir -p $(HN_VM)/shellroot/etc && \
		cp $(HN_VM)/profile $(HN_VM)/shellroot/etc/profile && \
		(cd $(HN_VM)/shellroot && find . -mindepth 1 | \
		 cpio -o -H newc -R 0:0 --quiet | gzip -n) > $(HN_VM)/profile.cpio.gz
	@cat $(HN_INITRD) $(HN_VM)/profile.cpio.gz > $(HN_VM)/shell-initrd.gz
	$(HN_VM_RUN) --shell $(HN_VM)/shell-initrd.gz

demo:
	@selftests/deps.sh
	@$(MAKE) --no-print-directory $(HN_INITRD)
	@HN_APPEND="hn.run=demo" $(HN_VM_RUN) -t $(HN_VM_TIMEOUT) \
		-o $(HN_VM)/demo $(HN_INITRD)

bench-vm: $(HN_INITRD)
	@HN_APPEND="hn.run=bench" $(HN_VM_RUN) -t $(HN_VM_TIMEOUT) \
		-o $(HN_VM)/bench $(HN_INITRD)
