#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/run-checks.sh - everything "make check" runs, and its verdict.
#
#   run-checks.sh RUNNER 'PROGRAM...' 'TARGET...'
#
# Runs the Check runner (RUNNER, with $SUITE's suites if set), then, when no
# suite was named, each PROGRAM with --check and each make TARGET, and keeps
# going past a failure so that one run reports them all.  Every Check test
# counts once, every program and target once.  The last line is the
# verdict, "check: N passed, N failed"; the exit status is 0 only when
# nothing failed.  TEST_WRAPPER (valgrind, say) runs in front of each
# program; MAKE and MAKEFLAGS come from the calling make.
set -u

runner=$1
programs=$2
targets=$3
passed=0
failed=0
failures=()

fail() {
	failed=$((failed + 1))
	failures+=("$1")
}

# Check prints "100%: Checks: 510, Failures: 0, Errors: 0"; a runner that
# dies before printing it is one failure.
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086 # the wrapper and the suite list are word lists
${TEST_WRAPPER:-} "$runner" ${SUITE:-} 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
line=$(sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' "$out" | tail -n 1)
if [ -n "$line" ]; then
	read -r n f e <<<"$line"
	passed=$((passed + n - f - e))
	failed=$((failed + f + e))
	if [ "$status" != 0 ] && [ $((f + e)) = 0 ]; then
		fail "the Check runner (exit status $status)"
	elif [ $((f + e)) != 0 ]; then
		failures+=("$((f + e)) Check test(s):")
		# Check's failure lines, "file:line:F:tcase:test:iter: why", so
		# that the verdict names each test even when the log is cut short.
		while IFS= read -r l; do
			failures+=("  $l")
		done < <(grep -E '^[^:]+:[0-9]+:[FE]:' "$out")
	fi
else
	fail "the Check runner (exit status $status, no summary)"
fi

if [ -z "${SUITE:-}" ]; then
	for p in $programs; do
		echo "== $p"
		# shellcheck disable=SC2086
		if ${TEST_WRAPPER:-} "$p" --check; then
			passed=$((passed + 1))
		else
			fail "$p"
		fi
	done
	for t in $targets; do
		echo "== make $t"
		if "${MAKE:-make}" --no-print-directory "$t"; then
			passed=$((passed + 1))
		else
			fail "make $t"
		fi
	done
fi

echo
for f in "${failures[@]}"; do
	case $f in
	"  "*) echo "$f" ;;
	*) echo "FAILED: $f" ;;
	esac
done
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
