/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/legacy/model2005.h - the reference model of the 2005 engine, shared
 * by legacy_model_suite and the legacy and compat fuzz harnesses: the 2005
 * buddy algorithm over out-of-band LIFO lists, and a per-atom shadow of the
 * memory a pool knows (unknown / free / live).  A broken promise (a model
 * list overflowing, a block outside the shadow) aborts with a message.
 *
 * The lists say where the 2005 code puts the next block; the shadow says,
 * independently of any algorithm, whether a block the engine returns lies in
 * memory the pool owns, overlaps no live block, and how many bytes are free.
 */
#ifndef GENALLOC_TEST_LEGACY_MODEL2005_H
#define GENALLOC_TEST_LEGACY_MODEL2005_H

#define M5_ATOM_SHIFT	5		/* ALLOC_MIN_SHIFT */
#define M5_MAX_ORDERS	24

/** struct m5_lists - the 2005 free lists, one stack per order (top = head) */
struct m5_lists {
	int nr_orders;			/* max_chunk_shift - 4 */
	unsigned long *stack[M5_MAX_ORDERS];
	int len[M5_MAX_ORDERS];
	int cap[M5_MAX_ORDERS];
};

/** m5_lists_init() - empty lists for chunks of 2^@shift over @bytes of memory */
void m5_lists_init(struct m5_lists *m, int shift, unsigned long bytes);
void m5_lists_fini(struct m5_lists *m);

/** m5_order() - the order (0 = 32 bytes) a 2005 request of @size rounds to */
int m5_order(unsigned long size);

/** m5_has() - is there a free block of order @i or larger? */
int m5_has(const struct m5_lists *m, int i);

/** m5_take() - the 2005 allocation of order @i from the lists (0 if empty) */
unsigned long m5_take(struct m5_lists *m, int i);

/** m5_release() - the 2005 free: merge with free buddies, push the result */
void m5_release(struct m5_lists *m, unsigned long a, int i);

/** m5_free_block_at() - order of the free block starting at @a, or -1 */
int m5_free_block_at(const struct m5_lists *m, unsigned long a);

/** m5_pick_free() - the @k-th free block (mod the count); 0 if none */
unsigned long m5_pick_free(const struct m5_lists *m, unsigned long k, int *order);

/** m5_free_bytes() - bytes on the lists */
unsigned long m5_free_bytes(const struct m5_lists *m);

/** m5_largest() - size of the largest listed block, 0 if none */
unsigned long m5_largest(const struct m5_lists *m);

enum { SH_UNKNOWN = 0, SH_FREE, SH_LIVE };

/** struct shadow - one state byte per atom of an arena */
struct shadow {
	unsigned long base, size;
	unsigned char *st;
	unsigned long known, live;	/* bytes */
};

void shadow_init(struct shadow *s, unsigned long base, unsigned long size);
void shadow_fini(struct shadow *s);

/** shadow_all() - are all atoms of [a, a + len) in state @state? */
int shadow_all(const struct shadow *s, unsigned long a, unsigned long len, int state);

/** shadow_any() - is any atom of [a, a + len) in state @state? */
int shadow_any(const struct shadow *s, unsigned long a, unsigned long len, int state);

/** shadow_add() - unknown memory becomes free pool memory */
void shadow_add(struct shadow *s, unsigned long a, unsigned long len);

/** shadow_claim() - a block the engine returned: must be free pool memory */
void shadow_claim(struct shadow *s, unsigned long a, unsigned long len);

/** shadow_release() - a freed block: must have been live */
void shadow_release(struct shadow *s, unsigned long a, unsigned long len);

/** struct m5_block - a live block as the caller knows it */
struct m5_block {
	unsigned long addr;
	int size;			/* as passed to gen_pool_alloc() */
};

/** m5_same_rounding() - a size rounding like @size, varied by @k */
int m5_same_rounding(int size, unsigned k);

#endif /* GENALLOC_TEST_LEGACY_MODEL2005_H */
