#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/misuse_messages.sh - the messages docs/misuse.md shows are the
# ones the code prints.  The tests compare each report's line with a
# template (assert_line_is() in test/support.h); this script holds the
# templates and the catalogue to each other:
#
#   - every "genalloc: ..." line of the catalogue is a template some test
#     compares, and every template a test compares is in the catalogue;
#   - every table row that reports (its "hook receives" cell says WARN or
#     BUG, or "see left") has a "# ROW" heading, its first cell as written,
#     with at least one message under it.
#
#   bash test/docs/misuse_messages.sh [docs/misuse.md [test]]
set -euo pipefail
doc=${1:-docs/misuse.md}
tests=${2:-test}
bad=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

grep '^genalloc: ' "$doc" | sort -u >"$work/doc"
# The first argument of each assert_line_is(), one string literal.
grep -rhoE --include='*.c' 'assert_line_is\("([^"\\]|\\.)*"' "$tests" |
	sed 's/^assert_line_is("//; s/"$//; s/\\"/"/g; s/\\\\/\\/g' | sort -u >"$work/tests"

if [ ! -s "$work/doc" ] || [ ! -s "$work/tests" ]; then
	echo "$doc: no messages read (from the catalogue or from $tests/)"
	exit 1
fi
while IFS= read -r line; do
	echo "$doc: shows a message no test compares: $line"
	bad=$((bad + 1))
done < <(comm -23 "$work/doc" "$work/tests")
while IFS= read -r line; do
	echo "$doc: lacks a message a test compares: $line"
	bad=$((bad + 1))
done < <(comm -13 "$work/doc" "$work/tests")

# Rows that report, and the headings that have a message under them, each
# with its table's number: a row's messages follow its own table.
awk -F'|' '/^\*\*/ { t++ } /^\| / && !/^\| bad input/ && !/^\|---/ && $4 ~ /WARN|BUG|see left/ {
	row = $2; sub(/^ /, "", row); sub(/ $/, "", row); print t ": " row }' "$doc" |
	sort -u >"$work/rows"
awk '/^\*\*/ { t++ } /^# / { head = substr($0, 3); next }
	/^genalloc: / && head != "" { print t ": " head }
	/^```/ { head = "" }' "$doc" | sort -u >"$work/heads"
while IFS= read -r row; do
	echo "$doc: table ${row%%: *}: row \"${row#*: }\" reports but shows no message" \
		"(a \"# ${row#*: }\" block under its table)"
	bad=$((bad + 1))
done < <(comm -23 "$work/rows" "$work/heads")

[ "$bad" -eq 0 ] || exit 1
echo "$doc: its $(wc -l <"$work/doc") messages are the ones the tests compare, one or more for each of its $(wc -l <"$work/rows") reporting rows"
