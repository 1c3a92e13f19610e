#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-dkms.sh KDIR - the DKMS package: "make dkms-src"
# into a temporary root, then "dkms add" and "dkms build" against KDIR's
# kernel (Debian's headers; no running kernel of that version is needed),
# with a private source tree, DKMS tree and signing key, so that nothing
# outside the temporary directory changes.  "dkms install" is left out:
# it runs depmod on the system's /lib/modules whatever --installtree says
# (make check-install tests modules_install instead).  Prints TAP.
set -u
cd "$(dirname "$0")/../.."
KDIR=${1:?usage: test-dkms.sh KDIR}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh

if ! command -v dkms > /dev/null; then
	skip "dkms build against the installed headers" "dkms is not installed (make deps)"
	finish
	exit
fi
KREL=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' "$KDIR/include/generated/utsrelease.h")
VER=$(sed -n 's/^HN_VERSION := //p' Makefile)
src=$T/root/usr/src
dk=(-m hybridnet -v "$VER" --sourcetree "$src" --dkmstree "$T/dkms")
# dkms reads these from /etc/dkms/framework.conf, or from its environment
export mok_signing_key=$T/mok.key mok_certificate=$T/mok.pub

check "dkms.conf's PACKAGE_VERSION is the Makefile's HN_VERSION ($VER)" \
	grep -qx "PACKAGE_VERSION=\"$VER\"" dkms.conf
check "make dkms-src puts dkms.conf, kmod/ and uapi/ in /usr/src/hybridnet-$VER" \
	sh -c "make -s dkms-src DESTDIR=$T/root &&
	       test -f $src/hybridnet-$VER/dkms.conf &&
	       test -f $src/hybridnet-$VER/kmod/Kbuild &&
	       test -f $src/hybridnet-$VER/kmod/core/hn_fields.h &&
	       test -f $src/hybridnet-$VER/uapi/linux/hybridnet.h &&
	       ! find $src -name '*.o' -o -name '*.ko' -o -name '*.cmd' | grep ."
mkdir -p "$T/dkms"
check "dkms add" dkms add "${dk[@]}"
check "dkms build -k $KREL against $KDIR" \
	dkms build "${dk[@]}" -k "$KREL" --kernelsourcedir "$KDIR"
ko=$T/dkms/hybridnet/$VER/$KREL/$(uname -m)/module/hybridnet.ko
check "the module DKMS built is for $KREL and has the module's parameters" \
	sh -c "modinfo -F vermagic $ko | grep -q '^$KREL ' &&
	       modinfo -F parm $ko | grep -q '^nodes:'"
check "dkms status says built" \
	sh -c "dkms status ${dk[*]} | grep -q ': built\$'"
check "dkms remove" dkms remove "${dk[@]}" -k "$KREL"
finish
