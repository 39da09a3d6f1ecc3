// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/import.c - a pool that gets memory when it has no room and gives
 * it back when it empties (gen_pool_set_import(), gen_pool_import_from()).
 *
 * IMPORT
 *   An allocation that found no room (pool.c, xalloc.c) asks
 *   modern_import_get() for a span: the import callback is asked for the
 *   request (with the slack its alignment or offset needs) rounded up to
 *   the quantum.  The caller adds the span as a chunk (gen_pool_add(), so
 *   the newest, searched first), tries the request again, and hands the
 *   span to modern_import_done(), which records it as imported, or gives
 *   it straight back if that try left it wholly free.  The caller, not
 *   this file, tries again: its search lives above, and this file calls
 *   nothing that calls it.  When other threads took the span before the
 *   try, the caller asks for another.
 *
 * RELEASE
 *   A free that leaves a chunk wholly free (pool.c) tells
 *   modern_import_chunk_emptied() its address once the pool's lock is
 *   dropped; if the chunk is imported and still wholly free, it is
 *   unlinked from the chunk list and the directory under the lock and its
 *   span goes to the release callback.  The chunk's bookkeeping is retired
 *   rather than freed, since lock-free queries walk the chunk list without
 *   the lock; retired chunks are freed at the next release when no walk
 *   is counted, or at destroy.
 *
 * THE CALLBACKS' LOCK
 *   Callbacks may sleep, so they run without the pool's lock, one at a
 *   time per pool under a lock of their own (@cb_lock), taken before the
 *   pool's lock whenever both are held.  Meanwhile pool->lock.lent holds
 *   their thread's token: the pool's lock refuses that thread
 *   (modern/lock_internal.h) and gen_pool_held_by_caller() is true for
 *   it, so a callback that calls back into the pool is refused, never
 *   deadlocked.  From modern_import_get() to modern_import_done() the
 *   callbacks' lock stays held and the thread is marked in @retrying, so
 *   that its try's own failure does not import again.
 *
 * COST
 *   Nothing on a pool without imports but the tests of pool->import on the
 *   failure and chunk-empty paths.  With imports: a sorted array of the
 *   imported chunks (a binary search when a free empties a chunk), the
 *   removal O(chunks) (the directory's trees are rebuilt).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "chunklist_internal.h"
#include "chunkmeta_internal.h"
#include "import_internal.h"
#include "lock_internal.h"
#include "reentry_internal.h"

/* A span waiting for the release callback. */
struct span {
	unsigned long addr;
	size_t len;
};

/**
 * struct modern_import - see the file comment
 * @import:   the callback, or NULL once importing is turned off
 * @release:  the callback
 * @quantum:  what an import asks for is a multiple of it (bytes)
 * @data:     the callbacks' data
 * @cb_lock:  held while a callback runs (a genalloc lock word)
 * @retrying: the token of the thread retrying after its import, or 0
 * @walkers:  lock-free walks of the chunk list in progress
 * @chunk:    the imported chunks in the pool, sorted by address (@n, @cap)
 * @pending:  spans taken out, for the release callback (@npending, @pcap)
 * @retired:  removed chunks whose memory waits for the walks (@nretired,
 *            @rcap)
 */
struct modern_import {
	genpool_import_t import;
	genpool_release_t release;
	size_t quantum;
	void *data;
	_Atomic unsigned int cb_lock;
	_Atomic unsigned int retrying;
	_Atomic long walkers;
	struct gen_pool_chunk **chunk;
	size_t n, cap;
	struct span *pending;
	size_t npending, pcap;
	struct gen_pool_chunk **retired;
	size_t nretired, rcap;
};

/* Make room for one more entry of @size bytes in *@arr of *@cap. */
static bool reserve(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap ? 2 * *cap : 8;
	void *p;

	if (n < *cap)
		return true;
	p = realloc(*arr, c * size);
	if (!p)
		return false;
	*arr = p;
	*cap = c;
	return true;
}

/* Where @chunk's start sorts among the imported chunks. */
static size_t rank(const struct modern_import *imp, unsigned long start)
{
	size_t lo = 0, hi = imp->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (imp->chunk[mid]->start_addr < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool is_imported(const struct modern_import *imp, const struct gen_pool_chunk *chunk)
{
	size_t i = rank(imp, chunk->start_addr);

	return i < imp->n && imp->chunk[i] == chunk;
}

/* ------------------------------------------------------------ callbacks */

/* The callbacks' lock: one callback at a time per pool. */
static bool callbacks_begin(struct gen_pool *pool)
{
	return genalloc_lock_take(&pool->import->cb_lock);
}

static void callbacks_end(struct gen_pool *pool)
{
	genalloc_lock_drop(&pool->import->cb_lock);
}

/* While a callback runs, the pool counts as held by its thread. */
static void lend(struct gen_pool *pool, bool on)
{
	atomic_store_explicit(&pool->lock.lent, on ? genalloc_lock_self() : 0,
			      memory_order_relaxed);
}

/* The release callback, the callbacks' lock held. */
static void call_release(struct gen_pool *pool, struct span s)
{
	lend(pool, true);
	pool->import->release(pool, s.addr, s.len, pool->import->data);
	lend(pool, false);
}

/* ------------------------------------------------------------ removal */

/* Free the retired chunks' memory if no lock-free walk can hold them. */
static void free_retired(struct gen_pool *pool)
{
	struct modern_import *imp = pool->import;

	if (atomic_load(&imp->walkers))
		return;
	while (imp->nretired)
		modern_chunk_free(pool, imp->retired[--imp->nretired]);
}

/* Take @chunk (slot @slot, imported) out of the pool, under its lock.
 * False, with nothing changed, when there is no memory to queue it. */
static bool remove_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, size_t slot)
{
	struct modern_import *imp = pool->import;
	struct gen_pool_chunk *c, *next = chunk->next_chunk;
	size_t i = rank(imp, chunk->start_addr);

	if (!reserve((void **)&imp->pending, &imp->pcap, imp->npending, sizeof(struct span)) ||
	    !reserve((void **)&imp->retired, &imp->rcap, imp->nretired, sizeof(chunk)))
		return false;
	c = atomic_load_explicit(&pool->chunks, memory_order_relaxed);
	if (c == chunk) {
		atomic_store_explicit(&pool->chunks, next, memory_order_release);
	} else {
		while (c->next_chunk != chunk)
			c = c->next_chunk;
		/* A lock-free walk past @c sees the old link or the new one,
		 * both to live memory. */
		__atomic_store_n(&c->next_chunk, next, __ATOMIC_RELEASE);
	}
	modern_dir_remove(pool->dir, slot);
	memmove(&imp->chunk[i], &imp->chunk[i + 1], (imp->n - i - 1) * sizeof(*imp->chunk));
	imp->n--;
	imp->pending[imp->npending++] = (struct span){ chunk->start_addr,
						       modern_chunk_size(chunk) };
	/* A walk that began before the unlink is counted by now.  (ThreadSanitizer
	 * does not model fences: there the builtin full barrier stands in.) */
#if defined(__SANITIZE_THREAD__)
	__sync_synchronize();
#else
	atomic_thread_fence(memory_order_seq_cst);
#endif
	imp->retired[imp->nretired++] = chunk;
	return true;
}

/* Take @chunk (slot @slot) out if it is imported and wholly free, under
 * the pool's lock; true if its span now waits for the release callback. */
static bool chunk_freed(struct gen_pool *pool, struct gen_pool_chunk *chunk, size_t slot)
{
	return modern_chunk_wholly_free(chunk) && is_imported(pool->import, chunk) &&
	       remove_chunk(pool, chunk, slot);
}

/* Release the queued spans, the callbacks' lock held and the pool's not. */
static void drain(struct gen_pool *pool)
{
	struct modern_import *imp = pool->import;
	struct span s;

	while (modern_lock_acquire(&pool->lock)) {
		if (!imp->npending) {
			free_retired(pool);
			modern_lock_release(&pool->lock);
			return;
		}
		s = imp->pending[--imp->npending];
		modern_lock_release(&pool->lock);
		call_release(pool, s);
	}
}

/* Release what waits, the pool's lock not held. */
static void give_back(struct gen_pool *pool)
{
	/* Refused only on a callback's own thread, whose calls into the
	 * pool were refused before they could empty a chunk. */
	if (!callbacks_begin(pool))
		return;
	drain(pool);
	callbacks_end(pool);
}

/* Take an imported chunk that is wholly free out, under the pool's lock. */
static bool take_if_free(struct gen_pool *pool, unsigned long addr)
{
	struct gen_pool_chunk *chunk;
	size_t slot = 0;

	chunk = modern_dir_lookup(pool->dir, addr, &slot);
	return chunk && chunk->start_addr == addr && chunk_freed(pool, chunk, slot);
}

void modern_import_chunk_emptied(struct gen_pool *pool, unsigned long start)
{
	bool gone = false;

	/* Another request may have used the chunk again since, or another
	 * free given it back: take_if_free() looks afresh. */
	if (modern_lock_acquire(&pool->lock)) {
		gone = take_if_free(pool, start);
		modern_lock_release(&pool->lock);
	}
	if (gone)
		give_back(pool);
}

/* ------------------------------------------------------------ import */

/* @want rounded up to the quantum (0 when that overflows). */
static size_t round_quantum(const struct modern_import *imp, size_t want)
{
	size_t q = imp->quantum, r;

	if (!want)
		return 0;
	r = want % q;
	return r ? modern_import_add_sat(want, q - r) : want;
}

/* Record the new chunk at @addr, under the pool's lock. */
static bool note_imported(struct gen_pool *pool, unsigned long addr)
{
	struct modern_import *imp = pool->import;
	struct gen_pool_chunk *chunk;
	size_t slot = 0, i;

	chunk = modern_dir_lookup(pool->dir, addr, &slot);
	if (!chunk || !reserve((void **)&imp->chunk, &imp->cap, imp->n, sizeof(chunk)))
		return false;
	i = rank(imp, addr);
	memmove(&imp->chunk[i + 1], &imp->chunk[i], (imp->n - i) * sizeof(*imp->chunk));
	imp->chunk[i] = chunk;
	imp->n++;
	return true;
}

bool modern_import_get(struct gen_pool *pool, size_t size, size_t slack,
		       struct modern_import_grant *g)
{
	struct modern_import *imp = pool->import;
	unsigned int self = genalloc_lock_self();
	size_t want;

	/* The retry after this thread's own import does not import again. */
	if (!imp->import || atomic_load_explicit(&imp->retrying, memory_order_relaxed) == self)
		return false;
	want = round_quantum(imp, modern_import_add_sat(size, slack));
	if (!want || want > (size_t)LONG_MAX || !callbacks_begin(pool))
		return false;
	*g = (struct modern_import_grant){ 0, 0 };
	if (imp->import) {
		int rc;

		lend(pool, true);
		rc = imp->import(pool, want, &g->addr, &g->len, imp->data);
		lend(pool, false);
		if (!rc && g->len >= want) {
			atomic_store_explicit(&imp->retrying, self, memory_order_relaxed);
			return true;
		}
		if (!rc) {
			/* Named after the call that installed the import, the one to mend. */
			genalloc_report_error(&(const struct genalloc_error){
				.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
				.func = "gen_pool_set_import", .pool = pool, .addr = g->addr,
				.size = g->len,
				.msg = "the import's span (the addr and size shown) is shorter "
				       "than asked",
				.fix = "make the import hand over at least the size it is asked "
				       "for, or return non-zero for no memory" });
			call_release(pool, (struct span){ g->addr, g->len });
		}
	}
	callbacks_end(pool);
	return false;
}

bool modern_import_done(struct gen_pool *pool, const struct modern_import_grant *g, bool added)
{
	struct modern_import *imp = pool->import;
	bool noted = false, gone = false;

	atomic_store_explicit(&imp->retrying, 0, memory_order_relaxed);
	if (!added) {
		call_release(pool, (struct span){ g->addr, g->len });
	} else if (modern_lock_acquire(&pool->lock)) {
		/* Left wholly free by the retry: back at once. */
		noted = note_imported(pool, g->addr);
		gone = noted && take_if_free(pool, g->addr);
		modern_lock_release(&pool->lock);
	}
	if (gone)
		drain(pool);
	callbacks_end(pool);
	return noted && !gone;
}

/* ------------------------------------------------------------ walks */

void modern_import_walk(struct gen_pool *pool, int delta)
{
	atomic_fetch_add(&pool->import->walkers, delta);
}

/* ------------------------------------------------------------ setting */

/* Refuse with WARN EINVAL, saying what to do instead. */
static int refuse(struct gen_pool *pool, const char *func, const char *msg, const char *fix)
{
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EINVAL, .func = func, .pool = pool, .msg = msg, .fix = fix });
	return -EINVAL;
}

int modern_import_set(struct gen_pool *pool, genpool_import_t import, genpool_release_t release,
		      size_t quantum, void *data, const char *func)
{
	unsigned long g;

	if (!modern_pool_ok(pool, func, 0, 0))
		return -EINVAL;
	g = modern_pool_granule(pool);
	if (pool->lockless)
		return refuse(pool, func, "a lock-free pool cannot import (an import may sleep)",
			      "import into an indexed pool: call gen_pool_set_lockless(pool, "
			      "false) first");
	if (import && !release)
		return refuse(pool, func, "an import needs a release",
			      "pass a release callback that takes back what the import hands over");
	if (quantum % g) {
		genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
			.code = GENALLOC_EINVAL, .func = func, .pool = pool,
			.msg = "quantum is not a multiple of the granule",
			.arg = "quantum", .arg_value = (long)quantum,
			.fix = "pass a quantum of 0 (one granule) or a multiple of "
			       "1 << min_alloc_order bytes" });
		return -EINVAL;
	}
	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, func, 0, 0);
		return -EDEADLK;
	}
	if (!pool->import)
		pool->import = calloc(1, sizeof(*pool->import));
	if (!pool->import) {
		modern_lock_release(&pool->lock);
		return -ENOMEM;
	}
	pool->import->import = import;
	if (import) {
		pool->import->release = release;
		pool->import->data = data;
		pool->import->quantum = quantum ? quantum : g;
	}
	modern_lock_release(&pool->lock);
	return 0;
}

/**
 * gen_pool_set_import() - let the pool get memory when it has no room
 * @pool:    the pool
 * @import:  the import callback, or NULL
 * @release: the release callback
 * @quantum: 0 or a multiple of the granule
 * @data:    the callbacks' data
 *
 * Return: 0, -EINVAL, -ENOMEM or -EDEADLK (see genalloc.h).
 */
int modern_gen_pool_set_import(struct gen_pool *pool, genpool_import_t import,
			       genpool_release_t release, size_t quantum, void *data)
{
	return modern_import_set(pool, import, release, quantum, data, "gen_pool_set_import");
}

/* ------------------------------------------------------------ destroy */

void modern_import_destroy_begin(struct gen_pool *pool)
{
	struct modern_import *imp = pool->import;
	bool any = false;
	size_t i;

	if (!modern_lock_acquire(&pool->lock))
		return;
	for (i = imp->n; i-- > 0;)
		any |= take_if_free(pool, imp->chunk[i]->start_addr);
	modern_lock_release(&pool->lock);
	if (any)
		give_back(pool);
}

void modern_import_destroy_end(struct gen_pool *pool)
{
	struct modern_import *imp = pool->import;

	while (imp->nretired)
		modern_chunk_free(pool, imp->retired[--imp->nretired]);
	free(imp->chunk);
	free(imp->pending);
	free(imp->retired);
	free(imp);
	pool->import = NULL;
}
