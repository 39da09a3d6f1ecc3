#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bench/traces/record.sh - how the committed traces were recorded.
#
# Run from the repository root after "make all" (or "make compare"):
#     sh bench/traces/record.sh
# Each trace is one real program's malloc/free stream, captured by the
# LD_PRELOAD tracer and compressed.  Re-recording gives different addresses
# and, across library versions, slightly different streams; the committed
# files are the reference.
set -eu
T=$PWD/build/release/bench/libgenalloc-trace.so
D=bench/traces
tmp=${TMPDIR:-/tmp}/genalloc-traces.$$
mkdir -p "$tmp"

# cc1: GCC's compiler proper at -O2 on one of the bench's own files,
# preprocessed first so that cc1 runs alone (the gcc driver forks it).
gcc -E -I. -D_GNU_SOURCE bench/report_files.c > "$tmp/rf.i"
GENALLOC_TRACE="$tmp/cc1.trace" LD_PRELOAD=$T \
	"$(gcc -print-prog-name=cc1)" -quiet -O2 -fpreprocessed "$tmp/rf.i" -o /dev/null

# perl: word frequencies over the licence texts and the seed documents.
GENALLOC_TRACE="$tmp/perl.trace" LD_PRELOAD=$T perl -e \
	'my %h; while(<>){ $h{lc $_}++ for /(\w+)/g } my @k = sort { $h{$b} <=> $h{$a} } keys %h; print scalar(@k), "\n"' \
	/usr/share/common-licenses/* /work/shared/seeds/* >/dev/null

# sqlite: an in-memory database built, indexed, queried and thinned.
GENALLOC_TRACE="$tmp/sqlite.trace" LD_PRELOAD=$T sqlite3 :memory: < $D/sqlite.sql >/dev/null

for t in cc1 perl sqlite; do
	gzip -9c "$tmp/$t.trace" > "$D/$t.trace.gz"
done
rm -rf "$tmp"
ls -l $D/*.trace.gz
