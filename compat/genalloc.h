/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/genalloc.h - the 2005 genalloc API (alloc_gen_pool, the 2.6.13
 * four-argument gen_pool_create, gen_pool_alloc(pool, int),
 * gen_pool_free(pool, addr, int)) over either engine of this library.
 *
 * Code written for the 2005 allocator - the ia64 uncached page allocator and
 * the mspec driver above it are the real example - builds against this header
 * unchanged (or against compat/linux/genalloc.h with -Icompat, for
 * "#include <linux/genalloc.h>") and runs on one of two backends, chosen per
 * pool:
 *
 *   buddy   the 2005 buddy allocator itself (legacy/genalloc.h): the same
 *           addresses as in 2005, free-list links written into free blocks.
 *   bitmap  today's kernel engine (modern/genalloc.h): one bit per 32 bytes,
 *           kept outside the managed memory, indexed search.
 *
 * CHOOSING THE BACKEND.  gen_pool_create_backend() names it.  alloc_gen_pool()
 * and gen_pool_create() read the environment variable GENALLOC_BACKEND when
 * the pool is created: "buddy" or "bitmap"; unset or empty means buddy.  Any
 * other value is refused (WARN EINVAL, NULL): a typo must not silently give
 * the other engine.  Pools on both backends may live in one process.
 *
 * THE 2005 CONTRACT, KEPT ON BOTH BACKENDS.
 *  - Sizes are rounded up to a power of two of at least 32 bytes
 *    (ALLOC_MIN_SHIFT); size 0 gives a 32-byte block.  Every block is
 *    aligned to its rounded size.
 *  - A request above the chunk size (2^max_chunk_shift) returns 0 without
 *    calling get_new_chunk; a free above it returns silently.
 *  - When no free block fits, get_new_chunk is called with no lock held and
 *    its chunk (2^max_chunk_shift bytes, aligned to that size) is added to
 *    the pool and used; nr_chunks chunks are obtained at creation.
 *  - Freeing memory the pool has never seen donates it (ia64 seeded its
 *    uncached pools from the EFI memory map that way).  Adjacent donations
 *    serve blocks larger than one donation: on the buddy backend they merge
 *    as buddies; on the bitmap backend each chunk-sized, chunk-aligned frame
 *    that receives a donation is added whole to the engine with its
 *    undonated parts held by the pool, so donations within one frame are
 *    free bits of one chunk and any naturally aligned free run of them can
 *    be allocated - exactly where the buddy could merge.
 *
 * WHAT DIFFERS BETWEEN THE BACKENDS.
 *                 buddy                         bitmap
 *  addresses      the 2005 ones: newest free    lowest naturally aligned
 *                 block of the size first,      free run in the newest
 *                 else split the lowest half    chunk that has one
 *  managed memory free blocks hold two pointers never read or written
 *                 (it must be CPU-writable)     (device memory, MMIO, ...)
 *  bookkeeping    1 byte per 32 bytes           1 byte + 1 bit per 32 bytes
 *                                               (size byte + engine bit; +1
 *                                               bit in donated chunks), for
 *                                               whole chunks even when only
 *                                               a page of one was donated
 *  concurrency    one lock per pool (the        the engine's pool lock per
 *                 library's futex lock, which   alloc and free (its default,
 *                 refuses re-entry)             indexed mode); compat's own
 *                                               lock only serialises growth
 *                                               and donation
 *  speed          O(orders) alloc, O(1) free    O(log chunk) summary-tree
 *                                               search, then the first chunk
 *                                               that can hold the block
 *  fragmentation  buddies merge eagerly; a      any aligned free run serves,
 *                 block splits only on demand   whatever freed it; blocks are
 *                                               packed low in new chunks
 *  callback       if it returns 0, only a       if it returns 0, any block
 *  gives 0        chunk-sized block freed       freed or donated meanwhile
 *                 meanwhile serves the request  that fits serves it
 *  A program that depends on the exact addresses of the 2005 code must use
 *  the buddy backend.
 *
 * THE MANUAL IS legacy/genalloc.h's, on both backends: its ERRORS, THREADS
 * and SIGNALS, and each call's contract and misuse answers, hold here for
 * the call of the same name (compat_gen_pool_alloc() as
 * legacy_gen_pool_alloc(), ...), except where a comment below says what
 * differs.  What differs in every call:
 *  - Reports name the 2005 call (gen_pool_alloc, gen_pool_free, ...);
 *    those from creation, prefill included, name alloc_gen_pool whichever
 *    of its names was called.  The pool named is always the compat pool
 *    the caller holds, whichever engine found the error.  An unknown
 *    backend is one more WARN EINVAL, with the text given in err->arg_text.
 *  - compat_gen_pool_check() wants a quiet pool.
 *  - On the bitmap backend only growth, donation and inspection take the
 *    backend's lock; allocation and free of known memory take the
 *    engine's, so which calls a re-entering signal handler meets locked
 *    (and is refused by, WARN EREENTRY) differs between the backends.
 */
#ifndef GENALLOC_COMPAT_GENALLOC_H
#define GENALLOC_COMPAT_GENALLOC_H

#include <pthread.h>
#include <stdio.h>

#include "../common/api.h"
#include "../common/dump.h"
#include "../common/error.h"
#include "../common/version.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ the pool */

/** ALLOC_MIN_SHIFT - log2 of the smallest block: 32 bytes */
#define ALLOC_MIN_SHIFT		5

/**
 * struct gen_pool_link - the 2005 free-list link type
 * @next: the next free block
 *
 * Kept so that 2005 code naming the type compiles; compat pools keep their
 * lists inside the backend and leave gen_pool.h NULL.
 */
struct gen_pool_link {
	struct gen_pool_link *next;
};

/** enum compat_backend - the engine behind a compat pool */
enum compat_backend {
	COMPAT_BACKEND_DEFAULT = 0,	/* GENALLOC_BACKEND, or buddy if unset */
	COMPAT_BACKEND_BUDDY,		/* legacy/: the 2005 buddy allocator */
	COMPAT_BACKEND_BITMAP,		/* modern/: the kernel's bitmap engine */
};

struct compat_backend_ops;

/**
 * struct gen_pool - a pool of special memory, 2005 layout first
 * @lock:          kept for the 2005 layout, initialised and unused: each
 *                 backend has a lock of its own that refuses re-entry
 * @get_new_chunk: called (no lock held) when a request needs a new chunk;
 *                 returns 2^@max_chunk_shift bytes aligned to that size, or
 *                 0 when there is no more memory
 * @next:          unused, NULL (free for the caller to chain pools)
 * @h:             NULL: the free lists live inside the backend
 * @private:       the @data argument of alloc_gen_pool(), for the callback
 *                 (@private_ in C++, where private is a keyword)
 * @max_chunk_shift: log2 of the chunk size (and of the largest block)
 *
 * The fields after @max_chunk_shift belong to compat; do not use them.
 */
struct gen_pool {
	pthread_mutex_t lock;
	unsigned long (*get_new_chunk)(struct gen_pool *);
	struct gen_pool *next;
	struct gen_pool_link *h;
#ifndef __cplusplus
	unsigned long private;
#else
	unsigned long private_;	/* the same member: private is C++'s keyword */
#endif
	int max_chunk_shift;

	/* private to compat/ */
	enum compat_backend backend;
	const struct compat_backend_ops *ops;
	void *engine;
};

/**
 * compat_gen_pool_create_backend() - create a pool on a named backend
 * @backend:         COMPAT_BACKEND_BUDDY, COMPAT_BACKEND_BITMAP, or
 *                   COMPAT_BACKEND_DEFAULT to read GENALLOC_BACKEND
 * @nr_chunks:       chunks to obtain from @get_new_chunk right away
 * @max_chunk_shift: log2 of the chunk size; 0 means the page shift
 * @get_new_chunk:   where chunks come from; may be NULL for a pool fed only
 *                   by donation (then @nr_chunks must be 0)
 * @data:            stored in pool->private for the callback
 *
 * As legacy_alloc_gen_pool(), prefill and misuse included; in addition an
 * unknown @backend or GENALLOC_BACKEND value is WARN EINVAL, NULL.  On the
 * bitmap backend a prefill chunk that finds no memory for the engine's
 * record is kept aside (see compat_gen_pool_alloc()).  The callback already
 * sees the finished pool (->private, ->max_chunk_shift) and may free
 * (donate) into it, as in 2005.
 *
 * Return: the pool, or NULL (misuse, or no memory for the bookkeeping).
 */
GENALLOC_API struct gen_pool *compat_gen_pool_create_backend(enum compat_backend backend,
		int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data);

/**
 * compat_alloc_gen_pool() - create a pool on the environment's backend
 * @nr_chunks:       as for compat_gen_pool_create_backend()
 * @max_chunk_shift: as for compat_gen_pool_create_backend()
 * @get_new_chunk:   as for compat_gen_pool_create_backend()
 * @data:            as for compat_gen_pool_create_backend()
 *
 * The same as compat_gen_pool_create_backend(COMPAT_BACKEND_DEFAULT, ...).
 *
 * Return: the pool, or NULL.
 */
GENALLOC_API struct gen_pool *compat_alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data);

/**
 * compat_gen_pool_destroy() - free a pool's bookkeeping
 * @pool: the pool, or NULL (nothing happens)
 *
 * As legacy_gen_pool_destroy(), live blocks (BUG EBUSY, with their bytes,
 * how many there are and the first few addresses in err->nr_live and
 * err->live) included: release the chunks with
 * compat_gen_pool_for_each_region() first.
 */
GENALLOC_API void compat_gen_pool_destroy(struct gen_pool *pool);

/**
 * compat_gen_pool_backend() - which engine a pool runs on
 * @pool: the pool
 *
 * Return: COMPAT_BACKEND_BUDDY or COMPAT_BACKEND_BITMAP (never DEFAULT);
 * COMPAT_BACKEND_DEFAULT for a NULL @pool (WARN EINVAL).
 */
GENALLOC_API enum compat_backend compat_gen_pool_backend(const struct gen_pool *pool);

/* ------------------------------------------------------- alloc and free */

/**
 * compat_gen_pool_alloc() - allocate a block
 * @pool: the pool
 * @size: bytes wanted; rounded up to a power of two, at least 32
 *
 * As legacy_gen_pool_alloc(), rounding, callback, out-of-memory answers
 * and misuse included.  On the bitmap backend, where the block lies
 * differs (see the table above); when get_new_chunk returns 0, any block
 * freed or donated meanwhile that fits (even by the callback itself)
 * serves the request, where the buddy uses only a chunk-sized one; and the
 * backend needs memory once more after the callback, for the engine's
 * record of the chunk: without it the chunk is kept aside - not free, not
 * in obtained_bytes, but visited by compat_gen_pool_for_each_region() -
 * and the next growth takes it instead of calling get_new_chunk, so each
 * chunk is still asked for once.  Allocating from memory the pool already
 * has allocates nothing, on either backend.
 *
 * Return: the block's address, or 0 if no memory could be had.
 */
GENALLOC_API unsigned long compat_gen_pool_alloc(struct gen_pool *pool, int size);

/**
 * compat_gen_pool_free() - free or donate a block
 * @pool: the pool
 * @addr: the block's address, as gen_pool_alloc() returned it
 * @size: the size passed to gen_pool_alloc() (any size with the same
 *        rounding is accepted)
 *
 * As legacy_gen_pool_free(), donation and every misuse verdict included,
 * on both backends.  Freeing a block allocates nothing.  How a donation is
 * kept on the bitmap backend: the table above.
 */
GENALLOC_API void compat_gen_pool_free(struct gen_pool *pool, unsigned long addr, int size);

/* ------------------------------------------------------------ inspection */

/**
 * compat_gen_pool_check() - verify the pool's consistency
 * @pool: the pool
 *
 * Runs the backend engine's own checker, plus (bitmap) compat's own: every
 * bit of the engine's bitmaps must be what compat's records predict (live
 * blocks and held undonated memory set, the rest clear), and free bytes
 * must equal known bytes less live blocks.  Call it on a quiet pool: with
 * allocations in flight it may report a false ECORRUPT.
 *
 * Misuse: NULL @pool: WARN EINVAL, -1.
 *
 * Return: 0 if consistent; otherwise reports BUG ECORRUPT and returns -1.
 */
GENALLOC_API int compat_gen_pool_check(struct gen_pool *pool);

/**
 * compat_gen_pool_stats() - read a pool's statistics
 * @pool: the pool
 * @st:   filled in
 *
 * Misuse: NULL @pool or @st: WARN EINVAL, @st untouched.
 */
GENALLOC_API void compat_gen_pool_stats(struct gen_pool *pool, struct compat_gen_pool_stats *st);

/**
 * compat_gen_pool_for_each_region() - visit the memory the pool knows
 * @pool: the pool
 * @fn:   called once per chunk obtained from the callback (@from_callback 1,
 *        @size the chunk size; a chunk kept aside for want of memory, see
 *        gen_pool_alloc(), included) and once per maximal run of contiguous
 *        donated memory (@from_callback 0), in no particular order
 * @data: passed to @fn
 *
 * As legacy_gen_pool_for_each_region(), misuse and the lock held around
 * @fn included; on the bitmap backend a chunk kept aside is visited too.
 */
GENALLOC_API void compat_gen_pool_for_each_region(struct gen_pool *pool,
	void (*fn)(struct gen_pool *pool, unsigned long addr, unsigned long size,
		   int from_callback, void *data),
	void *data);

/**
 * typedef compat_gen_pool_block_fn - a visitor of compat_gen_pool_for_each_block()
 * @pool:       the pool
 * @chunk:      first address of the stretch of pool memory holding the run
 * @chunk_size: its bytes
 * @addr:       the run's first address
 * @size:       its bytes
 * @used:       1 for a live block, 0 for a run of free memory
 * @data:       as given to the walk
 *
 * Return: 0 to go on; anything else stops the walk, which returns it.
 */
typedef int (*compat_gen_pool_block_fn)(struct gen_pool *pool, unsigned long chunk,
					unsigned long chunk_size, unsigned long addr,
					unsigned long size, int used, void *data);

/**
 * compat_gen_pool_for_each_block() - visit every block, in address order
 * @pool: the pool
 * @fn:   called once per live block and once per maximal run of free
 *        memory between blocks
 * @data: passed to @fn
 *
 * As legacy_gen_pool_for_each_block(), on both backends alike (chunks,
 * runs, order, lock, misuse and return values); a chunk kept aside for
 * want of memory is not visited.
 */
GENALLOC_API int compat_gen_pool_for_each_block(struct gen_pool *pool,
						compat_gen_pool_block_fn fn, void *data);

/**
 * compat_gen_pool_dump() - write the pool's layout to a file
 * @pool:   the pool
 * @f:      where to write
 * @format: GENALLOC_DUMP_TEXT or GENALLOC_DUMP_JSON (common/dump.h; engine
 *          "compat-buddy" or "compat-bitmap", granule 32, "block_kind":
 *          "blocks")
 *
 * As legacy_gen_pool_dump(), misuse and return values included; only the
 * engine's name in the dump differs.
 */
GENALLOC_API int compat_gen_pool_dump(struct gen_pool *pool, FILE *f, int format);

/* ----------------------------------------------------- the 2005 names */

/** alloc_gen_pool() - see compat_alloc_gen_pool() */
static inline struct gen_pool *alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*fp)(struct gen_pool *), unsigned long data)
{
	return compat_alloc_gen_pool(nr_chunks, max_chunk_shift, fp, data);
}

/** gen_pool_create() - the 2.6.13 name of alloc_gen_pool() */
static inline struct gen_pool *gen_pool_create(int nr_chunks, int max_chunk_shift,
		unsigned long (*fp)(struct gen_pool *), unsigned long data)
{
	return compat_alloc_gen_pool(nr_chunks, max_chunk_shift, fp, data);
}

/** gen_pool_create_backend() - gen_pool_create() on a named backend */
static inline struct gen_pool *gen_pool_create_backend(enum compat_backend backend,
		int nr_chunks, int max_chunk_shift,
		unsigned long (*fp)(struct gen_pool *), unsigned long data)
{
	return compat_gen_pool_create_backend(backend, nr_chunks, max_chunk_shift, fp, data);
}

/** gen_pool_alloc() - see compat_gen_pool_alloc() */
static inline unsigned long gen_pool_alloc(struct gen_pool *poolp, int size)
{
	return compat_gen_pool_alloc(poolp, size);
}

/** gen_pool_free() - see compat_gen_pool_free() */
static inline void gen_pool_free(struct gen_pool *poolp, unsigned long ptr, int size)
{
	compat_gen_pool_free(poolp, ptr, size);
}

/** gen_pool_destroy() - see compat_gen_pool_destroy() */
static inline void gen_pool_destroy(struct gen_pool *poolp)
{
	compat_gen_pool_destroy(poolp);
}

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_COMPAT_GENALLOC_H */
