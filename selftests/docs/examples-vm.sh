#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# examples-vm.sh LIST WORK - in the VM (make vm-run, in the top of the
# tree, under its RAM overlay), the documents' examples that check-docs.py
# gives it.  LIST has one line per example, fields separated by tabs: ID,
# TIMEOUT (s), LOAD (yes: insmod first; no: the example loads the module
# itself), the module's PARAMS ("-": none), SCRIPT (check-docs.py's script of the
# example), the number of its commands.  WORK/files/ are the files the
# documents give, copied here first.
#
# For each example: the module unloaded, loaded with PARAMS (hn-load.sh:
# an unknown parameter fails), SCRIPT run in its own session under a
# time-out, then whatever it left running killed and the network
# namespaces it made deleted.  On stdout, one line
# per command: "@@hn-ex ID N STATUS BASE64-OF-ITS-OUTPUT", after
# "@@hn-ex ID setup STATUS BASE64" for the example's setup, or
# "@@hn-ex ID load STATUS BASE64" when the load failed; then
# "@@hn-ex ID done SECONDS".
list=$1
work=$2
tree=$PWD
[ -d "$work/files" ] && cp -a "$work/files/." "$tree/"
b64() { base64 -w0 <"$1"; }
while IFS=$'\t' read -r id tmo load params scr count; do
	rmmod hybridnet 2>/dev/null
	[ "$params" != - ] || params=
	d=$(mktemp -d)
	t0=$(date +%s)
	if [ "$load" = yes ]; then
		# shellcheck disable=SC2086 # the parameters are words
		if ! HN_KO=$tree/kmod/hybridnet.ko /run/hn/hn-load.sh $params >"$d/load" 2>&1; then
			echo "@@hn-ex $id load 1 $(b64 "$d/load")"
			continue
		fi
	fi
	# shellcheck disable=SC2016 # expanded by that bash
	setsid bash -c 'echo $$ >"$1/sid"; exec timeout -s KILL "$2" bash "$3" "$1" "$4"' \
		run "$d" "$tmo" "$scr" "$tree" </dev/null >"$d/run" 2>&1
	pkill -KILL -s "$(cat "$d/sid")" 2>/dev/null
	# and the network namespaces it made (ip netns add), for the next
	ip -all netns delete 2>/dev/null
	[ ! -r "$d/setup.rc" ] ||
		echo "@@hn-ex $id setup $(cat "$d/setup.rc") $(b64 "$d/setup.out")"
	for ((i = 0; i < count; i++)); do
		[ -r "$d/$i.rc" ] || break
		echo "@@hn-ex $id $i $(cat "$d/$i.rc") $(b64 "$d/$i.out")"
	done
	echo "@@hn-ex $id done $(($(date +%s) - t0))"
	cd "$tree" || exit 1
done <"$list"
# as make vm-run left it, for its rmmod
rmmod hybridnet 2>/dev/null
HN_KO=$tree/kmod/hybridnet.ko /run/hn/hn-load.sh >/dev/null 2>&1
exit 0
