/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/genalloc.h - today's kernel genalloc/genpool allocator, in user space.
 *
 * A pool hands out pieces of ranges ("chunks") added with gen_pool_add*():
 * device memory, SRAM, DMA buffers, plain offsets.  Each chunk has a bitmap,
 * one bit per granule of 2^min_alloc_order bytes, kept outside the managed
 * memory, which only gen_pool_dma_zalloc*() ever writes; every algorithm
 * places blocks where the kernel's does.  Kernel code includes
 * <linux/genalloc.h> with -I<this directory> and builds unchanged.
 *
 * An indexed pool (this header's default) answers every built-in algorithm
 * in O(log n) from an index of each chunk's free runs, under the pool's lock.
 * A lock-free pool (<linux/genalloc.h>'s default, or gen_pool_set_lockless())
 * runs the kernel's own linear search and compare-and-swap claim, and is
 * async-signal-safe.  Both modes give the same addresses.
 *
 *   create    gen_pool_create, _destroy (a device's: device/device.h)
 *   add       gen_pool_add, _add_virt, _add_owner, _add_used
 *   allocate  gen_pool_alloc, _alloc_owner, _alloc_algo, _alloc_algo_owner;
 *             gen_pool_first_fit and the other algorithms; _set_algo,
 *             _set_lockless
 *   DMA       gen_pool_dma_alloc, _alloc_algo, _alloc_align, _zalloc*
 *   free      gen_pool_free, _free_owner, _free_addr
 *   query     gen_pool_virt_to_phys, _has_addr, _avail, _size, _for_each_chunk
 *   inspect   gen_pool_check, _stats, _for_each_run, _dump, _held_by_caller,
 *             _use_block_records
 * Misuse goes to the error hook (common/error.h).  The rest of the manual
 * is in the source tree's docs/: modes.md (threads, signals, fork),
 * bookkeeping.md (what a pool costs), divergences.md (from the kernel;
 * offset heaps), limits.md (what a free cannot catch).  What the compiler
 * alone needs comes last, under IMPLEMENTATION.
 */
#ifndef GENALLOC_MODERN_GENALLOC_H
#define GENALLOC_MODERN_GENALLOC_H

#include <stddef.h>
#include <stdio.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif
#include "../common/api.h"
#include "../common/dump.h"
#include "../common/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gen_pool;
struct gen_pool_chunk;

/* ------------------------------------------------ creating and destroying */

/**
 * gen_pool_create() - create a pool without memory
 * @min_alloc_order: log2 of the granule in bytes, 0 .. bits per long - 1
 * @nid:             NUMA node; accepted and ignored
 *
 * The pool starts with gen_pool_first_fit, no data and no name, in indexed
 * mode through this header and in lock-free mode through
 * <linux/genalloc.h> (GENALLOC_DEFAULT_LOCKLESS).
 *
 * Return: the pool; NULL when out of memory, or (WARN EINVAL) when
 * @min_alloc_order is out of range.
 */
static inline struct gen_pool *gen_pool_create(int min_alloc_order, int nid);

/**
 * gen_pool_destroy() - free a pool and its bookkeeping
 * @pool: the pool, or NULL (nothing happens)
 *
 * Every allocation must have been freed.  If one is live: BUG EBUSY, and
 * (if the handler returns) the pool is left intact and usable.  Also frees
 * @pool->name.  Must not overlap any other call on @pool.
 */
static inline void gen_pool_destroy(struct gen_pool *pool);

/*
 * The mode gen_pool_create() and devm_gen_pool_create() give a new pool:
 * 0, indexed, through this header; 1, lock-free,
 * through <linux/genalloc.h>, which defines it before it includes this one.
 * Defined before the first inclusion, it chooses either way.
 */
#ifndef GENALLOC_DEFAULT_LOCKLESS
#define GENALLOC_DEFAULT_LOCKLESS 0
#endif

/* The kernel's "any NUMA node", which its callers pass as @nid. */
#ifndef NUMA_NO_NODE
#define NUMA_NO_NODE (-1)
#endif

/* ------------------------------------------------------- adding memory */

/*
 * Physical and bus addresses: the kernel's u64, unsigned long long, on every
 * host, so that kernel code (and a shim of <linux/types.h>) that typedefs
 * them itself repeats a compatible definition, and prints them with %llx.
 */
typedef unsigned long long phys_addr_t;
typedef unsigned long long dma_addr_t;

/**
 * gen_pool_add_owner() - add a range of memory to a pool
 * @pool:  the pool
 * @addr:  first address of the range (virtual)
 * @phys:  physical address of @addr
 * @size:  bytes; a tail shorter than a granule counts in gen_pool_size()
 *         and gen_pool_avail() but is never allocated
 * @nid:   ignored
 * @owner: returned by gen_pool_alloc_owner() for blocks of this chunk
 *
 * The new chunk is searched before every older one.  The managed memory is
 * never touched.  May run concurrently with allocations, frees, queries and
 * other additions (not with destroy, set_algo, set_lockless or check).
 *
 * Return: 0; -EDEADLK (WARN EREENTRY) when this thread is already inside a
 * locked call on @pool (a signal handler or callback re-entering it);
 * -ENOMEM when the bookkeeping cannot be allocated (with the memory for the
 * aligned-fit hints of a chunk of 2^20 granules or more when the pool's
 * algorithm is gen_pool_first_fit_order_align or gen_pool_first_fit_align);
 * -EINVAL after a WARN for a NULL pool, @size 0 or @addr 0 (EINVAL), a
 * range that wraps or exceeds LONG_MAX bytes (ERANGE), or one that overlaps
 * a chunk already in the pool (EOVERLAP).
 */
static inline int gen_pool_add_owner(struct gen_pool *pool, unsigned long addr,
				     phys_addr_t phys, size_t size, int nid,
				     void *owner);

/**
 * gen_pool_add_virt() - add memory with a known physical address
 * @pool: the pool
 * @addr: first (virtual) address
 * @phys: physical address of @addr, for gen_pool_virt_to_phys()
 * @size: bytes
 * @nid:  ignored
 *
 * Return: as gen_pool_add_owner().
 */
static inline int gen_pool_add_virt(struct gen_pool *pool, unsigned long addr,
				    phys_addr_t phys, size_t size, int nid);

/**
 * gen_pool_add() - add memory without a physical address
 * @pool: the pool
 * @addr: first address
 * @size: bytes
 * @nid:  ignored
 *
 * gen_pool_virt_to_phys() returns -1 for addresses in this chunk.
 *
 * Return: as gen_pool_add_owner().
 */
static inline int gen_pool_add(struct gen_pool *pool, unsigned long addr,
			       size_t size, int nid);

/* ------------------------------------------------------- allocating */

/**
 * typedef genpool_algo_t - an allocation algorithm
 * @map:        the chunk's bitmap (one bit per granule, set = in use)
 * @size:       number of granules (bits) in the chunk
 * @start:      first bit to consider: 0 when the pool first asks, and after
 *              a lost compare-and-swap the start the algorithm answered
 *              (the kernel's retry)
 * @nr:         number of granules wanted
 * @data:       the algorithm's private data (e.g. struct genpool_data_align)
 * @pool:       the pool
 * @start_addr: the chunk's first address (for absolute alignment)
 *
 * Return: the first bit of a run of @nr clear bits, or any value >= @size
 * when the chunk has no suitable run.  The pool claims the run with atomic
 * compare-and-swap and retries on a conflict, so an algorithm only has to be
 * right about a consistent bitmap.  The built-in algorithms read @map with
 * relaxed atomic loads; a user algorithm that reads it plainly while other
 * threads allocate is racy in the C11 sense (harmless in practice, but
 * reported by ThreadSanitizer).
 */
typedef unsigned long (*genpool_algo_t)(unsigned long *map, unsigned long size,
					unsigned long start, unsigned int nr,
					void *data, struct gen_pool *pool,
					unsigned long start_addr);

/**
 * struct genpool_data_align - data for gen_pool_first_fit_align()
 * @align: alignment in bytes of the returned address; a power of two > 0
 */
struct genpool_data_align {
	int align;
};

/**
 * struct genpool_data_fixed - data for gen_pool_fixed_alloc()
 * @offset: byte offset from the start of a chunk; a whole number of granules
 */
struct genpool_data_fixed {
	unsigned long offset;
};

/*
 * The algorithms are macros, not inline wrappers: callers compare
 * pool->algo == gen_pool_best_fit and pass them as pointers, so each must be
 * one function with one address in every translation unit and library.
 *
 * gen_pool_first_fit:             the lowest run of free granules (default).
 * gen_pool_first_fit_align:       the lowest run whose ABSOLUTE address is a
 *     multiple of data->align (struct genpool_data_align); the chunk start
 *     need not be aligned, only on a multiple of the granule (the kernel's
 *     formula shifts every answer of a chunk that starts off that grid).
 *     An alignment below the granule size means one granule.
 * gen_pool_first_fit_order_align: the lowest run starting, relative to the
 *     chunk start, at a multiple of the request rounded up to a power of two
 *     granules; only the requested granules are taken.
 * gen_pool_best_fit:              the smallest free run that fits, the lowest
 *     on ties, stopping at the first exact fit; per chunk (the pool takes the
 *     first chunk, newest first, where the algorithm finds room).
 * gen_pool_fixed_alloc:           exactly data->offset bytes into a chunk
 *     (struct genpool_data_fixed), in the first chunk, newest first, where
 *     that run is free: on a pool of several chunks the offset names a place
 *     in each of them, not one address (examples/muram/muram.c keeps a
 *     reservation to the chunk that holds it with a wrapping algorithm).
 */
#define gen_pool_first_fit modern_gen_pool_first_fit
#define gen_pool_first_fit_align modern_gen_pool_first_fit_align
#define gen_pool_first_fit_order_align modern_gen_pool_first_fit_order_align
#define gen_pool_best_fit modern_gen_pool_best_fit
#define gen_pool_fixed_alloc modern_gen_pool_fixed_alloc

/**
 * gen_pool_alloc_algo_owner() - allocate with a given algorithm
 * @pool:  the pool
 * @size:  bytes; rounded up to whole granules
 * @algo:  the algorithm (NULL: gen_pool_first_fit)
 * @data:  the algorithm's data
 * @owner: if not NULL, receives the chunk's owner (NULL on failure)
 *
 * Chunks are tried newest first; one is skipped when @size (unrounded, as
 * in the kernel) exceeds its avail; the block comes from the first chunk
 * where @algo finds a run that can be claimed.  Indexed mode: a built-in
 * @algo is answered by the chunk's index and chunks without a long enough
 * free run are skipped unseen (same result); a user @algo gets the bitmap
 * under the pool's lock and the index is told what it claimed (it must not
 * write the bitmap itself).  Lock-free mode: the kernel's path.
 *
 * Return: the block's address, or 0: no room; refused in indexed mode when
 * this thread is already inside a locked call on @pool (WARN EREENTRY,
 * reported as gen_pool_alloc: a signal handler or callback re-entering
 * @pool); @size 0; a size of more than UINT_MAX granules or one whose
 * rounding overflows (no report); a NULL pool (WARN EINVAL); bad data for
 * gen_pool_first_fit_align/gen_pool_fixed_alloc (WARN EINVAL).
 */
static inline unsigned long gen_pool_alloc_algo_owner(struct gen_pool *pool,
						      size_t size, genpool_algo_t algo,
						      void *data, void **owner);

/**
 * gen_pool_alloc_algo() - allocate with a given algorithm
 * @pool: the pool
 * @size: bytes
 * @algo: the algorithm
 * @data: its data
 *
 * Return: as gen_pool_alloc_algo_owner().
 */
static inline unsigned long gen_pool_alloc_algo(struct gen_pool *pool, size_t size,
						genpool_algo_t algo, void *data);

/**
 * gen_pool_alloc_owner() - allocate with the pool's algorithm, report owner
 * @pool:  the pool
 * @size:  bytes
 * @owner: receives the chunk's owner, or NULL
 *
 * Return: as gen_pool_alloc_algo_owner().
 */
static inline unsigned long gen_pool_alloc_owner(struct gen_pool *pool, size_t size,
						 void **owner);

/**
 * gen_pool_alloc() - allocate with the pool's algorithm
 * @pool: the pool
 * @size: bytes
 *
 * Return: as gen_pool_alloc_algo_owner().
 */
static inline unsigned long gen_pool_alloc(struct gen_pool *pool, size_t size);

/**
 * gen_pool_set_algo() - set the pool's default algorithm
 * @pool: the pool (NULL: WARN EINVAL)
 * @algo: the algorithm; NULL restores gen_pool_first_fit
 * @data: its data
 *
 * Setting gen_pool_first_fit_order_align or gen_pool_first_fit_align
 * reserves the memory for the aligned-fit hints of the chunks of 2^20
 * granules or more now, so that allocations need none (without memory, it
 * is allocated when the hints turn on).
 * Must not overlap allocations from @pool.
 */
static inline void gen_pool_set_algo(struct gen_pool *pool, genpool_algo_t algo,
				     void *data);

/**
 * gen_pool_set_lockless() - choose between the index and the kernel's path
 * @pool:     the pool (NULL: WARN EINVAL)
 * @lockless: false (the default): indexed mode.  Every built-in algorithm
 *            is answered by an index of each chunk's free runs in
 *            O(log n), with exactly the kernel's placement; allocation and
 *            free take the pool's lock.
 *            true: the kernel's own path.  Allocation searches the bitmap
 *            linearly and claims it with compare-and-swap, free releases
 *            with compare-and-swap; neither takes a lock, and both are
 *            async-signal-safe.
 *
 * Not a kernel call (the kernel only has the lock-free path); kernel code
 * needs none, since <linux/genalloc.h> makes lock-free pools.  Switching back
 * to indexed mode rebuilds the index from the bitmaps, O(bitmap words).
 * Must not overlap any other call on @pool.
 */
static inline void gen_pool_set_lockless(struct gen_pool *pool, bool lockless);

/* ------------------------------------------------------- DMA helpers */

/**
 * gen_pool_dma_alloc_algo() - allocate and return the bus address too
 * @pool: the pool; NULL returns NULL without a report (as the kernel)
 * @size: bytes
 * @dma:  if not NULL, receives gen_pool_virt_to_phys() of the block
 * @algo: the algorithm
 * @data: its data
 *
 * Return: the block as a pointer, or NULL (see gen_pool_alloc_algo_owner()).
 */
static inline void *gen_pool_dma_alloc_algo(struct gen_pool *pool, size_t size,
					    dma_addr_t *dma, genpool_algo_t algo,
					    void *data);

/**
 * gen_pool_dma_alloc() - DMA allocation with the pool's algorithm
 * @pool: the pool, or NULL (returns NULL)
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_alloc(struct gen_pool *pool, size_t size,
				       dma_addr_t *dma);

/**
 * gen_pool_dma_alloc_align() - DMA allocation at an absolute alignment
 * @pool:  the pool, or NULL (returns NULL)
 * @size:  bytes
 * @dma:   receives the bus address, or NULL
 * @align: alignment in bytes, a power of two (else WARN EINVAL, NULL)
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_alloc_align(struct gen_pool *pool, size_t size,
					     dma_addr_t *dma, int align);

/**
 * gen_pool_dma_zalloc_algo() - gen_pool_dma_alloc_algo(), then zero @size bytes
 * @pool: the pool, or NULL (returns NULL)
 * @size: bytes; exactly these are zeroed (the managed memory must be writable)
 * @dma:  receives the bus address, or NULL
 * @algo: the algorithm
 * @data: its data
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_zalloc_algo(struct gen_pool *pool, size_t size,
					     dma_addr_t *dma, genpool_algo_t algo,
					     void *data);

/**
 * gen_pool_dma_zalloc() - gen_pool_dma_alloc(), then zero @size bytes
 * @pool: the pool, or NULL (returns NULL)
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_zalloc(struct gen_pool *pool, size_t size,
					dma_addr_t *dma);

/**
 * gen_pool_dma_zalloc_align() - gen_pool_dma_alloc_align(), then zero
 * @pool:  the pool, or NULL (returns NULL)
 * @size:  bytes
 * @dma:   receives the bus address, or NULL
 * @align: alignment in bytes, a power of two
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_zalloc_align(struct gen_pool *pool, size_t size,
					      dma_addr_t *dma, int align);

/* ------------------------------------------------------- freeing */

/**
 * gen_pool_free_owner() - give back a block, report its chunk's owner
 * @pool:  the pool (NULL: WARN EINVAL)
 * @addr:  the block's address
 * @size:  the size passed to the allocation (rounded up to granules); 0
 *         frees nothing, but as in the kernel @addr must lie in a chunk
 *         (EFOREIGN otherwise) and @owner receives that chunk's owner
 * @owner: if not NULL, receives the chunk's owner (NULL on failure)
 *
 * Lock-free in lock-free mode, under the pool's lock in indexed mode (the
 * handler is called after the lock is dropped).  Misuse is reported before
 * any bit changes, as GENALLOC_BUG:
 * EFOREIGN (@addr in no chunk), EMISALIGNED (@addr not on a granule boundary
 * of its chunk), ERANGE (the range runs past the chunk's last whole granule
 * or wraps), EDOUBLEFREE (a granule of the range is free, including a free
 * racing with another free of the same block, which then changes nothing).
 * A wrong size or address that stays inside live granules is not caught
 * (the bitmap does not know where blocks begin; gen_pool_use_block_records()
 * does), nor, in lock-free mode, all of two racing frees of overlapping
 * ranges.  In indexed mode a free by a thread already inside a locked call
 * on @pool (a signal handler or callback re-entering it) is refused (WARN
 * EREENTRY, nothing freed).
 */
static inline void gen_pool_free_owner(struct gen_pool *pool, unsigned long addr,
				       size_t size, void **owner);

/**
 * gen_pool_free() - give back a block
 * @pool: the pool
 * @addr: the block's address
 * @size: its size
 *
 * As gen_pool_free_owner().
 */
static inline void gen_pool_free(struct gen_pool *pool, unsigned long addr, size_t size);

/* ------------------------------------------------------- queries */

/**
 * gen_pool_virt_to_phys() - translate an address to its physical address
 * @pool: the pool (NULL: WARN EINVAL, -1)
 * @addr: any address in a chunk (allocated or not)
 *
 * Return: the physical address, or -1 (all ones) when @addr is in no chunk
 * or in a chunk added without a physical address.
 */
static inline phys_addr_t gen_pool_virt_to_phys(struct gen_pool *pool,
						unsigned long addr);

/**
 * gen_pool_has_addr() - is a whole range inside one chunk of the pool?
 * @pool:  the pool (NULL: WARN EINVAL, false)
 * @start: first address
 * @size:  bytes; 0 asks whether @start is in a chunk
 *
 * Return: true if [@start, @start + @size) lies in a single chunk.
 */
static inline bool gen_pool_has_addr(struct gen_pool *pool, unsigned long start,
				     size_t size);

/**
 * addr_in_gen_pool() - gen_pool_has_addr() by its older name
 * @pool:  the pool
 * @start: first address
 * @size:  bytes
 *
 * The name the kernel's genalloc documentation of 2017 gives; later kernels
 * kept only gen_pool_has_addr().
 *
 * Return: as gen_pool_has_addr().
 */
static inline bool addr_in_gen_pool(struct gen_pool *pool, unsigned long start,
				    size_t size);

/**
 * gen_pool_avail() - free bytes in the pool
 * @pool: the pool (NULL: WARN EINVAL, 0)
 *
 * Return: the sum of the chunks' avail, sub-granule tails included.
 */
static inline size_t gen_pool_avail(struct gen_pool *pool);

/**
 * gen_pool_size() - bytes managed by the pool
 * @pool: the pool (NULL: WARN EINVAL, 0)
 *
 * Return: the sum of the chunks' sizes, sub-granule tails included.
 */
static inline size_t gen_pool_size(struct gen_pool *pool);

/**
 * gen_pool_for_each_chunk() - call @func on every chunk, newest first
 * @pool: the pool (NULL: WARN EINVAL, no call)
 * @func: the function; it must not destroy the pool (NULL: WARN EINVAL, no
 *        call)
 * @data: passed to @func
 *
 * Chunks added during the walk may or may not be visited.  Lock-free: @func
 * may read a chunk's fixed fields (start_addr, end_addr, phys_addr, owner,
 * nbits) at any time and its avail with an atomic load, but its bits only
 * while no allocation or free is in flight (in indexed mode they are
 * written under the pool's lock, which the walk does not take).
 */
static inline void gen_pool_for_each_chunk(
	struct gen_pool *pool,
	void (*func)(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data),
	void *data);

/* ------------------------------------------------------- introspection */

/**
 * struct gen_pool_stats - a snapshot of a pool's free space
 * @size:            bytes managed (gen_pool_size())
 * @avail:           bytes free (gen_pool_avail()), including sub-granule tails
 * @largest_free:    bytes in the longest run of free granules of one chunk
 * @nr_free_extents: number of maximal runs of free granules
 * @nr_chunks:       number of chunks
 * @metadata_bytes:  all the pool's bookkeeping: the pool, its directory,
 *                   chunk headers, bitmaps, records, indexes, and the size
 *                   classes and hints that exist now
 * @hist:            hist[k] = free extents whose size in bytes is in
 *                   [2^k, 2^(k+1))
 */
struct gen_pool_stats {
	size_t size;
	size_t avail;
	size_t largest_free;
	size_t nr_free_extents;
	size_t nr_chunks;
	size_t metadata_bytes;
	size_t hist[64];
};

/**
 * gen_pool_check() - verify a quiet pool's internal consistency
 * @pool: the pool (NULL: WARN EINVAL, -1)
 *
 * Checks every chunk (start <= end, granule count matches its size, no bit
 * set past the last granule, avail == size - allocated granules' bytes) and
 * that no two chunks overlap.  Costs O(bitmap words + chunks^2).
 *
 * Return: 0 if consistent; otherwise BUG ECORRUPT and (if the handler
 * returns) -1.
 */
static inline int gen_pool_check(struct gen_pool *pool);

/**
 * gen_pool_stats() - fill @st with the pool's free-space statistics
 * @pool: the pool (NULL: WARN EINVAL, @st zeroed)
 * @st:   where to write (NULL: WARN EINVAL)
 *
 * Costs O(bitmap words) and holds the pool's lock meanwhile (not
 * async-signal-safe).  Exact in indexed mode; in lock-free mode, exact when
 * no allocation or free is in flight.
 */
static inline void gen_pool_stats(struct gen_pool *pool, struct gen_pool_stats *st);

/* ------------------------------------------- extensions (not in the kernel) */
/*
 * For a caller that keeps its own records beside the pool's, as a 2005-style
 * allocator on this engine does: memory that joins the pool already in use,
 * and a look at where the free and the used granules lie.
 */

/* Which runs gen_pool_for_each_run() visits. */
#define GEN_POOL_RUNS_FREE 1u	/* maximal runs of free granules */
#define GEN_POOL_RUNS_USED 2u	/* maximal runs of used granules */
#define GEN_POOL_RUNS_ALL (GEN_POOL_RUNS_FREE | GEN_POOL_RUNS_USED)

/**
 * typedef gen_pool_run_fn - a visitor of gen_pool_for_each_run()
 * @pool:  the pool
 * @chunk: the chunk holding the run (its fixed fields may be read)
 * @addr:  the run's first address
 * @size:  its length in bytes, a whole number of granules
 * @used:  whether its granules are in use
 * @data:  as given to gen_pool_for_each_run()
 *
 * Return: 0 to go on; anything else stops the walk, which returns it.
 */
typedef int (*gen_pool_run_fn)(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			       unsigned long addr, size_t size, bool used, void *data);

/**
 * gen_pool_add_used() - add memory whose granules start out allocated
 * @pool: the pool
 * @addr: first address
 * @size: bytes
 * @nid:  ignored
 *
 * As gen_pool_add(), except that every whole granule of the new chunk is in
 * use from the moment it joins: no allocation can take any of it until the
 * caller frees it with gen_pool_free(), in pieces or at once.  A caller
 * that must record a chunk before anything is allocated from it adds it
 * this way, records it, then frees what may be handed out.  In a pool that
 * keeps block records the chunk's granules are one block, freed whole.
 *
 * Return: as gen_pool_add_owner().
 */
static inline int gen_pool_add_used(struct gen_pool *pool, unsigned long addr, size_t size,
				    int nid);

/**
 * gen_pool_use_block_records() - keep a record of where each block starts
 * @pool: the pool, before its first gen_pool_add*() (NULL, or a pool that
 *        already has memory: WARN EINVAL, -EINVAL, nothing changes)
 *
 * Not the kernel's.  Each chunk added afterwards keeps one more bit per
 * granule, beside its bitmap, set on the first granule of every live
 * block.  A block is then known by its address alone, and every free is
 * held to the block it names; nothing else changes (placement is the
 * same).  Without this call, frees behave as the kernel's, partial frees
 * included.
 *
 * With records, in indexed mode (the default), a free is a BUG that
 * changes nothing when
 *  - @addr is a used granule inside a block, not its first: EFOREIGN;
 *  - the size ends before the block's end ("ends inside the block") or
 *    runs past it over a neighbour: ESIZE (past it over free granules:
 *    EDOUBLEFREE, as without records);
 * and gen_pool_free_addr() frees a block without its size.  Every other
 * verdict (EDOUBLEFREE, EMISALIGNED, ERANGE) stays as without records.
 * gen_pool_check() also verifies that every record sits on a used granule
 * and every run of used granules starts with one.
 *
 * In lock-free mode an allocation writes its record just after it claims
 * its granules, so a free cannot tell a neighbour being allocated at that
 * moment from the rest of its own block.  There a free is refused when
 * @addr is inside a block (EFOREIGN) or the range covers another block's
 * recorded start (ESIZE); a free that ends inside its block is
 * accepted, and gen_pool_check() then reports the used granules left
 * without a record.  gen_pool_free_addr() is refused in that mode.
 *
 * Cost: nbits / 8 more bytes of bookkeeping a chunk; one store an
 * allocation; a free reads the records over its own range.
 *
 * Called where gen_pool_held_by_caller() is true: WARN EREENTRY, -EDEADLK.
 *
 * Return: 0, -EINVAL or -EDEADLK.
 */
static inline int gen_pool_use_block_records(struct gen_pool *pool);

/**
 * gen_pool_free_addr() - give back a block by its address alone
 * @pool: a pool keeping block records, in indexed mode (NULL, a pool
 *        without records, or lock-free mode: WARN EINVAL, 0)
 * @addr: the block's first address
 *
 * Not the kernel's.  The size is the block's, from the records.  An
 * address in no chunk (EFOREIGN), off a granule (EMISALIGNED), on a free
 * granule (EDOUBLEFREE) or inside a block (EFOREIGN) is a BUG that changes
 * nothing.  Takes the pool's lock: where gen_pool_held_by_caller() is
 * true, WARN EREENTRY and 0.
 *
 * Return: the bytes freed (a whole number of granules), or 0.
 */
static inline size_t gen_pool_free_addr(struct gen_pool *pool, unsigned long addr);

/**
 * gen_pool_for_each_run() - visit the free or the used runs of a pool
 * @pool:  the pool (NULL: WARN EINVAL, -EINVAL)
 * @which: GEN_POOL_RUNS_FREE, GEN_POOL_RUNS_USED, or GEN_POOL_RUNS_ALL (the
 *         runs then tile each chunk's whole granules); 0 or
 *         another bit: WARN EINVAL, -EINVAL
 * @func:  called once per maximal run of the kinds asked for (NULL: WARN
 *         EINVAL, -EINVAL)
 * @data:  passed to @func
 *
 * Chunks are visited in address order, and each chunk's runs in address
 * order; a tail shorter than a granule is in no run.  In a pool that keeps
 * block records (gen_pool_use_block_records()) each block is a used run of
 * its own, so two used runs may follow each other.  The walk holds the
 * pool's lock throughout, so in indexed mode it sees one state of the pool,
 * and a call @func makes into @pool that takes the lock (an allocation, a
 * free) is refused at once with WARN EREENTRY and its failure value, as
 * every re-entry is.  In lock-free mode allocations and frees do not wait
 * for it: the runs are exact only while none is in flight.  Not
 * async-signal-safe.  Costs O(bitmap words + runs).
 *
 * Return: 0 after the whole walk, else what @func returned to stop it;
 * -EDEADLK (WARN EREENTRY) when this thread is already inside a locked call
 * on @pool (a signal handler that interrupted it).
 */
static inline int gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
					gen_pool_run_fn func, void *data);

/**
 * gen_pool_dump() - write the pool's layout to a file
 * @pool:   the pool (NULL: WARN EINVAL, -EINVAL)
 * @f:      where to write (NULL: WARN EINVAL, -EINVAL)
 * @format: GENALLOC_DUMP_TEXT, a line per chunk with a density bar, or
 *          GENALLOC_DUMP_JSON, the schema in common/dump.h (engine
 *          "modern"); another value: WARN EINVAL, -EINVAL
 *
 * Not the kernel's.  The runs are gen_pool_for_each_run()'s, so in a pool
 * with block records (gen_pool_use_block_records()) each block is one
 * ("block_kind": "blocks"), else each maximal run of used granules
 * ("used-runs").  One walk under the pool's lock: in indexed mode a
 * consistent picture even while other threads allocate and free (they
 * wait for it); in lock-free mode exact only while none is in flight.  Not
 * async-signal-safe.  Costs O(bitmap words + runs).
 *
 * Called where gen_pool_held_by_caller() is true: WARN EREENTRY, -EDEADLK,
 * nothing written.
 *
 * Return: 0, -EINVAL, -EDEADLK, or -EIO when writing to @f failed.
 */
static inline int gen_pool_dump(struct gen_pool *pool, FILE *f, int format);

/**
 * gen_pool_held_by_caller() - is the calling thread inside a locked call on @pool?
 * @pool: the pool (NULL: false)
 *
 * True only in a signal handler that interrupted its thread inside a call
 * that holds @pool's lock, or in a callback run under it: there, the
 * calls that take the lock are refused (WARN EREENTRY).  A handler may
 * use it to defer its work rather than be refused, and a caller whose
 * allocation failed to tell a refusal from a full pool.  Always false on a
 * lock-free pool's allocation path, which takes no lock.
 * Async-signal-safe.
 */
static inline bool gen_pool_held_by_caller(struct gen_pool *pool);

/* ========================================================= IMPLEMENTATION */
/*
 * Below: what the compiler needs and callers do not.  The structures a
 * caller may read (struct gen_pool's algo, data, name and min_alloc_order;
 * struct gen_pool_chunk's fixed fields, in gen_pool_for_each_chunk() and
 * gen_pool_for_each_run()) are documented at their definitions.  The
 * exported symbols carry the modern_ prefix (the 2005 API in legacy/ and
 * compat/ uses the same names with other signatures), and the static inline
 * wrappers map the kernel names onto them.
 */

#ifndef __cplusplus
#include <stdatomic.h>
#endif

/*
 * C++ includes this header too (all of it but the ATOMIC members is plain
 * C that C++ also reads).  C++ has no _Atomic before C++23, so it sees
 * those members as their plain types, which on every ABI the library
 * builds for have the same size and alignment (modern/pool.c checks);
 * they are the engine's, and C++ code must not touch them.
 */
#ifdef __cplusplus
#define GENALLOC_ATOMIC(type) type
#else
#define GENALLOC_ATOMIC(type) _Atomic(type)
#endif

struct modern_index;
struct modern_chunk_dir;

/**
 * struct modern_lock - the pool lock (modern/lock_internal.h); not for callers
 * @word: 0 free, 1 held, 2 held with possible sleepers
 * @lent: the token of the thread running an import or release callback of
 *        the pool (gen_pool_set_import()), which counts as holding the
 *        lock without holding it; 0 for none
 */
struct modern_lock {
	GENALLOC_ATOMIC(unsigned int) word;
	GENALLOC_ATOMIC(unsigned int) lent;
};

/**
 * struct gen_pool - a pool of special-purpose memory
 * @lock:            serializes gen_pool_add*(), and in indexed mode allocation
 *                   and free too (never held while the error hook runs); a
 *                   futex lock whose uncontended path is inlined
 * @chunks:          newest chunk first; published with a release store
 * @min_alloc_order: log2 of the granule size in bytes
 * @algo:            the default algorithm (gen_pool_first_fit after create)
 * @data:            the default algorithm's data
 * @name:            NULL, or a malloc()ed name that gen_pool_destroy() frees
 *                   (set by devm_gen_pool_create())
 * @lockless:        the kernel's lock-free linear search instead of the
 *                   index (gen_pool_set_lockless())
 * @records:         each chunk keeps a bit per granule marking where each
 *                   block starts (gen_pool_use_block_records())
 * @dir:             the chunks by age and by address, for indexed mode
 *                   (modern/chunkdir.c); written under @lock
 * @import:          NULL, or where the pool gets and returns memory of its
 *                   own accord (gen_pool_set_import(), modern/import.c)
 */
struct modern_import;
struct gen_pool {
	struct modern_lock lock;
	GENALLOC_ATOMIC(struct gen_pool_chunk *) chunks;
	int min_alloc_order;
	genpool_algo_t algo;
	void *data;
	const char *name;
	bool lockless;
	bool records;
	struct modern_chunk_dir *dir;
	struct modern_import *import;
};

/**
 * struct gen_pool_chunk - one range of memory in a pool
 * @next_chunk: the next older chunk; written once, before publication
 * @avail:      bytes not allocated, including a tail shorter than a granule
 * @phys_addr:  physical address of @start_addr, or all ones if unknown
 * @owner:      the owner given to gen_pool_add_owner()
 * @start_addr: first address of the range
 * @end_addr:   last address of the range (inclusive)
 * @nbits:      number of granules ((end_addr - start_addr + 1) >> order)
 * @index:      the free-run index of @bits (modern/index.c), or NULL for a
 *              chunk of more than 2^32 - 1 granules (always searched linearly)
 * @bits:       the bitmap, @nbits bits; bits past @nbits stay clear.  In
 *              lock-free mode the engine reads and writes its words only
 *              atomically; in indexed mode only under the pool's lock, and
 *              there with plain stores too (see gen_pool_for_each_chunk())
 */
struct gen_pool_chunk {
	struct gen_pool_chunk *next_chunk;
	GENALLOC_ATOMIC(long) avail;
	phys_addr_t phys_addr;
	void *owner;
	unsigned long start_addr;
	unsigned long end_addr;
	unsigned long nbits;
	struct modern_index *index;
	unsigned long bits[];
};

/* ------------------------------------------------------- exported symbols */

GENALLOC_API struct gen_pool *modern_gen_pool_create_mode(int min_alloc_order, int nid,
							  bool lockless);
GENALLOC_API int modern_gen_pool_add_owner(struct gen_pool *pool, unsigned long addr,
					   phys_addr_t phys, size_t size, int nid,
					   void *owner);
GENALLOC_API int modern_gen_pool_add_virt(struct gen_pool *pool, unsigned long addr,
					  phys_addr_t phys, size_t size, int nid);
GENALLOC_API int modern_gen_pool_add(struct gen_pool *pool, unsigned long addr,
				     size_t size, int nid);
GENALLOC_API void modern_gen_pool_destroy(struct gen_pool *pool);
GENALLOC_API phys_addr_t modern_gen_pool_virt_to_phys(struct gen_pool *pool,
						      unsigned long addr);

GENALLOC_API unsigned long modern_gen_pool_alloc(struct gen_pool *pool, size_t size);
GENALLOC_API unsigned long modern_gen_pool_alloc_owner(struct gen_pool *pool,
						       size_t size, void **owner);
GENALLOC_API unsigned long modern_gen_pool_alloc_algo(struct gen_pool *pool, size_t size,
						      genpool_algo_t algo, void *data);
GENALLOC_API unsigned long modern_gen_pool_alloc_algo_owner(struct gen_pool *pool,
							    size_t size,
							    genpool_algo_t algo,
							    void *data, void **owner);

GENALLOC_API void *modern_gen_pool_dma_alloc(struct gen_pool *pool, size_t size,
					     dma_addr_t *dma);
GENALLOC_API void *modern_gen_pool_dma_alloc_algo(struct gen_pool *pool, size_t size,
						  dma_addr_t *dma, genpool_algo_t algo,
						  void *data);
GENALLOC_API void *modern_gen_pool_dma_alloc_align(struct gen_pool *pool, size_t size,
						   dma_addr_t *dma, int align);
GENALLOC_API void *modern_gen_pool_dma_zalloc(struct gen_pool *pool, size_t size,
					      dma_addr_t *dma);
GENALLOC_API void *modern_gen_pool_dma_zalloc_algo(struct gen_pool *pool, size_t size,
						   dma_addr_t *dma, genpool_algo_t algo,
						   void *data);
GENALLOC_API void *modern_gen_pool_dma_zalloc_align(struct gen_pool *pool, size_t size,
						    dma_addr_t *dma, int align);

GENALLOC_API void modern_gen_pool_free(struct gen_pool *pool, unsigned long addr,
				       size_t size);
GENALLOC_API void modern_gen_pool_free_owner(struct gen_pool *pool, unsigned long addr,
					     size_t size, void **owner);

GENALLOC_API void modern_gen_pool_for_each_chunk(
	struct gen_pool *pool,
	void (*func)(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data),
	void *data);
GENALLOC_API bool modern_gen_pool_has_addr(struct gen_pool *pool, unsigned long start,
					   size_t size);
GENALLOC_API size_t modern_gen_pool_avail(struct gen_pool *pool);
GENALLOC_API size_t modern_gen_pool_size(struct gen_pool *pool);
GENALLOC_API void modern_gen_pool_set_algo(struct gen_pool *pool, genpool_algo_t algo,
					   void *data);
GENALLOC_API void modern_gen_pool_set_lockless(struct gen_pool *pool, bool lockless);

GENALLOC_API unsigned long modern_gen_pool_first_fit(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);
GENALLOC_API unsigned long modern_gen_pool_first_fit_align(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);
GENALLOC_API unsigned long modern_gen_pool_first_fit_order_align(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);
GENALLOC_API unsigned long modern_gen_pool_best_fit(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);
GENALLOC_API unsigned long modern_gen_pool_fixed_alloc(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);

GENALLOC_API int modern_gen_pool_check(struct gen_pool *pool);
GENALLOC_API void modern_gen_pool_stats(struct gen_pool *pool, struct gen_pool_stats *st);

GENALLOC_API int modern_gen_pool_add_used(struct gen_pool *pool, unsigned long addr,
					  size_t size, int nid);
GENALLOC_API int modern_gen_pool_use_block_records(struct gen_pool *pool);
GENALLOC_API size_t modern_gen_pool_free_addr(struct gen_pool *pool, unsigned long addr);
GENALLOC_API int modern_gen_pool_dump(struct gen_pool *pool, FILE *f, int format);
GENALLOC_API bool modern_gen_pool_held_by_caller(struct gen_pool *pool);
GENALLOC_API int modern_gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
					      gen_pool_run_fn func, void *data);

/* ------------------------------------------------------- the wrappers */

static inline struct gen_pool *gen_pool_create(int min_alloc_order, int nid)
{
	return modern_gen_pool_create_mode(min_alloc_order, nid, GENALLOC_DEFAULT_LOCKLESS);
}

static inline void gen_pool_destroy(struct gen_pool *pool)
{
	modern_gen_pool_destroy(pool);
}

static inline int gen_pool_add_owner(struct gen_pool *pool, unsigned long addr,
				     phys_addr_t phys, size_t size, int nid,
				     void *owner)
{
	return modern_gen_pool_add_owner(pool, addr, phys, size, nid, owner);
}

static inline int gen_pool_add_virt(struct gen_pool *pool, unsigned long addr,
				    phys_addr_t phys, size_t size, int nid)
{
	return modern_gen_pool_add_virt(pool, addr, phys, size, nid);
}

static inline int gen_pool_add(struct gen_pool *pool, unsigned long addr,
			       size_t size, int nid)
{
	return modern_gen_pool_add(pool, addr, size, nid);
}

static inline unsigned long gen_pool_alloc_algo_owner(struct gen_pool *pool,
						      size_t size, genpool_algo_t algo,
						      void *data, void **owner)
{
	return modern_gen_pool_alloc_algo_owner(pool, size, algo, data, owner);
}

static inline unsigned long gen_pool_alloc_algo(struct gen_pool *pool, size_t size,
						genpool_algo_t algo, void *data)
{
	return modern_gen_pool_alloc_algo(pool, size, algo, data);
}

static inline unsigned long gen_pool_alloc_owner(struct gen_pool *pool, size_t size,
						 void **owner)
{
	return modern_gen_pool_alloc_owner(pool, size, owner);
}

static inline unsigned long gen_pool_alloc(struct gen_pool *pool, size_t size)
{
	return modern_gen_pool_alloc(pool, size);
}

static inline void gen_pool_set_algo(struct gen_pool *pool, genpool_algo_t algo,
				     void *data)
{
	modern_gen_pool_set_algo(pool, algo, data);
}

static inline void gen_pool_set_lockless(struct gen_pool *pool, bool lockless)
{
	modern_gen_pool_set_lockless(pool, lockless);
}

static inline void *gen_pool_dma_alloc_algo(struct gen_pool *pool, size_t size,
					    dma_addr_t *dma, genpool_algo_t algo,
					    void *data)
{
	return modern_gen_pool_dma_alloc_algo(pool, size, dma, algo, data);
}

static inline void *gen_pool_dma_alloc(struct gen_pool *pool, size_t size,
				       dma_addr_t *dma)
{
	return modern_gen_pool_dma_alloc(pool, size, dma);
}

static inline void *gen_pool_dma_alloc_align(struct gen_pool *pool, size_t size,
					     dma_addr_t *dma, int align)
{
	return modern_gen_pool_dma_alloc_align(pool, size, dma, align);
}

static inline void *gen_pool_dma_zalloc_algo(struct gen_pool *pool, size_t size,
					     dma_addr_t *dma, genpool_algo_t algo,
					     void *data)
{
	return modern_gen_pool_dma_zalloc_algo(pool, size, dma, algo, data);
}

static inline void *gen_pool_dma_zalloc(struct gen_pool *pool, size_t size,
					dma_addr_t *dma)
{
	return modern_gen_pool_dma_zalloc(pool, size, dma);
}

static inline void *gen_pool_dma_zalloc_align(struct gen_pool *pool, size_t size,
					      dma_addr_t *dma, int align)
{
	return modern_gen_pool_dma_zalloc_align(pool, size, dma, align);
}

static inline void gen_pool_free_owner(struct gen_pool *pool, unsigned long addr,
				       size_t size, void **owner)
{
	modern_gen_pool_free_owner(pool, addr, size, owner);
}

static inline void gen_pool_free(struct gen_pool *pool, unsigned long addr, size_t size)
{
	modern_gen_pool_free(pool, addr, size);
}

static inline phys_addr_t gen_pool_virt_to_phys(struct gen_pool *pool,
						unsigned long addr)
{
	return modern_gen_pool_virt_to_phys(pool, addr);
}

static inline bool gen_pool_has_addr(struct gen_pool *pool, unsigned long start,
				     size_t size)
{
	return modern_gen_pool_has_addr(pool, start, size);
}

static inline bool addr_in_gen_pool(struct gen_pool *pool, unsigned long start,
				    size_t size)
{
	return modern_gen_pool_has_addr(pool, start, size);
}

static inline size_t gen_pool_avail(struct gen_pool *pool)
{
	return modern_gen_pool_avail(pool);
}

static inline size_t gen_pool_size(struct gen_pool *pool)
{
	return modern_gen_pool_size(pool);
}

static inline void gen_pool_for_each_chunk(
	struct gen_pool *pool,
	void (*func)(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data),
	void *data)
{
	modern_gen_pool_for_each_chunk(pool, func, data);
}

static inline int gen_pool_check(struct gen_pool *pool)
{
	return modern_gen_pool_check(pool);
}

static inline void gen_pool_stats(struct gen_pool *pool, struct gen_pool_stats *st)
{
	modern_gen_pool_stats(pool, st);
}

static inline int gen_pool_add_used(struct gen_pool *pool, unsigned long addr, size_t size,
				    int nid)
{
	return modern_gen_pool_add_used(pool, addr, size, nid);
}

static inline int gen_pool_use_block_records(struct gen_pool *pool)
{
	return modern_gen_pool_use_block_records(pool);
}

static inline size_t gen_pool_free_addr(struct gen_pool *pool, unsigned long addr)
{
	return modern_gen_pool_free_addr(pool, addr);
}

static inline int gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
					gen_pool_run_fn func, void *data)
{
	return modern_gen_pool_for_each_run(pool, which, func, data);
}

static inline int gen_pool_dump(struct gen_pool *pool, FILE *f, int format)
{
	return modern_gen_pool_dump(pool, f, format);
}

static inline bool gen_pool_held_by_caller(struct gen_pool *pool)
{
	return modern_gen_pool_held_by_caller(pool);
}

/* -------------------- constrained placement, instant fit, import and release */
/*
 * Not the kernel's.  gen_pool_xalloc() places a block under address
 * constraints at a defined place, gen_pool_instant_fit() is an algorithm
 * that answers without searching whenever a generous run is free, and
 * gen_pool_set_import() lets a pool grow and shrink from a source of its
 * own (another pool, a device's address space, the system).
 */

/**
 * struct gen_pool_constraints - where gen_pool_xalloc() may place a block
 * @align:   0, or a power of two: the address satisfies addr % @align ==
 *           @phase, literally (also for an @align below the granule, where
 *           only the chunk's own start can decide it)
 * @phase:   below @align; 0 when @align is 0
 * @nocross: 0, or a power of two: [addr, addr + rounded size) lies within
 *           one @nocross-aligned window of the address space
 * @minaddr: addr >= @minaddr
 * @maxaddr: addr + rounded size <= @maxaddr; 0 for no limit
 *
 * Every constraint applies to the absolute address, as
 * gen_pool_first_fit_align()'s alignment does, and the rounded size is the
 * request rounded up to whole granules.
 */
struct gen_pool_constraints {
	unsigned long align;
	unsigned long phase;
	unsigned long nocross;
	unsigned long minaddr;
	unsigned long maxaddr;
};

/**
 * typedef genpool_import_t - get memory for a pool that found no room
 * @pool: the pool that asks
 * @size: bytes wanted: the request rounded up to the pool's quantum
 *        (at least one quantum), possibly more for alignment slack
 * @addr: receives the first address of the span handed over
 * @len:  receives its length in bytes, at least @size
 * @data: as given to gen_pool_set_import()
 *
 * Runs without the pool's lock, but the pool counts as held by the caller
 * (gen_pool_held_by_caller() is true there): a call back into @pool is
 * refused (WARN EREENTRY).  May sleep.
 *
 * Return: 0 with the span filled in, anything else for no memory.
 */
typedef int (*genpool_import_t)(struct gen_pool *pool, size_t size,
				unsigned long *addr, size_t *len, void *data);

/**
 * typedef genpool_release_t - take back a span an import handed over
 * @pool: the pool giving it back
 * @addr: the span's first address, as the import gave it
 * @len:  its length, as the import gave it
 * @data: as given to gen_pool_set_import()
 *
 * Called as for genpool_import_t (no lock; re-entering @pool is refused).
 */
typedef void (*genpool_release_t)(struct gen_pool *pool, unsigned long addr,
				  size_t len, void *data);

GENALLOC_API unsigned long modern_gen_pool_xalloc(struct gen_pool *pool, size_t size,
						  const struct gen_pool_constraints *c);
GENALLOC_API unsigned long modern_gen_pool_instant_fit(unsigned long *map,
	unsigned long size, unsigned long start, unsigned int nr, void *data,
	struct gen_pool *pool, unsigned long start_addr);
GENALLOC_API int modern_gen_pool_set_import(struct gen_pool *pool, genpool_import_t import,
					    genpool_release_t release, size_t quantum,
					    void *data);
GENALLOC_API int modern_gen_pool_import_from(struct gen_pool *pool, struct gen_pool *source,
					     size_t quantum);

/**
 * gen_pool_xalloc() - allocate under address constraints
 * @pool: the pool (NULL: WARN EINVAL, 0)
 * @size: bytes, rounded up to whole granules as gen_pool_alloc() does; 0
 *        (or a size gen_pool_alloc() refuses quietly): 0, no report
 * @c:    the constraints, or NULL for none
 *
 * Works on every modern pool, indexed or lock-free, whatever its
 * algorithm: the placement is exact and defined.  The chunks are tried in
 * gen_pool_alloc()'s order (the newest first), and in the first that has
 * room the block is at the lowest address that meets every constraint.
 * The candidates are each chunk's granule boundaries: constraints that no
 * boundary meets find no room (0, no report), as does a pool without a
 * free run that meets them.  Free the block with gen_pool_free(pool,
 * addr, size) like any other.
 *
 * Refused, with WARN EINVAL, 0 and the pool unchanged: @c->align or
 * @c->nocross neither 0 nor a power of two; @c->phase >= @c->align (or not
 * 0 with @c->align 0); a rounded size larger than @c->nocross; @c->maxaddr
 * not 0 with @c->minaddr >= @c->maxaddr.  In indexed mode a call where
 * gen_pool_held_by_caller() is true is refused (WARN EREENTRY, 0).
 *
 * Cost: indexed, what an aligned first fit costs (the run index leads to
 * the runs that can hold the block, from the lowest start the constraints
 * allow; a chunk is never scanned); lock-free, linear in the bitmap as the
 * kernel's algorithms are, and async-signal-safe (no lock, no malloc).  A
 * pool that imports (gen_pool_set_import()) imports when no chunk has room.
 *
 * Return: the block's address, or 0.
 */
static inline unsigned long gen_pool_xalloc(struct gen_pool *pool, size_t size,
					    const struct gen_pool_constraints *c)
{
	return modern_gen_pool_xalloc(pool, size, c);
}

/*
 * gen_pool_instant_fit: an algorithm (genpool_algo_t) for gen_pool_set_algo()
 * and gen_pool_alloc_algo().  In indexed mode, whenever a chunk of the pool
 * has a free run of at least the request's granules rounded up to a power
 * of two, the block starts such a run, found in O(1) (which run is the
 * algorithm's choice, not the lowest); otherwise it is gen_pool_best_fit's
 * block, so it fails only where best fit would.  In lock-free mode, and
 * called on a bare bitmap, it gives gen_pool_best_fit()'s answer.  A macro,
 * as the kernel's algorithms are, so that it has one address.
 */
#define gen_pool_instant_fit modern_gen_pool_instant_fit

/**
 * gen_pool_set_import() - let the pool get memory when it has no room
 * @pool:    an indexed pool (NULL, or lock-free: WARN EINVAL, -EINVAL)
 * @import:  called when an allocation (any algorithm, gen_pool_xalloc()
 *           too) finds no room; NULL turns importing off (chunks already
 *           imported stay, and are released as before when they empty)
 * @release: called with each imported span the pool gives back (NULL
 *           with a non-NULL @import: WARN EINVAL, -EINVAL)
 * @quantum: 0 (one granule), or a multiple of the granule (else WARN
 *           EINVAL, -EINVAL): what an import asks for is the request
 *           rounded up to it
 * @data:    passed to both callbacks
 *
 * Not the kernel's.  When an allocation finds no room, the pool calls
 * @import(pool, want, &addr, &len, data), want being the request rounded
 * up to @quantum (at least one quantum; more when the request's alignment
 * needs slack).  A return of 0 with len >= want adds [addr, addr + len) as
 * a chunk marked imported, placed as gen_pool_add() places a chunk (the
 * newest first), and the request is retried; an imported chunk the retry
 * leaves empty is released at once, and when other threads took the span
 * before the retry could, another is imported.  A non-zero return means no
 * memory: the allocation fails as before.  0 with len < want is a WARN
 * EINVAL (reported as gen_pool_set_import): the span is released and the
 * allocation fails.  A span the pool cannot add (it overlaps a chunk,
 * starts at 0, or no memory for its bookkeeping) is released too, after
 * gen_pool_add()'s report.
 *
 * When a free leaves an imported chunk wholly free, the pool removes it
 * and calls @release(pool, addr, len, data).  gen_pool_destroy() first
 * releases the imported chunks that are wholly free, then treats live
 * blocks as it always does.  The callbacks run without the pool's lock (one
 * at a time per pool), but the pool counts as held by their thread:
 * gen_pool_held_by_caller() is true, and any call back into @pool is
 * refused (WARN EREENTRY), never a deadlock.
 *
 * A pool that imports stays indexed: gen_pool_set_lockless(pool, true) is
 * refused (WARN EINVAL), since an import may sleep and the lock-free
 * contract is async-signal safety.  Must not overlap allocations from
 * @pool.  A removed chunk's bookkeeping is freed once no lock-free query
 * (gen_pool_avail(), _size(), _has_addr(), _virt_to_phys(),
 * _for_each_chunk()) is walking the chunks, else at a later release or
 * at destroy.
 *
 * Return: 0, -EINVAL, -ENOMEM, or -EDEADLK (WARN EREENTRY) where
 * gen_pool_held_by_caller() is true.
 */
static inline int gen_pool_set_import(struct gen_pool *pool, genpool_import_t import,
				      genpool_release_t release, size_t quantum, void *data)
{
	return modern_gen_pool_set_import(pool, import, release, quantum, data);
}

/**
 * gen_pool_import_from() - stack a pool on another
 * @pool:    the pool that imports (as gen_pool_set_import())
 * @source:  the pool it imports from (NULL, or @pool itself: WARN EINVAL,
 *           -EINVAL)
 * @quantum: as for gen_pool_set_import()
 *
 * The import allocates want bytes from @source with @source's own
 * algorithm (gen_pool_alloc()); the release frees them back
 * (gen_pool_free()).  @source may import in turn.  @source must outlive
 * @pool's imported chunks.
 *
 * Return: as gen_pool_set_import().
 */
static inline int gen_pool_import_from(struct gen_pool *pool, struct gen_pool *source,
				       size_t quantum)
{
	return modern_gen_pool_import_from(pool, source, quantum);
}

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_MODERN_GENALLOC_H */
