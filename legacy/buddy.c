// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/buddy.c - the 2005 power-of-two buddy allocator: free lists,
 * split, merge, growth, and the checks that guard every free.
 *
 * DESIGN.  Memory is managed in blocks of 32 << order bytes, each aligned to
 * its size, order 0 .. nr_orders - 1 where the largest order is the chunk
 * size, 2^max_chunk_shift.  What is stored where:
 *
 *   - in the managed memory: a struct gen_pool_link at the start of every
 *     FREE block, linking it into the list of its order (pool->h[order]).
 *     Lists are doubly linked so that a buddy can leave its list in O(1),
 *     and pushed at the head, so they read in the same order as the 2005
 *     singly linked LIFO lists and every address handed out is the same.
 *   - out of band (internal.h, in the frame table of frames_internal.h):
 *     one control byte per 32-byte atom of every frame the pool knows, like
 *     SQLite mem5's aCtrl[]: the first atom of a
 *     block records free/live and the order, the others "interior", memory
 *     the pool does not own "unknown".
 *
 * Cost: an allocation is O(nr_orders) list heads plus one frame look-up; a
 * free is one look-up plus O(1) per merge level (O(list length) per level in
 * linear mode, which is what 2005 paid).  The map costs one byte per 32 bytes
 * of managed memory (3%).
 *
 * In cache lines, a free that merges nothing touches two the pool does not
 * already hold: the control byte of the block and the block itself, where
 * the link goes.  When the freed block is cold (a random victim in a large
 * pool) that write is most of what a free costs, and it is the price of
 * keeping the lists in the managed memory as 2005 did.  The block's and
 * the control byte's misses overlap, so nothing here prefetches them.
 *
 * The map is also the checked mode: before a free writes anything, the
 * control bytes tell a live block of the right size from a double free, a
 * wrong size, an interior pointer, a donation or an overlap.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------------ free lists */

static struct gen_pool_link *link_at(unsigned long addr)
{
	return (struct gen_pool_link *)addr;
}

static void list_push(struct gen_pool *pool, int order, unsigned long addr)
{
	struct gen_pool_link *head = &pool->h[order];
	struct gen_pool_link *l = link_at(addr);

	l->next = head->next;
	l->prev = head;
	if (head->next)
		head->next->prev = l;
	head->next = l;
	pool->nr_free[order]++;
	pool->free_bytes += 32UL << order;
}

static void list_unlink(struct gen_pool *pool, int order, struct gen_pool_link *l)
{
	l->prev->next = l->next;
	if (l->next)
		l->next->prev = l->prev;
	pool->nr_free[order]--;
	pool->free_bytes -= 32UL << order;
}

/* The order whose block size is the 2005 rounding of @size (32, doubled
 * while @size is larger), from the bit length of @size - 1 rather than the
 * 2005 loop.  @size is at most the chunk size. */
static int order_of(int size)
{
	unsigned long s = (unsigned long)size;

	if (s <= 1UL << ALLOC_MIN_SHIFT)
		return 0;
	return (int)(sizeof(s) * CHAR_BIT) - __builtin_clzl(s - 1) - ALLOC_MIN_SHIFT;
}

/* ----------------------------------------------------------------- merge */

static int buddy_on_list(const struct gen_pool *pool, int order, unsigned long b)
{
	const struct gen_pool_link *q = pool->h[order].next;

	while (q && q != link_at(b))
		q = q->next;
	return q != NULL;
}

static int buddy_is_free(const struct gen_pool *pool, struct legacy_frame *f,
			 int order, unsigned long b)
{
	if (pool->linear_search)
		return buddy_on_list(pool, order, b);
	return *legacy_ctrl(f, b) == (LEGACY_CTRL_FREE | order);
}

/* Put the block at @a (order @i, in frame @f) back, merging it with its free
 * buddy level by level up to the chunk size, as 2005 did. */
static void release_block(struct gen_pool *pool, struct legacy_frame *f,
			  unsigned long a, int i)
{
	unsigned long s = 32UL << i;

	while (i < pool->nr_orders - 1) {
		unsigned long b = a ^ s;

		if (!buddy_is_free(pool, f, i, b))
			break;
		list_unlink(pool, i, link_at(b));
		*legacy_ctrl(f, a | s) = LEGACY_CTRL_INTERIOR;
		a &= b;
		s <<= 1;
		i++;
	}
	*legacy_ctrl(f, a) = LEGACY_CTRL_FREE | i;
	list_push(pool, i, a);
}

/* ------------------------------------------------------------ allocation */

/* Take the newest block of order @j and split it down to order @i: the lower
 * half is kept, each upper half pushed onto its list (2005 assigned the list
 * head instead, losing blocks freed there while the callback ran). */
static unsigned long take_block(struct gen_pool *pool, int j, int i)
{
	unsigned long a = (unsigned long)pool->h[j].next;
	struct legacy_frame *f = legacy_map_find(pool, a);

	list_unlink(pool, j, link_at(a));
	while (j > i) {
		unsigned long half;

		j--;
		half = a + (32UL << j);
		*legacy_ctrl(f, half) = LEGACY_CTRL_FREE | j;
		list_push(pool, j, half);
	}
	*legacy_ctrl(f, a) = LEGACY_CTRL_LIVE | i;
	return a;
}

/*
 * Make a chunk from get_new_chunk a free block.
 * @pool:  the pool, locked
 * @chunk: the chunk's address, not 0
 * @f:     a frame from legacy_frame_new(), allocated (and its table slot
 *         reserved) before the callback was asked, so that adopting cannot
 *         run out of memory; taken over (inserted, or freed if the chunk is
 *         refused)
 * @v:     set if the chunk is refused; v->what stays LEGACY_FINE if it was
 *         taken
 */
static void adopt_chunk(struct gen_pool *pool, unsigned long chunk, struct legacy_frame *f,
			struct legacy_verdict *v)
{
	unsigned long size = legacy_chunk_size(pool);

	v->what = legacy_judge_chunk(chunk, size, legacy_map_find(pool, chunk) != NULL);
	if (v->what) {
		legacy_frames_unreserve(pool->frames);
		legacy_frame_free(f);
		return;
	}
	f->base = chunk;
	legacy_frames_insert(pool->frames, f);
	memset(f->ctrl, LEGACY_CTRL_INTERIOR, legacy_atoms_per_frame(pool));
	f->ctrl[0] = LEGACY_CTRL_FREE | (pool->nr_orders - 1);
	list_push(pool, pool->nr_orders - 1, chunk);
	pool->obtained_bytes += size;
}

/*
 * Ask for a chunk with the lock dropped, as 2005 did (the callback may sleep
 * or free into the pool); the chunk is pushed, not assigned, so blocks freed
 * meanwhile stay on the list.  Its record (a frame, and room for it in the
 * frame table) is secured first: a chunk the pool got but could not record
 * would be lost to the program (2005 needed no record), so without memory
 * for one the callback is not called.
 */
void legacy_grow(struct gen_pool *pool, struct legacy_verdict *v, unsigned long *chunk)
{
	struct legacy_frame *f;

	*chunk = 0;
	if (!pool->get_new_chunk)
		return;
	f = legacy_frame_new(pool->frames, 0, 1, 0);
	if (!f)
		return;
	if (legacy_frames_reserve(pool->frames)) {
		legacy_frame_free(f);
		return;
	}
	legacy_unlock(pool);
	*chunk = pool->get_new_chunk(pool);
	/* Dropped above by this thread: nothing of its own can hold it now. */
	(void)legacy_lock(pool);
	if (*chunk) {
		adopt_chunk(pool, *chunk, f, v);
	} else {
		legacy_frames_unreserve(pool->frames);
		legacy_frame_free(f);
	}
}

unsigned long legacy_gen_pool_alloc(struct gen_pool *pool, int size)
{
	struct legacy_verdict v = { 0 };
	unsigned long a = 0, chunk = 0;
	int i, j;

	if (!legacy_alloc_args_ok(pool, size))
		return 0;
	if ((unsigned long)size > legacy_chunk_size(pool))
		return 0;
	i = order_of(size);

	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_alloc", 0, (unsigned long)size);
		return 0;
	}
	for (j = i; j < pool->nr_orders && !pool->h[j].next; j++)
		;
	if (j == pool->nr_orders) {
		j = pool->nr_orders - 1;
		legacy_grow(pool, &v, &chunk);
	}
	if (pool->h[j].next)
		a = take_block(pool, j, i);
	legacy_unlock(pool);

	legacy_report(&v, "gen_pool_alloc", legacy_report_pool(pool), chunk,
		      legacy_chunk_size(pool));
	return a;
}

/* ------------------------------------------------------------------ free */

/* A free at the start of a block: right only if it is live and the size
 * rounds to its order. */
static int judge_block_start(unsigned char c, int i, struct legacy_verdict *v)
{
	if (c & LEGACY_CTRL_FREE) {
		v->what = LEGACY_FREE_ALREADY_FREE;
		return -1;
	}
	if (legacy_ctrl_order(c) == i)
		return 1;
	v->what = LEGACY_FREE_WRONG_SIZE;
	return -1;
}

/* A free inside a block: a double free if that block is free (a freed
 * block merged into a buddy below it), an interior pointer otherwise.  The
 * block around @a starts at @a rounded down to its own size: the first
 * larger order whose candidate start is a block at least that large. */
static int judge_interior(const struct gen_pool *pool, struct legacy_frame *f,
			  unsigned long a, int i, struct legacy_verdict *v)
{
	for (int k = i + 1; k < pool->nr_orders; k++) {
		unsigned char c = *legacy_ctrl(f, a & ~((32UL << k) - 1));

		if (legacy_ctrl_is_start(c) && legacy_ctrl_order(c) >= k) {
			if (c & LEGACY_CTRL_FREE) {
				v->what = LEGACY_FREE_ALREADY_FREE;
				return -1;
			}
			break;
		}
	}
	v->what = LEGACY_FREE_INSIDE_LIVE;
	return -1;
}

/* A free of unknown memory is a donation if none of the range is known. */
static int judge_donation(struct legacy_frame *f, unsigned long a, int i,
			  struct legacy_verdict *v)
{
	unsigned long atoms = 1UL << i;

	for (unsigned long x = 1; f && x < atoms; x++) {
		if (legacy_ctrl(f, a)[x] != LEGACY_CTRL_UNKNOWN) {
			v->what = LEGACY_DONATION_OVERLAPS;
			return -1;
		}
	}
	return 0;
}

/* What a free at @a of order @i would do, decided from the control map
 * alone, before anything is written.  Returns 1 for a live block, 0 for a
 * donation, -1 for misuse (described in @v). */
static int judge_free(const struct gen_pool *pool, struct legacy_frame *f,
		      unsigned long a, int i, struct legacy_verdict *v)
{
	unsigned char c = LEGACY_CTRL_UNKNOWN;

	/* Off an atom no block can start, and the map cannot even say. */
	if (!(a & ((1UL << ALLOC_MIN_SHIFT) - 1))) {
		c = f ? *legacy_ctrl(f, a) : LEGACY_CTRL_UNKNOWN;
		if (legacy_ctrl_is_start(c))
			return judge_block_start(c, i, v);
	}
	if (a & ((32UL << i) - 1)) {
		v->what = LEGACY_FREE_MISALIGNED;
		return -1;
	}
	if (c == LEGACY_CTRL_INTERIOR)
		return judge_interior(pool, f, a, i, v);
	return judge_donation(f, a, i, v);
}

/* Record [@a, @a + 32 << @i) as pool memory.  Returns its frame, or NULL if
 * the frame could not be allocated (nothing changed). */
static struct legacy_frame *record_donation(struct gen_pool *pool, struct legacy_frame *f,
					    unsigned long a, int i)
{
	unsigned long s = 32UL << i;

	if (!f) {
		f = legacy_frame_new(pool->frames, a & ~(legacy_chunk_size(pool) - 1), 0, 0);
		if (!f)
			return NULL;
		if (legacy_frames_reserve(pool->frames)) {
			legacy_frame_free(f);
			return NULL;
		}
		legacy_frames_insert(pool->frames, f);
	}
	memset(legacy_ctrl(f, a), LEGACY_CTRL_INTERIOR, s >> ALLOC_MIN_SHIFT);
	pool->donated_bytes += s;
	return f;
}

void legacy_gen_pool_free(struct gen_pool *pool, unsigned long addr, int size)
{
	struct legacy_verdict v = { 0 };
	struct legacy_frame *f;
	unsigned long s;
	int i, kind;

	if (!legacy_free_args_ok(pool, addr, size))
		return;
	if ((unsigned long)size > legacy_chunk_size(pool))
		return;
	i = order_of(size);
	s = 32UL << i;
	if (legacy_range_wraps(addr, s)) {
		legacy_report_misuse(LEGACY_FREE_WRAPS, "gen_pool_free", legacy_report_pool(pool),
				     addr, (unsigned long)size);
		return;
	}

	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_free", addr, (unsigned long)size);
		return;
	}
	f = legacy_map_find(pool, addr);
	kind = judge_free(pool, f, addr, i, &v);
	if (kind == 0) {
		f = record_donation(pool, f, addr, i);
		if (!f)
			v.what = LEGACY_DONATION_NO_MEMORY;
	}
	if (!v.what)
		release_block(pool, f, addr, i);
	legacy_unlock(pool);

	legacy_report(&v, "gen_pool_free", legacy_report_pool(pool), addr, (unsigned long)size);
}

void legacy_gen_pool_set_linear_search(struct gen_pool *pool, int on)
{
	if (!pool) {
		legacy_refuse_null("gen_pool_set_linear_search", NULL, NULL);
		return;
	}
	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_set_linear_search", 0, 0);
		return;
	}
	pool->linear_search = !!on;
	legacy_unlock(pool);
}
