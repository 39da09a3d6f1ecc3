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
 * @arg:      the argument the report names with its value, or NULL (the
 *            report then carries an address and a size)
 * @fix:      what the caller should do instead, one clause
 */
struct legacy_rule {
	enum genalloc_severity severity;
	enum genalloc_errcode code;
	const char *msg;
	const char *arg;
	const char *fix;
};

/* The arguments a report names, as the 2005 API's manual spells them. */
static const char arg_shift[] = "max_chunk_shift";
static const char arg_nr_chunks[] = "nr_chunks";
static const char arg_size[] = "size";

#define RULE(sev, c, m, f) \
	{ .severity = GENALLOC_##sev, .code = GENALLOC_##c, .msg = (m), .fix = (f) }
#define RULE_ARG(sev, c, m, a, f) \
	{ .severity = GENALLOC_##sev, .code = GENALLOC_##c, .msg = (m), .arg = (a), .fix = (f) }

/* Fixes more than one rule gives. */
static const char fix_chunk[] =
	"make get_new_chunk return 2^max_chunk_shift bytes aligned to their size, or 0";
static const char fix_shift[] =
	"pass 0 (the page size) or a shift from ALLOC_MIN_SHIFT to page shift + 10";

static const struct legacy_rule legacy_rules[] = {
	[LEGACY_SHIFT_ABOVE_LIMIT] = RULE_ARG(WARN, EINVAL,
		"max_chunk_shift above page shift + 10", arg_shift, fix_shift),
	[LEGACY_SHIFT_BELOW_MIN] = RULE_ARG(WARN, EINVAL,
		"max_chunk_shift below ALLOC_MIN_SHIFT", arg_shift, fix_shift),
	[LEGACY_NR_CHUNKS_NEGATIVE] = RULE_ARG(WARN, EINVAL,
		"negative nr_chunks", arg_nr_chunks,
		"pass how many chunks to obtain now, 0 or more"),
	[LEGACY_NR_CHUNKS_WITHOUT_CALLBACK] = RULE_ARG(WARN, EINVAL,
		"nr_chunks without get_new_chunk", arg_nr_chunks,
		"pass get_new_chunk, or 0 chunks"),
	[LEGACY_POOL_NULL] = RULE(WARN, EINVAL, "NULL pool",
		"pass the pool alloc_gen_pool() returned"),
	[LEGACY_SIZE_NEGATIVE] = RULE_ARG(WARN, EINVAL, "negative size", arg_size,
		"pass a size of 0 or more"),
	[LEGACY_ADDR_ZERO] = RULE(WARN, EINVAL, "address 0",
		"free what gen_pool_alloc() returned, never its failure value 0"),
	[LEGACY_CHUNK_WRAPS] = RULE(BUG, ERANGE,
		"new chunk wraps past the end of the address space", fix_chunk),
	[LEGACY_CHUNK_MISALIGNED] = RULE(BUG, EMISALIGNED,
		"new chunk not aligned to the chunk size", fix_chunk),
	[LEGACY_CHUNK_OVERLAPS] = RULE(BUG, EOVERLAP,
		"new chunk overlaps memory the pool has",
		"make get_new_chunk return memory the pool has not had, from it or by a free"),
	[LEGACY_FREE_WRAPS] = RULE(BUG, ERANGE,
		"range wraps past the end of the address space",
		"free the address and size of a block gen_pool_alloc() returned"),
	/* At a free block's start or inside one: the bitmap backend keeps no
	 * free blocks, only free granules, so one message serves both. */
	[LEGACY_FREE_ALREADY_FREE] = RULE(BUG, EDOUBLEFREE,
		"block is already free", "free each block once"),
	[LEGACY_FREE_WRONG_SIZE] = RULE(BUG, ESIZE,
		"size differs from the allocated size",
		"free with the size given to gen_pool_alloc(), or one that rounds up alike"),
	[LEGACY_FREE_MISALIGNED] = RULE(BUG, EMISALIGNED,
		"address not aligned to the rounded size",
		"free the address gen_pool_alloc() returned; donate only ranges aligned "
		"to their size rounded up to a power of two"),
	[LEGACY_FREE_INSIDE_LIVE] = RULE(BUG, EFOREIGN,
		"address inside a live block, not its start",
		"free the block's first address, the one gen_pool_alloc() returned"),
	[LEGACY_DONATION_OVERLAPS] = RULE(BUG, EOVERLAP,
		"donated range overlaps memory the pool has",
		"donate only memory the pool has not had"),
	[LEGACY_DONATION_NO_MEMORY] = RULE(WARN, EINVAL,
		"no memory to record the donation",
		"donate again when malloc() has memory; the range was not taken"),
	[LEGACY_DESTROY_BUSY] = RULE(BUG, EBUSY, "pool has live blocks",
		"free them first (gen_pool_for_each_block() lists them), then destroy the pool"),
	/* The cause, and the fix: the 2005 API has no lock-free mode. */
	[LEGACY_REENTRY] = RULE(WARN, EREENTRY,
		"this thread is already inside a locked call on the pool (a signal "
		"handler interrupted it, or a callback re-entered it)",
		"block the signal around the pool's calls, or use <linux/genalloc.h>'s "
		"lock-free pools"),
};

static struct genalloc_error rule_error(enum legacy_misuse what, const char *func,
					const void *pool, unsigned long addr)
{
	const struct legacy_rule *r = &legacy_rules[what];

	return (struct genalloc_error){ .severity = r->severity, .code = r->code,
		.func = func, .pool = pool, .addr = addr, .msg = r->msg, .fix = r->fix };
}

void legacy_report_misuse(enum legacy_misuse what, const char *func, const void *pool,
			  unsigned long addr, unsigned long size)
{
	struct genalloc_error e = rule_error(what, func, pool, addr);

	e.size = size;
	genalloc_report_error(&e);
}

/* A misuse about an argument that an address and a size cannot carry as
 * given: named, with its value. */
static void report_arg(enum legacy_misuse what, const char *func, const void *pool,
		       unsigned long addr, const char *arg, long value)
{
	struct genalloc_error e = rule_error(what, func, pool, addr);

	e.arg = arg;
	e.arg_value = value;
	genalloc_report_error(&e);
}

void legacy_refuse_null(const char *func, const void *pool, const char *msg)
{
	if (!pool) {
		legacy_report_misuse(LEGACY_POOL_NULL, func, NULL, 0, 0);
		return;
	}
	genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
		.code = GENALLOC_EINVAL, .func = func, .pool = pool, .msg = msg,
		.fix = "pass what the call fills or calls; it may not be NULL" });
}

void legacy_report_busy(const void *pool, unsigned long live_bytes,
			const struct legacy_live *live)
{
	struct genalloc_error e = rule_error(LEGACY_DESTROY_BUSY, "gen_pool_destroy", pool,
					     live->count ? live->first[0] : 0);

	e.size = live_bytes;
	e.nr_live = live->count;
	for (size_t i = 0; i < live->count && i < GENALLOC_LIVE_SHOWN; i++)
		e.live[i] = live->first[i];
	genalloc_report_error(&e);
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
	const char *arg = legacy_rules[what].arg;

	if (what) {
		report_arg(what, "alloc_gen_pool", NULL, 0, arg,
			   arg == arg_shift ? max_chunk_shift : nr_chunks);
		return -1;
	}
	return max_chunk_shift ? max_chunk_shift : legacy_page_shift();
}

void legacy_refuse_args(const char *func, const void *pool, unsigned long addr, int size,
			int is_free)
{
	enum legacy_misuse what = LEGACY_FINE;

	if (!pool)
		what = LEGACY_POOL_NULL;
	else if (size < 0)
		what = LEGACY_SIZE_NEGATIVE;
	else if (is_free && !addr)
		what = LEGACY_ADDR_ZERO;
	/* Whatever else is wrong, a negative size is reported as given. */
	if (what && size < 0)
		report_arg(what, func, pool, addr, arg_size, size);
	else if (what)
		legacy_report_misuse(what, func, pool, addr, (unsigned long)size);
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
