#!/bin/bash
# Run the user-space unit tests (built with ASan and UBSan); print their TAP.
# Usage: run-unit.sh BUILD_DIR TEST...
set -uo pipefail
shift
for t in "$@"; do
	echo "# $(basename "$t")"
	"$t" 2>&1 || echo "not ok - $(basename "$t") exited with status $?"
done
