# SPDX-License-Identifier: GPL-2.0
# selftests/tap.sh - sourced by the shell tests (selftests/install/, the
# hnctl parser tests, test-vm-run.sh): TAP lines, numbered, with the
# reason of a failure as comments.
n=0
failed=0

# report OK DESC [FILE...]: one TAP line; on failure, FILEs as comments
report() {
	local ok=$1 desc=$2
	shift 2
	n=$((n + 1))
	if [ "$ok" = 1 ]; then
		echo "ok $n $desc"
		return
	fi
	failed=$((failed + 1))
	echo "not ok $n $desc"
	for f in "$@"; do [ -s "$f" ] && sed 's/^/# /' "$f"; done
	return 0
}

# check DESC CMD...: CMD's success is the test; its output the reason
check() {
	local desc=$1
	shift
	if "$@" > "$T/check.out" 2>&1; then
		report 1 "$desc"
	else
		report 0 "$desc" "$T/check.out"
	fi
}

skip() {	# skip DESC REASON
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

finish() {
	echo "# $n tests, $failed failed"
	[ "$failed" -eq 0 ]
}
