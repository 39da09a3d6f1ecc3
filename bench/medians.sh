#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/medians.sh - the median and range of every figure over several runs
# of "make bench", the way bench/README.md says to quote a time.
#
#   bash bench/medians.sh [-n RUNS] [FILE...]
#
# With FILEs, reads them: each the whole output of one "make bench".
# Without, runs "make bench" RUNS times (default 8) one after the other,
# keeping each output as build/bench/run-N.txt, then reads those.
#
# Why: a shared machine has spells of other load that slow some rounds of
# a run; one run's figure can land anywhere in a range twice its median's
# width.  A time is quoted as the median of several runs with their range.
#
# Printed: one line a figure, "WHERE|ROW|COLUMN  median (min-max) nN",
# where WHERE is the table's heading as make bench prints it (the pool,
# occupancy and threads; "fixed 64..64" and "fixed 16..65536" for the
# FIXED REQUEST SIZES tables, "main" for the rest), ROW the engine or pool,
# COLUMN the figure (ns a pair, a ratio, ...), and N the runs that had it.
set -euo pipefail
shopt -s inherit_errexit
# Numbers with a decimal point, whatever the caller's locale.
export LC_ALL=C

runs=8
usage() {
	sed -n '6,11p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-2}"
}
while getopts "n:h" opt; do
	case $opt in
	n) [[ $OPTARG =~ ^[1-9][0-9]*$ ]] || usage; runs=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))

if [ $# -eq 0 ]; then
	mkdir -p build/bench
	for i in $(seq 1 "$runs"); do
		echo "medians.sh: make bench, run $i of $runs" >&2
		make --no-print-directory bench > "build/bench/run-$i.txt" 2>&1 ||
			{ echo "medians.sh: make bench failed: build/bench/run-$i.txt" >&2; exit 1; }
		set -- "$@" "build/bench/run-$i.txt"
	done
fi

# One "WHERE|ROW|COLUMN<TAB>VALUE" line per figure of each file.
figures() {
	awk '
	function out(row, col, v) { if (v ~ /^[0-9.]+$/) print where "|" row "|" col "\t" v }
	/^FIXED REQUEST SIZES/ { fixedsz = 1 }
	/^workload: pool / {
		split($0, f, ", ")
		sizes = $0; sub(/.*log-uniform /, "", sizes); sub(/ B\).*/, "", sizes)
		sect = fixedsz ? "fixed " sizes : "main"
		where = sect " " substr(f[1], 11) ", " f[2] ", " f[3]
		table = "ns"; next
	}
	/^SCALING: / {
		w = $0; sub(/^.*pair, /, "", w); sub(/ \(.*/, "", w)
		where = sect " scaling " w; table = "scaling"; next
	}
	/^INDEX vs LINEAR: / {
		w = $0; sub(/^.*addresses\), /, "", w); sub(/;.*/, "", w)
		where = sect " index/linear " w; table = "ivl"; next
	}
	/^MANY CHUNKS: / { where = sect " many chunks"; table = "many"; next }
	/^ADD CHUNKS: / { where = sect " add chunks"; table = "add"; next }
	/^FIXED OFFSETS: / { where = sect " fixed offsets"; table = "fixed"; next }
	/^BUDDY FREE WITH LONG FREE LISTS/ { where = sect " buddy free"; table = "buddyfree"; next }
	/^  engine  *[0-9]/ { for (i = 2; i <= NF; i++) col[i] = $i; next }
	/^  pool  *ff8 ns/ {
		split("ff8ns ffx bfx ffox ffax ff/tlsfi ff/tlsf", c, " ")
		next
	}
	/^$/ { table = "" }
	table == "ns" && /^  [a-z0-9]+  +[0-9.]+ / { out($1, "ns", $2) }
	table == "scaling" && /^  [a-z0-9]+  +[0-9.]+ / {
		for (i = 2; i <= NF; i++) out($1, col[i], $i)
	}
	table == "ivl" && /^  [0-9]+[MG]  +[0-9.]+ / {
		for (i = 2; i <= NF; i++) out($1, c[i - 1], $i)
	}
	table == "many" && /^  [a-z0-9]+  +(index|linear) / { out($1, "1 chunk", $3); out($1, "1000 chunks", $4) }
	table == "add" && /^  [0-9.]+ s, / { out("10000 adds", "s", $1) }
	table == "fixed" && /^  [a-z0-9]+  +(index|linear) / { out($1, "ns/attempt", $3) }
	table == "fixed" && /^  linear\/index: / { out("linear/index", "x", $2) }
	table == "fixed" && /^  succeeded: / { v = $2; sub(/%/, "", v); out("succeeded", "%", v) }
	table == "buddyfree" && /^  [0-9]+[MG]  +[0-9]+ / { out($1, "linear ns/free", $3); out($1, "map ns/free", $4) }
	' "$1"
}

for f in "$@"; do
	[ -r "$f" ] || { echo "medians.sh: $f: cannot read" >&2; exit 2; }
	figures "$f"
done | sort -t "$(printf '\t')" -k1,1 -k2,2g | awk -F '\t' '
	# Whole numbers from 20 up, two decimals below, three digits below
	# 0.1: one format for the three figures of a line, chosen by its median.
	function flush(   m, f) {
		if (n == 0) return
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		f = m >= 20 ? "%.0f" : m >= 0.1 ? "%.2f" : "%.3g"
		printf "%s  " f " (" f "-" f ") n%d\n", key, m, v[1], v[n], n
	}
	$1 != key { flush(); key = $1; n = 0 }
	{ v[++n] = $2 }
	END { flush() }
'
