#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hn-load.sh [PARAM=VALUE...] - in the VM: insmod hybridnet.ko ($HN_KO,
# default /lib/hn/hybridnet.ko) with the parameters, as the tests, make
# demo, make vm-run and make vm-shell load it.  The kernel loads a module
# whatever parameters it does not know, only logging "hybridnet: unknown
# parameter 'node' ignored": so a load after which the kernel logged that
# is undone and fails here, with the kernel's line.  On any failure the
# kernel's lines about the load go to stderr.  Exit status: insmod's, or
# 1 for an unknown parameter.
ko=${HN_KO:-/lib/hn/hybridnet.ko}
tok=hn-load-$(cat /proc/sys/kernel/random/uuid)
# the load's own lines of the kernel log: those after this one
echo "$tok: insmod ${ko##*/} $*" >/dev/kmsg
since() {
	dmesg | awk -v t="$tok" 'f { sub(/^\[[^]]*\] /, ""); print } index($0, t) { f = 1 }'
}
insmod "$ko" "$@"
rc=$?
if [ $rc -ne 0 ]; then
	# busybox insmod tries finit_module, then init_module: one reason,
	# logged twice
	since | grep '^hybridnet: ' | uniq | tail -n 3 >&2
	exit $rc
fi
if since | grep "unknown parameter '.*' ignored" >&2; then
	rmmod hybridnet
	echo "insmod ${ko##*/} $*: refused: the module has no such parameter (modinfo hybridnet.ko lists them)" >&2
	exit 1
fi
exit 0
