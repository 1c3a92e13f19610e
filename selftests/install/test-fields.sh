#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-fields.sh BUILD - the one table of configuration
# fields (kmod/core/hn_fields.h) is what every interface lists, field for
# field, in the table's order, with the table's help and values: the
# module's parameters (modinfo), hnsim --help, hnctl show --help and set
# --help, libhybridnet's table of fields, the field lists of the man
# pages as built; and docs/module.md's table names no parameter that is
# none.  Whatever the build does not make from the table, this
# holds to it; any difference fails.  (The netlink spec is check-spec's,
# the sysfs ABI file check-man's, the files themselves the VM test
# sysfs-abi.sh's.)  Prints TAP.
set -u
cd "$(dirname "$0")/../.." || exit 1
O=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh

# the table's rows: param, name, values, live, help (tab-separated)
cat > "$T/rows.c" <<'EOF'
#include <stdio.h>
#include "hn_core.h"
#include "cfg_text.h"
int main(void)
{
#define HN_FIELD(f, A, param, nl, help, T, lo, hi, live, words) \
	printf("%s\t%s\t%s\t%d\t%s\n", #param, nl, HN_VALUES_##words(lo, hi), \
	       live, help);
#include "hn_fields.h"
#undef HN_FIELD
	return 0;
}
EOF
check "the table compiles into a list" sh -c \
	"cc -Ikmod/core $T/rows.c -o $T/rows && $T/rows > $T/rows.txt"
cut -f1 "$T/rows.txt" > "$T/params"
cut -f2 "$T/rows.txt" > "$T/names"
nf=$(wc -l < "$T/params")
echo "# $nf fields"

# same WHAT FILE: FILE is the table's list, in its order
same() {
	diff "$T/$2" "$T/got" > "$T/diff"
	report "$( [ -s "$T/diff" ] || [ "$nf" -lt 30 ] && echo 0 || echo 1)" \
		"$1 ($nf fields)" "$T/diff"
}

# ---- the module ---------------------------------------------------------
# the device's own parameters, which are no fields of the engine
own='profile clock pace_ppm tick_us preload msg_mem_max_bytes fabrics'
modinfo -F parm kmod/hybridnet.ko > "$T/parm"
cut -d: -f1 "$T/parm" | grep -vxF -f <(tr ' ' '\n' <<< "$own") > "$T/got"
same "modinfo: a parameter per field, no other" params
while IFS=$'\t' read -r p _ v _ h; do
	printf '%s:%s (%s; default: profile) (charp)\n' "$p" "$h" "$v"
done < "$T/rows.txt" > "$T/want"
grep -E "^($(paste -sd'|' "$T/params")):" "$T/parm" > "$T/got"
diff "$T/want" "$T/got" > "$T/diff"
report "$( [ -s "$T/diff" ] && echo 0 || echo 1)" \
	"modinfo: each field's description is its help and values" "$T/diff"

# docs/module.md's table of parameters: the device's own parameters in
# it (as `name` or `name=VALUE`), and no name with a '_' that is none.
# It names the fields' parameters by group and points to modinfo for the
# whole list, so that a new field needs no line there.
awk '/^\| group \| parameters \|/ { f = 1 } f && !/^\|/ { exit } f' \
	docs/module.md | grep -o '`[a-z_0-9]*[`=]' | tr -d '`=' | sort -u \
	> "$T/md"
cut -d: -f1 "$T/parm" | sort > "$T/allp"
{ tr ' ' '\n' <<< "$own" | sort | comm -23 - "$T/md" |
	sed 's/^/missing: /'
  grep _ "$T/md" | comm -23 - "$T/allp" | sed 's/^/no parameter: /'; } \
	> "$T/diff"
report "$( [ -s "$T/diff" ] || [ ! -s "$T/md" ] && echo 0 || echo 1)" \
	"docs/module.md: its table names the device's parameters, and no name that is none" \
	"$T/diff"

# ---- hnsim --------------------------------------------------------------
"$O/hnsim" --help | sed -n '/^KEYS/,/^$/p' > "$T/hnsim"
sed -n 's/^  \([a-z][a-z_0-9]*\) .*/\1/p' "$T/hnsim" | grep -vx preload > "$T/got"
same "hnsim --help: a key per field" params
while IFS=$'\t' read -r p _ v _ h; do
	printf '  %-16s %s (%s) [ding4: \n' "$p" "$h" "$v"
done < "$T/rows.txt" > "$T/want"
grep -E "^  ($(paste -sd'|' "$T/params")) " "$T/hnsim" |
	sed 's/\[ding4: .*/[ding4: /' > "$T/got"
diff "$T/want" "$T/got" > "$T/diff"
report "$( [ -s "$T/diff" ] && echo 0 || echo 1)" \
	"hnsim --help: each key's help and values" "$T/diff"

# ---- hnctl and libhybridnet --------------------------------------------
"$O/hnctl" show --help | sed -n '/KEYs:/,/^$/p' | sed 's/KEYs://' |
	xargs -n 1 | grep -vxE 'profile|clock|pace-ppm|now' > "$T/got"
same "hnctl show --help: a key per field" names
"$O/hnctl" set --help | sed -n '/^KEYS AND VALUES/,/^$/p' |
	sed -n 's/^    \([a-z][a-z0-9-]*\) .*/\1/p' |
	grep -vxE 'profile|clock|pace-ppm' > "$T/got"
same "hnctl set --help: a key per field" names
: > "$T/bad"
while IFS=$'\t' read -r _ nl v live h; do
	# the key's line and what follows it, joined
	"$O/hnctl" set --help | sed -n '/^KEYS AND VALUES/,/^$/p' |
		awk -v k="$nl" '$1 == k { on = 1; print; next }
			on && /^    [a-z]/ { exit } on' | tr -s ' \n' '  ' \
		> "$T/entry"
	w=${v%% *}
	case $w in
	*'|'*) grep -qF " $nl $w " "$T/entry" || echo "$nl: not its words $w" ;;
	*) grep -qF "($v)" "$T/entry" || echo "$nl: not its range ($v)" ;;
	esac >> "$T/bad"
	# the help whole ('_' and '-' aside: hnctl writes keys with '-')
	tr -d '_-' < "$T/entry" > "$T/flat"
	grep -qF "$(tr -d '_-' <<< "$h")" "$T/flat" ||
		echo "$nl: not its help ($h)" >> "$T/bad"
	if [ "$live" = 1 ]; then
		grep -q '; live *$' "$T/entry" || echo "$nl: not live" >> "$T/bad"
	else
		! grep -q '; live' "$T/entry" || echo "$nl: live" >> "$T/bad"
	fi
done < "$T/rows.txt"
report "$( [ -s "$T/bad" ] && echo 0 || echo 1)" \
	"hnctl set --help: each key's words or range, help and liveness" \
	"$T/bad"

# ---- the man pages, as built --------------------------------------------
for p in man/hybridnet.4 man/hnsim.1 man/hnctl.8; do
	check "$p: the source has one line @FIELDS@, the page as built none" \
		sh -c "[ \$(grep -cx '.\\\\\" @FIELDS@' $p) = 1 ] &&
		       ! grep -q @FIELDS@ $O/$p"
done
for p in hybridnet.4 hnsim.1; do
	sed -n '/^\.TP$/{n;s/^\.B[IR] \([a-z_0-9]*\)=.*/\1/p}' "$O/man/$p" \
		> "$T/got"
	same "$p: a paragraph per field as built, param=VALUES" params
done
sed -n '/^\.SS set /,/^\.SS /p' "$O/man/hnctl.8" |
	sed -n '/^\.TP$/{n;s/^\.B[IR] \([a-z0-9\\-]*\) " .*/\1/p}' |
	sed 's/\\-/-/g' | grep -vxE 'profile|clock|pace-ppm' > "$T/got"
same "hnctl.8: a paragraph per field as built, KEY VALUE" names
finish
