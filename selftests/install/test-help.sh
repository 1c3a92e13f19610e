#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-help.sh - "make help" lists every target, one
# line each: every target it names has a rule in the Makefiles, every
# .PHONY target is named, and none twice.  Prints TAP.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh
MAKE=${MAKE:-make}

check "make help runs" sh -c "$MAKE -s --no-print-directory help > $T/help"
# a target line: two spaces, the target, its description
sed -n 's/^  \([a-z_][a-z0-9_-]*\)  *[^ ].*/\1/p' "$T/help" | sort > "$T/listed"
sort -u "$T/listed" > "$T/listed.u"
comm -23 "$T/listed" "$T/listed.u" > "$T/twice"
report "$( [ -s "$T/twice" ] && echo 0 || echo 1)" \
	"make help names each target once ($(wc -l < "$T/listed.u") targets)" \
	"$T/twice"

# make's database: every rule's target, and the .PHONY list
$MAKE -pRrq --no-print-directory -f Makefile __hn_no_such_target__ \
	> "$T/db" 2>/dev/null
sed -n 's/^\([a-zA-Z0-9_][^:#= \t]*\):\([^=]\|$\).*/\1/p' "$T/db" |
	sort -u > "$T/rules"
sed -n 's/^\.PHONY: //p' "$T/db" | tr ' ' '\n' | grep . | sort -u \
	> "$T/phony"
comm -23 "$T/listed.u" "$T/rules" > "$T/norule"
report "$( [ -s "$T/norule" ] && echo 0 || echo 1)" \
	"every target make help names has a rule" "$T/norule"
comm -23 "$T/phony" "$T/listed.u" > "$T/unlisted"
report "$( [ -s "$T/unlisted" ] && echo 0 || echo 1)" \
	"every .PHONY target is in make help ($(wc -l < "$T/phony") of them)" \
	"$T/unlisted"
finish
