# SPDX-License-Identifier: GPL-2.0
#
# selftests/drivers/hybridnet/vm.mk - the module tests, the demo
# (samples/demo.c) and the device benchmark (selftests/bench/dev_bench.c),
# each in a qemu (TCG) VM booted with the harness of selftests/vm/.
# Included by the top-level Makefile.
#
#   make check-vm   module + static test programs + initramfs, boot, TAP to
#                   $(O)/tap/check-vm.tap (a step of "make check")
#   make vm-shell   boot to a shell with the module loaded (HN_PARAMS),
#                   in the host's tree
#   make vm-run CMD='...'  the same, running the shell command CMD of the
#                   host, printing its output and its exit status
#   make check-vm-run  vm-run's tests: a program linked against the build
#                   tree, Debian's ip and python3, HN_PARAMS, exit status
#   make demo       traffic between several nodes, statistics
#   make bench-vm   /dev/hybridnet vs AF_UNIX SOCK_SEQPACKET, msgs/s
#   make bench-paced  the paced clock's shortest sustained slot at 1:1
#   make bench-netdev two hybridnet interfaces against a veth pair
#   make results-tcp  the TCP experiment, docs/results/tcp.md and plots
#   make results-idem-vm  exactly once at C4.1's scale (idem.c, 10^5)
#
# The VM boots the kernel the module is built for (KDIR's release).  For
# vm-run and vm-shell it sees the host's / read-only through virtio 9p
# (selftests/vm/run.sh --host), so that any program of the host, static
# or dynamic, runs unchanged; the initramfs carries the kernel's 9p,
# virtio and overlay modules for that (HN_VM_KMODS).

HN_VM		:= $(O)/vm
HN_VM_SRCDIR	:= selftests/drivers/hybridnet
HN_VM_PROGS	:= $(patsubst $(HN_VM_SRCDIR)/%.c,%,$(wildcard $(HN_VM_SRCDIR)/*.c))
# the demo (hnctl-vm.sh runs it too) and the device benchmark
HN_VM_DEMO	:= $(HN_VM)/bin/demo $(HN_VM)/bin/dev_bench
# idem.c at C4.1's scale, 10^5 messages (make results-idem-vm)
HN_VM_IDEM	:= $(HN_VM)/bin/idem_1e5
# Debian's programs the interfaces' tests run (dynbin.sh), and scripts
HN_VM_SCRIPTS	:= $(addprefix $(HN_VM)/bin/,netdev-traffic-vm.sh netns-lib.sh \
		   paced-bench.sh netdev-bench.sh tcp-vm.sh capture-vm.sh \
		   netdev-if-vm.sh netdev-scale-vm.sh hn-load.sh fabrics-vm.sh)
HN_VM_DYN	:= $(HN_VM)/bin/iperf3 $(HN_VM)/bin/ipr $(HN_VM)/bin/tcr \
		   $(HN_VM)/bin/tcpdump $(HN_VM)/bin/ip/link_hybridnet.so
# and hntraffic, built -static by tools/hntraffic/hntraffic.mk
HN_VM_BIN	:= $(HN_VM_PROGS:%=$(HN_VM)/bin/%) $(HN_VM_DEMO) $(HN_VM_IDEM) \
		   $(HN_VM)/bin/hntraffic $(HN_VM)/bin/hnctl $(HN_VM)/bin/hnsim \
		   $(HN_VM)/bin/hnctl-vm.sh $(HN_VM)/bin/sysfs-abi.sh \
		   $(HN_VM)/bin/errors-vm.sh \
		   $(HN_VM)/bin/netdev-vm.sh $(HN_VM_SCRIPTS) $(HN_VM_DYN) \
		   $(HN_VM)/bin/sysfs-class-hybridnet
HN_INITRD	:= $(HN_VM)/initrd.gz
HN_KREL		= $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
			$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
HN_KIMG		= /boot/vmlinuz-$(HN_KREL)
HN_VM_RUN	= selftests/vm/run.sh -k $(HN_KIMG)
HN_VM_TIMEOUT	?= 300
# the test runs' limits find a VM that hangs, never a slow one: they are
# in CPU seconds of qemu (run.sh -t), which a host busy with other work
# does not stretch as it stretches the wall clock (the backstop, three
# times the limit); the Debian lane takes about 6 minutes on a quiet
# 2-core host and the debug lane about 36 (KASAN under TCG); each test has
# a limit of its own as well (hn_test.h)
HN_CHECK_TIMEOUT ?= 1800
HN_DBG_TIMEOUT	?= 3600
# the modules that mount the host's tree; their dependencies come along
# (and veth, which netdev-bench.sh loads itself)
HN_VM_KMODS	:= 9p 9pnet_virtio virtio_pci overlay veth
HN_KMODDIR	= /lib/modules/$(HN_KREL)
HN_VM_KMOD_ARGS	= $(if $(wildcard $(HN_KMODDIR)/modules.dep),-K $(HN_KMODDIR) \
		  $(HN_VM_KMODS:%=-M %))
# everything in $(HN_VM)/bin/ goes into the initramfs, a file dropped
# there by hand too: the directory itself is a prerequisite for files
# that come or go, and every file under it for those that change
HN_VM_BIN_ALL	= $(shell find $(HN_VM)/bin 2>/dev/null)
# vm-run, vm-shell: the module's parameters, the command (a shell
# command line run by the host's /bin/sh in the VM, in this directory)
HN_PARAMS	?=
CMD		?=
# one make word, quoted for the shell: '...' with ' as '\''
hn_sq		= '$(subst ','\'',$(1))'
HN_VM_CMD	= selftests/drivers/hybridnet/vm-cmd.sh -k $(HN_KIMG) \
		  -p $(call hn_sq,$(HN_PARAMS)) -C $(CURDIR) -P $(abspath $(O))

.PHONY: check-vm vm-shell vm-run check-vm-run demo bench-vm vm-initrd
CHECK_STEPS += check-vm check-vm-run
ifeq ($(HN_DEBUG_LANE),1)
CHECK_STEPS += check-vm-debug
endif

# (libnl's archives too: a test of libhybridnet's control plane needs
# them, and the others take nothing of them)
$(HN_VM)/bin/%: $(HN_VM_SRCDIR)/%.c $(HN_VM_SRCDIR)/*.h $(HNLIB) $(O)/libhncore.a $(KSFT)
	@mkdir -p $(@D)
	$(CC) $(TBASE) -O2 -g -static -pthread -I$(O)/ksft -I$(HN_VM_SRCDIR) -Ikmod/core \
		$< $(HNLIB) $(O)/libhncore.a $(HN_NL_STATIC_LIBS) -o $@

$(HN_VM_IDEM): $(HN_VM_SRCDIR)/idem.c $(HN_VM_SRCDIR)/*.h $(HNLIB) $(O)/libhncore.a $(KSFT)
	@mkdir -p $(@D)
	$(CC) $(TBASE) -DPER=6250 -O2 -g -static -pthread -I$(O)/ksft -I$(HN_VM_SRCDIR) -Ikmod/core \
		$< $(HNLIB) $(O)/libhncore.a $(HN_NL_STATIC_LIBS) -o $@

# programs, not tests: libhybridnet only, the tools' warnings
$(HN_VM)/bin/demo: samples/demo.c
$(HN_VM)/bin/dev_bench: selftests/bench/dev_bench.c
$(HN_VM_DEMO): $(HNLIB)
	@mkdir -p $(@D)
	$(CC) $(BASE) -O2 -g -static $(filter %.c,$^) $(HNLIB) -o $@

# hnctl, static (tools/hnctl/hnctl.mk, included after this file), and the
# script that tests it against the module
$(HN_VM)/bin/hnctl: $(O)/static/hnctl
	@mkdir -p $(@D)
	cp $< $@

# hnsim, static: hnctl-vm.sh feeds it hnctl show -j of the live module
$(HN_VM)/bin/hnsim: tools/hnsim/*.c tools/hnsim/*.h $(COMMON_SRC) \
		$(COMMON_HDR) lib/hn_ctl_names.c lib/libhybridnet.h \
		$(O)/libhncore.a
	@mkdir -p $(@D)
	$(CC) $(BASE) -O2 -g -static -Itools/hnsim tools/hnsim/*.c \
		$(COMMON_SRC) lib/hn_ctl_names.c $(O)/libhncore.a -o $@

$(HN_VM)/bin/hnctl-vm.sh: $(HN_VM_SRCDIR)/hnctl-vm.sh
	@mkdir -p $(@D)
	cp $< $@

$(HN_VM)/bin/netdev-vm.sh: $(HN_VM_SRCDIR)/netdev-vm.sh
	@mkdir -p $(@D)
	cp $< $@

$(HN_VM)/bin/errors-vm.sh: $(HN_VM_SRCDIR)/errors-vm.sh
	@mkdir -p $(@D)
	cp $< $@

# the interfaces' traffic tests, their helpers, the benchmarks and the
# TCP experiment (hn.run=bench-paced, bench-netdev, results-tcp); the
# insmod of the tests, demo, vm-run and vm-shell (an unknown parameter
# fails)
$(HN_VM)/bin/hn-load.sh: $(HN_VM_SRCDIR)/hn-load.sh
$(HN_VM)/bin/netdev-traffic-vm.sh: $(HN_VM_SRCDIR)/netdev-traffic-vm.sh
$(HN_VM)/bin/netns-lib.sh: $(HN_VM_SRCDIR)/netns-lib.sh
$(HN_VM)/bin/capture-vm.sh: $(HN_VM_SRCDIR)/capture-vm.sh
$(HN_VM)/bin/netdev-if-vm.sh: $(HN_VM_SRCDIR)/netdev-if-vm.sh
$(HN_VM)/bin/netdev-scale-vm.sh: $(HN_VM_SRCDIR)/netdev-scale-vm.sh
$(HN_VM)/bin/fabrics-vm.sh: $(HN_VM_SRCDIR)/fabrics-vm.sh
$(HN_VM)/bin/paced-bench.sh: selftests/bench/paced-bench.sh
$(HN_VM)/bin/netdev-bench.sh: selftests/bench/netdev-bench.sh
$(HN_VM)/bin/tcp-vm.sh: docs/results/tcp-vm.sh
$(HN_VM_SCRIPTS):
	@mkdir -p $(@D)
	cp $< $@

# Debian's iperf3, ip, tc and tcpdump, dynamic, with their libraries in
# bin/dyn/ (selftests/vm/dynbin.sh): netdev-traffic-vm.sh, capture-vm.sh
# and the benchmarks run them in the busybox initramfs as iperf3, ipr, tcr
# and tcpdump
$(HN_VM)/bin/iperf3: selftests/vm/dynbin.sh
	selftests/vm/dynbin.sh $(@D) iperf3=iperf3
$(HN_VM)/bin/ipr: selftests/vm/dynbin.sh
	selftests/vm/dynbin.sh $(@D) ipr=ip
$(HN_VM)/bin/tcr: selftests/vm/dynbin.sh
	selftests/vm/dynbin.sh $(@D) tcr=tc
$(HN_VM)/bin/tcpdump: selftests/vm/dynbin.sh
	selftests/vm/dynbin.sh $(@D) tcpdump=tcpdump

# iproute2's plugin for the link kind (dist/iproute2/), which ipr loads
# from /opt/hn/ip, the VM's IP_LIB_DIR (vm-run.sh)
$(HN_VM)/bin/ip/link_hybridnet.so: $(O)/link_hybridnet.so
	@mkdir -p $(@D)
	cp $< $@

# the sysfs ABI file and the script that holds the module's sysfs to it
$(HN_VM)/bin/sysfs-abi.sh: $(HN_VM_SRCDIR)/sysfs-abi.sh
	@mkdir -p $(@D)
	cp $< $@

$(HN_VM)/bin/sysfs-class-hybridnet: \
		Documentation/ABI/testing/sysfs-class-hybridnet
	@mkdir -p $(@D)
	cp $< $@

vm-initrd: $(HN_INITRD)

$(HN_INITRD): $(HN_KO) $(HN_VM_BIN) $(HN_VM_BIN_ALL) \
	      $(HN_VM_SRCDIR)/vm-run.sh selftests/vm/mkinitramfs.sh \
	      selftests/vm/dmesg-scan.sh $(wildcard $(HN_KMODDIR)/modules.dep)
	selftests/vm/mkinitramfs.sh -o $@ -m $(HN_KO) -b $(HN_VM)/bin/ \
		-s $(HN_VM_SRCDIR)/vm-run.sh $(HN_VM_KMOD_ARGS)

# A dmesg WARNING/BUG/Oops, a timeout or a failing script makes run.sh
# fail: that becomes a "not ok" line.
check-vm: $(HN_INITRD)
	@mkdir -p $(O)/tap
	@test -r $(HN_KIMG) || { echo "not ok - check-vm: no $(HN_KIMG)" \
		> $(O)/tap/check-vm.tap; exit 1; }
	@start=$$(date +%s); \
	HN_APPEND="hn.run=check" $(HN_VM_RUN) -t $(HN_CHECK_TIMEOUT) \
		-o $(HN_VM)/check $(HN_INITRD) > $(O)/tap/check-vm.tap; \
	rc=$$?; \
	if [ $$rc -ne 0 ]; then echo "not ok - VM run failed (kernel warning, timeout or test failure): logs in $(HN_VM)/check" >> $(O)/tap/check-vm.tap; fi; \
	echo "# check-vm: VM run took $$(( $$(date +%s) - start )) s" >> $(O)/tap/check-vm.tap; \
	cat $(O)/tap/check-vm.tap; \
	exit $$rc

# netdev-traffic-vm.sh's free-clock flood alone, REPEAT times (default
# 1): to iterate on the interfaces' flow control; HN_FLOOD_APPEND=hn.hogs=N
# runs N busy loops in the VM during each flood
REPEAT		?= 1
.PHONY: check-vm-netdev-flood
check-vm-netdev-flood: $(HN_INITRD)
	@HN_APPEND="hn.run=netdev-flood hn.repeat=$(REPEAT) $(HN_FLOOD_APPEND)" $(HN_VM_RUN) \
		-t $(HN_VM_TIMEOUT) -o $(HN_VM)/netdev-flood $(HN_INITRD)

# the build tree's tools are first on the VM's PATH
HN_VM_HOSTBIN	:= $(O)/hnctl $(O)/hntraffic $(O)/hnsim

vm-shell: $(HN_INITRD) $(HN_VM_HOSTBIN)
	@$(HN_VM_CMD) --shell $(HN_INITRD)

# make exits 2 whatever the command's status; vm-cmd.sh returns it
vm-run: $(HN_INITRD) $(HN_VM_HOSTBIN)
	@$(HN_VM_CMD) -t $(HN_VM_TIMEOUT) -o $(HN_VM)/run $(HN_INITRD) \
		$(call hn_sq,$(value CMD))

# about 20 s: two boots
check-vm-run: $(HN_INITRD) $(HN_VM_HOSTBIN) $(HN_SAMPLES)
	@mkdir -p $(O)/tap
	@$(HN_VM_SRCDIR)/test-vm-run.sh $(O) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

# quiet, as Kbuild is: the build's commands in $(O)/demo-build.log (shown
# when it fails; V=1 shows them as they run), run.sh's only when the run fails
demo:
	@echo "make demo: building the module, the tools and the VM's initramfs$(if $(filter 1,$(V)),, (V=1 shows the commands))"
	@$(if $(filter 1,$(V)),$(MAKE) --no-print-directory $(HN_INITRD), \
		mkdir -p $(O) && $(MAKE) --no-print-directory $(HN_INITRD) >$(O)/demo-build.log 2>&1 || \
		{ tail -n 40 $(O)/demo-build.log; echo "make demo: the build failed; all of it in $(O)/demo-build.log"; exit 1; })
	@echo "make demo: booting the VM (qemu without KVM: 10 to 30 s)"
	@echo
	@HN_APPEND="hn.run=demo" $(HN_VM_RUN) -t $(HN_VM_TIMEOUT) \
		-o $(HN_VM)/demo $(HN_INITRD) 2>$(O)/demo-run.err || \
		{ cat $(O)/demo-run.err; exit 1; }

bench-vm: $(HN_INITRD)
	@HN_APPEND="hn.run=bench" $(HN_VM_RUN) -t $(HN_VM_TIMEOUT) \
		-o $(HN_VM)/bench $(HN_INITRD)

# the paced clock's shortest sustained slot (selftests/bench/paced-bench.sh)
# and the interfaces against veth (netdev-bench.sh): figures in
# docs/netdev.md
.PHONY: bench-paced bench-netdev results-tcp results-idem-vm
bench-paced bench-netdev: $(HN_INITRD)
	@HN_APPEND="hn.run=$@" $(HN_VM_RUN) -t 900 -o $(HN_VM)/$@ $(HN_INITRD)

# exactly once through /dev/hybridnet at C4.1's scale, 10^5 messages, a
# third of every kind lost, links down and up (docs/results/faults.md)
results-idem-vm: $(HN_INITRD)
	@HN_APPEND="hn.run=results-idem" $(HN_VM_RUN) -t 1800 \
		-o $(HN_VM)/$@ $(HN_INITRD)

# the TCP experiment of docs/results/tcp.md: the VM's run, then the
# plots (docs/results/tcp.sh, gnuplot)
results-tcp: $(HN_INITRD)
	@command -v gnuplot >/dev/null || { echo "need gnuplot: run 'make deps'"; exit 1; }
	@HN_APPEND="hn.run=$@" $(HN_VM_RUN) -t 900 -o $(HN_VM)/$@ $(HN_INITRD) \
		>$(HN_VM)/$@.out
	docs/results/tcp.sh $(HN_VM)/$@.out $(O)/results/tcp

# make check-vm-debug: the same tests on a debug kernel (KASAN, lockdep,
# kmemleak, UBSAN, atomic-sleep and list debugging, hung-task and
# soft-lockup detection, fault injection) built from Debian's
# linux-source-6.1 with tinyconfig and the options below: about 10 to 20
# minutes on 2 cores (needs libelf-dev, flex, bison, bc), once per
# machine.  The kernel is kept outside the clone, in
# $(HN_CACHE)/kdebug-KEY, KEY a hash of the options and of the kernel
# source's version, so a new clone (CI's) reuses it.  The tests take about
# 6 minutes there.  The network options (namespaces, IPv4, IPv6, veth,
# the qdisc layer, user namespaces, packet sockets) are those of the
# interfaces' and the capture's tests (netdev-vm.sh, netlink.c's userns,
# capture-vm.sh's tcpdump).
# make check runs this lane too when HN_DEBUG_LANE=1
# (.ci/run sets it).  The module is built from a copy of the sources, so
# kmod/ keeps the one for the installed kernel.
HN_DBG		:= $(O)/kdebug
HN_DBG_ON	:= 64BIT SMP MODULES MODULE_UNLOAD PRINTK PRINTK_TIME TTY \
		   SERIAL_8250 SERIAL_8250_CONSOLE BLK_DEV_INITRD RD_GZIP \
		   DEVTMPFS PROC_FS PROC_SYSCTL SYSFS TMPFS SHMEM BINFMT_ELF \
		   BINFMT_SCRIPT MULTIUSER FUTEX EPOLL POSIX_TIMERS \
		   HIGH_RES_TIMERS TIMERFD EVENTFD SIGNALFD FILE_LOCKING NET \
		   UNIX ACPI PCI DEBUG_FS DEBUG_KERNEL SLUB SLUB_DEBUG KASAN \
		   KASAN_GENERIC KASAN_INLINE UBSAN DEBUG_KMEMLEAK \
		   PROVE_LOCKING DEBUG_ATOMIC_SLEEP DEBUG_LIST DEBUG_OBJECTS \
		   DEBUG_OBJECTS_TIMERS DETECT_HUNG_TASK KALLSYMS STACKTRACE \
		   LOCKUP_DETECTOR SOFTLOCKUP_DETECTOR FAULT_INJECTION FAILSLAB \
		   FAIL_PAGE_ALLOC FAULT_INJECTION_DEBUG_FS \
		   NAMESPACES NET_NS INET IPV6 NETDEVICES NET_CORE VETH \
		   NET_SCHED USER_NS PACKET
HN_DBG_OFF	:= SLOB WERROR MODULE_SIG
HN_DBG_KEY	:= $(shell { echo $(HN_DBG_ON) / $(HN_DBG_OFF); \
			   dpkg-query -W -f='$${Version}' linux-source-6.1 \
				2>/dev/null; } | sha256sum | cut -c1-12)
HN_DBG_KDIR	:= $(HN_CACHE)/kdebug-$(HN_DBG_KEY)
HN_DBG_KSRC	:= $(HN_DBG_KDIR)/linux-source-6.1
HN_DBG_KIMG	:= $(HN_DBG_KSRC)/arch/x86/boot/bzImage

.PHONY: check-vm-debug
# built beside the cache and moved in whole: an interrupted build leaves
# no half kernel to reuse
$(HN_DBG_KIMG):
	rm -rf $(HN_DBG_KDIR).new && mkdir -p $(HN_DBG_KDIR).new
	tar -xJf $(KSRC_TAR) -C $(HN_DBG_KDIR).new
	$(MAKE) -C $(HN_DBG_KDIR).new/linux-source-6.1 tinyconfig
	cd $(HN_DBG_KDIR).new/linux-source-6.1 && \
		scripts/config $(HN_DBG_ON:%=-e %) $(HN_DBG_OFF:%=-d %)
	$(MAKE) -C $(HN_DBG_KDIR).new/linux-source-6.1 olddefconfig
	$(MAKE) -C $(HN_DBG_KDIR).new/linux-source-6.1 -j$$(nproc) \
		bzImage modules_prepare
	rm -rf $(HN_DBG_KDIR) && mv $(HN_DBG_KDIR).new $(HN_DBG_KDIR)

$(HN_DBG)/hybridnet.ko: $(HN_DBG_KIMG) $(HN_KMOD_SRC)
	rm -rf $(HN_DBG)/src && mkdir -p $(HN_DBG)/src
	tar -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='*.order' \
		--exclude='*.symvers' kmod uapi | tar -xf - -C $(HN_DBG)/src
	$(MAKE) -C $(HN_DBG_KSRC) M=$(abspath $(HN_DBG)/src/kmod) \
		CONFIG_HYBRIDNET=m modules
	cp $(HN_DBG)/src/kmod/hybridnet.ko $@

$(HN_DBG)/initrd.gz: $(HN_DBG)/hybridnet.ko $(HN_VM_BIN) $(HN_VM_BIN_ALL) \
		     $(HN_VM_SRCDIR)/vm-run.sh selftests/vm/mkinitramfs.sh \
		     selftests/vm/dmesg-scan.sh
	selftests/vm/mkinitramfs.sh -o $@ -m $(HN_DBG)/hybridnet.ko \
		-b $(HN_VM)/bin/ -s $(HN_VM_SRCDIR)/vm-run.sh

check-vm-debug: $(HN_DBG)/initrd.gz
	@mkdir -p $(O)/tap
	@HN_APPEND="hn.run=check" selftests/vm/run.sh -k $(HN_DBG_KIMG) \
		-t $(HN_DBG_TIMEOUT) -o $(HN_DBG)/check $(HN_DBG)/initrd.gz \
		> $(O)/tap/check-vm-debug.tap || \
	echo "not ok - debug VM run failed (KASAN/lockdep/kmemleak report, timeout or test failure): logs in $(HN_DBG)/check" \
		>> $(O)/tap/check-vm-debug.tap; \
	cat $(O)/tap/check-vm-debug.tap; \
	! grep -q '^not ok' $(O)/tap/check-vm-debug.tap

# make soak: the adversarial suite for HN_SOAK_SECONDS (600 by default)
# on Debian's kernel; make soak-debug on the debug kernel.  Figures in
# docs/reliability.md.
HN_SOAK_SECONDS	?= 600
.PHONY: soak soak-debug
# SOAK_RUN KERNEL TIMEOUT OUTDIR INITRD: the soak in a VM, TAP, summary
SOAK_RUN = HN_APPEND="hn.run=soak hn.soak=$(HN_SOAK_SECONDS)" \
	selftests/vm/run.sh -k $(1) -t $(2) -o $(3) $(4) > $(3).tap; \
	rc=$$?; [ $$rc -eq 0 ] || echo "not ok - soak VM run failed (kernel report, timeout or test failure): logs in $(3)" >> $(3).tap; \
	cat $(3).tap; selftests/summary.sh $(3).tap

soak: $(HN_INITRD)
	@$(call SOAK_RUN,$(HN_KIMG),$$(( $(HN_SOAK_SECONDS) * 2 + 300 )),$(HN_VM)/soak,$(HN_INITRD))

soak-debug: $(HN_DBG)/initrd.gz
	@$(call SOAK_RUN,$(HN_DBG_KIMG),$$(( $(HN_SOAK_SECONDS) * 3 + 600 )),$(HN_DBG)/soak,$(HN_DBG)/initrd.gz)
