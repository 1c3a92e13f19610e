#!/bin/bash
# summary.sh TAP... - the end of "make check": one line per step (a TAP
# file, named after it) with its counts, every failure by name, then the
# closing line "N passed, N failed[, N skipped]".  Exits non-zero if any
# test failed or none ran.
set -euo pipefail

count() {	# pass fail skip of the TAP on stdin
	awk '/^ *ok / { if (/# SKIP/) s++; else p++ }
	     /^ *not ok / { f++ }
	     END { printf "%d %d %d\n", p, f, s }'
}

echo "---- summary"
tp=0 tf=0 ts=0
for t in "$@"; do
	read -r p f s < <(count < "$t")
	line="$p passed, $f failed"
	[ "$s" -gt 0 ] && line="$line, $s skipped"
	printf '%-16s %s\n' "$(basename "$t" .tap)" "$line"
	grep -E '^ *not ok ' "$t" | sed 's/^ */    /' || true
	tp=$((tp + p)) tf=$((tf + f)) ts=$((ts + s))
done
line="$tp passed, $tf failed"
[ "$ts" -gt 0 ] && line="$line, $ts skipped"
echo "$line"
[ "$tf" -eq 0 ] && [ "$tp" -gt 0 ]
