#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-run-guest.sh O - run by test-vm-run.sh through "make vm-run", in the
# VM, in the host's tree, with the module loaded with
# HN_PARAMS="nodes=16 slots=4 profile=ding5 preload=shift".  One TAP line
# ("ok - ..." or "not ok - ...") per check; exit status 0 when all pass.
O=${1:-build}
case $O in /*) A=$O ;; *) A=$PWD/$O ;; esac
SYS=/sys/class/hybridnet/fabric0
fails=0
t() {	# t DESC CMD...: one check, its output as comments on failure
	desc=$1
	shift
	if "$@" >/tmp/guest.out 2>&1; then
		echo "ok - $desc"
	else
		fails=$((fails + 1))
		sed 's/^/# /' /tmp/guest.out
		echo "not ok - $desc"
	fi
}

t "HN_PARAMS reached the module: config/ has nodes 16, slots 4, profile ding5 (slot_p_ns 100)" \
	sh -c "grep . $SYS/config/nodes $SYS/config/slots $SYS/config/profile $SYS/config/slot_p_ns &&
	       test \"\$(cat $SYS/config/nodes $SYS/config/slots $SYS/config/profile $SYS/config/slot_p_ns | tr '\n' ' ')\" = '16 4 ding5 100 '"
t "$O/samples/pingpong is linked dynamically, against the build tree's libhybridnet.so" \
	sh -c "readelf -lW $O/samples/pingpong | grep -q 'Requesting program interpreter' &&
	       ldd $O/samples/pingpong | grep \"libhybridnet.so.0 => $A/\""
t "the tutorial's pingpong: 3 round trips, out on a circuit (preload=shift), back by wormhole" \
	sh -c "$O/samples/pingpong 3 100 | tee /tmp/pp.out &&
	       test \$(grep -c '^0 -> 1  100 bytes  circuit ' /tmp/pp.out) = 3 &&
	       test \$(grep -c '^1 -> 0  100 bytes  wormhole ' /tmp/pp.out) = 3"
t "hnctl stats (the build tree's, dynamic) counts them: 3 circuit, 3 wormhole" \
	sh -c "hnctl stats | tee /tmp/st.out | grep -E '^tx-msgs-(circuit|wormhole)' &&
	       grep -qE '^tx-msgs-circuit +3\$' /tmp/st.out &&
	       grep -qE '^tx-msgs-wormhole +3\$' /tmp/st.out"
t "sysfs stats/ says the same" \
	sh -c "grep . $SYS/stats/rx_msgs_circuit $SYS/stats/rx_msgs_wormhole &&
	       test \$(cat $SYS/stats/rx_msgs_circuit) = 3 &&
	       test \$(cat $SYS/stats/rx_msgs_wormhole) = 3"
t "the tutorial's circuit: its preload carries 0 -> 1, 1 -> 0 goes by wormhole, and 0 -> 1 after its release" \
	sh -c "$O/samples/circuit | tee /tmp/ci.out &&
	       grep -qx 'circuit 0 -> 1 in slot 0' /tmp/ci.out &&
	       test \"\$(grep -oE '^[0-9] -> [0-9]  [a-z]+ +slot [0-9]|^released.*' /tmp/ci.out | tr -s ' ' | tr '\n' ,)\" = \
	            '0 -> 1 circuit slot 0,1 -> 0 wormhole slot 4,released 0 -> 1,0 -> 1 wormhole slot 4,'"
t "Debian's ip (iproute2): ip -br link show lo" \
	sh -c "ip -br link show lo | tee /dev/stderr | grep -q '^lo .*UP'"
t "Debian's ip with the plugin: ip link add hn3 type hybridnet fabric 0 node 3, ip -d link show prints them" \
	sh -c "ip link add hn3 type hybridnet fabric 0 node 3 &&
	       ip -d link show hn3 | tee /dev/stderr | grep -q 'hybridnet fabric 0 node 3' &&
	       ip link del hn3"
t "Debian's python3 reads the module's sysfs" \
	python3 -c "import sys; n = open('$SYS/config/nodes').read(); print(n.strip()); sys.exit(n != '16\n')"
t "what the command writes stays in the VM (a RAM overlay on the host's tree)" \
	sh -c "echo written > $O/vm-run-written && grep -qx written $O/vm-run-written"
t "/run/hn is the initramfs's /opt/hn: the files of $O/vm/bin" \
	test -x /run/hn/hnctl
[ $fails -eq 0 ]
