#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/dump/run.sh - the JSON dump read back by a real parser (jq) and
# compared with the walk: the same runs in the same order, the totals the
# sums of the runs, the schema's fixed fields.  Usage: run.sh DUMPER
set -eu
dumper=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

for kind in modern records; do
	for seed in 1 2 3; do
		"$dumper" "$kind" "$seed" "$work/d.json" "$work/walk.txt"
		jq -r '.chunks[] | .start as $s | .runs[] | "\($s) \(.offset) \(.size) \(.used)"' \
			"$work/d.json" >"$work/json.txt"
		if ! cmp -s "$work/json.txt" "$work/walk.txt"; then
			echo "dump: $kind seed $seed: the JSON's runs differ from the walk" >&2
			diff "$work/walk.txt" "$work/json.txt" | head -5 >&2
			fail=1
		fi
		want=$([ "$kind" = records ] && echo blocks || echo used-runs)
		if ! jq -e --arg kind "$want" '
			.schema == 1 and .engine == "modern" and .granule == 16 and
			.block_kind == $kind and (.chunks | length) == 3 and
			([.chunks[].start] == ["0x100000", "0x200000", "0x300000"]) and
			(all(.chunks[]; .used == ([.runs[] | select(.used) | .size] | add // 0)
				and .free == ([.runs[] | select(.used | not) | .size] | add // 0)
				and .blocks == ([.runs[] | select(.used)] | length)
				and .largest_free == ([.runs[] | select(.used | not) | .size] | max // 0)
				and (.used + .free) == (.size - .size % 16))) and
			.totals.used == ([.chunks[].used] | add) and
			.totals.free == ([.chunks[].free] | add) and
			.totals.size == ([.chunks[].size] | add) and
			.totals.blocks == ([.chunks[].blocks] | add) and
			.totals.chunks == 3' "$work/d.json" >/dev/null; then
			echo "dump: $kind seed $seed: fields or totals are wrong" >&2
			fail=1
		fi
	done
done
[ "$fail" = 0 ] && echo "dump: JSON read back by jq matches the walk"
exit "$fail"
