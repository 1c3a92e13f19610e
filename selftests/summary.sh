#!/bin/bash
# Count TAP results in the given files and print the closing line
# "N passed, N failed[, N skipped]"; exit non-zero if any failed or none ran.
set -euo pipefail
pass=$(cat "$@" | grep -E '^ *ok ' | grep -vc '# SKIP' || true)
skip=$(cat "$@" | grep -E '^ *ok ' | grep -c '# SKIP' || true)
fail=$(cat "$@" | grep -cE '^ *not ok ' || true)
line="$pass passed, $fail failed"
[ "$skip" -gt 0 ] && line="$line, $skip skipped"
echo "$line"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
