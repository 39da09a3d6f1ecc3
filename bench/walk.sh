#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# bench/walk.sh - the files one gen_pool_alloc() goes through, as a reader
# stepping through it would: gdb single-steps one request in a -O0 build
# (every static inline helper a stop of its own) and prints the files of
# modern/ and common/ in the order they are entered, then the same with
# only the .c files (translation units, what the optimized build calls
# across).  Re-entries count the arrivals in a file already left.
#
#   bash bench/walk.sh [ALGO]     ALGO: 0 first fit (default), 1 best fit,
#                                 2 order-aligned fit
#
# The pool: one chunk of 64 MiB at 8-byte granules, 64 requests made and
# every other one freed; the walk is of the next request, 200 bytes.
# Needs gdb; builds the debug library (make VARIANT=debug lib).
set -euo pipefail
shopt -s inherit_errexit

algo=${1:-0}
case $algo in 0|1|2) ;; *) echo "walk.sh: ALGO is 0, 1 or 2" >&2; exit 2 ;; esac
command -v gdb >/dev/null || { echo "walk.sh: gdb is not installed" >&2; exit 1; }
make --no-print-directory VARIANT=debug lib >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/walk.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include "modern/genalloc.h"

static genpool_algo_t algo;

static unsigned long __attribute__((noinline)) walk_alloc(struct gen_pool *pool, size_t size)
{
	return gen_pool_alloc_algo(pool, size, algo, NULL);
}

int main(int argc, char **argv)
{
	genpool_algo_t algos[] = { gen_pool_first_fit, gen_pool_best_fit,
				   gen_pool_first_fit_order_align };
	struct gen_pool *pool = gen_pool_create(3, -1);
	unsigned long a[64];
	int i;

	algo = algos[argc > 1 ? atoi(argv[1]) : 0];
	gen_pool_add(pool, 0x10000000UL, 1UL << 26, -1);
	for (i = 0; i < 64; i++)
		a[i] = gen_pool_alloc_algo(pool, 64 + 8 * (unsigned long)i, algo, NULL);
	for (i = 0; i < 64; i += 2)
		gen_pool_free(pool, a[i], 64 + 8 * (unsigned long)i);
	printf("%lx\n", walk_alloc(pool, 200));
	return 0;
}
EOF

cat >"$tmp/walk.py" <<'EOF'
import gdb
import os

gdb.execute("set pagination off")
gdb.execute("break walk_alloc")
gdb.execute("run " + os.environ["WALK_ALGO"])
files = []
while True:
    gdb.execute("step", to_string=True)
    frame = gdb.selected_frame()
    sal = frame.find_sal()
    name = sal.symtab.filename if sal.symtab else "?"
    if name.startswith("./"):
        name = name[2:]
    if frame.name() == "main" or "printf" in name:
        break
    if not name.startswith(("modern/", "common/")):
        continue
    if not files or files[-1] != name:
        files.append(name)


def show(title, seq):
    again = sum(1 for i, f in enumerate(seq) if f in seq[:i])
    print(title + ": " + " -> ".join(seq))
    print("  %d stops in %d files, %d of them back into a file already left"
          % (len(seq), len(set(seq)), again))


show("files", files)
units = [f for f in files if f.endswith(".c")]
units = [f for i, f in enumerate(units) if i == 0 or f != units[i - 1]]
show("translation units", units)
EOF

cc -g -O0 -D_GNU_SOURCE -I. -pthread "$tmp/walk.c" build/debug/libgenalloc.a -pthread \
	-o "$tmp/walk"
WALK_ALGO=$algo gdb -q -batch -x "$tmp/walk.py" "$tmp/walk" 2>/dev/null |
	grep -E '^(files|translation units):|^  [0-9]+ stops'
