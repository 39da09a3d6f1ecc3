// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/fuzz_compat.c - the 2005 API over either backend.
 *
 * The input language, the operations, the misuse and the common checks are
 * the 2005 driver's (fuzz2005.h): both backends keep the 2005 contract,
 * checked against a per-atom shadow of the pool's memory.  What is compat's
 * own: bit 0 of header byte 0 picks the backend (the rest is the chunk
 * shift), and placement is checked per backend:
 *  - buddy: the 2005 model's address (test/legacy/model2005.c), and its
 *    largest block;
 *  - bitmap: the lowest naturally aligned free run of the newest chunk
 *    ("frame": a callback chunk, or the chunk-sized frame a first donation
 *    falls in) that has one - the property the header states.
 */
#include <string.h>

#include "fuzz2005.h"
#include "compat/genalloc.h"

#define MAX_FRAMES	64

/* The driver's run, and the bitmap backend's frames, newest last. */
struct compat_run {
	struct f5_run r;		/* first: the driver's hooks cast back */
	unsigned long frames[MAX_FRAMES];
	int nr_frames;
};

static unsigned long supply_chunk(struct gen_pool *pool)
{
	return f5_supply_next((struct f5_supply *)pool->private);
}

/* ------------------------------------------------------------ bitmap model */

static struct compat_run *of(const struct f5_run *r)
{
	return (struct compat_run *)(uintptr_t)r;
}

/* The lowest aligned free run of @s bytes, newest frame first. */
static unsigned long frame_place(const struct f5_run *r, unsigned long s)
{
	const struct compat_run *c = of(r);

	for (int k = c->nr_frames - 1; k >= 0; k--)
		for (unsigned long off = 0; off < r->chunk; off += s)
			if (shadow_all(&r->sh, c->frames[k] + off, s, SH_FREE))
				return c->frames[k] + off;
	return 0;
}

static int frames_has(const struct f5_run *r, int i)
{
	return frame_place(r, 32UL << i) != 0;
}

static unsigned long frames_take(struct f5_run *r, int i)
{
	return frame_place(r, 32UL << i);
}

static unsigned long frames_largest(const struct f5_run *r)
{
	for (unsigned long s = r->chunk; s >= 32; s >>= 1)
		if (frame_place(r, s))
			return s;
	return 0;
}

static void frames_add(struct f5_run *r, unsigned long a, int i)
{
	struct compat_run *c = of(r);
	unsigned long frame = a & ~(r->chunk - 1);

	(void)i;
	for (int k = 0; k < c->nr_frames; k++)
		if (c->frames[k] == frame)
			return;
	FUZZ_CHECK(c->nr_frames < MAX_FRAMES, "too many frames");
	c->frames[c->nr_frames++] = frame;
}

/* The shadow alone says what is free again. */
static void frames_release(struct f5_run *r, unsigned long a, int i)
{
	(void)r;
	(void)a;
	(void)i;
}

static const struct f5_model frames_model = {
	.lists = 0,
	.has = frames_has,
	.take = frames_take,
	.largest = frames_largest,
	.add = frames_add,
	.release = frames_release,
};

/* ------------------------------------------------------------ the engine */

static int shift_of(unsigned b0)
{
	return (int)(b0 >> 1);
}

static struct gen_pool *create(struct f5_run *r, int prefill)
{
	int bitmap = (int)(r->hdr[0] & 1);

	if (bitmap)
		r->model = &frames_model;
	return compat_gen_pool_create_backend(bitmap ? COMPAT_BACKEND_BITMAP : COMPAT_BACKEND_BUDDY,
					      prefill, r->shift, supply_chunk,
					      (unsigned long)&r->sup);
}

static void read_state(const struct f5_run *r, struct f5_state *st)
{
	struct compat_gen_pool_stats s;

	compat_gen_pool_stats(r->pool, &s);
	st->obtained_bytes = s.obtained_bytes;
	st->donated_bytes = s.donated_bytes;
	st->free_bytes = s.free_bytes;
	st->largest_free = s.largest_free;
	st->metadata_bytes = s.metadata_bytes;
}

static const struct f5_engine compat_engine = {
	.shift_of = shift_of,
	.create = create,
	.alloc = compat_gen_pool_alloc,
	.free = compat_gen_pool_free,
	.destroy = compat_gen_pool_destroy,
	.check = compat_gen_pool_check,
	.state = read_state,
	.for_each_region = compat_gen_pool_for_each_region,
	.donate_end = 13,
	.misuse_end = 16,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct compat_run c;

	memset(&c, 0, sizeof(c));
	f5_run_input(&c.r, &compat_engine, data, size);
	return 0;
}
