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
# Needs gdb; compiles the engine itself, without the checked build's
# assertions.  The last three lines say how often each unit was called
# into, which calls went up a layer, and which unit was entered twice.
set -euo pipefail
shopt -s inherit_errexit

algo=${1:-0}
case $algo in 0|1|2) ;; *) echo "walk.sh: ALGO is 0, 1 or 2" >&2; exit 2 ;; esac
command -v gdb >/dev/null || { echo "walk.sh: gdb is not installed" >&2; exit 1; }
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

# The layers of docs/engine.md, from the top: a call into a unit of a
# smaller number than the caller's is a call upward.
LAYER = {"modern/pool.c": 0, "modern/chunks.c": 0, "modern/algo.c": 1,
         "modern/chunkdir.c": 2, "modern/firstfit.c": 3, "modern/alignfit.c": 3,
         "modern/sizeclass.c": 3, "modern/instantfit.c": 3, "modern/xalloc.c": 3,
         "modern/index.c": 4, "modern/orderhint.c": 4, "modern/bitmap.c": 5,
         "modern/bitmapfit.c": 5, "modern/records.c": 5}


def fname(frame):
    sal = frame.find_sal()
    name = sal.symtab.filename if sal.symtab else "?"
    return name[2:] if name.startswith("./") else name


def unit_of(frame):
    """The translation unit a stop runs in: its own file, or, in a header's
    inline function, the .c file of the nearest caller; and how deep that
    caller's frame is, to tell a call from a return."""
    f, at = frame, None
    while f is not None and at is None:
        if fname(f).endswith(".c"):
            at = f
        f = f.older()
    if at is None:
        return "?", 0
    depth, f = 0, at
    while f is not None:
        f = f.older()
        depth += 1
    return fname(at), depth


gdb.execute("set pagination off")
gdb.execute("break walk_alloc")
gdb.execute("run " + os.environ["WALK_ALGO"])
files, units = [], []
while True:
    gdb.execute("step", to_string=True)
    frame = gdb.selected_frame()
    name = fname(frame)
    if frame.name() == "main" or "printf" in name:
        break
    if not name.startswith(("modern/", "common/")):
        continue
    if not files or files[-1] != name:
        files.append(name)
    unit, depth = unit_of(frame)
    if unit.startswith(("modern/", "common/")) and (not units or units[-1][0] != unit):
        units.append((unit, depth))


def show(title, seq):
    again = sum(1 for i, f in enumerate(seq) if f in seq[:i])
    print(title + ": " + " -> ".join(seq))
    print("  %d stops in %d files, %d of them back into a file already left"
          % (len(seq), len(set(seq)), again))


show("files", files)
show("translation units", [u for u, _ in units])
# A change of unit at a greater depth is a call; at a smaller one, a return.
entered, upward = {}, []
for (prev, pd), (unit, d) in zip(units, units[1:]):
    if d > pd:
        entered[unit] = entered.get(unit, 0) + 1
        if LAYER.get(unit, 9) < LAYER.get(prev, 9):
            upward.append(prev + " -> " + unit)
twice = sorted(u for u, n in entered.items() if n > 1)
print("  calls: %s" % ", ".join("%s %d" % (u, n) for u, n in sorted(entered.items())))
print("  upward calls: %s" % (", ".join(upward) or "none"))
print("  units entered twice: %s" % (", ".join(twice) or "none"))
EOF

# The engine as a release build has it (no assertions), at -O0 so that
# every inline helper is a stop of its own.
cc -g -O0 -std=c11 -D_GNU_SOURCE -I. -pthread "$tmp/walk.c" common/*.c modern/*.c \
	-o "$tmp/walk"
WALK_ALGO=$algo gdb -q -batch -x "$tmp/walk.py" "$tmp/walk" 2>/dev/null |
	grep -E '^(files|translation units):|^  [0-9]+ stops|^  (calls|upward|units)'
