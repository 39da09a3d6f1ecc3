#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/map.sh - draw pools from their JSON dumps (common/dump.h, any
# engine): each dump a panel, the panels one above the other in the order
# given, each chunk a strip across its panel in address order, labelled
# with the chunk's start address and size.
#
# Every strip is drawn to one scale, shared by all panels: the largest
# chunk spans COLUMNS columns (one pixel each at the default width) and a
# smaller chunk proportionally fewer (one at least), so a hole's length
# compares across chunks and engines.  A column is coloured by what it
# holds: all used dark blue, all free light grey, both orange, the stronger
# the more of it is free.  So a hole smaller than a pixel still shows, and
# a pool of ten thousand blocks reads the same as one of ten.  A thin light
# line marks the edge between two used blocks only where both are at least
# EDGE_MIN columns wide.
#
# A dump may carry a "requests" member (genalloc-compare's peak dumps do):
# each live block's "addr" (as the dump's "start", a hex string), the
# bytes asked for ("size") and the bytes the engine granted ("granted").
# Then what a block holds beyond its request (the buddy's rounding to a
# power of two, a bitmap's to its granule) is its own colour, teal, in a
# column where it is the larger part of the used bytes, and the panel's
# title counts it.
# jq checks and flattens the dumps, awk bins the runs into columns, gnuplot
# draws PREFIX.svg and PREFIX.png.
#
# Usage: bench/map.sh [-c COLUMNS] [-d] PREFIX TITLE=DUMP.json...
#   -c COLUMNS  columns a strip is cut into (default 880, the plot's width
#               in pixels; the plot widens to fit more)
#   -d          also write PREFIX.dat, the columns: one line each,
#               "panel chunk column used free colour beyond" (bytes,
#               #rrggbb; beyond: the used bytes granted beyond requests,
#               0 where the dump has no requests)
#
# Cost: one pass over each dump's runs, plus COLUMNS steps a chunk.
set -eu

me=bench/map.sh
usage() {
	echo "usage: $me [-c COLUMNS] [-d] PREFIX TITLE=DUMP.json..." >&2
	exit 2
}
die() {
	echo "$me: $*" >&2
	exit 1
}

columns=880
keep_data=0
while [ $# -gt 0 ]; do
	case $1 in
	-c) [ $# -ge 2 ] || usage
	    columns=$2
	    shift 2 ;;
	-d) keep_data=1
	    shift ;;
	--) shift
	    break ;;
	-*) usage ;;
	*) break ;;
	esac
done
case $columns in
'' | *[!0-9]*) die "-c wants a number of columns from 2 to 4000, not '$columns'" ;;
esac
[ "$columns" -ge 2 ] && [ "$columns" -le 4000 ] ||
	die "-c wants a number of columns from 2 to 4000, not '$columns'"
[ $# -ge 2 ] || usage
prefix=$1
shift
for arg in "$@"; do
	case $arg in
	*=*) ;;
	*) die "'$arg' is not TITLE=DUMP.json" ;;
	esac
	json=${arg#*=}
	[ -f "$json" ] && [ -r "$json" ] || die "$json: no such readable file"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Colours: used, free, then mixed by free share below 1/4, 1/2, 3/4, and
# above; the edge line.  Blue against orange reads under every common
# colour-vision deficiency.
used_rgb='#1f4e79'
free_rgb='#f0f0f0'
mixed_rgb='#fdae6b #fd8d3c #e6550d #a63603'
beyond_rgb='#80cdc1'
edge_rgb='#9ecae1'
edge_min=4

# The plot is one pixel a column when COLUMNS fits the default width.
plot_w=$((columns > 880 ? columns : 880))
left=130
right=30
width=$((left + plot_w + right))

# The one JSON shape this script reads, checked before anything is drawn.
valid='(type == "object") and .schema == 1 and (.chunks | type) == "array" and
	(.totals | type) == "object" and
	all(.chunks[]; (.size | type) == "number" and .size >= 0 and (.runs | type) == "array" and
		all(.runs[]; (.offset | type) == "number" and (.size | type) == "number" and
			(.used | type) == "boolean"))'

n=0
for arg in "$@"; do
	title=${arg%%=*}
	json=${arg#*=}
	n=$((n + 1))
	jq -e . "$json" >/dev/null 2>&1 || die "$json: not JSON"
	schema=$(jq -r 'if type == "object" then .schema // "none" else "none" end' "$json")
	[ "$schema" = 1 ] || die "$json: schema $schema; this script reads schema 1 (common/dump.h)"
	jq -e "$valid" "$json" >/dev/null 2>&1 ||
		die "$json: not a pool dump (chunks, each with a size and runs, and totals)"
	jq -e '(.requests // []) | type == "array" and all(.[]; (.addr | type) == "string" and
		(.size | type) == "number" and (.granted | type) == "number")' "$json" >/dev/null 2>&1 ||
		die "$json: \"requests\" is not a list of addr, size and granted"
	# The panel's figures; a "q" line a request (absolute addresses in
	# decimal, exact below 2^53); then a "c" line a chunk and an "r" line
	# a run.
	jq -r 'def num: ltrimstr("0x") | ascii_downcase | explode |
			reduce .[] as $c (0; . * 16 + $c - (if $c >= 97 then 87 else 48 end));
		"t \(.chunks | length) \(.totals.size // 0) \(.totals.used // 0)" +
		" \(.totals.free // 0) \(.totals.blocks // 0) \(.totals.free_runs // 0)" +
		" \(.totals.largest_free // 0) \(if has("requests") then 1 else 0 end)",
		(.requests // [] | .[] | "q \(.addr | num) \(.size) \(.granted)"),
		(.chunks[] | "c \(.size) \(.start // "0x0") \(.start // "0x0" | num)",
		 (.runs[] | "r \(.offset) \(.size) \(if .used then 1 else 0 end)"))' \
		"$json" >"$work/p$n.in"
	printf '%s\n' "$title" | sed 's/\\/\\\\/g; s/"/\\"/g' >"$work/p$n.title"
	# A strip is 28 pixels high at most, and shrinks so that a panel of
	# many chunks stays under about 360; one under 8 shows no gaps and no
	# block edges.
	chunks=$(jq '.chunks | length' "$json")
	strip=$((360 / (chunks > 0 ? chunks : 1)))
	echo "$((strip > 28 ? 28 : strip < 1 ? 1 : strip))" >"$work/p$n.strip"
done

# The common scale: the largest chunk of any panel spans the columns.
scale=$(cat "$work"/p*.in | awk '$1 == "c" && $2 > m { m = $2 } END { printf "%.0f", (m > 0 ? m : 1) }')

# Each panel's columns (p$n.col), its picture (p$n.img: a pixel a column,
# its rows the chunks), its edges (p$n.edge), its chunk labels (p$n.lab)
# and the bytes granted beyond requests (p$n.beyond).  A column's bytes
# are found with positions scaled by COLUMNS, so that every boundary is an
# integer and a column is all used or all free exactly when it is.
i=1
while [ "$i" -le "$n" ]; do
	strip=$(cat "$work/p$i.strip")
	awk -v C="$columns" -v S="$scale" -v panel="$i" -v edges=$((strip >= 8)) \
		-v used_rgb="$used_rgb" -v free_rgb="$free_rgb" -v beyond_rgb="$beyond_rgb" \
		-v mixed="$mixed_rgb" -v edge_min="$edge_min" \
		-v colf="$work/p$i.col" -v imgf="$work/p$i.img" -v edgef="$work/p$i.edge" \
		-v sumf="$work/p$i.sum" -v labf="$work/p$i.lab" -v beyf="$work/p$i.beyond" '
	# A column of u used bytes (b of them beyond requests) and f free.
	function colour(u, f, b,   level) {
		if (f == 0 && u == 0) return "none"
		if (f == 0) return 2 * b > u ? beyond_rgb : used_rgb
		if (u == 0) return free_rgb
		level = int(4 * f / (u + f)) + 1
		return M[level > 4 ? 4 : level]
	}
	function hex(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = 16 * v + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	function rgb(c) {
		if (c == "none") return "255 255 255"
		return hex(substr(c, 2, 2)) " " hex(substr(c, 4, 2)) " " hex(substr(c, 6, 2))
	}
	function human(b,   i) {
		for (i = 1; b >= 1024 && i < 5; i++) b /= 1024
		return sprintf(i == 1 ? "%d %s" : "%.1f %s", b, U_[i])
	}
	# Bytes [off, off + len) of the chunk, of one kind (0 free, 1 used,
	# 2 used beyond a request), into the columns they overlap; column k
	# holds bytes [k S, (k + 1) S) / C.
	function bin(off, len, kind,   a, b, k, lo, hi, ov) {
		a = off * C; b = (off + len) * C
		for (k = int(a / S); k < C && k * S < b; k++) {
			lo = k * S; hi = lo + S
			ov = (b < hi ? b : hi) - (a > lo ? a : lo)
			if (kind) U[k] += ov; else F[k] += ov
			if (kind == 2) B[k] += ov
		}
	}
	# A used run: the requests that tile it from its start split it into
	# asked-for and granted-beyond bytes; the rest of it is plain used.
	function used_run(off, len,   a, end, key, r, g) {
		a = start + off; end = a + len
		while (a < end) {
			key = sprintf("%.0f", a)
			if (!(key in Q)) break
			r = Q[key]; g = G[key] > r ? G[key] : r
			if (g <= 0) break
			bin(a - start, (a + r < end ? a + r : end) - a, 1)
			if (a + r < end) {
				bin(a + r - start, (a + g < end ? a + g : end) - a - r, 2)
				beyond += (a + g < end ? a + g : end) - a - r
			}
			a += g
		}
		if (a < end) bin(a - start, end - a, 1)
	}
	function flush(   k, c, row) {
		if (chunk < 0) return
		for (k = 0; k < C; k++) {
			c = colour(U[k] / C, F[k] / C, B[k] / C)
			P[k] = rgb(c)
			printf "%d %d %d %.10g %.10g %s %.10g\n", panel, chunk, k, U[k] / C, F[k] / C, c,
				B[k] / C > colf
		}
		# Tall strips are an image each (two rows: gnuplot wants two at
		# least), so that no viewer smooths one chunk into the next; thin
		# ones are a row each of one image, drawn near its own size.
		if (edges && chunk > 0) printf "\n\n" > imgf
		for (row = 0; row < rows; row++) {
			for (k = 0; k < C; k++)
				printf "%g %g %s\n", k + 0.5, chunk + (row + 0.5) / rows, P[k] > imgf
			printf "\n" > imgf
		}
		for (k = 0; k < nedge; k++)
			printf "%.10g %g %g\n", E[k], chunk + 0.15, chunk + 0.85 > edgef
		split("", U); split("", F); split("", B); nedge = 0
	}
	BEGIN {
		split(mixed, M, " "); split("B KiB MiB GiB TiB", U_, " ")
		chunk = -1; beyond = 0
	}
	$1 == "t" {
		print > sumf
		rows = edges || $2 == 1 ? 2 : 1
		next
	}
	$1 == "q" { Q[$2] = $3; G[$2] = $4; next }
	$1 == "c" {
		flush(); chunk++; size = $2; start = $4; prev_used = 0
		printf "%d %s %s\n", chunk, $3, human(size) > labf
		next
	}
	$1 == "r" && size > 0 {
		if ($3 <= 0) next
		if ($4) used_run($2, $3); else bin($2, $3, 0)
		wide = $3 * C >= edge_min * S
		if ($4 && prev_used && wide && prev_wide && edges)
			E[nedge++] = $2 * C / S
		prev_used = $4; prev_wide = wide
	}
	END { flush(); printf "%.0f\n", beyond > beyf }' "$work/p$i.in"
	touch "$work/p$i.edge" "$work/p$i.col" "$work/p$i.lab"
	i=$((i + 1))
done

if [ "$keep_data" = 1 ]; then
	{
		echo "# panel chunk column used free colour beyond (bytes; $columns columns span $scale bytes)"
		i=1
		while [ "$i" -le "$n" ]; do
			cat "$work/p$i.col"
			i=$((i + 1))
		done
	} >"$prefix.dat"
fi

# Whether any panel tells requests from grants: the legend says so then.
requests=$(cat "$work"/p*.sum | awk '$9 == 1 { r = 1 } END { print r + 0 }')

# Layout in pixels: each panel a two-line title, its strips, the axis; the
# legend at the bottom.
title_h=46
axis_h=26
legend_h=58
height=$legend_h
i=1
while [ "$i" -le "$n" ]; do
	read -r _ chunks _ <"$work/p$i.sum"
	strip=$(cat "$work/p$i.strip")
	height=$((height + title_h + (chunks > 0 ? chunks : 1) * strip + axis_h))
	i=$((i + 1))
done

# Sizes as people say them.
human() {
	awk -v b="$1" 'BEGIN {
		split("B KiB MiB GiB TiB", u, " ")
		for (i = 1; b >= 1024 && i < 5; i++) b /= 1024
		printf(i == 1 ? "%d %s" : "%.1f %s", b, u[i])
	}'
}

# Screen fractions for gnuplot, top of the picture first.
sx() { awk -v p="$1" -v w="$width" 'BEGIN { printf "%.6f", p / w }'; }
sy() { awk -v p="$1" -v h="$height" 'BEGIN { printf "%.6f", 1 - p / h }'; }

{
	echo "set terminal svg size $width,$height font 'sans,10' background '#ffffff'"
	echo "set output '$prefix.svg'"
	echo "load '$work/panels.gp'"
	echo "set terminal pngcairo size $width,$height font 'sans,9' background '#ffffff'"
	echo "set output '$prefix.png'"
	echo "load '$work/panels.gp'"
} >"$work/main.gp"
{
	echo "set multiplot"
	echo "unset key; set border lw 0.5 lc rgb '#808080'"
	# The axis in bytes from a chunk's start, on the common scale.
	echo "set xrange [0:$columns]; set xtics out nomirror ('0' 0, '$(human $((scale / 2)))' $columns / 2.0, '$(human "$scale")' $columns)"
	echo "set ytics out nomirror scale 0.5"
	echo "set lmargin at screen $(sx "$left.5"); set rmargin at screen $(sx "$((left + plot_w)).5")"
	echo "set style fill solid 1.0 noborder"
	# The legend, drawn with the first panel.
	y=$((height - legend_h + 22))
	x=10
	o=1
	swatches="$used_rgb:used:70 $free_rgb:free:70"
	if [ "$requests" = 1 ]; then
		swatches="$used_rgb:used:70 $beyond_rgb:granted_beyond_the_request:200 $free_rgb:free:70"
	fi
	for sw in $swatches; do
		w=${sw##*:}
		sw=${sw%:*}
		echo "set object $o rect from screen $(sx $x),$(sy $((y - 6))) to screen $(sx $((x + 14))),$(sy $((y + 6))) fc rgb '${sw%%:*}' fs solid 1.0 border lc rgb '#808080' lw 0.5"
		echo "set label $o '$(echo "${sw#*:}" | tr _ ' ')' at screen $(sx $((x + 19))),$(sy "$y") left"
		o=$((o + 1))
		x=$((x + w))
	done
	echo "set label $o 'used and free in one column, by the free share:' at screen $(sx "$x"),$(sy "$y") left"
	o=$((o + 1))
	x=$((x + 300))
	for sw in "${mixed_rgb%% *} < 1/4" "$(echo "$mixed_rgb" | cut -d' ' -f2) 1/4-1/2" \
		"$(echo "$mixed_rgb" | cut -d' ' -f3) 1/2-3/4" "${mixed_rgb##* } > 3/4"; do
		echo "set object $o rect from screen $(sx $x),$(sy $((y - 6))) to screen $(sx $((x + 14))),$(sy $((y + 6))) fc rgb '${sw%% *}' fs solid 1.0 noborder"
		echo "set label $o '${sw#* }' at screen $(sx $((x + 19))),$(sy "$y") left"
		o=$((o + 1))
		x=$((x + 72))
	done
	echo "set label $o 'Each strip is a chunk in address order, labelled with its start and size, all to one scale: $(human "$scale") spans the width. A light line parts two used blocks wide enough to see.' at screen $(sx 10),$(sy $((y + 20))) left"
	top=0
	i=1
	while [ "$i" -le "$n" ]; do
		read -r _ chunks size used free blocks holes largest has_req <"$work/p$i.sum"
		strip=$(cat "$work/p$i.strip")
		plot_h=$(((chunks > 0 ? chunks : 1) * strip))
		pct=$(awk -v u="$used" -v s="$size" 'BEGIN { printf "%d", (s > 0 ? 100 * u / s : 0) }')
		hole=$([ "$holes" = 1 ] && echo hole || echo holes)
		chunk=$([ "$chunks" = 1 ] && echo chunk || echo chunks)
		echo "set tmargin at screen $(sy $((top + title_h))); set bmargin at screen $(sy $((top + title_h + plot_h)))"
		beyond=
		if [ "$has_req" = 1 ]; then
			beyond=", $(human "$(cat "$work/p$i.beyond")") of it beyond the requests"
		fi
		printf 'set title "%s\\n%s %s, %s%% used by %s blocks%s; %s free in %s %s, the largest %s" noenhanced offset 0,-0.4\n' \
			"$(cat "$work/p$i.title")" "$chunks" "$chunk" "$pct" "$blocks" "$beyond" \
			"$(human "$free")" "$holes" "$hole" "$(human "$largest")"
		# A chunk's start and size at the middle of its strip: on two
		# lines where strips are tall enough, else on one, on every
		# chunk whose label has room (12 pixels).
		echo "set yrange [$chunks:0]"
		printf 'set ytics (%s)\n' "$(awk -v s="$strip" '{
			step = int((12 + s - 1) / s)
			if ($1 % step) next
			printf "%s\"%s%s%s %s\" %g", $1 ? ", " : "", $2, (s >= 22 ? "\\n" : " "), $3, $4, $1 + 0.5
		}' "$work/p$i.lab")"
		if [ "$chunks" = 0 ]; then
			echo "set yrange [1:0]; set ytics ()"
			printf '%s' "plot -1"
		else
			if [ "$strip" -ge 8 ]; then
				printf '%s' "plot for [c=0:$((chunks - 1))] '$work/p$i.img' index c using 1:2:3:4:5 with rgbimage"
			else
				printf '%s' "plot '$work/p$i.img' using 1:2:3:4:5 with rgbimage"
			fi
			# A white line parts strips at least 8 pixels high.
			if [ "$chunks" -gt 1 ] && [ "$strip" -ge 8 ]; then
				awk -v n="$chunks" -v C="$columns" \
					'BEGIN { for (c = 1; c < n; c++) print 0, c, C, 0 }' >"$work/p$i.gap"
				printf '%s' ", '$work/p$i.gap' using 1:2:3:4 with vectors nohead"
				printf ' lw %s lc rgb "#ffffff"' \
					"$(awk -v s="$strip" 'BEGIN { printf "%.1f", s / 6 }')"
			fi
		fi
		if [ -s "$work/p$i.edge" ]; then
			printf '%s' ", '$work/p$i.edge' using 1:2:(0):(\$3-\$2) with vectors nohead lw 0.6 lc rgb '$edge_rgb'"
		fi
		echo
		if [ "$i" = 1 ]; then
			echo "unset object; unset label"
		fi
		top=$((top + title_h + plot_h + axis_h))
		i=$((i + 1))
	done
	echo "unset multiplot"
} >"$work/panels.gp"
gnuplot "$work/main.gp" || die "gnuplot failed"
# A column is a pixel: ask SVG viewers not to smooth the images they scale.
sed "s/<image /<image style='image-rendering:optimizeSpeed;image-rendering:pixelated' /" \
	"$prefix.svg" >"$work/map.svg"
cat "$work/map.svg" >"$prefix.svg"
