#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/bench/map_cli.sh - bench/map.sh as make compare runs it, on dumps
# written here by hand and on dumps of real pools: the columns it computes
# (its -d file) for layouts worked out by hand, what a real pool's columns
# add up to, the two pictures it writes (a PNG; an SVG that parses, with
# an image a strip, or a panel when the strips are thin; block edges only
# where blocks are wide), and a clear refusal of bad input.  Run from the
# repository's root.
#
# Usage: sh test/bench/map_cli.sh DUMPER (test/dump/dumper)
set -eu
dumper=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/genalloc-map.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "map_cli: FAIL: $*" >&2; exit 1; }
map() { sh bench/map.sh "$@"; }

# dump FILE 'CHUNK...': a schema-1 dump, each CHUNK "SIZE:RUN,RUN..." with
# RUN "uSIZE" (used) or "fSIZE" (free), in address order; the counts and
# totals are worked out by jq.
dump() {
	out=$1
	shift
	printf '%s\n' "$@" | jq -R -s '
		[split("\n")[] | select(length > 0) | split(":") |
		 { size: (.[0] | tonumber),
		   sizes: (.[1] | split(",") | map(select(length > 0) |
			{ used: startswith("u"), size: (.[1:] | tonumber) })) } |
		 .runs = ([foreach .sizes[] as $r ({ o: 0 };
			{ o: (.o + $r.size), r: ($r + { offset: .o }) }; .r)]) |
		 { start: "0x100000", size, runs,
		   used: ([.runs[] | select(.used) | .size] | add // 0),
		   free: ([.runs[] | select(.used | not) | .size] | add // 0),
		   blocks: ([.runs[] | select(.used)] | length),
		   free_runs: ([.runs[] | select(.used | not)] | length),
		   largest_free: ([.runs[] | select(.used | not) | .size] | max // 0) }] |
		{ schema: 1, engine: "modern", granule: 16, block_kind: "blocks", chunks: .,
		  totals: { chunks: length, size: (map(.size) | add // 0),
			    used: (map(.used) | add // 0), free: (map(.free) | add // 0),
			    blocks: (map(.blocks) | add // 0), free_runs: (map(.free_runs) | add // 0),
			    largest_free: (map(.largest_free) | max // 0) } }' >"$out"
}

# columns DAT PANEL CHUNK: that chunk's column colours, one line.
columns() {
	awk -v p="$2" -v c="$3" '!/^#/ && $1 == p && $2 == c { printf "%s%s", n++ ? " " : "", $6 }
		END { print "" }' "$1"
}
repeat() { i=0; s=; while [ $i -lt "$1" ]; do s="$s${s:+ }$2"; i=$((i + 1)); done; echo "$s"; }

U='#1f4e79' F='#f0f0f0'

# Hand-worked layouts, 8 columns of 512 bytes in a 4096-byte chunk:
#  half: used then free, each half exactly: four dark, four light;
#  hole: a 64-byte hole inside column 0 (1/8 of it free): palest orange;
#  deep: 320 bytes free in column 0 (5/8): the third orange;
#  tail: a chunk whose last 100 bytes are in no run (under a granule).
dump "$tmp/half.json" '4096:u2048,f2048'
dump "$tmp/holes.json" '4096:u256,f64,u3776' '4096:u64,f320,u3712' '4196:f512,u3584'
map -c 8 -d "$tmp/a" "half=$tmp/half.json" "holes=$tmp/holes.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed on hand-made dumps: $(cat "$tmp/out")"
[ "$(columns "$tmp/a.dat" 1 0)" = "$(repeat 4 "$U") $(repeat 4 "$F")" ] ||
	fail "half used then half free: want 4 dark then 4 light, got $(columns "$tmp/a.dat" 1 0)"
[ "$(columns "$tmp/a.dat" 2 0)" = "#fdae6b $(repeat 7 "$U")" ] ||
	fail "a 64-byte hole in column 0: want the palest orange there, got $(columns "$tmp/a.dat" 2 0)"
[ "$(columns "$tmp/a.dat" 2 1)" = "#e6550d $(repeat 7 "$U")" ] ||
	fail "column 0 5/8 free: want the third orange, got $(columns "$tmp/a.dat" 2 1)"
# 4196 bytes in 8 columns: column 0 holds 524.5 bytes, 512 of them free.
[ "$(columns "$tmp/a.dat" 2 2)" = "#a63603 $(repeat 7 "$U")" ] ||
	fail "a chunk with a tail: got $(columns "$tmp/a.dat" 2 2)"
awk '!/^#/ && $1 == 1 && ($4 != ($3 < 4 ? 512 : 0) || $5 != ($3 < 4 ? 0 : 512)) { exit 1 }' \
	"$tmp/a.dat" || fail "half: each column's used and free bytes are not 512 and 0"
awk '!/^#/ && $1 == 2 && $2 == 0 && $3 == 0 && ($4 != 448 || $5 != 64) { exit 1 }' \
	"$tmp/a.dat" || fail "hole: column 0 should hold 448 used and 64 free bytes"

# The pictures: a PNG as wide as the default plot, an SVG that parses,
# with one image a chunk.
map "$tmp/b" "half=$tmp/half.json" "holes=$tmp/holes.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed without -c: $(cat "$tmp/out")"
[ ! -e "$tmp/b.dat" ] || fail "PREFIX.dat written without -d"
[ "$(head -c 8 "$tmp/b.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
	fail "b.png is not a PNG"
[ "$(head -c 24 "$tmp/b.png" | tail -c 8 | od -An -tx1 | tr -d ' \n' | cut -c1-8)" = 000003d4 ] ||
	fail "b.png is not 980 pixels wide (880 columns and the margins)"
xmllint --noout "$tmp/b.svg" || fail "b.svg does not parse"
[ "$(grep -c "<image style='image-rendering:[^']*pixelated'" "$tmp/b.svg")" = 4 ] ||
	fail "b.svg: want an unsmoothed image for each of 4 chunks"
grep -q '>holes<' "$tmp/b.svg" && grep -q '>3 chunks, ' "$tmp/b.svg" ||
	fail "b.svg: no title naming the panel and its chunks"

# Block edges: two used blocks of 1024 bytes side by side are 220 columns
# wide at the default width, and parted by a line; at 8 columns (2 each)
# they are not.
dump "$tmp/two.json" '4096:u1024,u1024,f2048'
edge='rgb(158, 202, 225)'
map "$tmp/e" "two=$tmp/two.json" >"$tmp/out" 2>&1 || fail "map.sh failed: $(cat "$tmp/out")"
grep -q "$edge" "$tmp/e.svg" || fail "no edge between two wide used blocks"
map -c 8 "$tmp/e" "two=$tmp/two.json" >"$tmp/out" 2>&1 || fail "map.sh failed: $(cat "$tmp/out")"
! grep -q "$edge" "$tmp/e.svg" || fail "an edge between blocks 2 columns wide"
# Nor on 60 strips, each 6 pixels high.
i=0; set --; while [ $i -lt 60 ]; do set -- "$@" '4096:u1024,u1024,f2048'; i=$((i + 1)); done
dump "$tmp/sixty.json" "$@"
map -d "$tmp/e" "sixty=$tmp/sixty.json" >"$tmp/out" 2>&1 || fail "map.sh failed: $(cat "$tmp/out")"
! grep -q "$edge" "$tmp/e.svg" || fail "an edge on strips 6 pixels high"
[ "$(grep -c '<image' "$tmp/e.svg")" = 1 ] || fail "60 thin strips: want them in one image"
[ "$(columns "$tmp/e.dat" 1 59)" = "$(repeat 440 "$U") $(repeat 440 "$F")" ] ||
	fail "the 60th of 60 chunks is not half used then half free"

# Real pools: every engine's dump, its columns adding up to its totals and
# each column coloured by what it holds.
for engine in modern records legacy compat-buddy compat-bitmap; do
	"$dumper" "$engine" 7 "$tmp/$engine.json" "$tmp/walk.txt" || fail "dumper $engine failed"
done
map -d "$tmp/r" "modern=$tmp/modern.json" "records=$tmp/records.json" \
	"legacy=$tmp/legacy.json" "buddy=$tmp/compat-buddy.json" \
	"bitmap=$tmp/compat-bitmap.json" >"$tmp/out" 2>&1 || fail "map.sh on real dumps: $(cat "$tmp/out")"
p=1
for engine in modern records legacy compat-buddy compat-bitmap; do
	want=$(jq -r '"\(.totals.used) \(.totals.free) \(.chunks | length)"' "$tmp/$engine.json")
	got=$(awk -v p=$p '!/^#/ && $1 == p { u += $4; f += $5; if ($3 == 0) n++ }
		END { printf "%.0f %.0f %d\n", u, f, n }' "$tmp/r.dat")
	[ "$got" = "$want" ] || fail "$engine: columns hold used, free, chunks $got; the dump says $want"
	p=$((p + 1))
done
awk -v U="$U" -v F="$F" '!/^#/ {
	want = $5 == 0 ? ($4 == 0 ? "none" : U) : $4 == 0 ? F : "mixed"
	got = $6 == U || $6 == F || $6 == "none" ? $6 : "mixed"
	if (want != got) { print "column " $0 ": want " want; exit 1 }
}' "$tmp/r.dat" >"$tmp/out" || fail "real dumps: $(cat "$tmp/out")"
grep -q '#fd\|#e6\|#a6' "$tmp/r.dat" || fail "the bitmap pools show no mixed column"
chunks=$(jq -s '[.[].chunks | length] | add' "$tmp/modern.json" "$tmp/records.json" \
	"$tmp/legacy.json" "$tmp/compat-buddy.json" "$tmp/compat-bitmap.json")
[ "$(grep -c '<image' "$tmp/r.svg")" = "$chunks" ] || fail "r.svg: not one image a chunk"

# An empty pool and a title with quotes still draw.
jq -n '{ schema: 1, engine: "modern", granule: 16, block_kind: "blocks", chunks: [],
	totals: { chunks: 0, size: 0, used: 0, free: 0, blocks: 0, free_runs: 0, largest_free: 0 } }' \
	>"$tmp/empty.json"
map "$tmp/q" "an \"empty\" \\ pool=$tmp/empty.json" "half=$tmp/half.json" >"$tmp/out" 2>&1 ||
	fail "an empty pool or a quoted title: $(cat "$tmp/out")"
xmllint --noout "$tmp/q.svg" || fail "q.svg does not parse"

# Bad input: a non-zero exit, one line naming the file and what is wrong,
# and no picture.
refuse() {
	why=$1
	shift
	rm -f "$tmp/x.png" "$tmp/x.svg"
	if map "$@" >"$tmp/out" 2>&1; then
		fail "accepted: $*"
	fi
	grep -q "$why" "$tmp/out" || fail "$*: no '$why' in: $(cat "$tmp/out")"
	[ ! -e "$tmp/x.png" ] && [ ! -e "$tmp/x.svg" ] || fail "$*: a picture was drawn"
}
printf 'not json {' >"$tmp/garbage.json"
jq '.schema = 2' "$tmp/half.json" >"$tmp/v2.json"
jq 'del(.chunks[0].runs)' "$tmp/half.json" >"$tmp/noruns.json"
printf '[1, 2]\n' >"$tmp/array.json"
refuse "$tmp/missing.json: no such readable file" "$tmp/x" "a=$tmp/missing.json"
refuse "garbage.json: not JSON" "$tmp/x" "a=$tmp/half.json" "b=$tmp/garbage.json"
refuse "v2.json: schema 2; this script reads schema 1" "$tmp/x" "a=$tmp/v2.json"
refuse "array.json: schema none" "$tmp/x" "a=$tmp/array.json"
refuse "noruns.json: not a pool dump" "$tmp/x" "a=$tmp/noruns.json"
refuse "is not TITLE=DUMP.json" "$tmp/x" "$tmp/half.json"
refuse "from 2 to 4000" -c 1 "$tmp/x" "a=$tmp/half.json"
refuse "from 2 to 4000" -c wide "$tmp/x" "a=$tmp/half.json"
refuse "usage: bench/map.sh" "$tmp/x"
echo "map_cli: ok"
