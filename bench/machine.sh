#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/machine.sh - the stamp written beside every set of results
# ("make compare" and "make bench"): which machine, compiler and date the
# figures are from, and how loaded the machine was when they were taken.
#
#   sh bench/machine.sh CC > DIR/machine.txt
#
# Figures quoted anywhere are quoted with this stamp: times are this
# machine's, and only the memory figures of "make compare" are the same
# on every machine.
cc=${1:-cc}
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine:   $(uname -s) $(uname -r) $(uname -m)"
echo "cpu:       ${model:-unknown}, $(nproc) processors online"
echo "compiler:  $($cc --version 2>/dev/null | head -n 1)"
echo "load:      $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (1, 5, 15 min averages at the start)"
