// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/pool.c - the pool's requests: allocation and free, in both modes.
 *
 * Indexed mode (the default through modern/genalloc.h) takes the pool's
 * lock (common/lock_internal.h) and asks the chunk directory and each
 * chunk's index; lock-free mode (the default through <linux/genalloc.h>)
 * is the kernel's path, a linear bitmap search claimed with
 * compare-and-swap.  Both give the kernel's addresses.  Free checks the
 * whole range before it releases anything, so misuse leaves the pool as it
 * was.  Creating a pool, adding its chunks and the queries are chunks.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "algo_internal.h"
#include "assert_internal.h"
#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "chunklist_internal.h"
#include "compiler_internal.h"
#include "import_internal.h"
#include "index_internal.h"
#include "lock_internal.h"
#include "meta_internal.h"
#include "pool_internal.h"
#include "records_internal.h"
#include "reentry_internal.h"

/* The kernel's cheap per-chunk skip: it compares the unrounded size. */
static bool chunk_may_fit(struct gen_pool_chunk *chunk, size_t size)
{
	return size <= (unsigned long)atomic_load_explicit(&chunk->avail,
							   memory_order_relaxed);
}

/*
 * Indexed mode: every writer of @chunk's avail holds the pool lock (mode
 * switches overlap no other call), so a relaxed load and store do what a
 * locked fetch-and-add would, without the cost of its lock; lock-free
 * readers still see whole values.
 */
static void avail_add_locked(struct gen_pool_chunk *chunk, long delta)
{
	atomic_store_explicit(&chunk->avail,
			      atomic_load_explicit(&chunk->avail, memory_order_relaxed) + delta,
			      memory_order_relaxed);
}

/* Account for @nbits claimed at @bit of @chunk (@locked: under the pool
 * lock, in indexed mode); return the block's address. */
static unsigned long hand_out(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			      unsigned long bit, unsigned long nbits, void **owner, bool locked)
{
	int order = pool->min_alloc_order;
	long bytes = (long)(nbits << order);

	if (locked)
		avail_add_locked(chunk, -bytes);
	else
		atomic_fetch_sub_explicit(&chunk->avail, bytes, memory_order_relaxed);
	if (pool->records)
		modern_records_mark(chunk, bit, !locked);
	if (owner)
		*owner = chunk->owner;
	return chunk->start_addr + (bit << order);
}

unsigned long modern_pool_hand_out(struct gen_pool *pool, struct gen_pool_chunk *chunk,
				   unsigned long bit, unsigned long nbits, void **owner,
				   bool locked)
{
	return hand_out(pool, chunk, bit, nbits, owner, locked);
}

/*
 * Find and claim @nbits granules of @chunk.  A compare-and-swap conflict means
 * another thread took part of the answer: give back what this call set and
 * ask the algorithm again, from the start it answered, as the kernel does
 * (each retry follows someone's progress, so this cannot spin forever
 * without the pool changing).  So, as in the kernel, gen_pool_fixed_alloc()
 * then searches from twice its offset and gives up on the chunk, unless
 * that offset is 0.
 */
static bool claim_in_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			   unsigned long nbits, genpool_algo_t algo, void *data,
			   unsigned long *bit)
{
	unsigned long start = 0, remain;

	for (;;) {
		start = algo(chunk->bits, chunk->nbits, start, (unsigned int)nbits, data,
			     pool, chunk->start_addr);
		if (start >= chunk->nbits || nbits > chunk->nbits - start)
			return false;
		remain = modern_bitmap_set_ll(chunk->bits, start, nbits);
		if (!remain) {
			MODERN_ASSERT(pool, modern_inv_run_used(chunk, start, nbits),
				      chunk->start_addr + (start << pool->min_alloc_order),
				      nbits << pool->min_alloc_order);
			*bit = start;
			return true;
		}
		modern_bitmap_clear_ll(chunk->bits, start, nbits - remain);
	}
}

/*
 * Indexed mode: the search, the claim and the index update happen under the
 * pool's lock, so the index always matches the bitmap when it is searched.
 * A row of the algorithm table is answered by its @search through the index
 * (the same answer as its bitmap scan); a custom algorithm (@search NULL)
 * searches the bitmap, and the index is told which bits it claimed.
 */
static MODERN_ALWAYS_INLINE bool
claim_indexed(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long nbits,
	      genpool_algo_t algo, modern_algo_search_t search, unsigned int flags,
	      void *data, unsigned long *bit)
{
	struct modern_index *ix = chunk->index;
	unsigned long run_end;

	if (!ix)
		return claim_in_chunk(pool, chunk, nbits, algo, data, bit);
	if (!search) {
		if (!claim_in_chunk(pool, chunk, nbits, algo, data, bit))
			return false;
		modern_index_update(ix, chunk->bits, *bit, nbits);
		MODERN_ASSERT(pool, modern_inv_index_matches(chunk), chunk->start_addr, 0);
		return true;
	}
	*bit = search(pool, chunk, nbits, data, &run_end);
	MODERN_ASSERT(pool, modern_inv_same_answer(pool, chunk, algo, data, nbits, *bit,
						     flags & MODERN_ALGO_EXACT),
		      chunk->start_addr, nbits << pool->min_alloc_order);
	if (*bit >= chunk->nbits)
		return false;
	MODERN_ASSERT(pool, modern_inv_run_free(chunk, *bit, nbits),
		      chunk->start_addr + (*bit << pool->min_alloc_order),
		      nbits << pool->min_alloc_order);
	modern_bitmap_set_excl(chunk->bits, *bit, nbits);
	/* The search saw where its run ends: the update need not look. */
	if (run_end == MODERN_INDEX_NONE)
		modern_index_update(ix, chunk->bits, *bit, nbits);
	else if (flags & MODERN_ALGO_STARTS_RUN)
		modern_index_claim_run(ix, chunk->bits, *bit, nbits, run_end,
				       flags & MODERN_ALGO_TELLS_CLASSES ?
				       1U << MODERN_INDEX_CLASSES : 0);
	else
		modern_index_claim_within(ix, chunk->bits, *bit, nbits, run_end);
	MODERN_ASSERT(pool, modern_inv_index_matches(chunk), chunk->start_addr, 0);
	return true;
}

/* Try the chunk in @slot; on success the directory learns its new longest run. */
static MODERN_ALWAYS_INLINE bool
alloc_in_slot(struct gen_pool *pool, size_t slot, size_t size, unsigned long nbits,
	      genpool_algo_t algo, modern_algo_search_t search, unsigned int flags,
	      void *data, unsigned long *addr, void **owner)
{
	struct gen_pool_chunk *chunk = modern_dir_chunk(pool->dir, slot);
	unsigned long bit;

	if (!chunk_may_fit(chunk, size) ||
	    !claim_indexed(pool, chunk, nbits, algo, search, flags, data, &bit))
		return false;
	modern_dir_refresh_chunk(pool->dir, slot, chunk);
	*addr = hand_out(pool, chunk, bit, nbits, owner, true);
	return true;
}

/* The slot after the newest chunk below @slot with a run of @nbits rounded
 * up to a power of two, or @slot when none has one. */
static size_t seek_pow2(struct gen_pool *pool, size_t slot, unsigned long nbits)
{
	size_t s = modern_dir_prev_fit(pool->dir, slot - 1, modern_instant_want(nbits));

	return s == MODERN_DIR_NONE ? slot : s + 1;
}

/* What a request may need beyond its size in an imported span: up to one
 * step more than the size for an absolute alignment; the offset, for a
 * fixed one. */
static size_t import_slack(const struct gen_pool *pool, genpool_algo_t algo, const void *data)
{
	unsigned long g = modern_pool_granule(pool), align;

	if (algo == gen_pool_first_fit_align) {
		align = (unsigned long)((const struct genpool_data_align *)data)->align;
		return align > g ? align - g : 0;
	}
	if (algo == gen_pool_fixed_alloc)
		return ((const struct genpool_data_fixed *)data)->offset;
	return 0;
}

/*
 * No room: a pool that imports asks for a span (modern/import.c), adds it
 * as its newest chunk, which every algorithm searches first, and tries
 * again; modern_import_done() keeps the span or hands it back.  Other
 * threads may take the span before the try: then, and only then, another
 * is imported.  A try that fails on a span left wholly free ends it.
 */
static MODERN_COLD unsigned long alloc_imported(struct gen_pool *pool, size_t size,
						genpool_algo_t algo, void *data, void **owner)
{
	struct modern_import_grant g;
	unsigned long addr = 0;
	bool added, kept;

	do {
		if (!modern_import_get(pool, size, import_slack(pool, algo, data), &g))
			return 0;
		added = !modern_gen_pool_add(pool, g.addr, g.len, -1);
		if (added)
			addr = modern_pool_alloc(pool, size, algo, data, owner);
		kept = modern_import_done(pool, &g, added);
	} while (!addr && kept);
	return addr;
}

/*
 * Chunks in the kernel's order (newest first, i.e. descending slot).  For a
 * row of the table the directory jumps straight to the next chunk whose
 * longest free run (or, for a @grid row, whose bound on that grid) can
 * hold the request; a custom algorithm sees them all.
 *
 * This and the two above are forced inline into each row's alloc_<ID>()
 * below and into alloc_other(): a call between them would spill the
 * search's state, and in a row's copy its constant columns fold away.
 */
static MODERN_ALWAYS_INLINE unsigned long
alloc_indexed(struct gen_pool *pool, size_t size, unsigned long nbits, genpool_algo_t algo,
	      modern_algo_search_t search, modern_algo_grid_t grid, unsigned int flags,
	      void *data, void **owner)
{
	unsigned long addr = 0;
	size_t slot;
	bool aimed;

	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, "gen_pool_alloc", 0, size);
		return 0;
	}
	aimed = grid && modern_dir_aim_at(pool->dir, grid(data), pool->min_alloc_order);
	slot = modern_dir_count(pool->dir);
	/* Start at the newest chunk with a run of the request rounded up to
	 * a power of two, if one has it. */
	if ((flags & MODERN_ALGO_SEEK_POW2) && slot)
		slot = seek_pow2(pool, slot, nbits);
	while (slot-- > 0) {
		if (search) {
			slot = aimed ? modern_dir_prev_fit_aimed(pool->dir, slot, nbits)
				     : modern_dir_prev_fit(pool->dir, slot, nbits);
			if (slot == MODERN_DIR_NONE)
				break;
		}
		if (alloc_in_slot(pool, slot, size, nbits, algo, search, flags, data, &addr,
				  owner))
			break;
		/* The chunk's index may now remember this miss. */
		modern_dir_refresh_aim(pool->dir, slot);
	}
	modern_lock_release(&pool->lock);
	if (__builtin_expect(!addr, 0) && pool->import)
		addr = alloc_imported(pool, size, algo, data, owner);
	return addr;
}

/*
 * The common requests - a row of the table, every chunk, no owner wanted -
 * each through a copy of alloc_indexed() of its own, generated from the
 * table: with the row's columns and the owner constant, the tests on them
 * fold away and the search's state stays in registers instead of being
 * spilled around every call.
 */
#define MODERN_ALGO_PATH(ID, FN, DATA_OK, SEARCH, GRID, FLAGS)                        \
	static MODERN_NOINLINE unsigned long alloc_##ID(struct gen_pool *pool,       \
							size_t size,                 \
							unsigned long nbits,         \
							void *data)                  \
	{                                                                             \
		if (!DATA_OK(data, pool))                                             \
			return 0;                                                     \
		return alloc_indexed(pool, size, nbits, FN, SEARCH, GRID, FLAGS, data, \
				     NULL);                                           \
	}
MODERN_ALGO_TABLE(MODERN_ALGO_PATH)
#undef MODERN_ALGO_PATH

/* Every other request - an owner wanted, a lock-free pool, or a custom
 * algorithm: the row's data check, then the indexed or the lock-free
 * search. */
static MODERN_NOINLINE unsigned long
alloc_other(struct gen_pool *pool, size_t size, unsigned long nbits, genpool_algo_t algo,
	    const struct modern_algo *row, void *data, void **owner)
{
	struct gen_pool_chunk *chunk;
	unsigned long bit;

	if (row && !row->data_ok(data, pool))
		return 0;
	if (!pool->lockless)
		return alloc_indexed(pool, size, nbits, algo, row ? row->search : NULL,
				     row ? row->grid : NULL, row ? row->flags : 0, data, owner);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk)
		if (chunk_may_fit(chunk, size) &&
		    claim_in_chunk(pool, chunk, nbits, algo, data, &bit))
			return hand_out(pool, chunk, bit, nbits, owner, false);
	return 0;
}

/*
 * The checks every request shares, done without a stack frame; then the
 * row's own path or any other.  Forced inline so that each entry point's
 * constant owner folds away.
 */
static MODERN_ALWAYS_INLINE unsigned long
pool_alloc(struct gen_pool *pool, size_t size, genpool_algo_t algo, void *data, void **owner)
{
	int order = pool->min_alloc_order;
	enum modern_algo_id id;
	unsigned long last, nbits;

	if (owner)
		*owner = NULL;
	/*
	 * The granules are last + 1.  Size 0 and the sizes whose rounding up
	 * would overflow are exactly those with last == ULONG_MAX >> order
	 * (size - 1 reaches the top granule of the address space); more than
	 * UINT_MAX granules is last >= UINT_MAX.  All are refused silently.
	 */
	last = (size - 1) >> order;
	if (last == ULONG_MAX >> order || last >= UINT_MAX)
		return 0;
	nbits = last + 1;
	if (!algo)
		algo = gen_pool_first_fit;
	id = modern_algo_of(algo);
	if (!owner && !pool->lockless) {
		switch (id) {
#define MODERN_ALGO_CASE(ID, FN, DATA_OK, SEARCH, GRID, FLAGS) \
		case MODERN_ALGO_##ID:                         \
			return alloc_##ID(pool, size, nbits, data);
		MODERN_ALGO_TABLE(MODERN_ALGO_CASE)
#undef MODERN_ALGO_CASE
		case MODERN_ALGO_NONE:
			break;
		}
	}
	return alloc_other(pool, size, nbits, algo, id == MODERN_ALGO_NONE ? NULL : &modern_algos[id],
			   data, owner);
}

unsigned long modern_pool_alloc(struct gen_pool *pool, size_t size, genpool_algo_t algo,
				void *data, void **owner)
{
	return pool_alloc(pool, size, algo, data, owner);
}

/**
 * gen_pool_alloc_algo_owner() - allocate with a given algorithm
 * @pool:  the pool
 * @size:  bytes
 * @algo:  the algorithm
 * @data:  its data
 * @owner: receives the chunk's owner, or NULL
 *
 * Return: the address, or 0 (see genalloc.h).
 */
unsigned long modern_gen_pool_alloc_algo_owner(struct gen_pool *pool, size_t size,
					       genpool_algo_t algo, void *data,
					       void **owner)
{
	if (owner)
		*owner = NULL;
	if (!modern_pool_ok(pool, "gen_pool_alloc_algo_owner", 0, size))
		return 0;
	return pool_alloc(pool, size, algo, data, owner);
}

/**
 * gen_pool_alloc_algo() - allocate with a given algorithm
 * @pool: the pool
 * @size: bytes
 * @algo: the algorithm
 * @data: its data
 *
 * Return: the address, or 0.
 */
unsigned long modern_gen_pool_alloc_algo(struct gen_pool *pool, size_t size,
					 genpool_algo_t algo, void *data)
{
	if (!modern_pool_ok(pool, "gen_pool_alloc_algo", 0, size))
		return 0;
	return pool_alloc(pool, size, algo, data, NULL);
}

/**
 * gen_pool_alloc_owner() - allocate with the pool's algorithm
 * @pool:  the pool
 * @size:  bytes
 * @owner: receives the chunk's owner, or NULL
 *
 * Return: the address, or 0.
 */
unsigned long modern_gen_pool_alloc_owner(struct gen_pool *pool, size_t size,
					  void **owner)
{
	if (owner)
		*owner = NULL;
	if (!modern_pool_ok(pool, "gen_pool_alloc_owner", 0, size))
		return 0;
	return pool_alloc(pool, size, pool->algo, pool->data, owner);
}

/**
 * gen_pool_alloc() - allocate with the pool's algorithm
 * @pool: the pool
 * @size: bytes
 *
 * Return: the address, or 0.
 */
unsigned long modern_gen_pool_alloc(struct gen_pool *pool, size_t size)
{
	if (!modern_pool_ok(pool, "gen_pool_alloc", 0, size))
		return 0;
	return pool_alloc(pool, size, pool->algo, pool->data, NULL);
}

/* What is wrong with a free, found before any bit changes. */
struct free_error {
	enum genalloc_errcode code;
	const char *msg;
};

/* An address outside every chunk, whatever the size. */
static const struct free_error foreign = { GENALLOC_EFOREIGN,
					   "address is in no chunk of the pool" };

/* The bitmap check's verdict, the same from either mode's release. */
static const struct free_error already_free = { GENALLOC_EDOUBLEFREE,
						"part of the range is already free" };

/* Not misuse of the block: the pool's lock is held by this very thread. */
static const struct free_error reentered = { GENALLOC_EREENTRY, NULL };

/*
 * Everything that makes a free wrong except bits already clear, which each
 * mode tests its own way.  Sets @start/@nbits to the granules to release;
 * returns false and fills @err otherwise.
 */
static bool free_range_ok(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			  unsigned long addr, size_t size, struct free_error *err,
			  unsigned long *start, unsigned long *nbits)
{
	int order = pool->min_alloc_order;
	unsigned long off, n;

	if (!chunk) {
		*err = foreign;
		return false;
	}
	off = addr - chunk->start_addr;
	if (off & (modern_pool_granule(pool) - 1)) {
		*err = (struct free_error){ GENALLOC_EMISALIGNED,
					    "address is not on a granule boundary" };
		return false;
	}
	n = (size >> order) + ((size & (modern_pool_granule(pool) - 1)) != 0);
	/* Granules that fit before the bitmap's end also fit before end_addr
	 * (nbits << order never exceeds the chunk's size): one test for both. */
	if (n > chunk->nbits - (off >> order)) {
		*err = (struct free_error){ GENALLOC_ERANGE, "range runs past the end of its chunk" };
		return false;
	}
	*start = off >> order;
	*nbits = n;
	return true;
}

/* The records' verdict on freeing @nbits granules at @start. */
static bool records_allow(const struct gen_pool_chunk *chunk, unsigned long start,
			  unsigned long nbits, bool exact, struct free_error *err)
{
	struct modern_records_verdict v;

	if (modern_records_free_ok(chunk, start, nbits, exact, &v))
		return true;
	*err = (struct free_error){ v.code, v.msg };
	return false;
}

/*
 * gen_pool_free_addr(): the size of the block at @addr, from the records.
 * An address in no chunk or off a granule gets one granule, for
 * free_range_ok() to refuse in its usual words.
 */
static bool size_from_records(struct gen_pool *pool, const struct gen_pool_chunk *chunk,
			      unsigned long addr, struct free_error *err, size_t *size)
{
	struct modern_records_verdict v;
	unsigned long n;

	*size = modern_pool_granule(pool);
	if (!chunk || ((addr - chunk->start_addr) & (modern_pool_granule(pool) - 1)))
		return true;
	n = modern_records_block_at(chunk, (addr - chunk->start_addr) >> pool->min_alloc_order,
				    &v);
	if (!n) {
		*err = (struct free_error){ v.code, v.msg };
		return false;
	}
	*size = n << pool->min_alloc_order;
	return true;
}

/*
 * Indexed mode: check, release and update the index under the lock; report
 * (the handler may use the pool) only once the lock is dropped.  @by_addr
 * (gen_pool_free_addr()): @size comes from the records and is stored there.
 * @owner, if not NULL, gets the chunk's owner, read under the lock: once it
 * is dropped an imported chunk this free emptied may be gone.
 */
static MODERN_ALWAYS_INLINE bool
free_indexed(struct gen_pool *pool, unsigned long addr, size_t size,
	     struct free_error *err, void **owner, size_t *by_addr)
{
	struct gen_pool_chunk *chunk;
	unsigned long start, nbits, chunk_addr = 0;
	size_t slot = 0;
	bool ok = true, emptied = false;

	if (!modern_lock_acquire(&pool->lock)) {
		*err = reentered;
		return false;
	}
	chunk = modern_dir_lookup(pool->dir, addr, &slot);
	if (by_addr)
		ok = size_from_records(pool, chunk, addr, err, &size);
	ok = ok && free_range_ok(pool, chunk, addr, size, err, &start, &nbits);
	if (ok && pool->records)
		ok = records_allow(chunk, start, nbits, true, err);
	/* Check and clear in one call: under the lock nothing can intervene. */
	if (ok && !modern_bitmap_release_excl(chunk->bits, start, nbits)) {
		*err = already_free;
		ok = false;
	}
	if (ok) {
		if (pool->records)
			modern_records_unmark(chunk, start, false);
		MODERN_ASSERT(pool, !modern_inv_run_used(chunk, start, nbits) &&
				    modern_inv_run_free(chunk, start, nbits),
			      addr, nbits << pool->min_alloc_order);
		if (chunk->index)
			modern_index_update(chunk->index, chunk->bits, start, nbits);
		MODERN_ASSERT(pool, modern_inv_index_matches(chunk), chunk->start_addr, 0);
		modern_dir_refresh_chunk(pool->dir, slot, chunk);
		avail_add_locked(chunk, (long)(nbits << pool->min_alloc_order));
		/* A chunk this free emptied may be an imported one, which goes
		 * back (import.c); its address, since once the lock is dropped
		 * the chunk may be gone. */
		if (__builtin_expect(pool->import != NULL, 0) &&
		    modern_chunk_wholly_free(chunk)) {
			emptied = true;
			chunk_addr = chunk->start_addr;
		}
		if (owner)
			*owner = chunk->owner;
	}
	modern_lock_release(&pool->lock);
	if (__builtin_expect(emptied, 0))
		modern_import_chunk_emptied(pool, chunk_addr);
	if (by_addr)
		*by_addr = ok ? size : 0;
	return ok;
}

/* Lock-free mode: the kernel's path.  Checks run first; a concurrent free
 * of the same block can still win the race, which the release detects. */
static MODERN_NOINLINE bool
free_lockless(struct gen_pool *pool, unsigned long addr, size_t size,
	      struct free_error *err, void **owner)
{
	struct gen_pool_chunk *chunk = modern_find_chunk(pool, addr);
	unsigned long start, nbits, remain;

	if (!free_range_ok(pool, chunk, addr, size, err, &start, &nbits))
		return false;
	if (pool->records && !records_allow(chunk, start, nbits, false, err))
		return false;
	if (!modern_bitmap_all_set(chunk->bits, start, nbits)) {
		*err = already_free;
		return false;
	}
	/* Forgotten before the release, so that whoever claims the granules
	 * next cannot have its record cleared by this call. */
	if (pool->records)
		modern_records_unmark(chunk, start, true);
	remain = modern_bitmap_clear_ll(chunk->bits, start, nbits);
	/* Whatever this call did release must be counted back, even when a
	 * concurrent free of the same block released the rest. */
	atomic_fetch_add_explicit(&chunk->avail,
				  (long)((nbits - remain) << pool->min_alloc_order),
				  memory_order_relaxed);
	if (remain) {
		*err = (struct free_error){ GENALLOC_EDOUBLEFREE, "block freed twice concurrently" };
		return false;
	}
	if (owner)
		*owner = chunk->owner;
	return true;
}

/* Size 0 frees no granule, but as in the kernel the address must lie in
 * a chunk (its BUG() otherwise), and that chunk's owner is reported. */
static MODERN_NOINLINE void free_nothing(struct gen_pool *pool, unsigned long addr,
					 void **owner, const char *func)
{
	struct gen_pool_chunk *chunk;

	modern_walk_begin(pool);
	chunk = modern_find_chunk(pool, addr);
	if (chunk && owner)
		*owner = chunk->owner;
	modern_walk_end(pool);
	if (!chunk)
		genalloc_report(GENALLOC_BUG, foreign.code, func, pool, addr, 0, foreign.msg);
}

/*
 * Forced inline, with free_indexed(), into both entry points:
 * gen_pool_free()'s copy then carries no owner and no name through the
 * indexed free's calls (a saved register or a spill each).  The lock-free
 * path stays out of line, one copy.
 */
static MODERN_ALWAYS_INLINE void
free_block(struct gen_pool *pool, unsigned long addr, size_t size, void **owner,
	   const char *func)
{
	struct free_error err;
	bool ok;

	if (owner)
		*owner = NULL;
	if (!modern_pool_ok(pool, func, addr, size))
		return;
	if (size == 0) {
		free_nothing(pool, addr, owner, func);
		return;
	}
	if (pool->lockless)
		ok = free_lockless(pool, addr, size, &err, owner);
	else
		ok = free_indexed(pool, addr, size, &err, owner, NULL);
	if (!ok) {
		if (err.code == GENALLOC_EREENTRY)
			modern_refuse_reentry(pool, func, addr, size);
		else
			genalloc_report(GENALLOC_BUG, err.code, func, pool, addr, size, err.msg);
	}
}

/**
 * gen_pool_free_owner() - give back a block, report its chunk's owner
 * @pool:  the pool
 * @addr:  the block's address
 * @size:  its size
 * @owner: receives the chunk's owner, or NULL
 */
void modern_gen_pool_free_owner(struct gen_pool *pool, unsigned long addr, size_t size,
				void **owner)
{
	free_block(pool, addr, size, owner, "gen_pool_free_owner");
}

/**
 * gen_pool_free() - give back a block
 * @pool: the pool
 * @addr: the block's address
 * @size: its size
 */
void modern_gen_pool_free(struct gen_pool *pool, unsigned long addr, size_t size)
{
	free_block(pool, addr, size, NULL, "gen_pool_free");
}

/**
 * gen_pool_free_addr() - give back the block at @addr, its size from the records
 * @pool: the pool, keeping block records, in indexed mode
 * @addr: the block's address
 *
 * Return: the bytes freed, or 0 (see genalloc.h).
 */
size_t modern_gen_pool_free_addr(struct gen_pool *pool, unsigned long addr)
{
	struct free_error err;
	size_t size = 0;

	if (!modern_pool_ok(pool, "gen_pool_free_addr", addr, 0))
		return 0;
	if (!pool->records || pool->lockless) {
		genalloc_report(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_free_addr", pool, addr,
				0, pool->records ? "not in lock-free mode"
						 : "the pool keeps no block records");
		return 0;
	}
	if (!free_indexed(pool, addr, 0, &err, NULL, &size)) {
		if (err.code == GENALLOC_EREENTRY)
			modern_refuse_reentry(pool, "gen_pool_free_addr", addr, 0);
		else
			genalloc_report(GENALLOC_BUG, err.code, "gen_pool_free_addr", pool, addr,
					0, err.msg);
		return 0;
	}
	return size;
}
