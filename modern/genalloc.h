/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/genalloc.h - today's kernel genalloc/genpool engine, in user space.
 *
 * A pool manages ranges of special-purpose memory ("chunks") that the caller
 * hands over with gen_pool_add*().  Every chunk carries a bitmap with one bit
 * per granule of 2^min_alloc_order bytes; an allocation claims a run of bits
 * chosen by an algorithm (first fit by default).  As in the kernel:
 *
 *  - the bookkeeping lives outside the managed memory: no call except the
 *    gen_pool_dma_zalloc*() family ever reads or writes the managed range, so
 *    a pool may manage device memory, PROT_NONE mappings or plain numbers;
 *  - new chunks are searched first (they are prepended to the list);
 *  - the same calls give the same addresses as the kernel, algorithm for
 *    algorithm.
 *
 * HEAPS OF OFFSETS
 *   A pool may hand out plain numbers (offsets into a device, a file, a
 *   GPU's address space), but 0 is every allocation call's failure value,
 *   so a range cannot be added at 0 (gen_pool_add*() refuses it: WARN
 *   EINVAL).  An offset heap adds [0, size) at a bias, subtracts the bias
 *   from each address it gets and adds it back to free.  The bias must be a
 *   non-zero multiple of the largest alignment the heap will ask for:
 *   gen_pool_first_fit_align() and gen_pool_dma_alloc_align() align the
 *   address, bias included, as the kernel's do (at a bias of one 4 KiB
 *   granule, 64 KiB alignment gives offset 0xf000), while
 *   gen_pool_first_fit_order_align() and gen_pool_fixed_alloc() count from
 *   the chunk's start.  On such a bias both agree with the offsets.
 *   examples/offsets/ runs a 1 TiB heap this way.
 *
 * PROCESSES
 *   A pool belongs to the process that created it.  Its bookkeeping is in
 *   that process's own memory (malloc() and private anonymous mappings,
 *   never the managed range) and its lock is a process-private futex, so a
 *   pool over a MAP_SHARED region is not shared by the processes mapping
 *   it.  A child forked from the owner has a copy of the pool as it was at
 *   the fork, and from then on neither process sees the other's
 *   allocations or frees.  The child may:
 *    - exit, or exec;
 *    - query the copy with gen_pool_avail(), gen_pool_size(),
 *      gen_pool_has_addr(), gen_pool_virt_to_phys(),
 *      gen_pool_for_each_chunk(), gen_pool_stats() and gen_pool_check(),
 *      if no other thread was inside a call on the pool at the fork
 *      (always so in a single-threaded parent).  Otherwise the copy holds
 *      those calls half done, and a lock another thread held stays held
 *      in the child: there gen_pool_stats(), gen_pool_add*() and, in
 *      indexed mode, allocation and free wait forever (the other queries
 *      take no lock).  After a multi-threaded process forks, POSIX allows
 *      the child only async-signal-safe calls (SIGNALS AND MODES below).
 *   It must not allocate from, free to or add to the copy.  Those calls
 *   succeed, on the copy: the child is handed blocks the parent holds or
 *   will be handed, the same addresses, and over shared memory or a device
 *   the same bytes.  Only when everything the pool manages is private to
 *   each process (an ordinary private mapping, which fork copies too) is
 *   the child's copy a pool of its own.  To share a region between
 *   processes, let one of them allocate for all.
 *
 * SIGNALS AND MODES (what is async-signal-safe)
 *   A pool is lock-free or indexed (below); the header decides which a new
 *   one is.  Through <linux/genalloc.h>, gen_pool_create() and
 *   devm_gen_pool_create() make LOCK-FREE pools, the kernel's contract;
 *   through this header they make INDEXED pools, faster on big pools and
 *   not async-signal-safe (GENALLOC_DEFAULT_LOCKLESS chooses otherwise;
 *   gen_pool_set_lockless() switches a pool).
 *   Lock-free: gen_pool_alloc*(), gen_pool_dma_alloc*() (not zalloc, which
 *   writes the block) and gen_pool_free*() are async-signal-safe: a signal
 *   handler may call them even while it interrupts a call on the same pool,
 *   and is served.
 *   Indexed: they take the pool's lock, which is never waited for by the
 *   thread that holds it: a handler that interrupts its thread inside a
 *   call on the same pool (or a callback that re-enters it) is refused at
 *   once, WARN EREENTRY, with the failure value (0, NULL; a free frees
 *   nothing and the block stays allocated).  A handler that interrupts a
 *   thread outside that pool is served, though not async-signal-safely:
 *   best fit's first call on a chunk, and aligned fit on a chunk of 2^20
 *   granules or more, may allocate memory.  Never a deadlock.
 *   Both modes: gen_pool_virt_to_phys(), gen_pool_has_addr(),
 *   gen_pool_avail() and gen_pool_size() are async-signal-safe;
 *   gen_pool_add*(), gen_pool_set_algo() and gen_pool_stats() take the lock
 *   (refused in the same way when re-entered), gen_pool_create(), _destroy()
 *   and the device model call malloc() and are not.  A report goes through
 *   the error hook, whose default handler uses stdio.
 *
 * TWO MODES, ONE PLACEMENT (gen_pool_set_lockless())
 *   Indexed (this header's default): every chunk keeps an index of its bitmap's free
 *   runs (modern/index.c) and, once best fit has run on it, size classes of its
 *   free runs (modern/sizeclass.c; without memory for them, best fit walks
 *   the runs instead, same answer, and tries again on the next call).  A
 *   chunk of 2^20 granules or more turns on aligned-fit hints
 *   (modern/orderhint.c) once an aligned search on it has passed more than
 *   8 blocks of free runs that held no window on its grid; they then serve
 *   that search's kind: order-aligned fit, or first_fit_align at that
 *   alignment.  Their memory is reserved as the chunk joins a pool whose
 *   algorithm is gen_pool_first_fit_order_align or gen_pool_first_fit_align
 *   (or when it is set), else allocated then (without memory they stay
 *   off, same answers, and a later search tries again).  Smaller chunks
 *   answer first_fit_align at an alignment of 256 granules or more (a page
 *   at 8-byte granules is 512), when the chunk starts on it, from a map of
 *   which 256-granule blocks begin free, part of the index.  The pool keeps a
 *   directory of its chunks
 *   (modern/chunkdir.c).  Every built-in algorithm is answered in
 *   O(log n) instead of the kernel's scan from bit 0, and a request skips
 *   the chunks that cannot hold it.  Allocation and free take the pool's
 *   lock (a futex lock: one atomic instruction to take, one to drop,
 *   uncontended).
 *   Lock-free: the kernel's own path.  The bitmap is searched linearly and
 *   claimed word by word with compare-and-swap; free releases the same way.
 *   No lock, async-signal-safe, cost linear in the chunk size.
 *   The addresses are the same in both modes (tested against each other).
 *
 * Names are the kernel's.  The exported symbols carry the modern_ prefix (the
 * 2005 API in legacy/ and compat/ uses the same names with other signatures);
 * the static inline wrappers below map the kernel names onto them.  Include
 * <linux/genalloc.h> with -I<this directory> and kernel-style code compiles
 * unchanged.
 *
 * Errors go through the library's one hook (common/error.h): GENALLOC_BUG
 * where the kernel BUG()s, GENALLOC_WARN for refused requests.  When the
 * handler returns, the call returns the failure value stated below and the
 * pool is unchanged (one exception, in lock-free mode: racing frees of
 * overlapping ranges, under LIMITS below).
 *
 * CONCURRENCY (both modes)
 *   May run at the same time as each other, from any threads, on one pool:
 *   gen_pool_alloc*(), gen_pool_dma_alloc*(), gen_pool_free*(),
 *   gen_pool_add*(), gen_pool_virt_to_phys(), gen_pool_has_addr(),
 *   gen_pool_avail(), gen_pool_size(), gen_pool_for_each_chunk(),
 *   gen_pool_stats() (a snapshot; in lock-free mode exact only when the
 *   pool is quiet).
 *   Must not overlap any other call on the same pool: gen_pool_destroy(),
 *   gen_pool_set_algo() (allocations read the algo/data pair unlocked),
 *   gen_pool_set_lockless() and gen_pool_check() (it compares bitmaps with
 *   counters and summaries, which only agree when nothing is in flight).
 *   What is lock-free: in lock-free mode, gen_pool_alloc*(),
 *   gen_pool_dma_alloc*() and gen_pool_free*(); in both modes,
 *   gen_pool_virt_to_phys(), gen_pool_has_addr(), gen_pool_avail(),
 *   gen_pool_size() and gen_pool_for_each_chunk().  Always locked:
 *   gen_pool_add*() and, in indexed mode, allocation and free.
 *
 * ASYNC-SIGNAL SAFETY: see SIGNALS AND MODES at the top.  In indexed
 *   mode, besides the lock, the first best fit on a chunk allocates its
 *   size classes and an aligned fit on a big chunk may allocate its hints
 *   (malloc), which is why a handler is refused there rather than served.
 *
 * BOOKKEEPING (outside the managed memory)
 *   A pool of N bytes in one chunk at granule G = 2^min_alloc_order costs:
 *     bitmap          N / G / 8 bytes (one bit per granule, whole words);
 *     run index       2 bytes per 256 granules (the longest free run
 *                     starting in each), 4 bytes per 2048 granules and
 *                     1/7 of that again for the tree above them, and one
 *                     bit per 256 granules of "all free" map: about
 *                     1/11.9 of the bitmap (N / G * 0.0105);
 *     size classes    only once best fit has run on the chunk: up to 167
 *                     bits per 16384 granules, 3 KiB of counts and bounds
 *                     and 8 bytes per remembered run, as many runs as keep
 *                     them and the run index within 1/8 of the bitmap:
 *                     about 1/25 of it from 2^21 granules, 8-9 KiB on
 *                     smaller chunks (a chunk that runs aligned fit too
 *                     adds the hints' 1/28 below);
 *     aligned hints   only on chunks of 2^20 granules or more, once
 *                     aligned fit needs them (above): 2 bytes per
 *                     512 granules and 1/7 of that for their tree, 1/28
 *                     of the bitmap, so that with the run index they stay
 *                     within 1/8 of it (1/8.3); on chunks of about 2^16 to
 *                     2^20 granules, one bit per 256 granules of grid
 *                     points instead, in the run index's figure;
 *     fixed           a 64-byte chunk header, a 256-byte index header,
 *                     and 64 bytes of directory per slot, its slots
 *                     starting at 8 and doubling as chunks arrive
 *                     (64-128 bytes a chunk).
 *   E.g. 64 MiB at 8-byte granules: 1 MiB bitmap + 87 KiB index (+ 41 KiB
 *   with best fit, + 37 KiB of aligned-fit hints).  Chunks of 2^32 granules
 *   or more have no index and are searched linearly in both modes.  Each
 *   block starts on a 64-byte cache line, so that the index's 256-granule
 *   blocks of the bitmap are half a line each, never split across two.
 *   Blocks of 256 KiB or more are mapped (mmap) rather than allocated:
 *   their pages stay untouched zeros until used.  Those of 4 MiB or more
 *   are advised onto transparent huge pages (madvise MADV_HUGEPAGE, where
 *   the system has it): their resident size rounds up to whole 2 MiB
 *   pages, and a big pool's random bitmap reads stop missing in the TLB.
 *
 * DIVERGENCES FROM THE KERNEL (mostly kernel defects and BUG()s made safe)
 *  - NULL pool: WARN EINVAL and the failure value (the kernel dereferences
 *    it), except gen_pool_destroy(NULL) (no-op) and gen_pool_dma_alloc*(NULL)
 *    (NULL without a report, as the kernel's _algo, _align, _zalloc_algo and
 *    _zalloc_align; its gen_pool_dma_alloc() and gen_pool_dma_zalloc() read
 *    pool->algo first and oops).
 *  - gen_pool_add*(): size 0, address 0 or a range that wraps the address
 *    space or exceeds LONG_MAX bytes is refused (the kernel's chunk_size and
 *    avail would overflow); a range overlapping a chunk already in the pool
 *    is refused (the kernel would hand the same memory out twice).
 *  - gen_pool_alloc*(): a size whose granule count exceeds UINT_MAX (the
 *    algorithms' "unsigned int nr") or whose rounding would overflow returns
 *    0 (the kernel's algorithm searches for the truncated count while the
 *    bitmap is set for the whole one: a block nobody checked was free, or a
 *    retry without end when the bits past the search's window are in use);
 *    an algorithm answer that does not fit in the chunk is treated as "no
 *    room".
 *  - gen_pool_free*(): every kernel BUG() is a GENALLOC_BUG report, and all
 *    checks (chunk, granule alignment, range, every granule live) run before
 *    any bit is cleared.  Two of them the kernel lacks: an address off a
 *    granule boundary is EMISALIGNED (the kernel frees the granule holding
 *    it), and a range whose end wraps the address space is ERANGE (the
 *    kernel's end check wraps too, and it clears a truncated count of
 *    bits).  A range reaching into a chunk's tail shorter than a granule is
 *    ERANGE (the kernel clears bits past its bitmap).
 *  - gen_pool_destroy() with live allocations: BUG EBUSY, the pool is kept.
 *  - gen_pool_virt_to_phys() on a chunk added without a physical address
 *    (gen_pool_add()) returns -1, not -1 + offset.
 *  - gen_pool_has_addr() is false when start + size - 1 wraps.
 *  - gen_pool_first_fit_align() / gen_pool_fixed_alloc() with NULL data, an
 *    alignment that is not a power of two > 0, or a fixed offset that is not
 *    a whole granule: WARN EINVAL, once per allocation call, and no block.
 *  - nid is accepted and ignored: there is no NUMA placement of bookkeeping.
 *    NUMA_NO_NODE, the kernel's "any node", is defined here (as -1) if not
 *    already, since kernel callers pass it and this header stands in for
 *    the one that brings it along there.
 *  - gen_pool_for_each_chunk() with a NULL function: WARN EINVAL, no call
 *    (the kernel calls through it).
 *  - struct members: pool->chunks and chunk->next_chunk are a plain list
 *    of pointers, not struct list_head, and chunk->avail is a C11 atomic,
 *    not atomic_long_t.  Code that walks pool->chunks itself, or reads
 *    avail with atomic_long_read(), must use gen_pool_for_each_chunk() and
 *    atomic_load() (or gen_pool_avail()) instead; mainline drivers already
 *    do.
 *
 * LIMITS OF MISUSE DETECTION
 *   A bitmap records which granules are in use, not where blocks begin or
 *   end; the kernel even allows freeing part of a block.  So a free with a
 *   wrong size or address that stays inside live granules is accepted and
 *   frees exactly those granules.  Freeing any granule that is already free
 *   is caught (EDOUBLEFREE), as is any address outside every chunk
 *   (EFOREIGN) or off a granule boundary (EMISALIGNED).  A pool that keeps
 *   block records (gen_pool_use_block_records(), not the kernel's) catches
 *   the wrong size and the interior address too; see there.
 *
 *   In lock-free mode a free releases its range a word at a time, each word
 *   with one compare-and-swap, as the kernel does; two racing frees of the
 *   same block meet at its first word, and the loser releases nothing
 *   (unless the granules were allocated again in between: then, like any
 *   late double free of reallocated granules, it frees them).  Two racing
 *   frees of different but overlapping ranges (one of them wrong) can meet
 *   further in: the one that finds a granule already released is reported
 *   EDOUBLEFREE, but the words it released before that stay released (the
 *   kernel BUG()s at the same point), and another thread may already have
 *   allocated them.  Indexed mode checks and releases under the lock: all
 *   or nothing.
 */
#ifndef GENALLOC_MODERN_GENALLOC_H
#define GENALLOC_MODERN_GENALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#ifndef __cplusplus
#include <stdatomic.h>
#include <stdbool.h>
#endif

#include "../common/api.h"
#include "../common/dump.h"
#include "../common/error.h"

/*
 * C++ includes this header too (all of it but the ATOMIC members is plain
 * C that C++ also reads).  C++ has no _Atomic before C++23, so it sees
 * those members as their plain types, which on every ABI the library
 * builds for have the same size and alignment (modern/pool.c checks);
 * they are the engine's, and C++ code must not touch them.
 */
#ifdef __cplusplus
#define GENALLOC_ATOMIC(type) type
extern "C" {
#else
#define GENALLOC_ATOMIC(type) _Atomic(type)
#endif

/* ------------------------------------------------------------------ types */

/*
 * Physical and bus addresses: the kernel's u64, unsigned long long, on every
 * host, so that kernel code (and a shim of <linux/types.h>) that typedefs
 * them itself repeats a compatible definition, and prints them with %llx.
 */
typedef unsigned long long phys_addr_t;
typedef unsigned long long dma_addr_t;

/*
 * The mode gen_pool_create() and devm_gen_pool_create() give a new pool
 * (SIGNALS AND MODES above): 0, indexed, through this header; 1, lock-free,
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

struct gen_pool;
struct modern_index;
struct modern_chunk_dir;
struct device;
struct device_node;

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

/**
 * struct gen_pool_stats - a snapshot of a pool's free space
 * @size:            bytes managed (gen_pool_size())
 * @avail:           bytes free (gen_pool_avail()), including sub-granule tails
 * @largest_free:    bytes in the longest run of free granules of one chunk
 * @nr_free_extents: number of maximal runs of free granules
 * @nr_chunks:       number of chunks
 * @metadata_bytes:  bookkeeping: the pool, chunk headers and bitmaps
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

/* ------------------------------------------------------- exported symbols */

GENALLOC_API struct gen_pool *modern_gen_pool_create(int min_alloc_order, int nid);
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

/* Implemented by the device model, device/device.c (see device/device.h). */
GENALLOC_API struct gen_pool *modern_devm_gen_pool_create(struct device *dev,
							  int min_alloc_order, int nid,
							  const char *name);
GENALLOC_API struct gen_pool *modern_devm_gen_pool_create_mode(struct device *dev,
							       int min_alloc_order, int nid,
							       const char *name,
							       bool lockless);
GENALLOC_API struct gen_pool *modern_gen_pool_get(struct device *dev, const char *name);
GENALLOC_API struct gen_pool *modern_of_gen_pool_get(struct device_node *np,
						     const char *propname, int index);

/* ------------------------------------------------------- the algorithms */
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

/* ------------------------------------------------- creating and destroying */

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
static inline struct gen_pool *gen_pool_create(int min_alloc_order, int nid)
{
	return modern_gen_pool_create_mode(min_alloc_order, nid, GENALLOC_DEFAULT_LOCKLESS);
}

/**
 * gen_pool_destroy() - free a pool and its bookkeeping
 * @pool: the pool, or NULL (nothing happens)
 *
 * Every allocation must have been freed.  If one is live: BUG EBUSY, and
 * (if the handler returns) the pool is left intact and usable.  Also frees
 * @pool->name.  Must not overlap any other call on @pool.
 */
static inline void gen_pool_destroy(struct gen_pool *pool)
{
	modern_gen_pool_destroy(pool);
}

/**
 * devm_gen_pool_create() - create a pool bound to a device's lifetime
 * @dev:             the device
 * @min_alloc_order: as for gen_pool_create()
 * @nid:             ignored
 * @name:            the pool's name, for gen_pool_get(); may be NULL
 *
 * The pool's mode is gen_pool_create()'s.  Implemented by the device model
 * (device/device.h documents it).
 */
static inline struct gen_pool *devm_gen_pool_create(struct device *dev,
						    int min_alloc_order, int nid,
						    const char *name)
{
	return modern_devm_gen_pool_create_mode(dev, min_alloc_order, nid, name,
						GENALLOC_DEFAULT_LOCKLESS);
}

/**
 * gen_pool_get() - find a device's pool by name
 * @dev:  the device
 * @name: the name given to devm_gen_pool_create(), or NULL
 *
 * Implemented by the device model (device/device.h documents it).
 */
static inline struct gen_pool *gen_pool_get(struct device *dev, const char *name)
{
	return modern_gen_pool_get(dev, name);
}

/**
 * of_gen_pool_get() - find the pool a device-tree property points to
 * @np:       the node
 * @propname: the phandle property
 * @index:    which phandle in the property
 *
 * Implemented by the device model (device/device.h documents it).
 */
static inline struct gen_pool *of_gen_pool_get(struct device_node *np,
					       const char *propname, int index)
{
	return modern_of_gen_pool_get(np, propname, index);
}

/* ------------------------------------------------------- adding memory */

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
 * never touched.  May run concurrently with the calls CONCURRENCY above
 * lists (not destroy, set_algo, set_lockless or check).
 *
 * Return: 0; -EDEADLK (WARN EREENTRY) when this thread is already inside a
 * locked call on @pool (see SIGNALS AND MODES); -ENOMEM when the
 * bookkeeping cannot be allocated (with the
 * memory for the aligned-fit hints of a chunk of 2^20 granules or more when
 * the pool's algorithm is gen_pool_first_fit_order_align or
 * gen_pool_first_fit_align); -EINVAL after
 * a WARN for a NULL pool, @size 0 or @addr 0 (EINVAL), a range that wraps or
 * exceeds LONG_MAX bytes (ERANGE), or one that overlaps a chunk already in
 * the pool (EOVERLAP).
 */
static inline int gen_pool_add_owner(struct gen_pool *pool, unsigned long addr,
				     phys_addr_t phys, size_t size, int nid,
				     void *owner)
{
	return modern_gen_pool_add_owner(pool, addr, phys, size, nid, owner);
}

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
				    phys_addr_t phys, size_t size, int nid)
{
	return modern_gen_pool_add_virt(pool, addr, phys, size, nid);
}

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
			       size_t size, int nid)
{
	return modern_gen_pool_add(pool, addr, size, nid);
}

/* ------------------------------------------------------- allocating */

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
 * reported as gen_pool_alloc; see SIGNALS AND MODES); @size 0; a size of more than
 * UINT_MAX granules or one whose rounding overflows (no report); a NULL pool
 * (WARN EINVAL); bad data for gen_pool_first_fit_align/gen_pool_fixed_alloc
 * (WARN EINVAL).
 */
static inline unsigned long gen_pool_alloc_algo_owner(struct gen_pool *pool,
						      size_t size, genpool_algo_t algo,
						      void *data, void **owner)
{
	return modern_gen_pool_alloc_algo_owner(pool, size, algo, data, owner);
}

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
						genpool_algo_t algo, void *data)
{
	return modern_gen_pool_alloc_algo(pool, size, algo, data);
}

/**
 * gen_pool_alloc_owner() - allocate with the pool's algorithm, report owner
 * @pool:  the pool
 * @size:  bytes
 * @owner: receives the chunk's owner, or NULL
 *
 * Return: as gen_pool_alloc_algo_owner().
 */
static inline unsigned long gen_pool_alloc_owner(struct gen_pool *pool, size_t size,
						 void **owner)
{
	return modern_gen_pool_alloc_owner(pool, size, owner);
}

/**
 * gen_pool_alloc() - allocate with the pool's algorithm
 * @pool: the pool
 * @size: bytes
 *
 * Return: as gen_pool_alloc_algo_owner().
 */
static inline unsigned long gen_pool_alloc(struct gen_pool *pool, size_t size)
{
	return modern_gen_pool_alloc(pool, size);
}

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
				     void *data)
{
	modern_gen_pool_set_algo(pool, algo, data);
}

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
static inline void gen_pool_set_lockless(struct gen_pool *pool, bool lockless)
{
	modern_gen_pool_set_lockless(pool, lockless);
}

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
					    void *data)
{
	return modern_gen_pool_dma_alloc_algo(pool, size, dma, algo, data);
}

/**
 * gen_pool_dma_alloc() - DMA allocation with the pool's algorithm
 * @pool: the pool, or NULL (returns NULL)
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_alloc(struct gen_pool *pool, size_t size,
				       dma_addr_t *dma)
{
	return modern_gen_pool_dma_alloc(pool, size, dma);
}

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
					     dma_addr_t *dma, int align)
{
	return modern_gen_pool_dma_alloc_align(pool, size, dma, align);
}

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
					     void *data)
{
	return modern_gen_pool_dma_zalloc_algo(pool, size, dma, algo, data);
}

/**
 * gen_pool_dma_zalloc() - gen_pool_dma_alloc(), then zero @size bytes
 * @pool: the pool, or NULL (returns NULL)
 * @size: bytes
 * @dma:  receives the bus address, or NULL
 *
 * Return: the block, or NULL.
 */
static inline void *gen_pool_dma_zalloc(struct gen_pool *pool, size_t size,
					dma_addr_t *dma)
{
	return modern_gen_pool_dma_zalloc(pool, size, dma);
}

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
					      dma_addr_t *dma, int align)
{
	return modern_gen_pool_dma_zalloc_align(pool, size, dma, align);
}

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
 * See LIMITS above, and for lock-free mode its racing frees of overlapping
 * ranges.  In indexed mode a free by a thread already inside a locked call
 * on @pool is refused (WARN EREENTRY, nothing freed; see SIGNALS AND MODES).
 */
static inline void gen_pool_free_owner(struct gen_pool *pool, unsigned long addr,
				       size_t size, void **owner)
{
	modern_gen_pool_free_owner(pool, addr, size, owner);
}

/**
 * gen_pool_free() - give back a block
 * @pool: the pool
 * @addr: the block's address
 * @size: its size
 *
 * As gen_pool_free_owner().
 */
static inline void gen_pool_free(struct gen_pool *pool, unsigned long addr, size_t size)
{
	modern_gen_pool_free(pool, addr, size);
}

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
						unsigned long addr)
{
	return modern_gen_pool_virt_to_phys(pool, addr);
}

/**
 * gen_pool_has_addr() - is a whole range inside one chunk of the pool?
 * @pool:  the pool (NULL: WARN EINVAL, false)
 * @start: first address
 * @size:  bytes; 0 asks whether @start is in a chunk
 *
 * Return: true if [@start, @start + @size) lies in a single chunk.
 */
static inline bool gen_pool_has_addr(struct gen_pool *pool, unsigned long start,
				     size_t size)
{
	return modern_gen_pool_has_addr(pool, start, size);
}

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
				    size_t size)
{
	return modern_gen_pool_has_addr(pool, start, size);
}

/**
 * gen_pool_avail() - free bytes in the pool
 * @pool: the pool (NULL: WARN EINVAL, 0)
 *
 * Return: the sum of the chunks' avail, sub-granule tails included.
 */
static inline size_t gen_pool_avail(struct gen_pool *pool)
{
	return modern_gen_pool_avail(pool);
}

/**
 * gen_pool_size() - bytes managed by the pool
 * @pool: the pool (NULL: WARN EINVAL, 0)
 *
 * Return: the sum of the chunks' sizes, sub-granule tails included.
 */
static inline size_t gen_pool_size(struct gen_pool *pool)
{
	return modern_gen_pool_size(pool);
}

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
	void *data)
{
	modern_gen_pool_for_each_chunk(pool, func, data);
}

/* ------------------------------------------------------- introspection */

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
static inline int gen_pool_check(struct gen_pool *pool)
{
	return modern_gen_pool_check(pool);
}

/**
 * gen_pool_stats() - fill @st with the pool's free-space statistics
 * @pool: the pool (NULL: WARN EINVAL, @st zeroed)
 * @st:   where to write (NULL: WARN EINVAL)
 *
 * Costs O(bitmap words) and holds the pool's lock meanwhile (not
 * async-signal-safe).  Exact in indexed mode; in lock-free mode, exact when
 * no allocation or free is in flight.
 */
static inline void gen_pool_stats(struct gen_pool *pool, struct gen_pool_stats *st)
{
	modern_gen_pool_stats(pool, st);
}

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

GENALLOC_API int modern_gen_pool_add_used(struct gen_pool *pool, unsigned long addr,
					  size_t size, int nid);
GENALLOC_API int modern_gen_pool_use_block_records(struct gen_pool *pool);
GENALLOC_API size_t modern_gen_pool_free_addr(struct gen_pool *pool, unsigned long addr);
GENALLOC_API int modern_gen_pool_dump(struct gen_pool *pool, FILE *f, int format);
GENALLOC_API bool modern_gen_pool_held_by_caller(struct gen_pool *pool);
GENALLOC_API int modern_gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
					      gen_pool_run_fn func, void *data);

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
				    int nid)
{
	return modern_gen_pool_add_used(pool, addr, size, nid);
}

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
 * included (LIMITS OF MISUSE DETECTION above).
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
static inline int gen_pool_use_block_records(struct gen_pool *pool)
{
	return modern_gen_pool_use_block_records(pool);
}

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
static inline size_t gen_pool_free_addr(struct gen_pool *pool, unsigned long addr)
{
	return modern_gen_pool_free_addr(pool, addr);
}

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
 * pool's lock throughout, so in indexed mode it sees one state of the pool
 * and @func must not call into @pool (an allocation or free would wait for
 * the walk forever).  In lock-free mode allocations and frees do not wait
 * for it: the runs are exact only while none is in flight.  Not
 * async-signal-safe.  Costs O(bitmap words + runs).
 *
 * Return: 0 after the whole walk, else what @func returned to stop it;
 * -EDEADLK (WARN EREENTRY) when this thread is already inside a locked call
 * on @pool (a signal handler that interrupted it).
 */
static inline int gen_pool_for_each_run(struct gen_pool *pool, unsigned int which,
					gen_pool_run_fn func, void *data)
{
	return modern_gen_pool_for_each_run(pool, which, func, data);
}

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
static inline int gen_pool_dump(struct gen_pool *pool, FILE *f, int format)
{
	return modern_gen_pool_dump(pool, f, format);
}

/**
 * gen_pool_held_by_caller() - is the calling thread inside a locked call on @pool?
 * @pool: the pool (NULL: false)
 *
 * True only in a signal handler that interrupted its thread inside a call
 * that holds @pool's lock, or in a callback run under it: there, the
 * calls that take the lock are refused (SIGNALS AND MODES).  A handler may
 * use it to defer its work rather than be refused, and a caller whose
 * allocation failed to tell a refusal from a full pool.  Always false on a
 * lock-free pool's allocation path, which takes no lock.
 * Async-signal-safe.
 */
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
 * newest first), and the request is retried once; an imported chunk the
 * retry leaves empty is released at once.  A non-zero return means no
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
