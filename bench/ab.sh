#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/ab.sh - time two builds of the library against each other.
#
#   bash bench/ab.sh [-r ROUNDS] [-p POOL] [-z SIZES] [-o OCC] TREE_A TREE_B ENGINES
#
# TREE_A and TREE_B are two checkouts, each built with
# "make build/release/bench/genalloc-speed" (git worktree, or
# "git archive COMMIT | tar -x -C DIR").  Each round runs genalloc-speed of
# A, then of B, on the same workload; alternating cancels most of this
# machine's drift, which is larger than most changes.  Printed per engine:
# the best and the median of the rounds for each tree, and in how many
# rounds B was the faster.  FINDINGS.md quotes figures made this way.
set -euo pipefail

rounds=10 pool=64M sizes=16..65536 occ=50
usage() {
	sed -n '6,14p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-2}"
}
while getopts "r:p:z:o:h" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	p) pool=$OPTARG ;;
	z) sizes=$OPTARG ;;
	o) occ=$OPTARG ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || usage
a=$1 b=$2 engines=$3
for t in "$a" "$b"; do
	[ -x "$t/build/release/bench/genalloc-speed" ] ||
		{ echo "ab.sh: $t/build/release/bench/genalloc-speed: not built" >&2; exit 2; }
done

# One run of tree $1: "engine ns" lines from the workload's table.
one() {
	"$1/build/release/bench/genalloc-speed" --pools "$pool" --sizes "$sizes" -e "$engines" \
		-t 1 -o "$occ" -r 5 --many-chunks none --linear none --fixed-offsets none \
		--add-chunks none 2>/dev/null |
		awk -v want=",$engines," '/^SCALING|^INDEX/ { exit }
			index(want, "," $1 ",") && NF > 5 { print $1, $2 }'
}

echo "workload: pool $pool, $occ% full, sizes $sizes B, $rounds rounds of A then B"
echo "rerun: bash bench/ab.sh -r $rounds -p $pool -z $sizes -o $occ $a $b $engines"
for _ in $(seq "$rounds"); do
	one "$a" | sed 's/^/A /'
	one "$b" | sed 's/^/B /'
done | awk '
	{ t[$1 " " $2] = t[$1 " " $2] " " $3; n[$1 " " $2]++; e[$2] = 1
	  if ($1 == "A") last[$2] = $3; else if ($3 < last[$2]) won[$2]++ }
	function stat(k,   v, c, i, j, x) {
		c = split(substr(t[k], 2), v, " ")
		for (i = 2; i <= c; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
				x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
			}
		return sprintf("best %8.1f  median %8.1f", v[1],
			       c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2)
	}
	END {
		for (k in e)
			printf "  %-7s A: %s   B: %s   B faster in %d of %d rounds\n",
			       k, stat("A " k), stat("B " k), won[k], n["B " k]
	}'
