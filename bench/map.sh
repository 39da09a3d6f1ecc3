#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/map.sh - draw pools from their JSON dumps (common/dump.h, any
# engine): each dump a panel, each chunk a strip across it in address
# order, used granules dark, free ones light, a thin white line at every
# block's edge.  jq reads the dumps, gnuplot draws PREFIX.svg and
# PREFIX.png; panels stand side by side in the order given.
#
# Usage: bench/map.sh PREFIX TITLE=DUMP.json [TITLE=DUMP.json...]
set -eu
[ $# -ge 2 ] || { echo "usage: bench/map.sh PREFIX TITLE=DUMP.json..." >&2; exit 2; }
prefix=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=0
for arg in "$@"; do
	title=${arg%%=*}
	json=${arg#*=}
	n=$((n + 1))
	# One rectangle a run: x from its offset to its end as a share of the
	# chunk, y the chunk's strip, and its colour.
	jq -r '.chunks | to_entries[] | .key as $i | .value as $c | $c.runs[] |
		"\(.offset / $c.size) \((.offset + .size) / $c.size) \($i + 0.08) \($i + 0.92) " +
		(if .used then "0x1f5f99" else "0xe4e4e4" end)' "$json" >"$work/p$n.dat"
	jq -r '"\(.chunks | length) \(.totals.used) \(.totals.size) \(.totals.blocks) \(.totals.free_runs) \(.totals.largest_free)"' \
		"$json" >"$work/p$n.sum"
	printf '%s\n' "$title" >"$work/p$n.title"
done

{
	echo "set terminal svg size $((n * 380)),560 font 'sans,11' background '#ffffff'"
	echo "set output '$prefix.svg'"
	echo "load '$work/panels.gp'"
	echo "set terminal pngcairo size $((n * 380)),560 font 'sans,10'"
	echo "set output '$prefix.png'"
	echo "load '$work/panels.gp'"
} >"$work/main.gp"
{
	echo "set multiplot layout 1,$n"
	echo "unset key; set xrange [0:1]; set xtics ('start' 0, 'end' 1)"
	echo "set ytics out nomirror; set ylabel 'chunk (address order)'"
	echo "set style fill solid 1.0 border lc rgb '#ffffff'"
	i=1
	while [ "$i" -le "$n" ]; do
		read -r chunks used size blocks holes largest <"$work/p$i.sum"
		title=$(cat "$work/p$i.title")
		printf 'set title "%s\\n%s chunks, %s%% used, %s blocks\\n%s holes, largest %s B" noenhanced\n' \
			"$title" "$chunks" "$((used * 100 / (size > 0 ? size : 1)))" "$blocks" "$holes" "$largest"
		echo "set yrange [$chunks:0]; set ytics $(( (chunks + 15) / 16 ))"
		echo "plot '$work/p$i.dat' using (\$1+\$2)/2:(\$3+\$4)/2:(\$2-\$1)/2:(\$4-\$3)/2:5 with boxxyerror lw 0.4 lc rgb variable"
		i=$((i + 1))
	done
	echo "unset multiplot"
} >"$work/panels.gp"
gnuplot "$work/main.gp"
