/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/dump_internal.h - the layout dump's writer, fed by each engine's
 * walk (not installed).
 *
 * An engine opens the dump, then for each chunk in address order names the
 * chunk and hands over its runs in address order; the writer keeps the
 * per-chunk and total counts and writes text or JSON (common/dump.h) as
 * the runs come.  It knows nothing of any engine beyond whether its free
 * memory is held as buddy blocks.  Cost: O(runs), O(log run) more per free
 * run of a buddy pool, and O(1) memory.
 */
#ifndef GENALLOC_COMMON_DUMP_INTERNAL_H
#define GENALLOC_COMMON_DUMP_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "dump.h"

#define GENALLOC_DUMP_CELLS 32

struct genalloc_dump_counts {
	unsigned long size, used, free, blocks, free_runs, largest_free, largest_free_run;
};

struct genalloc_dump {
	FILE *f;
	int format;
	const char *engine;
	unsigned long granule;
	bool blocks, buddy;
	bool started;			/* the header is written */
	unsigned long start;		/* the open chunk, if @open */
	bool open, first_chunk, first_run;
	unsigned long cell[GENALLOC_DUMP_CELLS];	/* used bytes per cell */
	struct genalloc_dump_counts chunk, total;
	unsigned long nr_chunks;
};

/**
 * genalloc_dump_begin() - check the arguments, prepare a dump
 * @d:       the writer's state
 * @pool:    the pool, for the report
 * @f:       where to write
 * @format:  GENALLOC_DUMP_TEXT or GENALLOC_DUMP_JSON
 * @engine:  the engine's name in the schema
 * @granule: bytes
 * @blocks:  each used run is a block (else a maximal run of used granules)
 * @buddy:   free memory is held as blocks of powers of two aligned to
 *           their size (the 2005 engines): a free run's largest free
 *           block is the largest such block inside it, not the run
 *
 * Nothing is written until the first chunk, or the end: a walk refused
 * before it visits anything leaves @f untouched.
 *
 * Return: true; false after WARN EINVAL (as gen_pool_dump) for a NULL
 * @pool or @f or an unknown @format, nothing written.
 */
bool genalloc_dump_begin(struct genalloc_dump *d, const void *pool, FILE *f, int format,
			 const char *engine, unsigned long granule, bool blocks, bool buddy);

/** genalloc_dump_chunk() - close the open chunk, open [@start, +@size) */
void genalloc_dump_chunk(struct genalloc_dump *d, unsigned long start, unsigned long size);

/** genalloc_dump_run() - one run of the open chunk, after the ones before it */
void genalloc_dump_run(struct genalloc_dump *d, unsigned long addr, unsigned long size,
		       bool used);

/**
 * genalloc_dump_block() - one run, opening its chunk first if it is new
 * @d:          the writer
 * @chunk:      first address of the run's chunk (chunks differ in it)
 * @chunk_size: the chunk's bytes
 * @addr:       the run's first address
 * @size:       its bytes
 * @used:       a block (or used run) rather than free memory
 *
 * For walks that name each run's chunk rather than announce chunks.
 */
void genalloc_dump_block(struct genalloc_dump *d, unsigned long chunk, unsigned long chunk_size,
			 unsigned long addr, unsigned long size, bool used);

/**
 * genalloc_dump_end() - close the last chunk, write the totals
 * @d:       the writer
 * @walk_rc: what the engine's walk returned: not 0, the dump stops there
 *           and that is the answer
 *
 * Return: @walk_rc if not 0; else 0, or -EIO if writing failed.
 */
int genalloc_dump_end(struct genalloc_dump *d, int walk_rc);

#endif /* GENALLOC_COMMON_DUMP_INTERNAL_H */
