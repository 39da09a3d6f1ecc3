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
 *  concurrency    one mutex per pool            the engine's pool mutex per
 *                                               alloc and free (its default,
 *                                               indexed mode); the compat
 *                                               mutex only serialises growth
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
 * ERRORS go through the library-wide hook (common/error.h), as in the
 * engines: every misuse is found before anything is written and, if the hook
 * returns, the call returns its failure value with the pool unchanged.  BUG
 * (the default hook aborts): double free (EDOUBLEFREE), free with the wrong
 * size (ESIZE), free inside a live block (EFOREIGN), misaligned free or
 * donation (EMISALIGNED), donation overlapping known memory (EOVERLAP), a
 * range that wraps the address space (ERANGE), destroy with live blocks
 * (EBUSY), a bad chunk from get_new_chunk (EMISALIGNED, ERANGE, EOVERLAP:
 * the chunk is not used).  WARN (printed, then the call fails): NULL pool,
 * negative size, address 0, bad max_chunk_shift, negative nr_chunks, an
 * unknown backend (all EINVAL; a bad max_chunk_shift, nr_chunks, backend or
 * negative size is named in err->arg with its value in err->arg_value, a
 * bad GENALLOC_BACKEND with the text given in err->arg_text, and every
 * message is the buddy engine's).  The function named in a report is the
 * 2005 name of the call (gen_pool_alloc, gen_pool_free, ...); reports from
 * creation, prefill included, name alloc_gen_pool whichever of its names
 * was called (gen_pool_create, gen_pool_create_backend).  The pool named
 * in a report is always the compat pool the caller holds, on both
 * backends, whichever engine found the error.
 *
 * THREADS.  All calls on one pool may run concurrently, except
 * gen_pool_destroy(), which must be the last, and compat_gen_pool_check(),
 * which wants a quiet pool.  get_new_chunk runs with no pool lock held; it
 * may donate into the pool.  It may allocate from the pool too, but on
 * either backend a request the pool cannot serve from the memory it has
 * calls get_new_chunk again, from inside this call: such a callback must
 * bound its own recursion.  compat_gen_pool_stats() may run at any time and
 * reads one state of the pool on either backend.
 *
 * SIGNALS.  No call is async-signal-safe.  A signal handler (or a callback)
 * that calls into a pool while its own thread is inside a locked call on
 * that pool is refused instead of waiting for itself forever: WARN
 * EREENTRY and the call's failure value (a free frees nothing).  On the
 * bitmap backend only growth, donation and inspection take the backend's
 * lock; allocation and free of known memory take the engine's, so which
 * calls meet a held lock differs between the backends.  A handler that
 * interrupts a thread outside the pool is served as usual.
 */
#ifndef GENALLOC_COMPAT_GENALLOC_H
#define GENALLOC_COMPAT_GENALLOC_H

#include <pthread.h>
#include <stdio.h>

#include "../common/api.h"
#include "../common/dump.h"
#include "../common/error.h"
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
 * @get_new_chunk is called up to @nr_chunks times, stopping at the first 0,
 * at a bad chunk (reported as in gen_pool_alloc()) or where there is no
 * memory to record one more chunk (as in gen_pool_alloc(): the callback is
 * not called, or on the bitmap backend its chunk may be kept aside); the
 * pool is returned either way, with the chunks it could record.  The
 * callback already sees the finished pool (->private, ->max_chunk_shift)
 * and may free (donate) into it, as in 2005.
 *
 * Misuse (WARN EINVAL, NULL): an unknown @backend or GENALLOC_BACKEND value;
 * @max_chunk_shift negative, between 1 and ALLOC_MIN_SHIFT - 1, or above the
 * page shift + 10; a negative @nr_chunks; @nr_chunks > 0 with no callback.
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
 * The managed memory is neither read nor written, and chunks obtained from
 * the callback are not given back (2005 had no way to): release them with
 * compat_gen_pool_for_each_region() first.
 *
 * Misuse: live blocks still allocated: BUG EBUSY, with their bytes, how
 * many there are and the first few addresses (err->nr_live, err->live);
 * if the hook returns, the pool is not destroyed and stays usable.
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
 * The block is aligned to its rounded size.  Where it lies depends on the
 * backend (see the table above).  If no free block fits, get_new_chunk is
 * called (no lock held), its chunk added, and the request retried.  If it
 * returns 0, a block freed or donated meanwhile (even by the callback
 * itself) is still used on the bitmap backend; the buddy backend, like the
 * 2005 code, then looks only at the chunk-sized list, so it uses such a
 * block only if it is chunk-sized (2005 lost even that one) and otherwise
 * returns 0, the smaller block staying free for the next request.
 *
 * @size above the chunk size: 0, the callback is not called, no report.
 *
 * Out of memory for the pool's own bookkeeping: 0, no report, and no chunk
 * is ever lost.  The record of a new chunk is allocated before
 * get_new_chunk is called; without it the callback is not called and the
 * pool is unchanged.  The bitmap backend needs memory once more after the
 * callback, for the engine's record of the chunk; without it the chunk is
 * kept aside - not free, not in obtained_bytes, but visited by
 * compat_gen_pool_for_each_region() - and the next growth takes it instead
 * of calling get_new_chunk.  Either way each chunk is asked for once, and
 * the pool grows through the same chunks as one that never ran short.
 * Allocating from memory the pool already has allocates nothing, on either
 * backend; nor does freeing a block it gave.
 *
 * Misuse: NULL @pool or negative @size: WARN EINVAL, 0.  A chunk from the
 * callback misaligned to the chunk size (BUG EMISALIGNED), wrapping the
 * address space (BUG ERANGE) or overlapping known memory (BUG EOVERLAP) is
 * not used and 0 is returned.
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
 * If [@addr, @addr + rounded @size) lies wholly outside the memory the pool
 * knows, it is donated: it becomes pool memory (donated_bytes) and is free.
 *
 * @size above the chunk size: nothing happens, no report (2005), once the
 * three WARN checks below have passed (a NULL @pool, a negative @size or
 * @addr 0 is reported first).
 *
 * Misuse (nothing changes when the hook returns):
 *  - NULL @pool, negative @size, @addr 0: WARN EINVAL.
 *  - the range wraps past the end of the address space: BUG ERANGE.
 *  - @addr is a live block of another rounded size: BUG ESIZE.
 *  - @addr is inside a live block but not its start: BUG EFOREIGN.
 *  - @addr is known memory but no live block (a free block, or inside
 *    one): BUG EDOUBLEFREE.
 *  - unknown @addr not aligned to the rounded size: BUG EMISALIGNED.
 *  - unknown @addr whose range overlaps known memory: BUG EOVERLAP.
 *  - a donation that cannot be recorded (out of memory): WARN EINVAL.
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
 * Meant for releasing the memory before gen_pool_destroy().  @fn must not
 * call into the pool.
 *
 * Misuse: NULL @pool or @fn: WARN EINVAL.
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
 * Not in the 2005 API.  Both backends answer alike: the pool's memory as
 * "chunks", each a maximal stretch of pool memory inside one
 * 2^max_chunk_shift frame (a chunk from the callback is one; donated
 * memory may make several; a chunk kept aside for want of memory is not
 * visited), in address order, each tiled by its runs in address order.
 * The buddy backend's free runs may hold several free buddy blocks.  @fn
 * runs with the pool locked: it must not call into the pool.
 *
 * Misuse: NULL @pool or @fn: WARN EINVAL, -EINVAL.  Called from @fn, or
 * from a signal handler that interrupted a call holding the pool's lock:
 * WARN EREENTRY, -EDEADLK.
 *
 * Return: 0, what @fn returned to stop the walk, -EINVAL, -EDEADLK, or
 * -ENOMEM (no memory to sort the frames; nothing visited).
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
 * Not in the 2005 API.  One compat_gen_pool_for_each_block() walk, under
 * the pool's lock: safe while other threads allocate, who wait for it.
 *
 * Misuse: NULL @pool or @f, an unknown @format: WARN EINVAL, -EINVAL.
 *
 * Return: 0, -EINVAL, -EDEADLK, -ENOMEM, or -EIO when writing failed.
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
