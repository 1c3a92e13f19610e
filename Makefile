# SPDX-License-Identifier: GPL-2.0
#
# hybridnet: the one entry point.
#
#   make            build the engine library, the tools and the module
#   make check      install what is missing (Debian), then run every test
#   make bench      run the benchmarks
#   make demo       boot a VM, load the module, show traffic (issue 3)
#   make vm-run CMD='build/samples/pingpong' HN_PARAMS='nodes=2'
#                   a program of yours in that VM (docs/tutorial.md)
#   make deps       install the Debian packages the project needs (root)
#   make install    the tools, libhybridnet, headers, man pages (dist/install.mk)
#   make help       every target, one line each
#   make clean
#
# Output goes to build/ (O=dir to change).  See README.md.

O	?= build
# the release: libhybridnet's version (its soname is libhybridnet.so.MAJOR)
# and the DKMS package's (dkms.conf; make check-install compares them)
HN_VERSION := 0.1.0
CC	?= gcc
WARN	:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# tools/common/: what the tools, benchmarks and tests share (never the module)
CPPFLAGS := -Ikmod/core -Iuapi -Ilib -Itools/common
CFLAGS	?= -O2 -g
BASE	:= -std=gnu11 $(WARN) $(CPPFLAGS)
# the kselftest harness is written for -Wall (as the kernel builds it)
TBASE	:= -std=gnu11 -Wall -Werror -Wno-sign-compare $(CPPFLAGS)
SAN	:= -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer

CORE_SRC := $(wildcard kmod/core/*.c)
CORE_HDR := $(wildcard kmod/core/*.h)
CORE_OBJ := $(CORE_SRC:kmod/core/%.c=$(O)/core/%.o)
SAN_OBJ	 := $(CORE_SRC:kmod/core/%.c=$(O)/san/core/%.o)
UNIT_SRC := $(wildcard selftests/core/test_*.c)
UNIT_BIN := $(UNIT_SRC:selftests/core/%.c=$(O)/san/%)
TOOLS	 := $(O)/hnsim
COMMON_HDR := $(wildcard tools/common/*.h)
COMMON_SRC := $(wildcard tools/common/*.c)

# what is built once per machine and kept outside the clone, so that a
# new clone (CI's) reuses it: the debug kernel (vm.mk), the minimal
# Debian root of make check-fresh (selftests/fresh/fresh.mk)
HN_CACHE	?= $(if $(shell test -w /var/cache && echo y),/var/cache/hybridnet,$(abspath $(O)))

# kselftest harness, taken at build time from Debian's linux-source-6.1
KSRC_TAR ?= $(firstword $(wildcard /usr/src/linux-source-6.1.tar.xz) \
		/usr/src/linux-source-6.1.tar.xz)
KSFT	:= $(O)/ksft/kselftest_harness.h $(O)/ksft/kselftest.h

.PHONY: all lib tools check check-unit check-spec check-scan check-cycles unit \
	bench deps clean help
all: lib tools

lib: $(O)/libhncore.a
tools: $(TOOLS)

$(O)/core/%.o: kmod/core/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -c $< -o $@

$(O)/san/core/%.o: kmod/core/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(BASE) $(SAN) -c $< -o $@

# made anew, so a renamed or deleted source leaves no member behind
$(O)/libhncore.a: $(CORE_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(O)/san/libhncore.a: $(SAN_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# libhybridnet's names (hn_ctl_names.c): hnsim reads and writes hnctl's
$(O)/hnsim: tools/hnsim/*.c tools/hnsim/*.h $(COMMON_SRC) $(COMMON_HDR) \
	     lib/hn_ctl_names.c lib/libhybridnet.h $(O)/libhncore.a
	$(CC) $(BASE) $(CFLAGS) -Itools/hnsim tools/hnsim/*.c $(COMMON_SRC) \
		lib/hn_ctl_names.c $(O)/libhncore.a -o $@

$(KSFT):
	@test -r $(KSRC_TAR) || { echo "need $(KSRC_TAR): run 'make deps'"; exit 1; }
	@mkdir -p $(O)/ksft
	tar -xJf $(KSRC_TAR) -C $(O)/ksft --strip-components=4 \
		linux-source-6.1/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.1/tools/testing/selftests/kselftest.h
	@touch $(KSFT)

$(O)/san/test_%: selftests/core/test_%.c selftests/core/*.h $(COMMON_HDR) \
		 $(O)/san/libhncore.a $(KSFT)
	$(CC) $(TBASE) $(SAN) -I$(O)/ksft -Iselftests/core $< \
		$(O)/san/libhncore.a -o $@

# test_json.c tests hnctl's JSON writer, which it includes
$(O)/san/test_json: tools/hnctl/json.c tools/hnctl/json.h
# test_zmsg.c tests libhybridnet's 128-bit messages, which it includes
$(O)/san/test_zmsg: lib/hn_zmsg.c lib/libhybridnet.h

unit: $(UNIT_BIN)

# make check runs each step of CHECK_STEPS; every step writes TAP to
# $(O)/tap/STEP.tap and selftests/summary.sh ends with "N passed, N failed".
# Included .mk files add their steps (kmod/kmod.mk, the VM tests).
CHECK_STEPS := check-unit check-spec check-scan

-include kmod/kmod.mk
-include samples/samples.mk
-include selftests/drivers/hybridnet/vm.mk
-include docs/results/results.mk
-include docs/results/switching.mk
-include docs/results/fattree.mk
-include docs/results/faults.mk
-include tools/hnctl/hnctl.mk
-include tools/hntraffic/hntraffic.mk
-include selftests/fresh/fresh.mk
-include selftests/docs/docs.mk
-include dist/iproute2/iproute2.mk
-include dist/install.mk

# The targets that install the Debian packages they lack
# (selftests/deps.sh).  make runs deps.sh as it remakes its makefiles
# ($(O)/.deps is one), and starts again from scratch when it installed
# anything, so that whatever looks at the installed packages (KDIR,
# HN_KREL, the kernel image, every $$(wildcard): make keeps what it read
# of a directory) is read after deps did its work.  Not under -n, -q or -t.
HN_DEPS_GOALS	:= check check-fresh demo vm-run vm-shell bench% results-% \
		   soak% check-vm-debug
ifneq ($(filter $(HN_DEPS_GOALS),$(MAKECMDGOALS)),)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS)))$(findstring t,$(firstword -$(MAKEFLAGS))),)
include $(O)/.deps
endif
endif
# (hn-always: no file, no recipe, so always remade)
$(O)/.deps: hn-always
	@mkdir -p $(@D)
	@selftests/deps.sh --stamp $@
hn-always:

check:
	@rm -rf $(O)/tap && mkdir -p $(O)/tap
	@for s in $(CHECK_STEPS); do \
		echo "==== make $$s"; \
		$(MAKE) --no-print-directory $$s || \
		echo "not ok - make $$s failed" >> $(O)/tap/$$s.tap; \
		grep -qE '^(not )?ok' $(O)/tap/$$s.tap 2>/dev/null || \
		echo "not ok - make $$s gave no result (a crash behind a pipe?)" \
			>> $(O)/tap/$$s.tap; \
	done
	@selftests/summary.sh $(O)/tap/*.tap

# a check's TAP, written to $(O)/tap/$@.tap, printed; its status kept
# (a pipe through tee would lose it)
TAP_OUT = rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

# the netlink spec and the uapi header agree, number for number
check-spec:
	@mkdir -p $(O)/tap
	@python3 selftests/netlink/spec-check.py \
		Documentation/netlink/specs/hybridnet.yaml uapi $(O)/spec \
		> $(O)/tap/$@.tap; $(TAP_OUT)

# checkpatch --strict, W=1 and sparse clean on kmod/ (selftests/style.sh)
CHECK_STEPS += check-style
check-style:
	@mkdir -p $(O)/tap
	@bash selftests/style.sh $(O) $(KSRC_TAR) $(KDIR) \
		> $(O)/tap/$@.tap; $(TAP_OUT)

# no file of the engine, the library or a tool calls into a file that
# calls back (selftests/link-cycles.py, from the objects' symbols)
CHECK_STEPS += check-cycles
HN_CYCLE_GROUPS := core:kmod/core lib:lib \
	hnsim:tools/hnsim+tools/common hnctl:tools/hnctl+tools/common \
	hntraffic:tools/hntraffic+tools/common+tools/hnsim/topts.c
check-cycles:
	@mkdir -p $(O)/tap
	@python3 selftests/link-cycles.py --out $(O)/cycles \
		--cc '$(CC) $(BASE) $(HN_NL_CFLAGS) -Itools/hnsim' \
		$(HN_CYCLE_GROUPS) > $(O)/tap/$@.tap; $(TAP_OUT)

# the VM's kernel-log scan catches every kind of report it must
check-scan:
	@mkdir -p $(O)/tap
	@bash selftests/vm/test-dmesg-scan.sh > $(O)/tap/$@.tap; $(TAP_OUT)

check-unit: unit tools
	@mkdir -p $(O)/tap
	@selftests/run-unit.sh $(O) $(UNIT_BIN) > $(O)/tap/$@.tap; $(TAP_OUT)

# hnsim run's sweeps, CSV and JSON, progress flags, dist/hnplot
CHECK_STEPS += check-hnsim
.PHONY: check-hnsim
check-hnsim: tools $(O)/hntraffic
	@mkdir -p $(O)/tap
	@selftests/hnsim/test-run.sh $(O) > $(O)/tap/$@.tap; $(TAP_OUT)

# docs/results/results.mk builds it from selftests/bench/sched/*.c
$(O)/bench/sched_bench: $(COMMON_HDR)

bench: $(O)/bench/hn_bench
	$(O)/bench/hn_bench

# the engine's benchmark; selftests/bench/dev_bench.c runs in the VM
# (make bench-vm), selftests/bench/sched/ is make bench-sched
$(O)/bench/hn_bench: selftests/bench/hn_bench.c $(O)/libhncore.a
	@mkdir -p $(@D)
	$(CC) $(BASE) -O2 -g $< $(O)/libhncore.a -o $@

deps:
	@selftests/deps.sh

# make help: every target, one line each, here and nowhere else
# (make check-help checks that each exists and that every .PHONY target
# is listed)
define HN_HELP
Build (into $(O)/ and kmod/):
  all               the default: engine library, tools, libhybridnet, module
  lib               $(O)/libhncore.a, $(O)/libhybridnet.a and .so
  tools             $(O)/hnsim
  hnctl             $(O)/hnctl, the control tool
  hnctl-static      $(O)/static/hnctl, linked -static (the VM's)
  hntraffic         $(O)/hntraffic, traffic through /dev/hybridnet
  module            kmod/hybridnet.ko, against KDIR
  unit              the engine's unit tests, with ASan and UBSan
  samples           $(O)/samples/pingpong and circuit, built with pkg-config
                    against $(O)/libhybridnet-uninstalled.pc (docs/tutorial.md)
  vm-initrd         the VM's initramfs: module, test programs, tools,
                    everything in $(O)/vm/bin/
Install (PREFIX=/usr/local, DESTDIR):
  install           tools, libhybridnet (.so, .a, .pc), headers, man pages,
                    bash completion, the udev rule
  uninstall         remove what install installed
  modules_install   hybridnet.ko into /lib/modules/KREL/extra, then depmod
                    (INSTALL_MOD_PATH)
  dkms-src          the module's sources and dkms.conf into
                    /usr/src/hybridnet-$(HN_VERSION), for dkms add
Test (each step writes TAP to $(O)/tap/STEP.tap):
  check             install missing Debian packages, run every step below
  check-unit        the engine's unit tests
  check-hnsim       hnsim run's sweeps, CSV and JSON; hnplot
  check-spec        the netlink spec against the uapi header and the tables
  check-scan        the VM's kernel-log scan
  check-style       checkpatch --strict, W=1 and sparse on kmod/
  check-cycles      no file of the engine, the library or a tool calls into
                    one that calls back (from the objects' symbols)
  check-hnctl       hnctl without the module: parsing, phase files
  check-install     install, uninstall, pkg-config, modules_install, udev,
                    bash completion
  check-man         the man pages: mandoc -T lint, man --warnings, and what
                    they must name; no issue number in README, docs, man
                    pages or any help
  check-fields      every list of the configuration fields (modinfo, hnsim,
                    hnctl, the man pages) against kmod/core/hn_fields.h
  check-next-field  a field added in a copy of the tree to the five files
                    the table names, found in every interface
  check-dkms        a DKMS build against KDIR in a private tree
  check-help        this list against the Makefiles' targets
  check-vm          the module tests in a qemu VM
  check-vm-run      vm-run: a program of the build tree, Debian's ip and
                    python3, HN_PARAMS, the exit status; vm-shell on a
                    terminal; a parameter the module does not have
  check-docs        every example of README.md and docs/ runs as written
                    (the markers: selftests/docs/check-docs.py)
  check-fresh       make demo and make check (unit, VM) the first time, in
                    a clean clone on a fresh Debian 12 root (debootstrap,
                    kept in $(HN_CACHE)); HN_FRESH_REF=commit (HEAD)
  check-vm-debug    the same on a debug kernel (KASAN, lockdep, ...)
  check-vm-netdev-flood  the free-clock UDP flood alone, REPEAT (1) times;
                    HN_FLOOD_APPEND=hn.hogs=N adds N busy loops
  soak              the adversarial suite, HN_SOAK_SECONDS (600), in the VM
  soak-debug        the same on the debug kernel
Run:
  demo              boot a VM, load the module, show traffic
  vm-shell          boot the VM to a shell in the host's tree, the module
                    loaded with HN_PARAMS="nodes=16 slots=4 ..."
  vm-run            run CMD='...' (a host command) in the VM, the module
                    loaded with HN_PARAMS; prints its output and status
  bench             the engine's speed and memory
  bench-vm          /dev/hybridnet against AF_UNIX, in the VM
  bench-paced       the paced clock's shortest sustained slot, in the VM
  bench-netdev      two hybridnet interfaces against veth, in the VM
  bench-sched       the schedulers against the FPGA figures
  bench-switching   time the switching experiments' regeneration
  bench-fattree     time the fat-tree experiments' regeneration
  results-sched     the scheduler experiments (Ch. 6 and 7)
  results-switching the switching experiments (Ch. 1, 4 and 5), plots
  results-fattree   the fat-tree experiments: switching, circuits, Ch. 4
  results-faults    Woods-Corwin's drop-on-block sensitivities, plot
  results-tcp       TCP over circuits that come and go, in the VM, plots
  results-idem-vm   exactly once through /dev/hybridnet, 10^5 messages, VM
Other:
  deps              install the Debian packages the project needs (root)
  man-path          print a MANPATH for the build tree's man pages:
                    export MANPATH=$$(make -s man-path); man hybridnet
  clean             remove $(O)/ and the module's build files
  module-clean      remove the module's build files
  help              this list
endef
export HN_HELP

help:
	@printf '%s\n' "$$HN_HELP"

clean:
	rm -rf $(O)
