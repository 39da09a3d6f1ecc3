// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/fuzz_legacy.c - the 2005 buddy engine against the 2005 model.
 *
 * The input language, the operations, the misuse and the common checks are
 * the 2005 driver's (fuzz2005.h).  What is the buddy engine's own: header
 * byte 0 is all chunk shift, bit 2 of byte 2 turns linear search on, op 15
 * toggles it; and after every step the engine's free lists must be the
 * model's, head first, with the model's count of free blocks per order.
 */
#include <string.h>

#include "fuzz2005.h"
#include "legacy/genalloc.h"

static unsigned long supply_chunk(struct gen_pool *pool)
{
	return f5_supply_next((struct f5_supply *)pool->private);
}

static int shift_of(unsigned b0)
{
	return (int)b0;
}

static struct gen_pool *create(struct f5_run *r, int prefill)
{
	return legacy_alloc_gen_pool(prefill, r->shift, supply_chunk, (unsigned long)&r->sup);
}

static void configure(struct f5_run *r)
{
	legacy_gen_pool_set_linear_search(r->pool, (int)(r->hdr[2] >> 2 & 1));
}

static void read_state(const struct f5_run *r, struct f5_state *st)
{
	struct legacy_gen_pool_stats s;

	legacy_gen_pool_stats(r->pool, &s);
	st->obtained_bytes = s.obtained_bytes;
	st->donated_bytes = s.donated_bytes;
	st->free_bytes = s.free_bytes;
	st->largest_free = s.largest_free;
	st->metadata_bytes = s.metadata_bytes;
	memcpy(st->nr_free, s.nr_free, sizeof(st->nr_free));
	for (int i = 0; i < r->m.nr_orders; i++)
		st->heads[i] = (unsigned long)r->pool->h[i].next;
}

static void check_lists(const struct f5_run *r, const struct f5_state *st)
{
	for (int i = 0; i < r->m.nr_orders; i++) {
		const struct gen_pool_link *q = r->pool->h[i].next;
		int k = r->m.len[i];

		for (; q && k > 0; q = q->next)
			FUZZ_CHECK((unsigned long)q == r->m.stack[i][--k],
				   "order %d: list entry %p, model %#lx", i, (const void *)q,
				   r->m.stack[i][k]);
		FUZZ_CHECK(!q && !k, "order %d: list length differs from the model", i);
		FUZZ_CHECK(st->nr_free[i] == (unsigned long)r->m.len[i], "nr_free[%d]", i);
	}
}

static void toggle_linear_search(struct f5_run *r)
{
	legacy_gen_pool_set_linear_search(r->pool, (int)(fuzz_u8(&r->in) & 1));
}

static const struct f5_engine legacy_engine = {
	.shift_of = shift_of,
	.create = create,
	.configure = configure,
	.alloc = legacy_gen_pool_alloc,
	.free = legacy_gen_pool_free,
	.destroy = legacy_gen_pool_destroy,
	.check = legacy_gen_pool_check,
	.state = read_state,
	.for_each_region = legacy_gen_pool_for_each_region,
	.check_more = check_lists,
	.donate_end = 12,
	.misuse_end = 15,
	.extra_op = toggle_linear_search,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct f5_run r;

	memset(&r, 0, sizeof(r));
	f5_run_input(&r, &legacy_engine, data, size);
	return 0;
}
