// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/tlsf_inband.c - TLSF as Masmano et al. published it (ECRTS 2004),
 * its bookkeeping inside the managed memory, for the bench to time next to
 * the index.  Not part of the library.
 *
 * Why a second TLSF: "TLSF" in published comparisons of allocators is
 * this design, with its headers in the pool.  bench/tlsf.c keeps its
 * blocks out of band (an array of nodes and a hash of offsets, as
 * genalloc's untouchable memory demands), which is OffsetAllocator's
 * shape rather than TLSF's.  This file is the
 * allocator as published: every block starts with a header in the pool
 * and every free block carries its list links in its own first bytes, so a
 * call touches the memory around the blocks it merges and splits.
 *
 * Layout: a block is [header | payload]; the header is the physically
 * previous block's address and this block's size in bytes (header
 * included, a multiple of 8) with two flags in its low bits: FREE, and
 * PREV_FREE, which spares a free() the read of a used neighbour's header.
 * A free block's payload begins with its next and previous list links.
 * The pool ends with a header of size 0, always used, so that no merge
 * runs off the end.
 *
 * Lists: by size in 8-byte granules, the classes of bench/tlsf.c
 * (bench/tlsf_lists.h): first level floor(log2(size)), second level the
 * next 4 bits (16 lists per power of two), sizes below 128 bytes one list
 * per 8 bytes.  A bitmap of non-empty first levels and one of
 * non-empty lists per first level find, in two find-first-set
 * instructions, a list whose every block fits the request rounded up to
 * the next list bound ("good fit").  The block found is split when the
 * rest can stand alone; a freed block merges with free neighbours at once.
 * Every call is O(1).
 */
#include "tlsf_inband.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "tlsf_lists.h"

#define GRAIN 8UL
#define FREE 1UL
#define PREV_FREE 2UL
#define FLAGS (FREE | PREV_FREE)

/* The header, then (free blocks only) the links, at the payload's start. */
struct block {
	struct block *prev_phys;
	size_t size;
	struct block *next_free;
	struct block *prev_free;
};

struct itlsf {
	char *base;
	struct block *end;	/* the closing header of size 0 */
	size_t free_bytes;
	struct tlsf_maps maps;
	struct block *head[TLSF_FL_COUNT][TLSF_SL_COUNT];
};

static struct block *at(void *p)
{
	return p;
}

static size_t bsize(const struct block *b)
{
	return b->size & ~FLAGS;
}

static struct block *next_phys(struct block *b)
{
	return at((char *)b + bsize(b));
}

/* The list that holds a block of @size bytes (a multiple of GRAIN). */
static void mapping(size_t size, unsigned int *fl, unsigned int *sl)
{
	tlsf_map(size / GRAIN, fl, sl);
}

static void insert(struct itlsf *t, struct block *b)
{
	unsigned int fl, sl;
	struct block *h;

	mapping(bsize(b), &fl, &sl);
	h = t->head[fl][sl];
	b->next_free = h;
	b->prev_free = NULL;
	if (h)
		h->prev_free = b;
	t->head[fl][sl] = b;
	tlsf_maps_set(&t->maps, fl, sl);
}

static void unlink_from(struct itlsf *t, struct block *b, unsigned int fl, unsigned int sl)
{
	struct block *n = b->next_free, *p = b->prev_free;

	if (n)
		n->prev_free = p;
	if (p) {
		p->next_free = n;
		return;
	}
	t->head[fl][sl] = n;
	if (!n)
		tlsf_maps_clear(&t->maps, fl, sl);
}

static void unlink_block(struct itlsf *t, struct block *b)
{
	unsigned int fl, sl;

	mapping(bsize(b), &fl, &sl);
	unlink_from(t, b, fl, sl);
}

struct itlsf *itlsf_create(void *mem, size_t bytes)
{
	struct itlsf *t;
	struct block *first;

	bytes &= ~(GRAIN - 1);
	if (!mem || (uintptr_t)mem % GRAIN || bytes < 2 * ITLSF_MIN_BLOCK)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->base = mem;
	first = at(mem);
	t->end = at((char *)mem + bytes - ITLSF_HEADER);
	first->prev_phys = NULL;
	first->size = (bytes - ITLSF_HEADER) | FREE;
	t->end->prev_phys = first;
	t->end->size = PREV_FREE;
	t->free_bytes = bytes - ITLSF_HEADER;
	insert(t, first);
	return t;
}

void itlsf_destroy(struct itlsf *t)
{
	free(t);
}

size_t itlsf_block_bytes(size_t bytes)
{
	if (bytes > SIZE_MAX / 4)
		return 0;
	bytes = (bytes + GRAIN - 1) & ~(GRAIN - 1);
	bytes += ITLSF_HEADER;
	return bytes < ITLSF_MIN_BLOCK ? ITLSF_MIN_BLOCK : bytes;
}

void *itlsf_alloc(struct itlsf *t, size_t bytes)
{
	size_t need = itlsf_block_bytes(bytes ? bytes : 1), have;
	unsigned int fl, sl;
	struct block *b, *next;

	if (!need)
		return NULL;
	tlsf_map_search(need / GRAIN, &fl, &sl);
	if (!tlsf_maps_find(&t->maps, &fl, &sl))
		return NULL;
	b = t->head[fl][sl];
	unlink_from(t, b, fl, sl);
	have = bsize(b);
	next = next_phys(b);
	if (have - need >= ITLSF_MIN_BLOCK) {
		struct block *rest = at((char *)b + need);

		rest->prev_phys = b;
		rest->size = (have - need) | FREE;
		next->prev_phys = rest;
		insert(t, rest);
		b->size = need | (b->size & PREV_FREE);
	} else {
		b->size &= ~FREE;
		next->size &= ~PREV_FREE;
	}
	t->free_bytes -= bsize(b);
	return (char *)b + ITLSF_HEADER;
}

/* Could @p be a payload this pool handed out? */
static bool payload_ok(const struct itlsf *t, const void *p)
{
	const char *c = p;

	return c >= t->base + ITLSF_HEADER && c < (const char *)t->end &&
	       (uintptr_t)(c - t->base) % GRAIN == 0;
}

int itlsf_free(struct itlsf *t, void *p)
{
	struct block *b, *next;

	if (!payload_ok(t, p))
		return -1;
	b = at((char *)p - ITLSF_HEADER);
	if ((b->size & FREE) || bsize(b) < ITLSF_MIN_BLOCK ||
	    bsize(b) > (size_t)((char *)t->end - (char *)b))
		return -1;
	t->free_bytes += bsize(b);
	next = next_phys(b);
	if (b->size & PREV_FREE) {
		struct block *prev = b->prev_phys;

		unlink_block(t, prev);
		prev->size += bsize(b);
		b = prev;
	}
	if (next->size & FREE) {
		unlink_block(t, next);
		b->size += bsize(next);
		next = next_phys(b);
	}
	b->size |= FREE;
	next->prev_phys = b;
	next->size |= PREV_FREE;
	insert(t, b);
	return 0;
}

size_t itlsf_free_bytes(const struct itlsf *t)
{
	return t->free_bytes;
}

size_t itlsf_largest_free(const struct itlsf *t)
{
	unsigned int fl, sl;

	if (!tlsf_maps_top(&t->maps, &fl, &sl))
		return 0;
	/* A request rounds up to a list bound: the top list's floor is the
	 * largest block every request that reaches it is sure to find. */
	return tlsf_list_floor(fl, sl) * GRAIN - ITLSF_HEADER;
}

size_t itlsf_control_bytes(const struct itlsf *t)
{
	return sizeof(*t);
}

/* itlsf_check()'s walk in address order; 0 or the rule broken. */
static int check_blocks(const struct itlsf *t, size_t *nfree)
{
	struct block *b = at(t->base), *prev = NULL;
	bool prev_free = false;
	size_t sum = 0;

	*nfree = 0;
	while (b != t->end) {
		size_t size = bsize(b);
		bool is_free = b->size & FREE;
		unsigned int fl, sl;

		if (size < ITLSF_MIN_BLOCK || size > (size_t)((char *)t->end - (char *)b))
			return 1;
		if (b->prev_phys != prev)
			return 2;
		if (!(b->size & PREV_FREE) != !prev_free)
			return 3;
		if (is_free && prev_free)
			return 4;
		if (is_free) {
			mapping(size, &fl, &sl);
			if (!(t->maps.sl_map[fl] & 1U << sl))
				return 5;
			++*nfree;
			sum += size;
		}
		prev = b;
		prev_free = is_free;
		b = at((char *)b + size);
	}
	if (t->end->prev_phys != prev)
		return 2;
	if (!(t->end->size & PREV_FREE) != !prev_free)
		return 3;
	if (t->end->size & ~PREV_FREE)
		return 6;
	return sum == t->free_bytes ? 0 : 7;
}

/* itlsf_check()'s walk of the lists; 0 or the rule broken. */
static int check_lists(const struct itlsf *t, size_t nfree)
{
	size_t count = 0;
	unsigned int fl, sl, f, s;

	for (fl = 0; fl < TLSF_FL_COUNT; fl++) {
		uint32_t sls = t->maps.sl_map[fl];

		if (!(t->maps.fl_map >> fl & 1) != !sls || sls >> TLSF_SL_COUNT)
			return 8;
		for (sl = 0; sl < TLSF_SL_COUNT; sl++) {
			struct block *x, *pv = NULL;

			if (!(sls >> sl & 1) != !t->head[fl][sl])
				return 8;
			for (x = t->head[fl][sl]; x; pv = x, x = x->next_free) {
				if (!payload_ok(t, (char *)x + ITLSF_HEADER) || !(x->size & FREE))
					return 9;
				mapping(bsize(x), &f, &s);
				if (f != fl || s != sl)
					return 10;
				if (x->prev_free != pv)
					return 11;
				if (++count > nfree)
					return 12;
			}
		}
	}
	return count == nfree ? 0 : 12;
}

int itlsf_check(const struct itlsf *t)
{
	size_t nfree;
	int rule = check_blocks(t, &nfree);

	return rule ? rule : check_lists(t, nfree);
}
