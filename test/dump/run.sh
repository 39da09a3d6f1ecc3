#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/dump/run.sh - every engine's JSON dump read back by a real parser
# (jq) and compared with the engine's walk: the same runs in the same
# order, each chunk tiled by its runs, the counts and totals the sums of
# the runs, the schema's fixed fields.  Usage: run.sh DUMPER
set -eu
dumper=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# What every engine's dump must satisfy; $engine, $granule, $kind given,
# and $buddy: free memory is held as power-of-two blocks aligned to their
# size, so a free run's largest free block is the largest such block in it
# (the largest_free of the engine's stats), not the run.
common='
	def hex: ltrimstr("0x") | explode |
		reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end));
	def block($a; $e): [32 | recurse(. * 2; ($a % . == 0) and . <= $e - $a)] |
		map(select($a % . == 0 and . <= $e - $a)) | max;
	def largest($a; $e): if $a >= $e then 0
		else block($a; $e) as $b | [$b, largest($a + $b; $e)] | max end;
	.schema == 1 and .engine == $engine and .granule == $granule and
	.block_kind == $kind and (.chunks | length) > 0 and
	([.chunks[].start | ltrimstr("0x") | explode | length] | all(. > 0)) and
	(all(.chunks[];
		.used == ([.runs[] | select(.used) | .size] | add // 0)
		and .free == ([.runs[] | select(.used | not) | .size] | add // 0)
		and .blocks == ([.runs[] | select(.used)] | length)
		and .free_runs == ([.runs[] | select(.used | not)] | length)
		and .largest_free_run == ([.runs[] | select(.used | not) | .size] | max // 0)
		and (.start | hex) as $s | .largest_free == (if $buddy then
			([.runs[] | select(.used | not) | largest($s + .offset; $s + .offset + .size)]
			 | max // 0) else .largest_free_run end)
		and (.used + .free) == (.size - .size % $granule)
		and ([.runs as $r | range(1; $r | length) | $r[.].offset == $r[. - 1].offset + $r[. - 1].size] | all)
		and (.runs[0].offset // 0) == 0)) and
	.totals.chunks == (.chunks | length) and
	.totals.used == ([.chunks[].used] | add) and
	.totals.free == ([.chunks[].free] | add) and
	.totals.size == ([.chunks[].size] | add) and
	.totals.blocks == ([.chunks[].blocks] | add) and
	.totals.free_runs == ([.chunks[].free_runs] | add) and
	.totals.largest_free == ([.chunks[].largest_free] | max) and
	.totals.largest_free_run == ([.chunks[].largest_free_run] | max)'

check() {
	engine=$1 json_engine=$2 granule=$3 kind=$4 buddy=$5 extra=$6
	for seed in 1 2 3; do
		"$dumper" "$engine" "$seed" "$work/d.json" "$work/all.txt"
		grep -v '^stats ' "$work/all.txt" >"$work/walk.txt"
		stats=$(sed -n 's/^stats //p' "$work/all.txt")
		totals=$(jq -r '"\(.totals.size) \(.totals.largest_free)"' "$work/d.json")
		if [ "$stats" != "$totals" ]; then
			echo "dump: $engine seed $seed: totals' size and largest_free" \
				"$totals, the pool's $stats" >&2
			fail=1
		fi
		jq -r '.chunks[] | .start as $s | .runs[] | "\($s) \(.offset) \(.size) \(.used)"' \
			"$work/d.json" >"$work/json.txt"
		if ! cmp -s "$work/json.txt" "$work/walk.txt"; then
			echo "dump: $engine seed $seed: the JSON's runs differ from the walk" >&2
			diff "$work/walk.txt" "$work/json.txt" | head -5 >&2
			fail=1
		fi
		if ! jq -e --arg engine "$json_engine" --argjson granule "$granule" \
			--arg kind "$kind" --argjson buddy "$buddy" "($common) and ($extra)" \
			"$work/d.json" >/dev/null; then
			echo "dump: $engine seed $seed: fields, counts or totals are wrong" >&2
			fail=1
		fi
	done
}

modern='([.chunks[].start] == ["0x100000", "0x200000", "0x300000", "0x400000"])'
check modern modern 16 used-runs false "$modern"
check records modern 16 blocks false "$modern"
# A live buddy block is a power of two from 32 bytes to the chunk size.
buddy='all(.chunks[].runs[] | select(.used); .size as $s |
	([range(5; 13) | pow(2; .)] | index($s)) != null)'
check legacy legacy 32 blocks true "$buddy"
check compat-buddy compat-buddy 32 blocks true "$buddy"
check compat-bitmap compat-bitmap 32 blocks true "$buddy"
[ "$fail" = 0 ] && echo "dump: every engine's JSON read back by jq matches its walk"
exit "$fail"
