# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bench/scaling.gp - the scaling plot of "make bench": ns per alloc+free pair
# against pool size, 50% full, one thread, one line per engine, log-log so
# that a linear search shows as a steep line and a constant one as flat.
# Run from build/bench/ (make bench does): reads speed.csv, writes scaling.svg.
set datafile separator ','
set terminal svg size 960,560 dynamic font 'sans,11'
set output 'scaling.svg'
set title 'Cost against pool size: ns per alloc+free pair, 50% full, 1 thread'
set logscale xy
set xlabel 'pool size (bytes)'
set ylabel 'ns per pair (median)'
set key outside right
set grid ytics
# The 8-byte-granule engines, the buddy and the two TLSF yardsticks: all of
# them would be a tangle.  Solid: this library and the yardsticks; dashed:
# the kernel's linear search.
ours = 'buddy compat ff8 bf8 ffo8 ffa8 tlsfi8 tlsf8'
kernel = 'kff8 kbf8 kffo8 kffa8'
set xrange [5e5:2e9]
series(e) = '< awk -F, -v e='.e.' ''NR>1 && $2==50 && $3==1 && $4==e {print $1","$5}'' speed.csv'
# Dotted grey: the harness, the bench loop on a no-op engine, a floor that
# every other line includes.
plot for [i=1:words(ours)] series(word(ours, i)) using 1:2 \
	with linespoints lw 2 lc i dt 1 title word(ours, i), \
     for [i=1:words(kernel)] series(word(kernel, i)) using 1:2 \
	with linespoints lw 2 lc (i + 2) dt 2 title word(kernel, i), \
     series('harness') using 1:2 with lines lw 1 lc rgb 'grey50' dt 3 title 'harness (loop alone)'
