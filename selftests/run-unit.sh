#!/bin/bash
# Run the user-space unit tests (built with ASan and UBSan); print their TAP.
# Usage: run-unit.sh BUILD_DIR TEST...
set -uo pipefail
shift
# Exits 1 if a test failed.
bad=0
for t in "$@"; do
	echo "# $(basename "$t")"
	"$t" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "not ok - $(basename "$t") exited with status $rc"
		bad=1
	fi
done
exit $bad
