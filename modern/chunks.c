// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/chunks.c - a pool's life and its chunks: creation, adding memory,
 * destruction, the settings, and the queries over the chunk list.
 *
 * The chunk list only grows while the pool lives: gen_pool_add*() fills a
 * chunk completely, links it in front of the list and publishes it with a
 * release store, under the pool's lock (which only orders adders with each
 * other and with indexed requests).  Queries walk the list without a lock.
 * A chunk's bookkeeping is one block: its header, its bitmap, its block
 * records if the pool keeps them, then its index (O(granules / 8) bytes).
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>

#include "algo_internal.h"
#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "chunklist_internal.h"
#include "chunkmeta_internal.h"
#include "chunks_internal.h"
#include "compiler_internal.h"
#include "import_internal.h"
#include "index_internal.h"
#include "lock_internal.h"
#include "meta_internal.h"
#include "records_internal.h"
#include "reentry_internal.h"
#include "walk_internal.h"

/* What gen_pool_add() records as "no physical address". */
#define NO_PHYS ((phys_addr_t)-1)

/* C++ sees the header's atomic members as their plain types
 * (GENALLOC_ATOMIC in genalloc.h): the layouts must agree. */
_Static_assert(sizeof(_Atomic long) == sizeof(long) &&
	       _Alignof(_Atomic long) == _Alignof(long) &&
	       sizeof(_Atomic unsigned int) == sizeof(unsigned int) &&
	       _Alignof(_Atomic unsigned int) == _Alignof(unsigned int) &&
	       sizeof(_Atomic(struct gen_pool_chunk *)) == sizeof(struct gen_pool_chunk *) &&
	       _Alignof(_Atomic(struct gen_pool_chunk *)) == _Alignof(struct gen_pool_chunk *),
	       "an atomic member must be laid out as its plain type");

/* The bitmap follows the header on the cache line where modern_meta_zalloc()
 * starts the block, so each of the index's 8-word blocks is one line. */
_Static_assert(offsetof(struct gen_pool_chunk, bits) % MODERN_META_LINE == 0,
	       "a chunk's bitmap must start on a cache line");

/**
 * gen_pool_create() - create a pool without memory (see genalloc.h)
 * @min_alloc_order: log2 of the granule in bytes
 * @nid:             ignored
 *
 * Return: the pool, or NULL.
 */
struct gen_pool *modern_gen_pool_create(int min_alloc_order, int nid)
{
	return modern_gen_pool_create_mode(min_alloc_order, nid, false);
}

/**
 * modern_gen_pool_create_mode() - gen_pool_create() in a chosen mode
 * @min_alloc_order: log2 of the granule in bytes
 * @nid:             ignored
 * @lockless:        true for the kernel's lock-free path, false for the index
 *
 * What gen_pool_create() calls, with the mode its header chose.
 *
 * Return: the pool, or NULL.
 */
struct gen_pool *modern_gen_pool_create_mode(int min_alloc_order, int nid, bool lockless)
{
	struct gen_pool *pool;

	(void)nid;
	if (min_alloc_order < 0 || min_alloc_order >= (int)MODERN_BITS_PER_LONG) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "gen_pool_create", .msg = "min_alloc_order out of range",
			.arg = "min_alloc_order", .arg_value = min_alloc_order,
			.fix = "pass a min_alloc_order from 0 to BITS_PER_LONG - 1" });
		return NULL;
	}
	pool = malloc(sizeof(*pool));
	if (!pool)
		return NULL;
	pool->dir = modern_dir_create();
	if (!pool->dir) {
		free(pool);
		return NULL;
	}
	modern_lock_init(&pool->lock);
	atomic_init(&pool->chunks, NULL);
	pool->min_alloc_order = min_alloc_order;
	pool->algo = gen_pool_first_fit;
	pool->data = NULL;
	pool->name = NULL;
	pool->lockless = lockless;
	pool->records = false;
	pool->import = NULL;
	return pool;
}

/* Refuse a range the pool cannot represent; report why. */
static bool range_ok(struct gen_pool *pool, unsigned long addr, size_t size,
		     const char *func)
{
	struct genalloc_error e = { .severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
		.func = func, .pool = pool, .addr = addr, .size = size };

	if (size == 0) {
		e.msg = "empty range";
		e.fix = "add 1 byte or more";
	} else if (addr == 0) {
		e.msg = "address 0 is the allocation failure value";
		e.fix = "add memory from address 1 up (offset the range if it starts at 0)";
	} else if (size > (size_t)LONG_MAX || addr + (size - 1) < addr) {
		e.code = GENALLOC_ERANGE;
		e.msg = "range wraps the address space or is too large";
		e.fix = "add at most LONG_MAX bytes that end at or below ULONG_MAX";
	} else {
		return true;
	}
	genalloc_report_error(&e);
	return false;
}

/* The lowest chunk of @dir that [@start, @end] overlaps, which must exist. */
static const struct gen_pool_chunk *first_overlapped(const struct modern_chunk_dir *dir,
						     unsigned long start)
{
	size_t pos = modern_dir_upper_bound(dir, start);

	/* The last chunk starting at or below @start if it reaches it, else the
	 * first above (modern_dir_overlaps() said one of them meets the range). */
	if (pos > 0 && dir->by_addr[pos - 1].end >= start)
		pos--;
	return modern_dir_chunk(dir, dir->by_addr[pos].slot);
}

/* Link a finished chunk in front and into the directory: 0, -EINVAL if it
 * overlaps a chunk already there (*@other then is that chunk, the lowest if
 * several), -ENOMEM, -EDEADLK if this thread holds the lock already. */
static int publish_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk,
			 const struct gen_pool_chunk **other)
{
	int rc = 0;

	if (!modern_lock_acquire(&pool->lock))
		return -EDEADLK;
	if (modern_dir_overlaps(pool->dir, chunk->start_addr, chunk->end_addr)) {
		*other = first_overlapped(pool->dir, chunk->start_addr);
		rc = -EINVAL;
	} else if (modern_dir_add(pool->dir, chunk))
		rc = -ENOMEM;
	if (!rc) {
		chunk->next_chunk = atomic_load_explicit(&pool->chunks, memory_order_relaxed);
		atomic_store_explicit(&pool->chunks, chunk, memory_order_release);
	}
	modern_lock_release(&pool->lock);
	return rc;
}

/* Does @algo search an aligned grid, through the hints (modern/orderhint.c)? */
static bool aligned_algo(genpool_algo_t algo)
{
	const struct modern_algo *row = modern_algo_row(algo);

	return row && row->grid;
}

/* @used: every whole granule starts out allocated (gen_pool_add_used()). */
static int add_chunk(struct gen_pool *pool, unsigned long virt, phys_addr_t phys,
		     size_t size, void *owner, bool used, const char *func)
{
	const struct gen_pool_chunk *other = NULL;
	struct gen_pool_chunk *chunk;
	unsigned long nbits;
	int rc;

	if (!modern_pool_ok(pool, func, virt, size))
		return -EINVAL;
	if (!range_ok(pool, virt, size, func))
		return -EINVAL;
	nbits = size >> pool->min_alloc_order;
	chunk = modern_meta_zalloc(modern_chunk_bytes(nbits, pool->records));
	if (!chunk)
		return -ENOMEM;
	chunk->nbits = nbits;
	if (used)
		modern_bitmap_set(chunk->bits, 0, nbits);
	/* Memory added in use is one block. */
	if (used && nbits && pool->records)
		modern_records_mark(chunk, 0, false);
	if (nbits && nbits <= MODERN_INDEX_MAX_BITS) {
		chunk->index = modern_index_create(chunk->bits, nbits);
		/* An order-aligned pool's chunk comes with memory for its
		 * hints, so that no allocation from it needs any. */
		if (chunk->index && aligned_algo(pool->algo) &&
		    modern_index_hints_fit(nbits) && modern_index_reserve_hints(chunk->index)) {
			modern_index_destroy(chunk->index);
			chunk->index = NULL;
		}
		if (!chunk->index) {
			modern_meta_free(chunk, modern_chunk_bytes(nbits, pool->records));
			return -ENOMEM;
		}
	}
	chunk->phys_addr = phys;
	chunk->owner = owner;
	chunk->start_addr = virt;
	chunk->end_addr = virt + (size - 1);
	atomic_init(&chunk->avail, (long)(used ? size - (nbits << pool->min_alloc_order) : size));
	rc = publish_chunk(pool, chunk, &other);
	if (rc) {
		modern_index_destroy(chunk->index);
		modern_meta_free(chunk, modern_chunk_bytes(nbits, pool->records));
		if (rc == -ENOMEM)
			return rc;
		if (rc == -EDEADLK) {
			modern_refuse_reentry(pool, func, virt, size);
			return rc;
		}
		/* Chunks live until the pool does: *other may be read unlocked. */
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EOVERLAP, .func = func,
			.pool = pool, .addr = virt, .size = size,
			.msg = "range overlaps a chunk of the pool",
			.chunk_addr = other->start_addr, .chunk_size = modern_chunk_size(other),
			.fix = "add memory the pool does not have yet; ranges may touch, not "
			       "overlap" });
		return -EINVAL;
	}
	return 0;
}

/**
 * gen_pool_add_owner() - add memory with a physical address and an owner
 * @pool:  the pool
 * @addr:  first address
 * @phys:  physical address of @addr
 * @size:  bytes
 * @nid:   ignored
 * @owner: returned to gen_pool_alloc_owner()/gen_pool_free_owner()
 *
 * Return: 0, -EINVAL or -ENOMEM (see genalloc.h).
 */
int modern_gen_pool_add_owner(struct gen_pool *pool, unsigned long addr,
			      phys_addr_t phys, size_t size, int nid, void *owner)
{
	(void)nid;
	return add_chunk(pool, addr, phys, size, owner, false, "gen_pool_add_owner");
}

/**
 * gen_pool_add_virt() - add memory with a physical address
 * @pool: the pool
 * @addr: first address
 * @phys: physical address of @addr
 * @size: bytes
 * @nid:  ignored
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int modern_gen_pool_add_virt(struct gen_pool *pool, unsigned long addr,
			     phys_addr_t phys, size_t size, int nid)
{
	(void)nid;
	return add_chunk(pool, addr, phys, size, NULL, false, "gen_pool_add_virt");
}

/**
 * gen_pool_add() - add memory without a physical address
 * @pool: the pool
 * @addr: first address
 * @size: bytes
 * @nid:  ignored
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int modern_gen_pool_add(struct gen_pool *pool, unsigned long addr, size_t size, int nid)
{
	(void)nid;
	return add_chunk(pool, addr, NO_PHYS, size, NULL, false, "gen_pool_add");
}

/**
 * gen_pool_add_used() - add memory whose granules start out allocated
 * @pool: the pool
 * @addr: first address
 * @size: bytes
 * @nid:  ignored
 *
 * Return: 0, -EINVAL or -ENOMEM (see genalloc.h).
 */
int modern_gen_pool_add_used(struct gen_pool *pool, unsigned long addr, size_t size, int nid)
{
	(void)nid;
	return add_chunk(pool, addr, NO_PHYS, size, NULL, true, "gen_pool_add_used");
}

/* Each live block or used run into @data, a struct genalloc_error being built. */
static int count_live(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		      size_t size, bool used, void *data)
{
	struct genalloc_error *e = data;

	(void)pool;
	(void)chunk;
	(void)used;
	if (e->nr_live < GENALLOC_LIVE_SHOWN)
		e->live[e->nr_live] = addr;
	if (!e->nr_live)
		e->addr = addr;
	e->nr_live++;
	e->size += size;
	return 0;
}

/* BUG EBUSY, naming how many blocks are live, their bytes and the first few. */
static void report_busy(struct gen_pool *pool)
{
	struct genalloc_error e = {
		.severity = GENALLOC_BUG, .code = GENALLOC_EBUSY, .func = "gen_pool_destroy",
		.pool = pool,
		.msg = pool->records ? "pool has live blocks"
				     : "pool has live allocations, counted as runs of used granules",
		.fix = "free them first (gen_pool_for_each_run() with GEN_POOL_RUNS_USED lists "
		       "them), then destroy the pool",
	};

	modern_walk_unlocked(pool, GEN_POOL_RUNS_USED, NULL, count_live, &e);
	genalloc_report_error(&e);
}

/**
 * gen_pool_destroy() - free the pool and its bookkeeping
 * @pool: the pool, or NULL
 *
 * Every chunk is checked before anything is freed, so a live allocation
 * (BUG EBUSY) leaves the whole pool usable.
 */
void modern_gen_pool_destroy(struct gen_pool *pool)
{
	struct gen_pool_chunk *chunk, *next;
	unsigned long bit;

	if (!pool)
		return;
	/* Imported memory no block holds goes back first (import.c). */
	if (pool->import)
		modern_import_destroy_begin(pool);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk) {
		if (modern_chunk_wholly_free(chunk))
			continue;
		bit = modern_find_next_bit(chunk->bits, chunk->nbits, 0);
		if (bit < chunk->nbits) {
			report_busy(pool);
			return;
		}
	}
	for (chunk = modern_first_chunk(pool); chunk; chunk = next) {
		next = chunk->next_chunk;
		modern_chunk_free(pool, chunk);
	}
	if (pool->import)
		modern_import_destroy_end(pool);
	modern_dir_destroy(pool->dir);
	free((void *)pool->name);
	free(pool);
}

/**
 * gen_pool_use_block_records() - keep a record of where each block starts
 * @pool: the pool, with no chunk yet
 *
 * Return: 0, -EINVAL or -EDEADLK (see genalloc.h).
 */
int modern_gen_pool_use_block_records(struct gen_pool *pool)
{
	const char *msg = NULL;

	if (!modern_pool_ok(pool, "gen_pool_use_block_records", 0, 0))
		return -EINVAL;
	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, "gen_pool_use_block_records", 0, 0);
		return -EDEADLK;
	}
	if (modern_dir_count(pool->dir))
		msg = "the pool already has memory";
	else
		pool->records = true;
	modern_lock_release(&pool->lock);
	if (msg) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "gen_pool_use_block_records", .pool = pool, .msg = msg,
			.fix = "call it before the pool's first gen_pool_add*()" });
		return -EINVAL;
	}
	return 0;
}

/**
 * gen_pool_virt_to_phys() - physical address of a pool address
 * @pool: the pool
 * @addr: the address
 *
 * Return: the physical address, or -1.
 */
phys_addr_t modern_gen_pool_virt_to_phys(struct gen_pool *pool, unsigned long addr)
{
	struct gen_pool_chunk *chunk;

	phys_addr_t phys = NO_PHYS;

	if (!modern_pool_ok(pool, "gen_pool_virt_to_phys", addr, 0))
		return NO_PHYS;
	modern_walk_begin(pool);
	chunk = modern_find_chunk(pool, addr);
	if (chunk && chunk->phys_addr != NO_PHYS)
		phys = chunk->phys_addr + (addr - chunk->start_addr);
	modern_walk_end(pool);
	return phys;
}

/**
 * gen_pool_has_addr() - is [@start, @start + @size) inside one chunk?
 * @pool:  the pool
 * @start: first address
 * @size:  bytes
 *
 * Return: true or false.
 */
bool modern_gen_pool_has_addr(struct gen_pool *pool, unsigned long start, size_t size)
{
	struct gen_pool_chunk *chunk;

	if (!modern_pool_ok(pool, "gen_pool_has_addr", start, size))
		return false;
	bool in;

	if (size && start + (size - 1) < start)
		return false;
	modern_walk_begin(pool);
	chunk = modern_find_chunk(pool, start);
	in = chunk && (size == 0 || size - 1 <= chunk->end_addr - start);
	modern_walk_end(pool);
	return in;
}

/**
 * gen_pool_avail() - free bytes in the pool
 * @pool: the pool
 *
 * Return: the sum of the chunks' avail.
 */
size_t modern_gen_pool_avail(struct gen_pool *pool)
{
	struct gen_pool_chunk *chunk;
	size_t avail = 0;

	if (!modern_pool_ok(pool, "gen_pool_avail", 0, 0))
		return 0;
	modern_walk_begin(pool);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk)
		avail += (size_t)atomic_load_explicit(&chunk->avail, memory_order_relaxed);
	modern_walk_end(pool);
	return avail;
}

/**
 * gen_pool_size() - bytes managed by the pool
 * @pool: the pool
 *
 * Return: the sum of the chunks' sizes.
 */
size_t modern_gen_pool_size(struct gen_pool *pool)
{
	struct gen_pool_chunk *chunk;
	size_t size = 0;

	if (!modern_pool_ok(pool, "gen_pool_size", 0, 0))
		return 0;
	modern_walk_begin(pool);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk)
		size += modern_chunk_size(chunk);
	modern_walk_end(pool);
	return size;
}

/**
 * gen_pool_for_each_chunk() - call @func on every chunk, newest first
 * @pool: the pool
 * @func: the function (NULL: WARN EINVAL)
 * @data: passed to @func
 */
void modern_gen_pool_for_each_chunk(struct gen_pool *pool,
				    void (*func)(struct gen_pool *pool,
						 struct gen_pool_chunk *chunk, void *data),
				    void *data)
{
	struct gen_pool_chunk *chunk;

	if (!modern_pool_ok(pool, "gen_pool_for_each_chunk", 0, 0))
		return;
	if (!func) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "gen_pool_for_each_chunk", .pool = pool, .msg = "NULL function",
			.fix = "pass the function to call for each chunk" });
		return;
	}
	modern_walk_begin(pool);
	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk)
		func(pool, chunk, data);
	modern_walk_end(pool);
}

/**
 * gen_pool_set_algo() - set the pool's default algorithm
 * @pool: the pool
 * @algo: the algorithm, or NULL for gen_pool_first_fit
 * @data: its data
 *
 * Setting gen_pool_first_fit_order_align or gen_pool_first_fit_align
 * reserves the memory of the chunks' aligned-fit hints (modern/orderhint.c)
 * now, under the pool's lock, so that turning them on later allocates
 * nothing.
 */
void modern_gen_pool_set_algo(struct gen_pool *pool, genpool_algo_t algo, void *data)
{
	struct gen_pool_chunk *chunk;
	size_t slot;

	if (!modern_pool_ok(pool, "gen_pool_set_algo", 0, 0))
		return;
	pool->algo = algo ? algo : gen_pool_first_fit;
	pool->data = data;
	if (!aligned_algo(pool->algo))
		return;
	/* Hints for the chunks already in; without memory, the first search
	 * of a chunk tries again (and so it does after a refusal). */
	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, "gen_pool_set_algo", 0, 0);
		return;
	}
	for (slot = 0; slot < modern_dir_count(pool->dir); slot++) {
		chunk = modern_dir_chunk(pool->dir, slot);
		if (chunk->index && modern_index_hints_fit(chunk->nbits))
			(void)modern_index_reserve_hints(chunk->index);
	}
	modern_lock_release(&pool->lock);
}

/**
 * gen_pool_set_lockless() - choose the kernel's lock-free path or the index
 * @pool:     the pool (NULL: WARN EINVAL)
 * @lockless: true for lock-free allocation and free with the kernel's linear
 *            bitmap search; false (the default) for indexed search under
 *            the pool's lock
 *
 * Turning the index back on rebuilds it from the bitmaps.  Must not overlap
 * any other call on @pool.
 */
void modern_gen_pool_set_lockless(struct gen_pool *pool, bool lockless)
{
	struct gen_pool_chunk *chunk;
	size_t slot;

	if (!modern_pool_ok(pool, "gen_pool_set_lockless", 0, 0))
		return;
	if (lockless && pool->import) {
		genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
			.code = GENALLOC_EINVAL, .func = "gen_pool_set_lockless", .pool = pool,
			.msg = "a pool that imports stays indexed (an import may sleep)",
			.fix = "leave this pool indexed; where calls must be lock-free, use a "
			       "pool that never imported" });
		return;
	}
	if (pool->lockless && !lockless) {
		for (slot = 0; slot < modern_dir_count(pool->dir); slot++) {
			chunk = modern_dir_chunk(pool->dir, slot);
			if (chunk->index)
				modern_index_rebuild(chunk->index, chunk->bits);
			modern_dir_refresh(pool->dir, slot);
		}
	}
	pool->lockless = lockless;
}
