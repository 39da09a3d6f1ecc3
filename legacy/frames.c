// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/frames.c - the frame table of the 2005 API (see frames_internal.h):
 * the frames themselves and the lock-free table that finds them by address.
 */
#include <errno.h>
#include <stdlib.h>

#include "frames_internal.h"

#define LEGACY_FRAMES_MIN_SLOTS 16UL
#define BITS_PER_WORD (8 * sizeof(unsigned long))

/*
 * A frame for a large chunk is large too (a byte per 32 bytes), so malloc()
 * maps each on pages of its own, and every frame header would sit at the
 * same page offset: in one L1 set, which holds 8 lines.  With more frames in
 * use than that, each look-up evicted another frame's header.  Frame n starts
 * n mod 64 cache lines into its allocation instead, spreading the headers
 * over the 64 sets a 4 KiB page covers, wherever that costs at most 1/32 of
 * the frame.
 */
#define LEGACY_FRAME_COLOURS	64UL
#define LEGACY_CACHE_LINE	64UL

static unsigned long slots_bytes(unsigned long nr)
{
	return sizeof(struct legacy_frame_slots) + nr * sizeof(struct legacy_frame *);
}

static struct legacy_frame_slots *slots_new(unsigned long nr)
{
	struct legacy_frame_slots *s = calloc(1, slots_bytes(nr));

	if (s)
		s->mask = nr - 1;
	return s;
}

/* Place @f in @s, which readers do not see yet, or only under the lock. */
static void slots_put(struct legacy_frame_slots *s, int shift, struct legacy_frame *f)
{
	unsigned long i = legacy_frame_hash(f->base >> shift) & s->mask;

	while (atomic_load_explicit(&s->slot[i], memory_order_relaxed))
		i = (i + 1) & s->mask;
	/* Release: a reader that finds @f sees it fully built. */
	atomic_store_explicit(&s->slot[i], f, memory_order_release);
}

struct legacy_frame_table *legacy_frames_create(int shift)
{
	struct legacy_frame_table *t = malloc(sizeof(*t));
	struct legacy_frame_slots *s = slots_new(LEGACY_FRAMES_MIN_SLOTS);

	if (!t || !s) {
		free(t);
		free(s);
		return NULL;
	}
	atomic_init(&t->cur, s);
	t->retired = NULL;
	t->count = 0;
	t->reserved = 0;
	t->bytes = sizeof(*t) + slots_bytes(LEGACY_FRAMES_MIN_SLOTS);
	t->shift = shift;
	return t;
}

/* Copy the live generation into one twice its size and retire the old one
 * (a lookup may be probing it right now).  Return: 0, or -1. */
static int frames_grow(struct legacy_frame_table *t)
{
	struct legacy_frame_slots *old = atomic_load_explicit(&t->cur, memory_order_relaxed);
	unsigned long nr = old->mask + 1;
	struct legacy_frame_slots *s = slots_new(nr * 2);

	if (!s)
		return -1;
	for (unsigned long i = 0; i < nr; i++) {
		struct legacy_frame *f = atomic_load_explicit(&old->slot[i], memory_order_relaxed);

		if (f)
			slots_put(s, t->shift, f);
	}
	atomic_store_explicit(&t->cur, s, memory_order_release);
	old->next_retired = t->retired;
	t->retired = old;
	t->bytes += slots_bytes(nr * 2);
	return 0;
}

int legacy_frames_reserve(struct legacy_frame_table *t)
{
	unsigned long nr = atomic_load_explicit(&t->cur, memory_order_relaxed)->mask + 1;
	unsigned long need = t->count + t->reserved + 1;

	if (need * 2 > nr && frames_grow(t) && need >= nr)
		return -1;
	t->reserved++;
	return 0;
}

void legacy_frames_unreserve(struct legacy_frame_table *t)
{
	t->reserved--;
}

void legacy_frames_insert(struct legacy_frame_table *t, struct legacy_frame *f)
{
	slots_put(atomic_load_explicit(&t->cur, memory_order_relaxed), t->shift, f);
	t->reserved--;
	t->count++;
	t->bytes += legacy_frame_bytes(t, f);
}

static unsigned long known_words(unsigned long atoms)
{
	return (atoms + BITS_PER_WORD - 1) / BITS_PER_WORD;
}

static unsigned long header_and_atoms(const struct legacy_frame_table *t)
{
	return sizeof(struct legacy_frame) + legacy_frame_atoms(t);
}

unsigned long legacy_frame_bytes(const struct legacy_frame_table *t,
				 const struct legacy_frame *f)
{
	return (unsigned long)((const char *)f - (const char *)f->mem) + header_and_atoms(t) +
	       (f->known ? known_words(legacy_frame_atoms(t)) * sizeof(unsigned long) : 0);
}

static unsigned long frame_colour(const struct legacy_frame_table *t)
{
	unsigned long c = t->count % LEGACY_FRAME_COLOURS * LEGACY_CACHE_LINE;

	return c <= header_and_atoms(t) / 32 ? c : 0;
}

struct legacy_frame *legacy_frame_new(const struct legacy_frame_table *t, unsigned long base,
				      int from_callback, int with_known)
{
	unsigned long colour = frame_colour(t);
	char *mem = calloc(1, colour + header_and_atoms(t));
	struct legacy_frame *f;

	if (!mem)
		return NULL;
	f = (void *)(mem + colour);
	f->mem = mem;
	f->base = base;
	f->from_callback = from_callback;
	if (with_known) {
		f->known = calloc(known_words(legacy_frame_atoms(t)), sizeof(*f->known));
		if (!f->known) {
			free(mem);
			return NULL;
		}
	}
	return f;
}

void legacy_frame_free(struct legacy_frame *f)
{
	if (f) {
		free((void *)f->known);
		free(f->mem);
	}
}

struct legacy_frame *legacy_frames_next(struct legacy_frame_table *t, unsigned long *i)
{
	struct legacy_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_acquire);

	while (*i <= s->mask) {
		struct legacy_frame *f = atomic_load_explicit(&s->slot[(*i)++],
							      memory_order_acquire);

		if (f)
			return f;
	}
	return NULL;
}

static int by_base(const void *a, const void *b)
{
	unsigned long x = (*(struct legacy_frame *const *)a)->base;
	unsigned long y = (*(struct legacy_frame *const *)b)->base;

	return x < y ? -1 : x > y;
}

struct legacy_frame **legacy_frames_sorted(struct legacy_frame_table *t, size_t *n, int *err)
{
	struct legacy_frame **v, *f;
	unsigned long i = 0;
	size_t k = 0;

	*n = 0;
	*err = 0;
	while (legacy_frames_next(t, &i))
		(*n)++;
	if (!*n)
		return NULL;
	v = malloc(*n * sizeof(*v));
	if (!v) {
		*err = -ENOMEM;
		return NULL;
	}
	i = 0;
	while ((f = legacy_frames_next(t, &i)) && k < *n)
		v[k++] = f;
	qsort(v, k, sizeof(*v), by_base);
	return v;
}

void legacy_frames_destroy(struct legacy_frame_table *t)
{
	struct legacy_frame_slots *s;
	unsigned long i = 0;
	struct legacy_frame *f;

	if (!t)
		return;
	while ((f = legacy_frames_next(t, &i)))
		legacy_frame_free(f);
	free(atomic_load_explicit(&t->cur, memory_order_relaxed));
	while (t->retired) {
		s = t->retired;
		t->retired = s->next_retired;
		free(s);
	}
	free(t);
}
