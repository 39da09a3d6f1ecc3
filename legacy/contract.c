// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/contract.c - the 2005 contract: creation limits, argument and
 * chunk checks, and the one table of verdicts and their messages (see
 * contract_internal.h).  Both engines of the 2005 API report through it.
 */
#include <unistd.h>

#include "contract_internal.h"

/**
 * struct legacy_rule - how one misuse is answered
 * @severity: BUG when going on would have corrupted the pool, else WARN
 * @code:     the error code
 * @msg:      the message, the same whichever engine found the misuse
 */
struct legacy_rule {
	enum genalloc_severity severity;
	enum genalloc_errcode code;
	const char *msg;
};

static const struct legacy_rule legacy_rules[] = {
	[LEGACY_SHIFT_ABOVE_LIMIT] = { GENALLOC_WARN, GENALLOC_EINVAL,
		"max_chunk_shift above page shift + 10" },
	[LEGACY_SHIFT_BELOW_MIN] = { GENALLOC_WARN, GENALLOC_EINVAL,
		"max_chunk_shift below ALLOC_MIN_SHIFT" },
	[LEGACY_NR_CHUNKS_NEGATIVE] = { GENALLOC_WARN, GENALLOC_EINVAL,
		"negative nr_chunks" },
	[LEGACY_NR_CHUNKS_WITHOUT_CALLBACK] = { GENALLOC_WARN, GENALLOC_EINVAL,
		"nr_chunks without get_new_chunk" },
	[LEGACY_POOL_NULL] = { GENALLOC_WARN, GENALLOC_EINVAL, "NULL pool" },
	[LEGACY_SIZE_NEGATIVE] = { GENALLOC_WARN, GENALLOC_EINVAL, "negative size" },
	[LEGACY_ADDR_ZERO] = { GENALLOC_WARN, GENALLOC_EINVAL, "address 0" },
	[LEGACY_CHUNK_WRAPS] = { GENALLOC_BUG, GENALLOC_ERANGE,
		"new chunk wraps past the end of the address space" },
	[LEGACY_CHUNK_MISALIGNED] = { GENALLOC_BUG, GENALLOC_EMISALIGNED,
		"new chunk not aligned to the chunk size" },
	[LEGACY_CHUNK_OVERLAPS] = { GENALLOC_BUG, GENALLOC_EOVERLAP,
		"new chunk overlaps memory the pool has" },
	[LEGACY_FREE_WRAPS] = { GENALLOC_BUG, GENALLOC_ERANGE,
		"range wraps past the end of the address space" },
	/* At a free block's start or inside one: the bitmap backend keeps no
	 * free blocks, only free granules, so one message serves both. */
	[LEGACY_FREE_ALREADY_FREE] = { GENALLOC_BUG, GENALLOC_EDOUBLEFREE,
		"block is already free" },
	[LEGACY_FREE_WRONG_SIZE] = { GENALLOC_BUG, GENALLOC_ESIZE,
		"size differs from the allocated size" },
	[LEGACY_FREE_MISALIGNED] = { GENALLOC_BUG, GENALLOC_EMISALIGNED,
		"address not aligned to the rounded size" },
	[LEGACY_FREE_INSIDE_LIVE] = { GENALLOC_BUG, GENALLOC_EFOREIGN,
		"address inside a live block, not its start" },
	[LEGACY_DONATION_OVERLAPS] = { GENALLOC_BUG, GENALLOC_EOVERLAP,
		"donated range overlaps memory the pool has" },
	[LEGACY_DONATION_NO_MEMORY] = { GENALLOC_WARN, GENALLOC_EINVAL,
		"no memory to record the donation" },
	[LEGACY_HOLD_REFUSED] = { GENALLOC_BUG, GENALLOC_ECORRUPT,
		"engine refused to hold a new chunk" },
	[LEGACY_DESTROY_BUSY] = { GENALLOC_BUG, GENALLOC_EBUSY, "pool has live blocks" },
};

void legacy_report_misuse(enum legacy_misuse what, const char *func, const void *pool,
			  unsigned long addr, unsigned long size)
{
	const struct legacy_rule *r = &legacy_rules[what];

	genalloc_report(r->severity, r->code, func, pool, addr, size, r->msg);
}

void legacy_report(const struct legacy_verdict *v, const char *func, const void *pool,
		   unsigned long addr, unsigned long size)
{
	if (v->what)
		legacy_report_misuse(v->what, func, pool, addr, size);
}

int legacy_page_shift(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int shift = 0;

	if (page <= 0)
		page = 4096;
	while ((1L << shift) < page)
		shift++;
	return shift;
}

static enum legacy_misuse judge_create(int nr_chunks, int max_chunk_shift, int has_callback)
{
	if (max_chunk_shift > legacy_page_shift() + LEGACY_MAX_SHIFT_OVER_PAGE)
		return LEGACY_SHIFT_ABOVE_LIMIT;
	if (max_chunk_shift < 0 || (max_chunk_shift && max_chunk_shift < LEGACY_MIN_SHIFT))
		return LEGACY_SHIFT_BELOW_MIN;
	if (nr_chunks < 0)
		return LEGACY_NR_CHUNKS_NEGATIVE;
	if (nr_chunks > 0 && !has_callback)
		return LEGACY_NR_CHUNKS_WITHOUT_CALLBACK;
	return LEGACY_FINE;
}

int legacy_create_ok(int nr_chunks, int max_chunk_shift, int has_callback)
{
	enum legacy_misuse what = judge_create(nr_chunks, max_chunk_shift, has_callback);

	if (what) {
		legacy_report_misuse(what, "alloc_gen_pool", NULL, 0, 0);
		return -1;
	}
	return max_chunk_shift ? max_chunk_shift : legacy_page_shift();
}

static int args_ok(const char *func, const void *pool, unsigned long addr, int size,
		   int is_free)
{
	enum legacy_misuse what = LEGACY_FINE;

	if (!pool)
		what = LEGACY_POOL_NULL;
	else if (size < 0)
		what = LEGACY_SIZE_NEGATIVE;
	else if (is_free && !addr)
		what = LEGACY_ADDR_ZERO;
	if (what)
		legacy_report_misuse(what, func, pool, addr, size < 0 ? 0 : (unsigned long)size);
	return what == LEGACY_FINE;
}

int legacy_alloc_args_ok(const void *pool, int size)
{
	return args_ok("gen_pool_alloc", pool, 0, size, 0);
}

int legacy_free_args_ok(const void *pool, unsigned long addr, int size)
{
	return args_ok("gen_pool_free", pool, addr, size, 1);
}

enum legacy_misuse legacy_judge_chunk(unsigned long chunk, unsigned long size, int known)
{
	if (legacy_range_wraps(chunk, size))
		return LEGACY_CHUNK_WRAPS;
	if (chunk & (size - 1))
		return LEGACY_CHUNK_MISALIGNED;
	if (known)
		return LEGACY_CHUNK_OVERLAPS;
	return LEGACY_FINE;
}
