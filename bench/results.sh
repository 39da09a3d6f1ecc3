#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/results.sh - the "Results" section of bench/README.md, as markdown,
# from what "make compare" left in its output directory:
#
#   sh bench/results.sh [DIR]        (DIR: build/compare unless given)
#
# It reads machine.txt (the stamp bench/machine.sh wrote as the run
# started), arena.csv, growing.csv and fixed.csv (a row per workload and
# engine), and index.html for the engines' labels, and prints the stamp and
# a table of geometric means over the workloads of each engine's figure
# over the first engine's (the buddy's in the default run), computed as
# genalloc-compare's SUMMARY computes them: memory is the arena's high water
# and the growing regime's footprint, occupancy the fixed pool's at its
# first refusal, time the arena's median ns per call; a workload where
# either figure is 0 (a pool that could not be created, a pool never
# refused) is left out of that mean.
set -eu

dir=${1:-build/compare}
for f in machine.txt arena.csv growing.csv fixed.csv index.html; do
	if [ ! -r "$dir/$f" ]; then
		echo "bench/results.sh: no $dir/$f: run make compare first" >&2
		exit 1
	fi
done

# "<li><b>LABEL</b> (NAME): ..." in index.html: NAME<TAB>LABEL.
labels=$(sed -n 's|^<li><b>\([^<]*\)</b> (\([A-Za-z0-9_]*\)):.*|\2\t\1|p' "$dir/index.html" |
	sed 's/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g')

echo '## Results'
echo
echo 'The figures of one run of `make compare`, stamped (`build/compare/machine.txt`;'
echo 'a load average above the processors online is a loaded machine, which'
echo 'moves the times and not the memory figures):'
echo
sed 's/^/    /' "$dir/machine.txt"
echo

printf '%s\n' "$labels" | awk -F, -v OFS=, '
	# The files, told apart by the order awk reads them (see the command line).
	FNR == 1 { file++ }
	file == 1 { split($0, l, "\t"); label[l[1]] = l[2]; next }
	FNR == 1 { for (i = 1; i <= NF; i++) col[file, $i] = i; next }
	{
		w = $col[file, "workload"]; e = $col[file, "engine"]
		if (!(e in seen)) { seen[e] = 1; order[++ne] = e }
		if (!(w in wseen)) { wseen[w] = 1; nw++ }
		if (file == 2) {
			val[2, w, e] = $col[file, "high_water"]
			val[5, w, e] = $col[file, "ns_per_call"]
		} else if (file == 3) {
			val[3, w, e] = $col[file, "footprint"]
		} else {
			val[4, w, e] = $col[file, "occupancy"]
		}
		if (!(w in wlist)) { wlist[w] = ++nwl; wname[nwl] = w }
	}
	function geo(k, e,    i, w, a, b, s, n) {
		s = 0; n = 0
		for (i = 1; i <= nwl; i++) {
			w = wname[i]; a = val[k, w, e] + 0; b = val[k, w, order[1]] + 0
			if (a > 0 && b > 0) { s += log(a / b); n++ }
		}
		return n ? sprintf("%.3f", exp(s / n)) : "-"
	}
	END {
		ref = order[1] in label ? label[order[1]] : order[1]
		printf "Geometric means over the %d workloads of each engine%ss figure over that of\n", nwl, "\047"
		printf "%s (", ref
		print "memory: below 1 is less than it needed; occupancy: above 1 is a fixed"
		print "pool that filled further before its first refusal; time: below 1 is faster,"
		print "on this machine):"
		print ""
		print "| engine | memory needed, arena | footprint, growing | occupancy at the first refusal, fixed | ns per call, arena |"
		print "|---|---|---|---|---|"
		for (i = 1; i <= ne; i++) {
			e = order[i]
			printf "| %s | %s | %s | %s | %s |\n", (e in label ? label[e] : e), geo(2, e), geo(3, e), geo(4, e), geo(5, e)
		}
	}' - "$dir/arena.csv" "$dir/growing.csv" "$dir/fixed.csv"
