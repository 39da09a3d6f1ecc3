/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/proto/segfit.h - free runs kept in size classes, as TLSF keeps
 * its blocks, but searched for the kernel's exact answers.
 *
 * A run's class is its length below 64 granules, and above that its power
 * of two split in 16 (TLSF's two levels).  Each class is a binary heap:
 * - first fit: ordered by the run's end.  Runs never overlap, so end order
 *   is address order, and a first-fit claim (from a run's start) leaves the
 *   end, hence the heap, as it was unless the run changes class.  A tree of
 *   the classes' lowest ends (a segment tree of 512 leaves) answers "the
 *   lowest run in any class from c up" in nine steps.  Every run of a
 *   class above the request's holds it; in the request's own class only
 *   the runs below that answer are visited, and only those long enough
 *   count;
 * - best fit: ordered by (length, end).  The first non-empty class above
 *   the request's holds the answer at its heap's root; in the request's own
 *   class the runs shorter than the request are walked past.
 * Both walks of the request's own class are unbounded in principle (every
 * run of the class below the answer, or shorter than the request); the
 * class width (1/16 of a power of two) is what keeps them short.
 * Two hash tables find a release's neighbours: runs by start and by end;
 * the bitmap says whether there is one to look for.
 * A prototype for measurement, not part of the library.
 */
#ifndef GENALLOC_BENCH_PROTO_SEGFIT_H
#define GENALLOC_BENCH_PROTO_SEGFIT_H

#include <stddef.h>
#include <stdint.h>

/* Classes split a power of two in 1 << PROTO_SEG_SL; lengths below that
 * have a class each.  2^SL * (33 - SL) classes, rounded up. */
#ifndef PROTO_SEG_SL
#define PROTO_SEG_SL 4
#endif
#define PROTO_SEG_CLASSES (PROTO_SEG_SL >= 4 ? 512 : PROTO_SEG_SL == 3 ? 256 : 128)

struct proto_seg_run {
	uint32_t start, len;
	uint32_t cls;		/* its class */
	uint32_t pos;		/* its place in the class's heap; next free run if unused */
};

struct proto_seg_ent {
	uint64_t key;		/* end, or (len << 32 | end) for best fit */
	uint32_t run;
	uint32_t len;
};

struct proto_seg_heap {
	struct proto_seg_ent *e;
	uint32_t nr, cap;
};

/* Open addressing, linear probing: (key << 32 | run), all ones when empty;
 * keyed by the runs' starts, or (@end) their ends. */
struct proto_seg_hash {
	uint64_t *slot;
	uint32_t mask, used;
	unsigned int shift;
	int end;
};

struct proto_seg {
	int best;
	struct proto_seg_run *run;
	uint32_t nrun, caprun, free_run, live;
	struct proto_seg_heap heap[PROTO_SEG_CLASSES];
	uint64_t nonempty[PROTO_SEG_CLASSES / 64];	/* best fit */
	uint64_t low[2 * PROTO_SEG_CLASSES];		/* first fit: (end << 32 | run) */
	struct proto_seg_hash by_start, by_end;
};

/* An empty structure (@best: for best fit); 0, or -1 if out of memory. */
int proto_seg_init(struct proto_seg *s, int best);
void proto_seg_fini(struct proto_seg *s);
/* Add the free run [@start, @start + @len); 0, or -1 if out of memory. */
int proto_seg_add(struct proto_seg *s, uint32_t start, uint32_t len);
/* The kernel's answer for @nr granules (first or best fit, as made), or -1;
 * the granules are taken out of their run. */
long proto_seg_alloc(struct proto_seg *s, uint32_t nr);
/* [@off, @off + @nr) is free again; @left, @right: whether a free run may
 * end at @off, start at @off + @nr (the hashes say whether one does). */
void proto_seg_release(struct proto_seg *s, uint32_t off, uint32_t nr, int left, int right);
/* Free runs, ascending by start, into @out (room for s->live); their count. */
size_t proto_seg_runs(const struct proto_seg *s, struct proto_seg_run *out);
/* Heaps, classes, places, hashes and the class tree; 0 if sound. */
int proto_seg_check(const struct proto_seg *s);
/* Bytes of bookkeeping as allocated, or (@live) in use. */
size_t proto_seg_bytes(const struct proto_seg *s, int live);

#endif /* GENALLOC_BENCH_PROTO_SEGFIT_H */
