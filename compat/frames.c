// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/frames.c - the bitmap backend's frames (see frames_internal.h):
 * the per-frame records and the lock-free table that finds them by address.
 */
#include <stdlib.h>

#include "frames_internal.h"

#define COMPAT_FRAMES_MIN_SLOTS 16UL
#define BITS_PER_WORD (8 * sizeof(unsigned long))

struct compat_frame_slots {
	struct compat_frame_slots *next_retired;
	unsigned long mask;
	_Atomic(struct compat_frame *) slot[];
};

static unsigned long frames_hash(unsigned long key)
{
	unsigned long long h = (unsigned long long)key * 0x9E3779B97F4A7C15ULL;

	return (unsigned long)(h ^ (h >> 29));
}

static struct compat_frame_slots *slots_new(unsigned long nr)
{
	struct compat_frame_slots *s;

	s = calloc(1, sizeof(*s) + nr * sizeof(s->slot[0]));
	if (s)
		s->mask = nr - 1;
	return s;
}

/* Place @f in @s, which is not yet (or only under the pool lock) written. */
static void slots_put(struct compat_frame_slots *s, int shift, struct compat_frame *f)
{
	unsigned long i = frames_hash(f->base >> shift) & s->mask;

	while (atomic_load_explicit(&s->slot[i], memory_order_relaxed))
		i = (i + 1) & s->mask;
	/* Release: a reader that finds @f sees it fully built. */
	atomic_store_explicit(&s->slot[i], f, memory_order_release);
}

int compat_frames_init(struct compat_frame_table *t, int shift)
{
	struct compat_frame_slots *s = slots_new(COMPAT_FRAMES_MIN_SLOTS);

	if (!s)
		return -1;
	atomic_init(&t->cur, s);
	t->retired = NULL;
	t->count = 0;
	t->shift = shift;
	return 0;
}

/*
 * Make room for one more frame, so that the insert that follows cannot fail
 * after the engine has been told about the frame.  The table is kept at most
 * half full; growing copies it and retires the old array instead of freeing
 * it, because a lookup may be probing it right now.
 */
int compat_frames_reserve(struct compat_frame_table *t)
{
	struct compat_frame_slots *old = atomic_load_explicit(&t->cur, memory_order_relaxed);
	struct compat_frame_slots *s;
	unsigned long nr = old->mask + 1;

	if ((t->count + 1) * 2 <= nr)
		return 0;
	s = slots_new(nr * 2);
	if (!s)
		return -1;
	for (unsigned long i = 0; i < nr; i++) {
		struct compat_frame *f = atomic_load_explicit(&old->slot[i], memory_order_relaxed);

		if (f)
			slots_put(s, t->shift, f);
	}
	atomic_store_explicit(&t->cur, s, memory_order_release);
	old->next_retired = t->retired;
	t->retired = old;
	return 0;
}

unsigned long compat_frame_granules(const struct compat_frame_table *t)
{
	return 1UL << (t->shift - COMPAT_GRANULE_SHIFT);
}

static unsigned long known_words(unsigned long granules)
{
	return (granules + BITS_PER_WORD - 1) / BITS_PER_WORD;
}

struct compat_frame *compat_frame_new(const struct compat_frame_table *t, unsigned long base,
				      int from_callback)
{
	unsigned long n = compat_frame_granules(t);
	struct compat_frame *f = calloc(1, sizeof(*f) + n);

	if (!f)
		return NULL;
	f->base = base;
	f->from_callback = from_callback;
	if (!from_callback) {
		f->known = calloc(known_words(n), sizeof(*f->known));
		if (!f->known) {
			free(f);
			return NULL;
		}
	}
	return f;
}

void compat_frame_delete(struct compat_frame *f)
{
	if (f) {
		free((void *)f->known);
		free(f);
	}
}

void compat_frames_insert(struct compat_frame_table *t, struct compat_frame *f)
{
	slots_put(atomic_load_explicit(&t->cur, memory_order_relaxed), t->shift, f);
	t->count++;
}

struct compat_frame *compat_frames_lookup(struct compat_frame_table *t, unsigned long addr)
{
	struct compat_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_acquire);
	unsigned long base = addr & ~((1UL << t->shift) - 1);
	unsigned long i = frames_hash(addr >> t->shift) & s->mask;
	struct compat_frame *f;

	while ((f = atomic_load_explicit(&s->slot[i], memory_order_acquire))) {
		if (f->base == base)
			return f;
		i = (i + 1) & s->mask;
	}
	return NULL;
}

void compat_frames_for_each(struct compat_frame_table *t,
			    void (*fn)(struct compat_frame *f, void *data), void *data)
{
	struct compat_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_acquire);

	for (unsigned long i = 0; i <= s->mask; i++) {
		struct compat_frame *f = atomic_load_explicit(&s->slot[i], memory_order_acquire);

		if (f)
			fn(f, data);
	}
}

static unsigned long slots_bytes(const struct compat_frame_slots *s)
{
	return sizeof(*s) + (s->mask + 1) * sizeof(s->slot[0]);
}

unsigned long compat_frames_metadata(struct compat_frame_table *t)
{
	struct compat_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_acquire);
	unsigned long n = compat_frame_granules(t);
	unsigned long bytes = slots_bytes(s);

	for (struct compat_frame_slots *r = t->retired; r; r = r->next_retired)
		bytes += slots_bytes(r);
	for (unsigned long i = 0; i <= s->mask; i++) {
		struct compat_frame *f = atomic_load_explicit(&s->slot[i], memory_order_acquire);

		if (f)
			bytes += sizeof(*f) + n +
				 (f->known ? known_words(n) * sizeof(unsigned long) : 0);
	}
	return bytes;
}

void compat_frames_destroy(struct compat_frame_table *t)
{
	struct compat_frame_slots *s = atomic_load_explicit(&t->cur, memory_order_relaxed);

	for (unsigned long i = 0; i <= s->mask; i++)
		compat_frame_delete(atomic_load_explicit(&s->slot[i], memory_order_relaxed));
	free(s);
	while (t->retired) {
		s = t->retired;
		t->retired = s->next_retired;
		free(s);
	}
	atomic_store(&t->cur, NULL);
	t->count = 0;
}

int compat_frame_is_known(const struct compat_frame *f, unsigned long g)
{
	if (f->from_callback)
		return 1;
	return (atomic_load_explicit(&f->known[g / BITS_PER_WORD], memory_order_acquire) >>
		(g % BITS_PER_WORD)) & 1;
}

int compat_frame_any_known(const struct compat_frame *f, unsigned long g, unsigned long n)
{
	for (unsigned long i = g; i < g + n; i++)
		if (compat_frame_is_known(f, i))
			return 1;
	return 0;
}

void compat_frame_mark_known(struct compat_frame *f, unsigned long g, unsigned long n)
{
	for (unsigned long i = g; i < g + n; i++)
		atomic_fetch_or_explicit(&f->known[i / BITS_PER_WORD],
					 1UL << (i % BITS_PER_WORD), memory_order_release);
}
