#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh - runs inside the VM as /opt/hn/run.sh (busybox sh).  The
# kernel argument hn.run= chooses what to do:
#   check  (default) the module tests, as TAP on stdout
#   demo   load the module, run a short traffic scenario, show statistics
#   bench  /dev/hybridnet against an AF_UNIX SOCK_SEQPACKET pair
#   soak   the adversarial tests for hn.soak= seconds in all (make soak)
#   netdev the interfaces' tests alone (netdev-vm.sh, netdev-traffic-vm.sh)
#   capture  the capture interface's tests alone (capture-vm.sh)
#   genmem the generator's memory on the largest trees alone (genmem)
#   fabrics  the fabrics' tests alone (fabrics, fabrics-vm.sh)
#   hnctl  hnctl's tests alone (hnctl-vm.sh)
#   faults the tests of exactly once, multicast, faults and priority alone
#          (idem, mcast, preempt, flap)
#   netdev-flood  netdev-traffic-vm.sh's free-clock flood alone, hn.repeat=
#          times (default 1) in one load of the module
#   bench-paced, bench-netdev, results-tcp, results-idem  make's targets
#          of those names
#   cmd    make vm-run: the module loaded with /etc/hn-job's HN_PARAMS,
#          then its HN_CMD in the host's tree (hn-hostrun, with hn.host=1);
#          exits with HN_CMD's status, 125 when the module refused
# The module is /lib/hn/hybridnet.ko, the programs are in /opt/hn (demo
# is samples/demo.c, dev_bench selftests/bench/dev_bench.c).

KO=/lib/hn/hybridnet.ko
SYS=/sys/class/hybridnet/fabric0
export HN_KO=$KO
# Debian's ip (ipr) finds the link kind's plugin there (dist/iproute2/)
export IP_LIB_DIR=/opt/hn/ip

mode=check
soak=600
repeat=1
for arg in $(cat /proc/cmdline); do
	case $arg in
	hn.run=*) mode=${arg#hn.run=} ;;
	hn.soak=*) soak=${arg#hn.soak=} ;;
	hn.repeat=*) repeat=${arg#hn.repeat=} ;;
	hn.hogs=*) HN_HOGS=$(seq "${arg#hn.hogs=}"); export HN_HOGS ;;
	esac
done

fails=0
now() { cut -d' ' -f1 /proc/uptime; }

# step NAME CMD...: run a test program, pass its TAP through, add a
# "not ok" when it ends badly without having reported a failure itself.
step() {
	name=$1
	shift
	t0=$(now)
	echo "# ---- $name: $*"
	"$@" >/tmp/step.out 2>&1
	rc=$?
	cat /tmp/step.out
	if [ $rc -ne 0 ]; then
		fails=$((fails + 1))
		grep -q '^not ok' /tmp/step.out ||
			echo "not ok - $name: exit status $rc"
	fi
	echo "# ---- $name: status $rc, $(awk -v a="$t0" -v b="$(now)" \
		'BEGIN { printf "%.1f", b - a }') s"
}

# tap_ok NAME CMD...: one TAP line for a shell check
tap_ok() {
	name=$1
	shift
	if "$@" >/tmp/tap.out 2>&1; then
		echo "ok - $name"
	else
		fails=$((fails + 1))
		sed 's/^/# /' /tmp/tap.out
		echo "not ok - $name"
	fi
}

# hn-load.sh: insmod, failing on a parameter the module does not have
# a kernel with kmemleak (make check-vm-debug): nothing may leak
no_leak() {
	kml=/sys/kernel/debug/kmemleak
	[ -w $kml ] || return 0
	echo scan >$kml
	echo scan >$kml
	tap_ok "kmemleak finds no leak" sh -c "! grep -q . $kml || { cat $kml; false; }"
}

load() { hn-load.sh "$@"; }
unload() { rmmod hybridnet; }

case $mode in
check)
	echo "# hybridnet module tests, kernel $(uname -r)"
	step modparams modparams
	step msgmem msgmem
	tap_ok "insmod with defaults" load
	step dev_api dev_api
	step exchange exchange
	step backpressure backpressure
	step stress stress
	step stress-chaos env HN_SECONDS=2 HN_CHAOS=1 stress
	tap_ok "rmmod" unload
	tap_ok "insmod paced" load clock=paced pace_ppm=200000 tick_us=500
	step exchange-paced env HN_COUNT=300 HN_MAXLEN=256 HN_EXPECT=paced exchange
	tap_ok "rmmod paced" unload
	tap_ok "insmod preload=shift" load preload=shift
	step exchange-circuits env HN_COUNT=2000 HN_MAXLEN=1024 HN_EXPECT=circuits exchange
	tap_ok "rmmod preload=shift" unload
	# hntraffic: its JSON says everything arrived once, in order, intact
	tap_ok "insmod for hntraffic" load nodes=16 slots=4 preload=shift
	tap_ok "hntraffic: all-to-all batch between 16 nodes, 960 messages in order" sh -c \
		'hntraffic --pattern all-to-all --batch 60 --size 64-1024 --seed 7 --json >/tmp/hnt.json &&
		 grep -q "\"verified\": true, \"in_order\": true, \"lost\": 0," /tmp/hnt.json &&
		 grep -q "\"recv_msgs\": 960," /tmp/hnt.json'
	sed 's/^/# /' /tmp/hnt.json
	# hntraffic reads its histogram with the engine's buckets and function:
	# a batch after a reset gives hnctl stats' min, p50, p99 and max
	tap_ok "hntraffic and hnctl stats: the same latency figures for one batch" sh -c \
		'hnctl stats reset &&
		 hntraffic --pattern uniform --batch 100 --size 64-2048 --seed 5 --json >/tmp/hnt.json &&
		 a=$(sed "s/.*\"lat_min_ns\": \([0-9]*\).*\"lat_p50_ns\": \([0-9]*\), \"lat_p99_ns\": \([0-9]*\), \"lat_max_ns\": \([0-9]*\),.*/\1 \2 \3 \4/" /tmp/hnt.json) &&
		 b=$(hnctl -j stats | sed "s/.*\"lat-min-ns\":\([0-9]*\).*\"lat-max-ns\":\([0-9]*\),\"lat-p50-ns\":\([0-9]*\),\"lat-p99-ns\":\([0-9]*\).*/\1 \3 \4 \2/") &&
		 echo "hntraffic: $a" && echo "hnctl:     $b" &&
		 [ -n "$a" ] && [ "$a" = "$b" ]'
	# On the free clock pattern time is wall time: a VM starved of CPU may
	# not keep up with load 0.05 and end as saturated (exit status 2),
	# which says nothing of the device.  What must hold whatever the
	# speed: every message once, in order (a lost one gives status 3).
	tap_ok "hntraffic: uniform Bernoulli at load 0.05 for 2 s, every message once and in order" sh -c \
		'hntraffic --pattern uniform --load 0.05 --measure 2000000 --drain 3000000 --json >/tmp/hnt.json
		 rc=$?; { [ $rc -eq 0 ] || [ $rc -eq 2 ]; } &&
		 grep -qE "\"end\": \"(done|saturated)\".*\"verified\": true, \"in_order\": true, \"lost\": 0," /tmp/hnt.json'
	sed 's/^/# /' /tmp/hnt.json
	# a bad --nodes suggests lists that this device accepts
	tap_ok "hntraffic --nodes 0-99 on 16 nodes: refused, and its example works" sh -c \
		'! hntraffic --pattern all-to-all --batch 1 --nodes 0-99 2>/tmp/hnt.err &&
		 grep -q "want device nodes 0..15, e.g. 0,1 or 0-15" /tmp/hnt.err &&
		 hntraffic --pattern all-to-all --batch 1 --nodes 0,1 >/dev/null &&
		 hntraffic --pattern all-to-all --batch 1 --nodes 0-15 >/dev/null'
	for f in lose dup swap corrupt; do
		tap_ok "hntraffic --fault $f: found, exit status 3" sh -c \
			"hntraffic --pattern all-to-all --batch 10 --fault $f >/dev/null 2>&1; test \$? -eq 3"
	done
	tap_ok "rmmod after hntraffic" unload
	tap_ok "insmod for netlink" load nodes=16 slots=4
	step netlink netlink
	tap_ok "rmmod after netlink" unload
	tap_ok "insmod for fuzz_dev" load nodes=16 slots=4
	step fuzz_dev fuzz_dev
	tap_ok "rmmod after fuzz_dev" unload
	tap_ok "insmod for nl_traffic" load nodes=16 slots=4
	step nl_traffic nl_traffic
	tap_ok "rmmod after nl_traffic" unload
	step genmem genmem
	tap_ok "rmmod after genmem" unload
	tap_ok "insmod for fabrics" load nodes=16 slots=4
	step fabrics fabrics
	tap_ok "rmmod after fabrics" unload
	tap_ok "insmod for hnctl" load nodes=8 slots=4
	step hnctl hnctl-vm.sh
	tap_ok "rmmod after hnctl" unload
	tap_ok "insmod for the sysfs ABI" load nodes=4
	step sysfs-abi sysfs-abi.sh
	tap_ok "rmmod after the sysfs ABI" unload
	step errors errors-vm.sh
	step fattree fattree
	step idem idem
	step mcast mcast
	step preempt preempt
	step flap flap
	step direct direct
	step netdev netdev-vm.sh
	step netdev-if netdev-if-vm.sh
	step netdev-traffic netdev-traffic-vm.sh
	step netdev-scale netdev-scale-vm.sh
	step capture capture-vm.sh
	step fabrics-netns fabrics-vm.sh
	step reload reload
	step failnth env HN_FAILNTH_STRIDE=7 failnth
	tap_ok "module unloaded at the end" sh -c '! test -e /sys/module/hybridnet'
	no_leak
	;;
demo)	# make demo: what it shows, then what to try next
	load nodes=8 clock=paced pace_ppm=100000 tick_us=200 || exit 1
	cat <<-EOF
	hybridnet demo: the module in a qemu VM booting Debian's kernel, loaded with
	nodes=8 clock=paced pace_ppm=100000: 8 nodes on one crossbar, virtual time
	running at a tenth of wall time. Times below are virtual ns.

	== The fabric (hnctl show): K predictive slots for circuits, then slot K
	   for wormhole, each slot-p-ns long, links of link-mbps
	EOF
	hnctl show nodes slots policy slot-p-ns slot-w-ns link-mbps clock
	echo
	echo "== Circuits (hnctl preload shift 1..4): in slot s, node u has a circuit to u+s+1"
	hnctl preload shift 1..4
	hnctl circuits
	echo
	demo
	echo
	cat <<-EOF
	== What the fabric counted (hnctl stats): messages and bytes sent (tx) and
	   delivered (rx) by circuit and by wormhole, latency over all messages,
	   Ding's utilisation in parts per million; tx-full: writes that found the
	   NIC buffer full (they wait, nothing is dropped)
	EOF
	hnctl stats | grep -E '^(tx|rx)-|^lat|^util'
	echo "   The same figures, one per file: $SYS/stats/"
	unload
	cat <<-EOF

	== What you saw: the module's configuration; the circuits a preload put in
	   its predictive slots; messages that took a circuit where their pair had
	   one and the wormhole slot where it had none, with their latencies; two
	   streams, one per mode; and the fabric's own count of it all.

	== Try next:
	   make vm-shell HN_PARAMS="nodes=8 preload=shift"
	          a shell in the VM with the module loaded: hnctl show, hnctl stats
	   make vm-run HN_PARAMS="nodes=2 preload=shift" CMD='build/samples/pingpong 2'
	          a program of yours next to the module (docs/tutorial.md)
	   samples/demo.c        the traffic above: change it and run make demo again
	   selftests/drivers/hybridnet/vm-run.sh, its demo case: the rest of this run
	   build/hnsim run --pattern uniform --load 0.5
	          the same engine in user space, without a VM (hnsim run --help)
	EOF
	;;
bench)
	load || exit 1
	dev_bench
	unload
	;;
soak)	# make soak: the adversarial tests, long; a quarter of the time each
	q=$((soak / 4))
	echo "# hybridnet soak, $soak s, kernel $(uname -r)"
	tap_ok "insmod for fuzz_dev" load nodes=16 slots=4
	step fuzz_dev env HN_FUZZ_SECONDS=$q HN_FUZZ_SEED=$(date +%s) fuzz_dev
	tap_ok "rmmod after fuzz_dev" unload
	tap_ok "insmod for netlink" load nodes=16 slots=4
	step netlink env HN_FUZZ_SECONDS=$q HN_FUZZ_SEED=$(date +%s) netlink
	tap_ok "rmmod after netlink" unload
	tap_ok "insmod for stress" load
	step stress env HN_SECONDS=$q HN_CHAOS=1 stress
	tap_ok "rmmod after stress" unload
	since=$(now)	# not t0: step() sets that
	n=0
	while awk -v a="$since" -v b="$(now)" -v q="$q" 'BEGIN { exit !(b - a < q) }'; do
		step netdev netdev-vm.sh
	step reload reload
		n=$((n + 1))
	done
	echo "# reload: $n rounds of 20 unloads under traffic"
	step failnth failnth
	no_leak
	;;
cmd)	# make vm-run (vm-cmd.sh wrote /etc/hn-job)
	. /etc/hn-job
	if ! load $HN_PARAMS 2>/tmp/insmod.err; then
		cat /tmp/insmod.err
		echo "vm-run: insmod hybridnet.ko $HN_PARAMS failed"
		exit 125
	fi
	HN_PATH=$HN_PATH hn-hostrun "$HN_CWD" "$HN_CMD"
	rc=$?
	unload 2>/dev/null ||
		echo "vm-run: rmmod hybridnet failed: does a process the command left hold /dev/hybridnet?"
	exit $rc
	;;
bench-paced)
	paced-bench.sh
	;;
bench-netdev)
	netdev-bench.sh
	;;
results-tcp)
	tcp-vm.sh
	;;
results-idem)	# idem.c at C4.1's scale: 10^5 messages a variant
	step idem-1e5 idem_1e5
	no_leak
	;;
netdev)	# for development: the interfaces' tests alone
	step netdev netdev-vm.sh
	step netdev-if netdev-if-vm.sh
	step netdev-traffic netdev-traffic-vm.sh
	step netdev-scale netdev-scale-vm.sh
	;;
netdev-scale)	# for development: 4096 interfaces alone
	step netdev-scale netdev-scale-vm.sh
	;;
capture)	# for development: the capture interface's tests alone
	step capture capture-vm.sh
	;;
genmem)	# the generator's memory on the largest trees alone: the figures
	# of docs/reliability.md, on either kernel
	step genmem genmem
	tap_ok "rmmod after genmem" unload
	;;
fabrics)	# for development: the fabrics' tests alone
	tap_ok "insmod for fabrics" load nodes=16 slots=4
	step fabrics fabrics
	tap_ok "rmmod after fabrics" unload
	step fabrics-netns fabrics-vm.sh
	no_leak
	;;
faults)	# for development: exactly once, multicast, faults and priority alone
	step idem idem
	step mcast mcast
	step preempt preempt
	step flap flap
	no_leak
	;;
hnctl)	# for development: hnctl's tests alone
	tap_ok "insmod for hnctl" load nodes=8 slots=4
	step hnctl hnctl-vm.sh
	tap_ok "rmmod after hnctl" unload
	;;
netdev-flood)	# for development: make check-vm-netdev-flood REPEAT=N
	export HN_FREE_ONLY=1 HN_FLOODS="$repeat"
	step netdev-flood netdev-traffic-vm.sh
	;;
perf)	# for development: throughput of the main scenarios
	load || exit 1
	step stress stress
	step exchange exchange
	dev_bench 2
	unload
	;;
*)
	echo "not ok - unknown hn.run=$mode"
	exit 1
	;;
esac
[ $fails -eq 0 ]
