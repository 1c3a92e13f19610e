#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-man.sh BUILD - the man pages (man/) and the
# sysfs ABI file (Documentation/ABI/testing/).  The pages pass
# "mandoc -T lint" and "man --warnings" without a message, carry the
# release's version, cite no line of a file the reader does not have
# (nor do README.md, docs/ and the tools' help), name no issue number
# (nor do README.md, docs/, the help screens and make help), and
# name what the code has: every command, key and option the tools' --help
# gives, every module parameter of kmod/hybridnet.ko, every errno, error
# counter and ioctl of the device.  The ABI file is well formed and has an
# entry for every configuration field, statistic and error counter of the
# tables the module's sysfs comes from (the VM test sysfs-abi.sh holds it
# to the files themselves).  Prints TAP.
set -u
cd "$(dirname "$0")/../.."
O=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh
ABI=Documentation/ABI/testing/sysfs-class-hybridnet
VER=$(sed -n 's/^HN_VERSION := //p' Makefile)
# the pages as built (make puts each list of the configuration fields in)
PAGES="$O/man/hnctl.8 $O/man/hnsim.1 $O/man/hntraffic.1 $O/man/hybridnet.4"
PAGES="$PAGES $O/man/hnplot.1"

# the checkers find what they must: a page with an unknown macro
printf '.TH X 1 2026-01-01\n.SH NAME\nx \\- y\n.BX z\n' > "$T/bad.1"
check "the checkers report a broken page" sh -c \
	"mandoc -T lint -W style $T/bad.1 | grep -q . &&
	 man --warnings -l $T/bad.1 2>&1 >/dev/null | grep -q ."

for p in $PAGES; do
	mandoc -T lint -W style "$p" > "$T/lint" 2>&1
	report "$( [ -s "$T/lint" ] && echo 0 || echo 1)" \
		"$p: mandoc -T lint -W style says nothing" "$T/lint"
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null |
		grep -v '^$' > "$T/warn"
	report "$( [ -s "$T/warn" ] && echo 0 || echo 1)" \
		"$p: man --warnings says nothing" "$T/warn"
	check "$p: .TH names hybridnet $VER" \
		grep -q "^\.TH .* \"hybridnet $VER\" " "$p"
done
grep -nE '\bL[0-9]{3,4}\b|shared/seeds|seeds/0' $PAGES "$ABI" > "$T/lines"
report "$( [ -s "$T/lines" ] && echo 0 || echo 1)" \
	"the pages and the ABI file cite the dissertation by chapter, never by line" \
	"$T/lines"
# the same for the other user-facing texts: docs, README, tools' help
CITE='\b[LT][0-9]{3,4}\b|\bP[0-9]{2,3}\b|shared/(seeds|notes)|seeds/0|note §'
{
	grep -nHE "$CITE" README.md docs/*.md docs/results/*.md
	for t in "$O/hnsim" "$O/hnctl" "$O/hntraffic"; do
		for c in "" run trace sched idem mrp; do
			"$t" $c --help 2>&1 | grep -nE "$CITE" | sed "s|^|$t $c: |"
		done
	done
} > "$T/cites"
report "$( [ -s "$T/cites" ] && echo 0 || echo 1)" \
	"README, docs and the tools' help cite the texts by section, never by line" \
	"$T/cites"

# no user-facing text names an issue of the project's tracker: README,
# every text file under docs/, the man pages (source and built), every
# help screen of the tools and of make help
ISSUE='\bissues?[ #]*[0-9]+|\bissues? (number|no\.) *[0-9]+'
helps() {	# every help screen, each line prefixed with where it came from
	local c
	for c in "" run trace sched config idem mrp; do
		"$O/hnsim" $c --help 2>&1 | sed "s|^|hnsim $c --help: |"
	done
	"$O/hntraffic" --help 2>&1 | sed "s|^|hntraffic --help: |"
	dist/hnplot -h 2>&1 | sed "s|^|hnplot -h: |"
	"$O/hnctl" --help 2>&1 | sed "s|^|hnctl --help: |"
	for c in $(sed -n '/^COMMANDS/,/^$/s/^    \([a-z]*\) .*/\1/p' \
			< <("$O/hnctl" --help)); do
		"$O/hnctl" "$c" --help 2>&1 | sed "s|^|hnctl $c --help: |"
	done
	${MAKE:-make} -s --no-print-directory help 2>&1 | sed "s|^|make help: |"
}
printf 'see issue 10\nas in issues #3 and 4\n' > "$T/issue-probe"
check "the issue-number check finds 'issue 10' and 'issues #3'" \
	sh -c "test \$(grep -ciE '$ISSUE' $T/issue-probe) = 2"
{
	grep -rnHIiE "$ISSUE" README.md docs/ man/ $PAGES
	helps | grep -iE "$ISSUE"
} > "$T/issues"
report "$( [ -s "$T/issues" ] && echo 0 || echo 1)" \
	"README, docs/, the man pages and every help screen name no issue number" \
	"$T/issues"

# every help screen has the same sections, in the order of a man page
for h in "hnctl" "hnsim" "hnsim run" "hnsim sched" "hnsim config" "hnsim idem" "hnsim mrp" "hntraffic"; do
	t=${h%% *}
	sub=${h#"$t"}
	# shellcheck disable=SC2086 # $sub: no word, or one
	"$O/$t" $sub --help 2>&1 | grep -E '^[A-Z][A-Z ]+$' | tr '\n' ' ' > "$T/sec"
	ok=0
	grep -qE '^NAME SYNOPSIS DESCRIPTION .*EXIT STATUS' "$T/sec" && ok=1
	report $ok "$h --help: NAME, SYNOPSIS, DESCRIPTION ... EXIT STATUS" "$T/sec"
done

# the source of a page as words: escapes and fonts taken out
text() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(dq/"/g' "$1"; }

# names PAGE DESC WORDFILE: PAGE has every word of WORDFILE
names() {
	local page=$1 desc=$2 words=$3
	text "$page" > "$T/page"
	sort -u "$words" | while read -r w; do
		grep -qw -e "$w" "$T/page" || echo "$w"
	done > "$T/missing"
	report "$( [ -s "$T/missing" ] && echo 0 || echo 1)" \
		"$page names $desc ($(sort -u "$words" | wc -l))" "$T/missing"
}

# the long options of a help text's option lines
opts() { grep -oE '^ *(-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+'; }

# hnctl(8): its commands, show's keys, its options and the commands'
"$O/hnctl" --help | sed -n '/^COMMANDS/,/^$/s/^    \([a-z]*\) .*/\1/p' \
	> "$T/w"
names $O/man/hnctl.8 "every command of hnctl --help" "$T/w"
"$O/hnctl" show --help | sed -n '/KEYs:/,/^$/p' | sed 's/KEYs://' |
	tr ' ' '\n' | grep . > "$T/w"
names $O/man/hnctl.8 "every key of hnctl show --help" "$T/w"
{
	"$O/hnctl" --help | opts
	for c in $(sed -n '/^COMMANDS/,/^$/s/^    \([a-z]*\) .*/\1/p' \
			< <("$O/hnctl" --help)); do
		"$O/hnctl" "$c" --help | opts
	done
} > "$T/w"
names $O/man/hnctl.8 "every option of hnctl and its commands" "$T/w"

# hnsim(1): its options in the three modes, its keys, the patterns
{ "$O/hnsim" --help; "$O/hnsim" run --help; "$O/hnsim" sched --help;
  "$O/hnsim" idem --help; "$O/hnsim" mrp --help; } | opts > "$T/w"
names $O/man/hnsim.1 "every option of hnsim, hnsim run, sched, idem and mrp" "$T/w"
"$O/hnsim" --help | sed -n '/^KEYS/,/^$/s/^  \([a-z_]*\) .*/\1/p' > "$T/w"
names $O/man/hnsim.1 "every KEY of hnsim --help" "$T/w"
"$O/hnsim" run --help | sed -n '/^Patterns/{n;p;q}' | tr ' ' '\n' |
	grep . > "$T/patterns"
names $O/man/hnsim.1 "every pattern" "$T/patterns"

# hntraffic(1)
"$O/hntraffic" --help | opts > "$T/w"
names $O/man/hntraffic.1 "every option of hntraffic --help" "$T/w"
names $O/man/hntraffic.1 "every pattern" "$T/patterns"

# hybridnet(4): module parameters, errnos, error counters, ioctls, fields
modinfo -F parm kmod/hybridnet.ko | cut -d: -f1 > "$T/w"
names $O/man/hybridnet.4 "every parameter of modinfo kmod/hybridnet.ko" "$T/w"
sed -n '1,/^ \*\//p' kmod/dev.c | grep -oE '\bE[A-Z]{3,}\b' |
	grep -vE '^(ERESTARTSYS|EPOLL.*)$' > "$T/w"
names $O/man/hybridnet.4 "every errno of kmod/dev.c's header comment" "$T/w"
sed -n 's/^HN_ERROR([A-Z_]*, \([a-z_]*\)).*/\1/p' kmod/hn_lists.h > "$T/errors"
names $O/man/hybridnet.4 "every errors/ counter of kmod/hn_lists.h" "$T/errors"
grep -oE '\bHYBRIDNET_IOC_[A-Z]+\b' uapi/linux/hybridnet.h |
	grep -vx HYBRIDNET_IOC_MAGIC > "$T/w"
names $O/man/hybridnet.4 "every ioctl of uapi/linux/hybridnet.h" "$T/w"
for s in hybridnet_msg_hdr hybridnet_info hybridnet_capture_hdr; do
	sed -n "/^struct $s {/,/^}/s/^\t__\(u\|s\|be\)[0-9]* \([a-z_]*\);.*/\2/p" \
		uapi/linux/hybridnet.h > "$T/w"
	names $O/man/hybridnet.4 "every field of struct $s" "$T/w"
done

# man from the build tree: make man-path's MANPATH finds every page
# built there (by links in $O/man/manN/), and the system's pages still
MAKE=${MAKE:-make}
mp=$($MAKE -s --no-print-directory O="$O" man-path 2>"$T/mp.err")
for p in $PAGES; do
	pg=${p##*/}
	MANPATH=$mp man -w "${pg##*.}" "${pg%.*}" >"$T/w" 2>&1
	# (man -w names the file the link leads to)
	report "$([ "$(cat "$T/w")" = "$PWD/$p" ] && echo 1 || echo 0)" \
		"export MANPATH=\$(make -s man-path); man ${pg##*.} ${pg%.*}: $p, through $O/man/man${pg##*.}/" \
		"$T/w" "$T/mp.err"
done
check "with that MANPATH, man still finds the system's pages (man 1 ls)" \
	sh -c "MANPATH='$mp' man -w 1 ls | grep -q '^/usr/share/man/'"

# the ABI file: every entry is What: lines (of the device's directory),
# then Date, KernelVersion, Contact and Description, in that order
awk -v dir='/sys/class/hybridnet/fabric<F>/' '
	function end() { if (e && f != "DKCD") { print "entry " e ": " f; bad++ } }
	/^What:/ { if (!w) { end(); e++; f = "" } w = 1
		   if (index($2, dir) != 1) { print; bad++ } next }
	/^Date:/ { f = f "D" } /^KernelVersion:/ { f = f "K" }
	/^Contact:/ { f = f "C" } /^Description:/ { f = f "D" }
	{ w = 0 }
	END { end(); exit bad != 0 }' "$ABI" > "$T/abi" 2>&1
report "$( [ $? -eq 0 ] && echo 1 || echo 0)" \
	"$ABI: every entry has What, Date, KernelVersion, Contact, Description" \
	"$T/abi"
sed -n 's|^What:\t*/sys/class/hybridnet/fabric<F>/||p' "$ABI" > "$T/what"
{
	sed -n 's/^HN_FIELD([a-z_0-9]*, *[A-Z_0-9]*, *\([a-z_0-9]*\),.*/config\/\1/p' kmod/core/hn_fields.h
	sed 's/^/errors\//' "$T/errors"
	sed -n 's/^HN_GSTAT(\([a-z_0-9]*\),.*/stats\/\1/p' kmod/hn_lists.h
	sed -n 's/^HN_[NS]\(STAT\|FILE\)(\([a-z_0-9]*\),.*/nodes\/<N>\/\2/p' \
		kmod/hn_lists.h
} | sort -u | grep -vxF -f "$T/what" > "$T/missing"
report "$( [ -s "$T/missing" ] && echo 0 || echo 1)" \
	"$ABI has every field of hn_fields.h and every row of hn_lists.h" \
	"$T/missing"

# docs/names.md, the one table of names, has every statistic under both
# of its names (the fields' names follow its rule, which check-spec holds
# them to, and the tools list them)
sed -n 's/^HN_[GN]STAT(\([a-z_0-9]*\),.*/\1/p' kmod/hn_lists.h |
	sed 'p; s/_/-/g' | sort -u | while read -r w; do
	grep -qF "\`$w\`" docs/names.md || echo "$w"
done > "$T/unnamed"
report "$( [ -s "$T/unnamed" ] && echo 0 || echo 1)" \
	"docs/names.md names every statistic both ways" "$T/unnamed"
finish
