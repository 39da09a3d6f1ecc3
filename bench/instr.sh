#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/instr.sh - instructions and cache misses per alloc+free pair, counted
# by valgrind rather than timed, for "make bench-instr".
#
# Why: on a shared two-core machine the wall-clock figures of "make bench"
# move by 10-30% from run to run, more than most changes to the engine.
# Valgrind's counts are the same on every run of the same binary, so they
# settle whether a change made a pair cheaper, and what a pair is made of.
# They are not times: a cache miss counts as one instruction here and costs
# a hundred there, which is why the simulated last-level misses are printed
# beside them.
#
# How: genalloc-speed runs twice per engine under cachegrind, the same fill
# and warm-up each time, then N and 3N timed pairs; the difference over 2N
# is the steady-state pair, with the fill and warm-up cancelled out.  The
# warm-up runs to completion (the time budget is lifted), so both runs
# reach the same state.  The kernel's linear engines (kff8, ...) are left
# out by default: their warm-up alone would take hours under valgrind.
#
# Branch mispredictions are counted too, by cachegrind's model of a simple
# predictor.  A pair's time beyond its instructions goes partly there (first
# fit with log-uniform sizes: 2.6x TLSF's instructions and 2.4x its time;
# 16 simulated misses a pair against TLSF's 4), and the column shows which
# loops end unpredictably.  The model is cruder than the hardware, though:
# a rewrite of the index's in-block scan that took 3.4 simulated misses off
# order-aligned fit was 7% slower by the clock.  Only the clock decides.
#
# Caveat: glibc's memset() clears large ranges with "rep stosb", and
# valgrind counts each byte of it as an instruction; a pair that sets a big
# range of the bitmap looks far more expensive here than it runs.
set -euo pipefail
# Command substitutions too: a failed run must stop the script.
shopt -s inherit_errexit

usage() {
	cat <<'EOF'
Usage: bench/instr.sh [OPTION]...
Count instructions and simulated cache misses per alloc+free pair with
valgrind (cachegrind), one thread, each engine at steady state.

  -p, --pools LIST      pool sizes (default 64M)
  -o, --occupancy LIST  occupancies in % (default 50)
  -z, --sizes LIST      request size ranges LO..HI, ';'-separated
                        (default '64..64;16..65536'; 'pool' for the
                        default of genalloc-speed, scaled to the pool)
  -e, --engines LIST    engines (default ff8,bf8,ffo8,ffa8,tlsf8,buddy)
  -k, --chunks N        build each modern pool from N equal chunks
                        (default 1)
  -n, --pairs N         pairs of the shorter run; the longer runs 3N
                        (default 20000)
  -L, --ll BYTES        simulated last-level cache (default 1048576, 8-way)
  -b, --bin PATH        genalloc-speed to run (default
                        build/release/bench/genalloc-speed)
  -h, --help            this text
EOF
}

pools=64M occs=50 sizes='64..64;16..65536' engines=ff8,bf8,ffo8,ffa8,tlsf8,buddy
pairs=20000 ll=1048576 bin=build/release/bench/genalloc-speed chunks=1
while [ $# -gt 0 ]; do
	case $1 in
	-p|--pools) pools=$2; shift ;;
	-o|--occupancy) occs=$2; shift ;;
	-z|--sizes) sizes=$2; shift ;;
	-e|--engines) engines=$2; shift ;;
	-k|--chunks) chunks=$2; shift ;;
	-n|--pairs) pairs=$2; shift ;;
	-L|--ll) ll=$2; shift ;;
	-b|--bin) bin=$2; shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "instr.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
case $pairs in ''|*[!0-9]*|0) echo "instr.sh: bad --pairs '$pairs'" >&2; exit 2 ;; esac
case $chunks in ''|*[!0-9]*|0) echo "instr.sh: bad --chunks '$chunks'" >&2; exit 2 ;; esac
case $ll in ''|*[!0-9]*|0) echo "instr.sh: bad --ll '$ll'" >&2; exit 2 ;; esac
command -v valgrind >/dev/null || { echo "instr.sh: valgrind is not installed" >&2; exit 1; }
[ -x "$bin" ] || { echo "instr.sh: no $bin (run make first)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The "summary:" line of a cachegrind output file, its fields named by the
# "events:" line.
run_counts() {	# pool occ engine sizes pairs -> "Ir DLmr DLmw Bcm+Bim"
	local out=$tmp/cg.out z=() k=()

	[ "$4" = pool ] || z=(--sizes "$4")
	# The harness has no chunks: only the modern engines take --chunks.
	[ "$3" = harness ] || k=(--chunks "$chunks")
	valgrind -q --tool=cachegrind --cache-sim=yes --branch-sim=yes --LL="$ll,8,64" \
		--cachegrind-out-file="$out" "$bin" --pools "$1" --occupancy "$2" \
		--engines "$3" "${z[@]}" "${k[@]}" --threads 1 --runs 1 --pairs "$5" \
		--budget 100000000 --warmup 2 --many-chunks none --linear none --fixed-offsets none \
		>/dev/null 2>"$tmp/err" || {
		# Valgrind's notes on the host's caches are not the error.
		grep -v -e 'warning: .*L[L3] cache' "$tmp/err" >&2
		exit 1
	}
	awk '/^events:/ { for (i = 2; i <= NF; i++) f[$i] = i }
	     /^summary:/ { print $f["Ir"], $f["DLmr"], $f["DLmw"], $f["Bcm"] + $f["Bim"] }' "$out"
}

# Per pair of the steady state: "instructions LL-read-misses LL-write-misses
# branch-mispredictions".
# Every run of genalloc-speed also runs the harness (the loop on a no-op
# engine) as many pairs: its counts, the fifth argument, are taken back out.
per_pair() {	# pool occ engine sizes harness-counts
	local c1 c3 i1 r1 w1 b1 i3 r3 w3 b3

	# Plain assignments, so that a failed run stops the script (set -e).
	c1=$(run_counts "$1" "$2" "$3" "$4" "$pairs")
	c3=$(run_counts "$1" "$2" "$3" "$4" $((3 * pairs)))
	read -r i1 r1 w1 b1 <<<"$c1"
	read -r i3 r3 w3 b3 <<<"$c3"
	awk -v n=$((2 * pairs)) -v i=$((i3 - i1)) -v r=$((r3 - r1)) -v w=$((w3 - w1)) \
	    -v b=$((b3 - b1)) -v h="$5" 'BEGIN {
		split(h, x, " ")
		i = i / n - x[1]; r = r / n - x[2]; w = w / n - x[3]; b = b / n - x[4]
		# The cache states of the two runs differ a little: fewer misses in
		# the longer run is noise of the model, not a pair that saves some.
		if (r < 0) r = 0
		if (w < 0) w = 0
		if (b < 0) b = 0
		printf "%.1f %.3f %.3f %.2f\n", i, r, w, b
	}'
}

row() {	# name "i r w b" reference-instructions
	awk -v e="$1" -v c="$2" -v f="$3" 'BEGIN {
		split(c, x, " ")
		v = (f > 0) ? x[1] / f : 1
		printf "  %-8s %12.0f %8.2f %14.2f %14.2f %14.1f\n", e, x[1], v, x[2], x[3], x[4]
	}'
}

echo "INSTRUCTIONS per alloc+free pair (valgrind cachegrind; last level $((ll >> 10)) KiB, 8-way)"
echo "  one thread, steady state: (counts of $((3 * pairs)) pairs - counts of $pairs) / $((2 * pairs));"
echo "  each figure includes the loop (random victim, size draw, calls), as in make bench"
IFS=, read -ra elist <<<"$engines"
IFS=';' read -ra zlist <<<"$sizes"
IFS=, read -ra plist <<<"$pools"
IFS=, read -ra olist <<<"$occs"
for z in "${zlist[@]}"; do
	for p in "${plist[@]}"; do
		for o in "${olist[@]}"; do
			echo
			echo "workload: pool $p, $o% full, sizes ${z/pool/pool-scaled (genalloc-speed default)} B"
			printf '  %-8s %12s %8s %14s %14s %14s\n' engine instr/pair "vs ${elist[0]}" \
				"LL rd miss/pr" "LL wr miss/pr" "br miss/pr"
			# The harness runs twice here: as the engine and as itself.
			harness=$(per_pair "$p" "$o" harness "$z" "0 0 0 0" |
				  awk '{ printf "%.1f %.3f %.3f %.2f", $1 / 2, $2 / 2, $3 / 2, $4 / 2 }')
			ref=0
			for e in "${elist[@]}"; do
				c=$(per_pair "$p" "$o" "$e" "$z" "$harness")
				row "$e" "$c" "$ref"
				[ "$ref" != 0 ] || ref=${c%% *}
			done
			row harness "$harness" "$ref"
			echo "  rerun: bash bench/instr.sh --pools $p --occupancy $o --sizes '$z' --engines $engines --chunks $chunks --pairs $pairs --ll $ll --bin $bin"
		done
	done
done
