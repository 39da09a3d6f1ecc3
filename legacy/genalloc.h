/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/genalloc.h - the 2005 general purpose allocator (Jes Sorensen's
 * genalloc, itself taken from the sym53c8xx_2 driver), in user space.
 *
 * A pool hands out naturally aligned power-of-two blocks of "special"
 * memory (device memory, uncached memory, ...) that the program obtains
 * itself, one chunk of 2^max_chunk_shift bytes at a time, through the pool's
 * get_new_chunk callback.  Requests are rounded up to a power of two of at
 * least 32 bytes (ALLOC_MIN_SHIFT); the allocator is a binary buddy system:
 * one LIFO free list per order, a larger block split in halves (the lower half
 * goes on, the upper half onto the next smaller list), and a freed block
 * merged with its buddy (address XOR size) up to the chunk size.
 *
 * Placement is the 2005 code's, address for address: a program that ran on
 * the 2005 allocator gets the same addresses here, single-threaded.
 *
 * WHAT THIS ENGINE WRITES INTO THE MEMORY IT MANAGES.  As in 2005, the free
 * lists live inside the free blocks: the first two pointers (16 bytes on
 * LP64) of every FREE block hold the list links.  The managed memory must
 * therefore be ordinary readable and writable memory in this address space,
 * and a program must not touch a block after freeing it.  Live (allocated)
 * blocks are never read or written by the pool.  Everything else (the
 * out-of-band control map, one byte per 32-byte atom, used to check every
 * free) lives in malloc()ed memory.  If the memory cannot be written by the
 * CPU, use the compat/ API with the bitmap backend instead.
 *
 * ALIGNMENT.  Every chunk returned by get_new_chunk must be aligned to the
 * maximum chunk size, 2^max_chunk_shift bytes, because buddies are found by
 * XOR on the absolute address.  Memory handed over by freeing it (a
 * "donation", below) must be aligned to its rounded size.
 *
 * DONATION.  Freeing a range that lies wholly outside every region the pool
 * knows adds it to the pool, as in 2005: ia64 seeded its uncached pools that
 * way.  The range becomes a free block of the rounded size and merges with
 * free buddies exactly as a freed block does.
 *
 * ERRORS.  Every misuse is detected before anything is written, reported
 * through the library-wide hook (common/error.h) and, if the hook returns,
 * answered with the failure value stated below while the pool stays exactly
 * as it was.  BUG reports (misuse that would have corrupted the pool) abort
 * the process under the default hook; WARN reports (refused requests) print
 * one line and return.  The hook is called with the pool unlocked, so a
 * handler that returns may inspect the pool.
 *
 * THREADS.  Each pool has one lock, the library's own (the word lock_word,
 * common/lock_internal.h: a compare-and-swap, then a futex sleep when
 * another thread holds it), where 2005 had a spinlock; the pthread mutex in
 * the pool's lock member is kept for the 2005 layout and never taken.  All
 * calls on one pool may run concurrently, except gen_pool_destroy(), which
 * must be the last call on the pool.  get_new_chunk is called with the lock
 * dropped, so it may itself free (donate) memory into the pool.  It may
 * allocate from the pool too, but a request the pool cannot serve from the
 * memory it has calls get_new_chunk again, from inside this call: such a
 * callback must bound its own recursion.
 *
 * SIGNALS.  No call is async-signal-safe.  A signal handler (or a
 * get_new_chunk or region callback) that calls into a pool while its own
 * thread is inside a locked call on that pool is refused instead of waiting
 * for itself forever: WARN EREENTRY, and the call's failure value (0 from
 * gen_pool_alloc(); gen_pool_free() frees nothing, so the block stays
 * allocated).  A handler that interrupts a thread outside the pool, or
 * another thread's call, is served as usual.
 *
 * DIFFERENCES FROM THE 2005 CODE (deliberate; same addresses otherwise):
 *  - Blocks freed by other threads while get_new_chunk runs are kept: the
 *    new chunk is pushed onto its list instead of overwriting the list head,
 *    and split halves are pushed instead of overwriting the list they go to.
 *    If the callback returns 0 but a chunk-sized block was freed meanwhile,
 *    that block is used.
 *  - The lock is the library's futex lock in lock_word, which refuses a
 *    thread that already holds it (SIGNALS) instead of spinning forever;
 *    the pool has a gen_pool_destroy().
 *  - Misuse is detected and reported instead of corrupting the lists: a
 *    negative size, a NULL pool, an address 0, a double free, a free with the
 *    wrong size, a misaligned address, a free inside a known region that is
 *    not a live block, a donation overlapping known memory, a bad chunk from
 *    the callback, a range wrapping past the end of the address space.
 *  - alloc_gen_pool() reports a bad max_chunk_shift or nr_chunks through the
 *    hook (2005 returned NULL silently) and refuses a negative nr_chunks;
 *    it does not print each prefilled chunk.
 *  - The buddy test is a constant-time look-up in the control map instead of
 *    a walk of the free list (same result);
 *    legacy_gen_pool_set_linear_search() restores the walk.
 *  - PAGE_SHIFT is the run-time page size's shift (sysconf(_SC_PAGESIZE)).
 *  - The pool keeps records (malloc()ed) that 2005 did not: without memory
 *    for a new chunk's record, get_new_chunk is not called and the request
 *    (or the prefill) fails; a donation without memory for its record is
 *    refused.
 */
#ifndef GENALLOC_LEGACY_GENALLOC_H
#define GENALLOC_LEGACY_GENALLOC_H

#include <pthread.h>
#include <stdio.h>

#include "../common/api.h"
#include "../common/dump.h"
#include "../common/error.h"
#include "../common/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ the pool */

/** ALLOC_MIN_SHIFT - log2 of the smallest block: 32 bytes */
#define ALLOC_MIN_SHIFT		5

/**
 * struct gen_pool_link - the free-list link stored in a free block
 * @next: the next free block of the same order (NULL at the end)
 * @prev: the previous block, or the list head in the pool
 *
 * The 2005 link had only @next; @prev lets a merging buddy leave its list in
 * constant time.  The list order (newest first) is the 2005 order.
 */
struct gen_pool_link {
	struct gen_pool_link *next;
	struct gen_pool_link *prev;
};

struct legacy_frame_table;

/**
 * struct gen_pool - a pool of special memory
 * @lock:          kept for the 2005 layout, initialised and unused: the
 *                 pool's lock is private, a lock that refuses (rather than
 *                 waits for) a thread that already holds it
 * @get_new_chunk: called (lock dropped) when a request needs a new chunk;
 *                 returns a chunk of 2^@max_chunk_shift bytes aligned to
 *                 its size, or 0 when there is no more memory
 * @next:          unused, NULL (kept from 2005 for code that lists pools)
 * @h:             the free-list heads, one per order: h[0] is 32 bytes,
 *                 h[max_chunk_shift - ALLOC_MIN_SHIFT] the chunk size
 * @private:       the @data argument of alloc_gen_pool(), for the callback
 *                 (@private_ in C++, where private is a keyword)
 * @max_chunk_shift: log2 of the chunk size (and of the largest block)
 *
 * The fields after @max_chunk_shift are the engine's own; do not use them.
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

	/* private to legacy/ */
#ifdef __cplusplus
	unsigned int lock_word;		/* the same member, as its plain type */
#else
	_Atomic unsigned int lock_word;	/* the pool's lock (common/lock_internal.h) */
#endif
	int nr_orders;			/* entries in h[] */
	int linear_search;		/* find buddies by walking h[] */
	struct legacy_frame_table *frames; /* control map: the frames by address */
	unsigned long obtained_bytes;
	unsigned long donated_bytes;
	unsigned long free_bytes;
	unsigned long metadata_bytes;
	unsigned long nr_free[32];
	const void *report_pool;	/* the pool reports name: NULL, this one */
};

/**
 * legacy_alloc_gen_pool() - create a pool (kernel name: alloc_gen_pool)
 * @nr_chunks:       chunks to obtain from @get_new_chunk right away
 * @max_chunk_shift: log2 of the chunk size; 0 means the page shift
 * @get_new_chunk:   where chunks come from (may be NULL if the pool is only
 *                   ever fed by donation and @nr_chunks is 0)
 * @data:            stored in pool->private for the callback
 *
 * Calls @get_new_chunk up to @nr_chunks times, stopping at the first 0, and
 * puts each chunk on the free list of the chunk size (the last one first).
 * A bad chunk from the callback is reported as in gen_pool_alloc() and ends
 * the prefill; the pool is still returned.  So does a lack of memory to
 * record one more chunk (the callback is then not called, as in
 * gen_pool_alloc()): the pool is returned with the chunks it could record,
 * the same as a pool created with that smaller @nr_chunks.
 *
 * Misuse: @max_chunk_shift above page shift + 10, negative, or between 1
 * and ALLOC_MIN_SHIFT - 1, a negative @nr_chunks, or @nr_chunks > 0 with a
 * NULL @get_new_chunk: WARN EINVAL, NULL; the report names the argument
 * (err->arg) and carries the value given (err->arg_value).
 *
 * Return: the pool, or NULL (bad argument, or out of memory for the pool's
 * own bookkeeping).
 */
GENALLOC_API struct gen_pool *legacy_alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*get_new_chunk)(struct gen_pool *), unsigned long data);

/**
 * legacy_gen_pool_destroy() - free a pool's bookkeeping (gen_pool_destroy)
 * @pool: the pool, or NULL (nothing happens)
 *
 * Frees the pool structure, its list heads and its control map.  The
 * managed memory is neither read nor written, and chunks obtained from the
 * callback are NOT given back (2005 had no way to): release them first with
 * legacy_gen_pool_for_each_region(), or after, if you kept their addresses.
 *
 * Misuse: live blocks still allocated: BUG EBUSY; if the hook returns the
 * pool is NOT destroyed and stays usable.
 */
GENALLOC_API void legacy_gen_pool_destroy(struct gen_pool *pool);

/* ------------------------------------------------------- alloc and free */

/**
 * legacy_gen_pool_alloc() - allocate a block (kernel name: gen_pool_alloc)
 * @pool: the pool
 * @size: bytes wanted; rounded up to a power of two, at least 32
 *
 * Takes the newest free block of the rounded size; failing that, splits the
 * smallest larger free block, keeping the lower half and putting each upper
 * half on its list; failing that, calls get_new_chunk (lock dropped) and
 * splits the new chunk.  The block is aligned to its rounded size.
 *
 * @size 0 gives a 32-byte block (as in 2005).  @size above the chunk size
 * returns 0 without calling the callback and without a report (2005).
 *
 * Out of memory for its own bookkeeping: the record of a new chunk (its
 * frame, and room for it in the frame table) is secured before
 * get_new_chunk is called, so that no chunk is ever obtained and then lost.
 * Without memory for it the callback is not called and the call returns 0
 * with the pool unchanged (no report); a later call with memory to spare
 * calls it as if this one had never happened.  A frame table that cannot
 * double keeps its size (look-ups probe longer) while it has room: only a
 * full one fails the call.
 *
 * Misuse: NULL @pool or negative @size: WARN EINVAL, 0 (a negative size is
 * reported as err->arg "size" with its value).  A chunk from the
 * callback that is misaligned to the chunk size (BUG EMISALIGNED), wraps
 * the address space (BUG ERANGE) or overlaps memory the pool knows (BUG
 * EOVERLAP) is not used; the call then returns 0 (unless another thread
 * freed a chunk-sized block meanwhile, which is used instead).
 *
 * Return: the block's address, or 0 if no memory could be had.
 */
GENALLOC_API unsigned long legacy_gen_pool_alloc(struct gen_pool *pool, int size);

/**
 * legacy_gen_pool_free() - free or donate a block (kernel name: gen_pool_free)
 * @pool: the pool
 * @addr: the block's address, as gen_pool_alloc() returned it
 * @size: the size passed to gen_pool_alloc() (any size with the same
 *        rounding is accepted)
 *
 * Puts the block back and merges it with its free buddy, again and again, up
 * to the chunk size.  If [@addr, @addr + rounded @size) lies wholly outside
 * every region the pool knows, the range is donated: it becomes pool memory
 * (counted in donated_bytes) and is freed the same way.
 *
 * @size above the chunk size: nothing happens, no report (2005), once the
 * three WARN checks below have passed (a NULL @pool, a negative @size or
 * @addr 0 is reported first).
 *
 * Misuse (nothing is changed when the hook returns):
 *  - NULL @pool, negative @size, @addr 0: WARN EINVAL.
 *  - the range wraps past the end of the address space: BUG ERANGE.
 *  - @addr is a live block allocated with another rounded size: BUG ESIZE.
 *  - @addr is a free block, or inside one: BUG EDOUBLEFREE.
 *  - @addr is not aligned to the rounded size (and is no block): BUG
 *    EMISALIGNED; this covers misaligned donations.
 *  - @addr is inside a live block but not its start: BUG EFOREIGN.
 *  - @addr is outside known memory but the range overlaps it: BUG EOVERLAP.
 *  - a donation that cannot be recorded (out of memory for the control
 *    map): WARN EINVAL, refused.
 */
GENALLOC_API void legacy_gen_pool_free(struct gen_pool *pool, unsigned long addr, int size);

/* ------------------------------------------------ inspection and tuning */

/**
 * legacy_gen_pool_check() - verify the pool's consistency
 * @pool: the pool
 *
 * Walks every free list and the whole control map under the lock: each list
 * entry is a free block of the list's order, aligned to its size, inside
 * known memory, with consistent back links; the lists hold exactly the free
 * blocks the map records; no two free buddies are left unmerged; blocks
 * tile each region without overlap; the byte and block counters match.
 *
 * Misuse: NULL @pool: WARN EINVAL, -1.
 *
 * Return: 0 if consistent; otherwise reports BUG ECORRUPT and returns -1.
 */
GENALLOC_API int legacy_gen_pool_check(struct gen_pool *pool);

/**
 * struct legacy_gen_pool_stats - what a pool holds
 * @obtained_bytes: bytes obtained from get_new_chunk (including prefill)
 * @donated_bytes:  bytes donated by freeing memory the pool never saw
 * @free_bytes:     bytes in free blocks
 * @largest_free:   size of the largest free block, bytes (0 if none)
 * @nr_free:        free blocks per order index (0 = 32 bytes)
 * @metadata_bytes: bytes of out-of-band bookkeeping the pool malloc()ed
 */
struct legacy_gen_pool_stats {
	unsigned long obtained_bytes;
	unsigned long donated_bytes;
	unsigned long free_bytes;
	unsigned long largest_free;
	unsigned long nr_free[32];
	unsigned long metadata_bytes;
};

/**
 * legacy_gen_pool_stats() - read a pool's statistics
 * @pool: the pool
 * @st:   filled in (a consistent snapshot, taken under the lock)
 *
 * Misuse: NULL @pool or @st: WARN EINVAL, @st untouched.
 */
GENALLOC_API void legacy_gen_pool_stats(struct gen_pool *pool, struct legacy_gen_pool_stats *st);

/**
 * legacy_gen_pool_for_each_region() - visit the memory the pool knows
 * @pool: the pool
 * @fn:   called once per chunk obtained from the callback (@from_callback 1,
 *        @size the chunk size) and once per maximal run of contiguous
 *        donated memory (@from_callback 0); in no particular order
 * @data: passed to @fn
 *
 * Meant for releasing the memory before gen_pool_destroy().  @fn runs with
 * the pool's lock held: a call it makes into the pool is refused (WARN
 * EREENTRY and that call's failure value).
 *
 * Misuse: NULL @pool or @fn: WARN EINVAL.
 */
GENALLOC_API void legacy_gen_pool_for_each_region(struct gen_pool *pool,
	void (*fn)(struct gen_pool *pool, unsigned long addr, unsigned long size,
		   int from_callback, void *data),
	void *data);

/**
 * typedef legacy_gen_pool_block_fn - a visitor of legacy_gen_pool_for_each_block()
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
typedef int (*legacy_gen_pool_block_fn)(struct gen_pool *pool, unsigned long chunk,
					unsigned long chunk_size, unsigned long addr,
					unsigned long size, int used, void *data);

/**
 * legacy_gen_pool_for_each_block() - visit every block, in address order
 * @pool: the pool
 * @fn:   called once per live block and once per maximal run of free
 *        memory (neighbouring free buddy blocks, told as one run)
 * @data: passed to @fn
 *
 * Not in the 2005 API.  The pool's memory is visited as "chunks", each a
 * maximal stretch of pool memory inside one 2^max_chunk_shift frame: a
 * chunk from the callback is one, donated memory may make several (one
 * per frame it touches, one per hole).  Chunks come in address order, and
 * each chunk's runs tile it in address order.  @fn runs with the pool
 * locked: it must not call into the pool.  Costs O(frames log frames +
 * atoms) and a short array of frames.
 *
 * Misuse: NULL @pool or @fn: WARN EINVAL, -EINVAL.  Called from @fn, or
 * from a signal handler that interrupted a call holding the pool's lock:
 * WARN EREENTRY, -EDEADLK.
 *
 * Return: 0, what @fn returned to stop the walk, -EINVAL, -EDEADLK, or
 * -ENOMEM (no memory to sort the frames; nothing visited).
 */
GENALLOC_API int legacy_gen_pool_for_each_block(struct gen_pool *pool,
						legacy_gen_pool_block_fn fn, void *data);

/**
 * legacy_gen_pool_dump() - write the pool's layout to a file
 * @pool:   the pool
 * @f:      where to write
 * @format: GENALLOC_DUMP_TEXT or GENALLOC_DUMP_JSON (common/dump.h; engine
 *          "legacy", granule 32, "block_kind": "blocks")
 *
 * Not in the 2005 API.  One legacy_gen_pool_for_each_block() walk, under
 * the pool's lock: safe while other threads allocate, who wait for it.
 *
 * Misuse: NULL @pool or @f, an unknown @format: WARN EINVAL, -EINVAL.
 *
 * Return: 0, -EINVAL, -EDEADLK, -ENOMEM, or -EIO when writing failed.
 */
GENALLOC_API int legacy_gen_pool_dump(struct gen_pool *pool, FILE *f, int format);

/**
 * legacy_gen_pool_set_linear_search() - find buddies as 2005 did
 * @pool: the pool
 * @on:   1: walk the free list to find a buddy (linear cost, as 2005);
 *        0: look it up in the control map (constant cost, the default)
 *
 * Addresses are the same either way; only the cost of a free differs.
 *
 * Misuse: NULL @pool: WARN EINVAL.
 */
GENALLOC_API void legacy_gen_pool_set_linear_search(struct gen_pool *pool, int on);

/* ----------------------------------------------------- the 2005 names */

/** alloc_gen_pool() - see legacy_alloc_gen_pool() */
static inline struct gen_pool *alloc_gen_pool(int nr_chunks, int max_chunk_shift,
		unsigned long (*fp)(struct gen_pool *), unsigned long data)
{
	return legacy_alloc_gen_pool(nr_chunks, max_chunk_shift, fp, data);
}

/** gen_pool_create() - the 2.6.13 name of alloc_gen_pool() */
static inline struct gen_pool *gen_pool_create(int nr_chunks, int max_chunk_shift,
		unsigned long (*fp)(struct gen_pool *), unsigned long data)
{
	return legacy_alloc_gen_pool(nr_chunks, max_chunk_shift, fp, data);
}

/** gen_pool_alloc() - see legacy_gen_pool_alloc() */
static inline unsigned long gen_pool_alloc(struct gen_pool *poolp, int size)
{
	return legacy_gen_pool_alloc(poolp, size);
}

/** gen_pool_free() - see legacy_gen_pool_free() */
static inline void gen_pool_free(struct gen_pool *poolp, unsigned long ptr, int size)
{
	legacy_gen_pool_free(poolp, ptr, size);
}

/** gen_pool_destroy() - see legacy_gen_pool_destroy() */
static inline void gen_pool_destroy(struct gen_pool *poolp)
{
	legacy_gen_pool_destroy(poolp);
}

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_LEGACY_GENALLOC_H */
