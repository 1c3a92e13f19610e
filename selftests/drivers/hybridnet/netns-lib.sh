# SPDX-License-Identifier: GPL-2.0
#
# netns-lib.sh - sourced (busybox sh) by netdev-vm.sh,
# netdev-traffic-vm.sh, netdev-if-vm.sh, docs/results/tcp-vm.sh and
# selftests/bench/netdev-bench.sh (errors-vm.sh, for its TAP check
# alone): an interface per node, two network namespaces with one
# each, static neighbours, the counters the scripts compare, and a TAP
# check.  The caller sets NODES (the sysfs nodes/ directory), pids (the
# namespaces' holders, killed by cleanup_ns) and, for check, n and
# fails.  Debian's ip runs as ipr (selftests/vm/dynbin.sh), with the
# link kind's plugin (IP_LIB_DIR, vm-run.sh).

# check NAME CMD...: one TAP line; CMD's output is shown when it fails
check() {
	name=$1
	shift
	n=$((n + 1))
	if "$@" >/tmp/netns-check.out 2>&1; then
		echo "ok $n - $name"
	else
		fails=$((fails + 1))
		sed 's/^/# /' /tmp/netns-check.out
		echo "not ok $n - $name"
	fi
}

# links N: hn0 .. hnN-1, node i's interface hni, in this namespace
links() {
	_l=0
	while [ $_l -lt "$1" ]; do
		ipr link add "hn$_l" type hybridnet node $_l || return 1
		_l=$((_l + 1))
	done
}

# load the module with these parameters, then links N: load_links N PARAM...
load_links() {
	_n=$1
	shift
	insmod "$KO" "$@" && links "$_n"
}

# a process in a network namespace of its own; prints its pid
mkns() {
	unshare -n sleep 1000 </dev/null >/dev/null 2>&1 &
	p=$!
	i=0
	while [ "$(readlink /proc/$p/ns/net)" = "$(readlink /proc/self/ns/net)" ] &&
	      [ $i -lt 100 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	echo $p
}

in_ns() {
	p=$1
	shift
	nsenter -t "$p" -n "$@"
}

# the engine's counts of node N: messages or bytes, sent or delivered,
# both modes
eng() { echo $(($(cat $NODES/$1/$2_circuit) + $(cat $NODES/$1/$2_wormhole))); }
# an interface's counter (rx_bytes, rx_packets, rx_dropped, tx_bytes,
# tx_packets, tx_dropped), read in its namespace: sysfs shows the
# mounter's, /proc/net/dev the reader's
ifc() {
	in_ns "$1" cat /proc/net/dev | awk -v d="$2:" -v c="$3" '$1 == d {
		split("rx_bytes 2 rx_packets 3 rx_dropped 5 tx_bytes 10 tx_packets 11 tx_dropped 13", m)
		for (i = 1; i < 12; i += 2) if (m[i] == c) print $m[i + 1] }'
}

# wait until nodes 0 and 1 have sent nothing for a second (15 s at most)
quiet() {
	prev=
	i=0
	while [ $i -lt 15 ]; do
		cur="$(eng 0 tx_msgs) $(eng 1 tx_msgs)"
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		sleep 1
		i=$((i + 1))
	done
	echo "the fabric never went quiet: $cur"
	return 1
}

# hnN into namespace $2 as $3 and $4 (IPv4, IPv6), its peer node $5
# with static neighbours $6 and $7; no DAD, no router solicitation
conf() {
	nd=hn$1 p=$2
	ip link set "$nd" netns "$p" &&
	in_ns "$p" sh -c "echo 0 >/proc/sys/net/ipv6/conf/$nd/accept_dad &&
		echo 0 >/proc/sys/net/ipv6/conf/$nd/router_solicitations" &&
	in_ns "$p" ipr addr add "$3/24" dev "$nd" &&
	in_ns "$p" ipr addr add "$4/64" dev "$nd" nodad &&
	in_ns "$p" ipr link set "$nd" up &&
	in_ns "$p" ipr neigh replace "$6" lladdr "02:68:6e:00:00:0$5" \
		dev "$nd" nud permanent &&
	in_ns "$p" ipr -6 neigh replace "$7" lladdr "02:68:6e:00:00:0$5" \
		dev "$nd" nud permanent
}

# hn0 in namespace A (10.0.0.1, fd00::1), hn1 in B (10.0.0.2, fd00::2);
# returns once the fabric is quiet
setup_pair() {
	A=$(mkns)
	B=$(mkns)
	pids="$pids $A $B"
	conf 0 "$A" 10.0.0.1 fd00::1 1 10.0.0.2 fd00::2 &&
	conf 1 "$B" 10.0.0.2 fd00::2 0 10.0.0.1 fd00::1 &&
	in_ns "$A" ipr neigh show dev hn0 && quiet
}

cleanup_ns() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	pids=
}
