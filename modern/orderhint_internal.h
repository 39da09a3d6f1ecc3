/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/orderhint_internal.h - per-block bounds on the largest aligned
 * request of one grid family that can fit, for the aligned searches
 * (gen_pool_first_fit_order_align() and gen_pool_first_fit_align(), in
 * alignfit.c; not installed); modern/orderhint.c states the design.
 */
#ifndef GENALLOC_MODERN_ORDERHINT_INTERNAL_H
#define GENALLOC_MODERN_ORDERHINT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds are kept up to here; a request above it is not hinted. */
#define MODERN_OHINT_CAP 0x7fffUL
#define MODERN_OHINT_LEVELS 9	/* 2^23 blocks and eight levels of 8 above */
/* "No block", from modern_ohint_next(). */
#define MODERN_OHINT_NONE (~0UL)

/**
 * struct modern_ohint - bounds over the blocks of one index
 * @mask:    the grid family bounded (the index sets it): a fixed grid
 *           (p + @off) & @mask == 0, or MODERN_INDEX_ORDER_GRID for
 *           order-aligned fit, where each request has its own grid
 * @off:     the fixed grid's offset, below @mask + 1
 * @nlevels: levels, the blocks included; the last has one node
 * @count:   entries per level
 * @v:       @v[0][b] is block b's bound; @v[l][i] the maximum of its 8
 *           children on level l - 1.  Each level is padded with zeros to
 *           whole nodes.
 *
 * Here rather than in orderhint.c so that the index's updates test a
 * block's bound inline: most leave it as it is.
 */
struct modern_ohint {
	unsigned long mask;
	unsigned long off;
	unsigned int nlevels;
	uint32_t count[MODERN_OHINT_LEVELS];
	uint16_t *v[MODERN_OHINT_LEVELS];
};

static inline uint16_t modern_ohint_clamp(unsigned long v)
{
	return (uint16_t)(v < MODERN_OHINT_CAP ? v : MODERN_OHINT_CAP);
}

/** modern_ohint_bytes() - bookkeeping of hints over @nblocks blocks */
size_t modern_ohint_bytes(unsigned long nblocks);

/** modern_ohint_create() - hints over @nblocks blocks, all 0; or NULL */
struct modern_ohint *modern_ohint_create(unsigned long nblocks);

/** modern_ohint_destroy() - free them (NULL is a no-op) */
void modern_ohint_destroy(struct modern_ohint *oh);

/* The tree walks of modern_ohint_raise() and modern_ohint_lower(), for a
 * bound that moves to @m. */
void modern_ohint_raise_slow(struct modern_ohint *oh, unsigned long b, uint16_t m);
void modern_ohint_lower_slow(struct modern_ohint *oh, unsigned long b, uint16_t m);

/** modern_ohint_get() - block @b's bound */
static inline unsigned long modern_ohint_get(const struct modern_ohint *oh, unsigned long b)
{
	return oh->v[0][b];
}

/**
 * modern_ohint_load() - set block @b's bound to min(@v, MODERN_OHINT_CAP)
 * without touching the tree above it: for a build, which ends with
 * modern_ohint_summarise()
 */
void modern_ohint_load(struct modern_ohint *oh, unsigned long b, unsigned long v);

/** modern_ohint_summarise() - recompute every node above the blocks */
void modern_ohint_summarise(struct modern_ohint *oh);

/**
 * modern_ohint_raise() - block @b's bound becomes at least
 * min(@v, MODERN_OHINT_CAP): a run in it started or grew to @v
 */
static inline void modern_ohint_raise(struct modern_ohint *oh, unsigned long b, unsigned long v)
{
	if (oh->v[0][b] < modern_ohint_clamp(v))
		modern_ohint_raise_slow(oh, b, modern_ohint_clamp(v));
}

/**
 * modern_ohint_lower() - block @b's bound becomes at most
 * min(@v, MODERN_OHINT_CAP): nothing larger fits there now
 */
static inline void modern_ohint_lower(struct modern_ohint *oh, unsigned long b, unsigned long v)
{
	if (oh->v[0][b] > modern_ohint_clamp(v))
		modern_ohint_lower_slow(oh, b, modern_ohint_clamp(v));
}

/**
 * modern_ohint_next() - the first block at or after @b whose bound is at
 * least @nr (1 <= @nr <= MODERN_OHINT_CAP), or MODERN_OHINT_NONE
 */
unsigned long modern_ohint_next(const struct modern_ohint *oh, unsigned long b,
				unsigned long nr);

/** modern_ohint_verify() - is every node the maximum of its children? */
bool modern_ohint_verify(const struct modern_ohint *oh);

#endif /* GENALLOC_MODERN_ORDERHINT_INTERNAL_H */
