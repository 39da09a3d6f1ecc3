#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/misuse_rows.sh - every test docs/misuse.md names as proof of a
# row exists and is run: "suite/test" is a START_TEST(test) added to a
# tcase in the file that creates suite "suite", "fuzz-NAME" is
# test/fuzz/fuzz_NAME.c.  A row whose proof was renamed or dropped would
# otherwise go on claiming a test that no longer runs.
#
#   bash test/docs/misuse_rows.sh [docs/misuse.md]
set -euo pipefail
doc=${1:-docs/misuse.md}
bad=0 seen=0

# The last cell of every table row but the header and its rule.
while IFS= read -r name; do
	seen=$((seen + 1))
	case $name in
	fuzz-*)
		[ -f "test/fuzz/fuzz_${name#fuzz-}.c" ] && continue
		echo "$doc: $name: no test/fuzz/fuzz_${name#fuzz-}.c" ;;
	*/*)
		suite=${name%%/*} test=${name#*/}
		file=$(grep -rl --include='*.c' "suite_create(\"$suite\")" test || true)
		if [ -z "$file" ]; then
			echo "$doc: $name: no suite $suite under test/"
		elif ! grep -q "^START_TEST($test)" $file ||
			! grep -Eq "tcase_add_[a-z_]*\([^,]*, *$test[,)]" $file; then
			echo "$doc: $name: no test $test run by suite $suite ($file)"
		else
			continue
		fi ;;
	*)
		echo "$doc: \"$name\" names no test (suite/test or fuzz-NAME)" ;;
	esac
	bad=$((bad + 1))
done < <(awk -F'|' '/^\| / && !/^\| bad input/ { print $(NF - 1) }' "$doc" |
	tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^-\{0,1\}$' | sort -u)

if [ "$seen" -eq 0 ]; then
	echo "$doc: no rows read"
	exit 1
fi
[ "$bad" -eq 0 ] || exit 1
echo "$doc: the $seen tests and fuzz harnesses its rows name exist and run"
