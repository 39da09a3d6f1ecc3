#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/bench/map_cli.sh - bench/map.sh as make compare runs it, on dumps
# written here by hand, on dumps of real pools and on genalloc-compare's
# peak dumps: the columns it computes (its -d file) for layouts worked out
# by hand, on one scale for chunks of different sizes, with the bytes
# granted beyond requests told apart; what a real pool's columns add up
# to; the two pictures it writes (a PNG; an SVG that parses, with an image
# a strip, or a panel when the strips are thin; block edges only where
# blocks are wide; each strip labelled with its chunk's address and size);
# and a clear refusal of bad input.  Run from the repository's root.
#
# Usage: sh test/bench/map_cli.sh DUMPER COMPARE
#        (test/dump/dumper, bench/genalloc-compare)
set -eu
dumper=$1
compare=$2
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
#  tail: a chunk whose last 100 bytes are in no run (under a granule),
#        alone, as it sets the scale (4196 bytes over 8 columns).
dump "$tmp/half.json" '4096:u2048,f2048'
dump "$tmp/holes.json" '4096:u256,f64,u3776' '4096:u64,f320,u3712'
dump "$tmp/tail.json" '4196:f512,u3584'
map -c 8 -d "$tmp/a" "half=$tmp/half.json" "holes=$tmp/holes.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed on hand-made dumps: $(cat "$tmp/out")"
[ "$(columns "$tmp/a.dat" 1 0)" = "$(repeat 4 "$U") $(repeat 4 "$F")" ] ||
	fail "half used then half free: want 4 dark then 4 light, got $(columns "$tmp/a.dat" 1 0)"
[ "$(columns "$tmp/a.dat" 2 0)" = "#fdae6b $(repeat 7 "$U")" ] ||
	fail "a 64-byte hole in column 0: want the palest orange there, got $(columns "$tmp/a.dat" 2 0)"
[ "$(columns "$tmp/a.dat" 2 1)" = "#e6550d $(repeat 7 "$U")" ] ||
	fail "column 0 5/8 free: want the third orange, got $(columns "$tmp/a.dat" 2 1)"
# 4196 bytes in 8 columns: column 0 holds 524.5 bytes, 512 of them free.
map -c 8 -d "$tmp/t" "tail=$tmp/tail.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed on a chunk with a tail: $(cat "$tmp/out")"
[ "$(columns "$tmp/t.dat" 1 0)" = "#a63603 $(repeat 7 "$U")" ] ||
	fail "a chunk with a tail: got $(columns "$tmp/t.dat" 1 0)"

# One scale for every strip: beside a 4096-byte chunk, a 1024-byte one
# spans 2 of 8 columns, a 24-byte one part of 1, the rest of their strips
# empty ("none"); the axis and each label say the sizes.
dump "$tmp/sizes.json" '4096:u4096' '1024:u512,f512' '24:u24'
map -c 8 -d "$tmp/s" "sizes=$tmp/sizes.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed on chunks of three sizes: $(cat "$tmp/out")"
[ "$(columns "$tmp/s.dat" 1 1)" = "$U $F $(repeat 6 none)" ] ||
	fail "a 1024-byte chunk beside a 4096-byte one: got $(columns "$tmp/s.dat" 1 1)"
[ "$(columns "$tmp/s.dat" 1 2)" = "$U $(repeat 7 none)" ] ||
	fail "a 24-byte chunk beside a 4096-byte one: got $(columns "$tmp/s.dat" 1 2)"
grep -q '^# .* 8 columns span 4096 bytes' "$tmp/s.dat" || fail "s.dat does not give the scale"
# Labels: two lines (address, size) on tall strips; the scale in the axis
# and the legend.
xmllint --xpath '//*[local-name()="text" and contains(., "0x100000")]' "$tmp/s.svg" >/dev/null 2>&1 ||
	fail "s.svg: no strip labelled with its start address"
for want in '4.0 KiB' '1.0 KiB' '24 B' '2.0 KiB' '4.0 KiB spans the width'; do
	xmllint --xpath "//*[local-name()='text' and contains(., '$want')]" "$tmp/s.svg" \
		>/dev/null 2>&1 || fail "s.svg: no text '$want'"
done

# Requests: a 1024-byte block that was asked 600 holds 424 bytes beyond
# its request, in columns 1 (424 of 512: mostly beyond, teal) and none
# else; the 1024-byte block asked 1024 is all used; the title counts it.
B='#80cdc1'
jq '.requests = [{ addr: "0x100000", size: 600, granted: 1024 },
		 { addr: "0x100400", size: 1024, granted: 1024 }]' "$tmp/half.json" >"$tmp/req.json"
map -c 8 -d "$tmp/q" "asked=$tmp/req.json" "not asked=$tmp/half.json" >"$tmp/out" 2>&1 ||
	fail "map.sh failed on a dump with requests: $(cat "$tmp/out")"
[ "$(columns "$tmp/q.dat" 1 0)" = "$U $B $U $U $(repeat 4 "$F")" ] ||
	fail "granted beyond a request: got $(columns "$tmp/q.dat" 1 0)"
[ "$(awk '!/^#/ && $1 == 1 { b += $7 } END { print b }' "$tmp/q.dat")" = 424 ] ||
	fail "q.dat: the beyond bytes do not add up to 424"
[ "$(awk '!/^#/ && $1 == 2 { b += $7 } END { print b }' "$tmp/q.dat")" = 0 ] ||
	fail "q.dat: beyond bytes in a dump without requests"
grep -q '424 B of it beyond the requests' "$tmp/q.svg" || fail "q.svg: the title does not count 424 B"
grep -q 'granted beyond the request' "$tmp/q.svg" || fail "q.svg: no legend for the beyond colour"
grep -q 'granted beyond' "$tmp/s.svg" && fail "s.svg: a legend for requests no dump has"
jq '.requests = [{ addr: 5 }]' "$tmp/half.json" >"$tmp/badreq.json"
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
[ "$(head -c 24 "$tmp/b.png" | tail -c 8 | od -An -tx1 | tr -d ' \n' | cut -c1-8)" = 00000410 ] ||
	fail "b.png is not 1040 pixels wide (880 columns and the margins)"
xmllint --noout "$tmp/b.svg" || fail "b.svg does not parse"
[ "$(grep -c "<image style='image-rendering:[^']*pixelated'" "$tmp/b.svg")" = 3 ] ||
	fail "b.svg: want an unsmoothed image for each of 3 chunks"
grep -q '>holes<' "$tmp/b.svg" && grep -q '>2 chunks, ' "$tmp/b.svg" ||
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
refuse "badreq.json: \"requests\" is not a list" "$tmp/x" "a=$tmp/badreq.json"
refuse "is not TITLE=DUMP.json" "$tmp/x" "$tmp/half.json"
refuse "from 2 to 4000" -c 1 "$tmp/x" "a=$tmp/half.json"
refuse "from 2 to 4000" -c wide "$tmp/x" "a=$tmp/half.json"
refuse "usage: bench/map.sh" "$tmp/x"
# genalloc-compare's peak dumps, on sizes that are no powers of two: every
# live block is listed with what it asked and got; the buddy grants powers
# of two, so the beyond colour shows in its panel; ff8 rounds to 8 bytes.
"$compare" -q -w uniform -r growing -e buddy,ff8 -R 1 -j 1 -n 4000 -o "$tmp/cmp" \
	>"$tmp/out" 2>&1 || fail "genalloc-compare failed: $(cat "$tmp/out")"
for e in buddy ff8; do
	jq -e '(.requests | length) == .totals.blocks and
		([.requests[].granted] | add) == .totals.used and
		all(.requests[]; .granted >= .size)' "$tmp/cmp/peak-$e.json" >/dev/null ||
		fail "peak-$e.json: requests do not match the live blocks"
done
jq -e 'any(.requests[]; .granted > .size) and
	all(.requests[]; .granted as $g | .granted == ([1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
		1024, 2048, 4096, 8192] | map(select(. >= $g)) | min))' \
	"$tmp/cmp/peak-buddy.json" >/dev/null || fail "peak-buddy.json: grants are not powers of two"
jq -e 'all(.requests[]; .granted - .size < 8 and .granted % 8 == 0)' "$tmp/cmp/peak-ff8.json" \
	>/dev/null || fail "peak-ff8.json: grants are not requests rounded to 8 bytes"
map -d "$tmp/p" "buddy=$tmp/cmp/peak-buddy.json" "ff8=$tmp/cmp/peak-ff8.json" >"$tmp/out" 2>&1 ||
	fail "map.sh on genalloc-compare's dumps: $(cat "$tmp/out")"
awk -v B="$B" '!/^#/ && $1 == 1 && $6 == B { n++ } END { exit !(n > 0) }' "$tmp/p.dat" ||
	fail "the buddy's panel shows nothing granted beyond requests"
want=$(jq '[.requests[] | .granted - .size] | add' "$tmp/cmp/peak-buddy.json")
got=$(awk '!/^#/ && $1 == 1 { b += $7 } END { printf "%.0f", b }' "$tmp/p.dat")
[ "$got" = "$want" ] || fail "the buddy's beyond columns hold $got bytes; its requests say $want"

echo "map_cli: ok"
