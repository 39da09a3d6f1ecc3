#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/bench/compare_cli.sh - genalloc-compare as a user runs it, on traces
# it writes itself: a refused trace is reported while the others run and
# the exit status says so; two traces of one base name keep their own
# files; a long workload name shifts every row of a table alike.
#
# Usage: sh test/bench/compare_cli.sh build/VARIANT/bench/genalloc-compare
set -eu
bin=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/genalloc-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "compare_cli: FAIL: $*" >&2; exit 1; }

mkdir "$tmp/x"
printf 'a 1 100\na 2 200\nf 1\nf 2\n' > "$tmp/cc1.trace"
printf 'a 1 300\na 2 50\nf 1\nf 2\n' > "$tmp/x/cc1.trace"
printf 'a 1 100\na 2 010\n' > "$tmp/bad.trace"
long=a_workload_name_much_longer_than_the_column
printf 'a 1 64\nf 1\n' > "$tmp/$long.trace"

rc=0
"$bin" -w "$tmp/cc1.trace,$tmp/bad.trace,$tmp/x/cc1.trace,$tmp/$long.trace" \
	-e buddy,ff8 -R 1 -P -o "$tmp/out" > "$tmp/stdout" 2> "$tmp/stderr" || rc=$?
[ "$rc" = 1 ] || fail "exit status $rc with a refused trace, want 1"
grep -q "bad.trace:2: leading zero" "$tmp/stderr" || fail "no file:line for the bad trace"
grep -q "1 trace refused" "$tmp/stderr" || fail "no count of refused traces"
grep -q "^3 workloads" "$tmp/stdout" || fail "the good traces did not all run"

# Same base name: both kept, under distinct names and files.
[ -f "$tmp/out/series-growing-cc1.csv" ] && [ -f "$tmp/out/series-growing-cc1-2.csv" ] ||
	fail "two traces called cc1 share their files"
grep -q '^cc1,buddy' "$tmp/out/arena.csv" && grep -q '^cc1-2,buddy' "$tmp/out/arena.csv" ||
	fail "arena.csv lacks cc1 or cc1-2"

# Alignment: in each table, the engine column starts at one offset on every row.
awk -v long="$long" '
	/^workload / { intable = 1; col = index($0, "engine"); next }
	/^Columns/ { intable = 0 }
	intable && /(buddy 2005|bitmap first fit)/ {
		at = index($0, "buddy 2005"); if (!at) at = index($0, "bitmap first fit")
		if (at != col) { print "misaligned: " $0; bad = 1 }
	}
	END { exit bad }' "$tmp/stdout" || fail "a long workload name broke the alignment"
grep -q "^$long  " "$tmp/stdout" || fail "the long name was cut"
echo "compare_cli: ok"
