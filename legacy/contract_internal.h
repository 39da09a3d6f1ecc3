/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * legacy/contract_internal.h - the 2005 contract, kept by both engines that
 * serve the 2005 API: the buddy engine here and compat's bitmap backend.
 * Not installed.
 *
 * What 2005 code may ask, and what each misuse is answered with, is decided
 * here once: the creation limits, the argument checks every gen_pool_alloc()
 * and gen_pool_free() makes first, the checks on a chunk from get_new_chunk,
 * and every verdict's severity, error code and message.  An engine finds the
 * facts in its own records (a control map here, per-frame start bytes in
 * compat) and names the verdict; it never spells a message, so the two
 * cannot drift apart.
 *
 * This header speaks no engine's types: compat's bitmap backend sees the
 * modern struct gen_pool, whose name collides with the 2005 one, so pools
 * are opaque pointers here.
 */
#ifndef GENALLOC_LEGACY_CONTRACT_INTERNAL_H
#define GENALLOC_LEGACY_CONTRACT_INTERNAL_H

#include <limits.h>

#include "../common/error.h"

/* log2 of the 2005 smallest block, 32 bytes (ALLOC_MIN_SHIFT in both APIs) */
#define LEGACY_MIN_SHIFT 5

/* 2005: "really an arbitrary limit, +10 is enough for IA64_GRANULE_SHIFT" */
#define LEGACY_MAX_SHIFT_OVER_PAGE 10

/**
 * enum legacy_misuse - every way a 2005 call can be refused
 *
 * Each has one severity, one error code and one message (contract.c).
 */
enum legacy_misuse {
	LEGACY_FINE = 0,
	/* alloc_gen_pool() */
	LEGACY_SHIFT_ABOVE_LIMIT,
	LEGACY_SHIFT_BELOW_MIN,
	LEGACY_NR_CHUNKS_NEGATIVE,
	LEGACY_NR_CHUNKS_WITHOUT_CALLBACK,
	/* the arguments of gen_pool_alloc() and gen_pool_free() */
	LEGACY_POOL_NULL,
	LEGACY_SIZE_NEGATIVE,
	LEGACY_ADDR_ZERO,
	/* a chunk from get_new_chunk */
	LEGACY_CHUNK_WRAPS,
	LEGACY_CHUNK_MISALIGNED,
	LEGACY_CHUNK_OVERLAPS,
	/* gen_pool_free() */
	LEGACY_FREE_WRAPS,
	LEGACY_FREE_ALREADY_FREE,
	LEGACY_FREE_WRONG_SIZE,
	LEGACY_FREE_MISALIGNED,
	LEGACY_FREE_INSIDE_LIVE,
	LEGACY_DONATION_OVERLAPS,
	LEGACY_DONATION_NO_MEMORY,
	/* gen_pool_destroy() */
	LEGACY_DESTROY_BUSY,
	/* any locked call, entered again by the thread inside it */
	LEGACY_REENTRY,
};

/**
 * struct legacy_verdict - a misuse found while a lock was held
 * @what: LEGACY_FINE if there was none
 *
 * Reports go out only after the lock is dropped, so that a handler that
 * returns may call into the pool again.
 */
struct legacy_verdict {
	enum legacy_misuse what;
};

/**
 * legacy_page_shift() - the kernel's PAGE_SHIFT, from the running system
 *
 * Return: log2 of sysconf(_SC_PAGESIZE) rounded up (12 when unknown).
 */
int legacy_page_shift(void);

/**
 * legacy_create_ok() - check alloc_gen_pool()'s arguments, report a misuse
 * @nr_chunks:       chunks to prefill; negative is refused
 * @max_chunk_shift: 0 (page shift) or ALLOC_MIN_SHIFT..page shift + 10
 * @has_callback:    whether get_new_chunk is set (needed when @nr_chunks > 0)
 *
 * Return: the chunk shift to use (@max_chunk_shift, or the page shift for
 * 0), or -1 after a WARN EINVAL naming the argument and its value.
 */
int legacy_create_ok(int nr_chunks, int max_chunk_shift, int has_callback);

/**
 * legacy_refuse_args() - report the first of legacy_alloc_args_ok()'s or
 * legacy_free_args_ok()'s checks that failed (out of line: it is rare)
 * @func:    "gen_pool_alloc" or "gen_pool_free"
 * @pool:    the pool, opaque
 * @addr:    the address given (0 for an allocation)
 * @size:    the size given
 * @is_free: whether address 0 is refused too
 */
void legacy_refuse_args(const char *func, const void *pool, unsigned long addr, int size,
			int is_free);

/**
 * legacy_alloc_args_ok() - the checks every 2005 allocation makes first
 * @pool: the pool, opaque
 * @size: the size given
 *
 * A NULL pool, then a negative size, is refused with a WARN EINVAL.
 * Inline: every call makes them.
 *
 * Return: 1 if the request may go on, else 0.
 */
static inline int legacy_alloc_args_ok(const void *pool, int size)
{
	if (pool && size >= 0)
		return 1;
	legacy_refuse_args("gen_pool_alloc", pool, 0, size, 0);
	return 0;
}

/**
 * legacy_free_args_ok() - the checks every 2005 free makes first
 * @pool: the pool, opaque
 * @addr: the address given
 * @size: the size given
 *
 * A NULL pool, a negative size, then address 0, is refused with a WARN
 * EINVAL.  Inline: every call makes them.
 *
 * Return: 1 if the request may go on, else 0.
 */
static inline int legacy_free_args_ok(const void *pool, unsigned long addr, int size)
{
	if (pool && size >= 0 && addr)
		return 1;
	legacy_refuse_args("gen_pool_free", pool, addr, size, 1);
	return 0;
}

/**
 * legacy_range_wraps() - does [@addr, @addr + @size) run past the address space?
 * @addr: first byte
 * @size: bytes, not 0
 */
static inline int legacy_range_wraps(unsigned long addr, unsigned long size)
{
	return addr > ULONG_MAX - (size - 1);
}

/**
 * legacy_judge_chunk() - may a chunk from get_new_chunk join the pool?
 * @chunk: its address, not 0
 * @size:  the chunk size, a power of two
 * @known: whether the pool already has memory in [@chunk, @chunk + @size)
 *
 * Return: LEGACY_FINE, or why it is refused (wrapping, then misalignment,
 * then overlap).
 */
enum legacy_misuse legacy_judge_chunk(unsigned long chunk, unsigned long size, int known);

/**
 * legacy_report_misuse() - report @what through the error hook
 * @what: the misuse, not LEGACY_FINE
 * @func: the public function's kernel name
 * @pool: the pool, opaque
 * @addr: the address involved, or 0
 * @size: the size involved (bytes), or 0
 */
void legacy_report_misuse(enum legacy_misuse what, const char *func, const void *pool,
			  unsigned long addr, unsigned long size);

/**
 * legacy_refuse_null() - report WARN EINVAL for a NULL argument
 * @func: the public function's kernel name
 * @pool: the pool, opaque: if NULL, the report is about it
 * @msg:  otherwise, which argument was NULL ("NULL function")
 */
void legacy_refuse_null(const char *func, const void *pool, const char *msg);

/**
 * struct legacy_live - the live blocks a busy destroy names
 * @count: how many
 * @bytes: their bytes
 * @first: the addresses of the first GENALLOC_LIVE_SHOWN, in the order seen
 */
struct legacy_live {
	size_t count;
	unsigned long bytes;
	unsigned long first[GENALLOC_LIVE_SHOWN];
};

/** legacy_live_add() - one more live block of @size bytes at @addr */
static inline void legacy_live_add(struct legacy_live *live, unsigned long addr,
				   unsigned long size)
{
	if (live->count < GENALLOC_LIVE_SHOWN)
		live->first[live->count] = addr;
	live->count++;
	live->bytes += size;
}

/**
 * legacy_report_busy() - report BUG EBUSY from gen_pool_destroy()
 * @pool:       the pool, opaque (the caller's)
 * @live_bytes: the bytes still allocated, from the pool's counters
 * @live:       the live blocks found (the count 0 if they could not be listed)
 *
 * The report's address is the first live block's, its size @live_bytes,
 * and it lists how many blocks are live and the first few addresses.
 */
void legacy_report_busy(const void *pool, unsigned long live_bytes,
			const struct legacy_live *live);

/**
 * legacy_report() - send a verdict to the error hook, if there is one
 * @v:    the verdict
 * @func: the public function's kernel name
 * @pool: the pool, opaque
 * @addr: the address involved, or 0
 * @size: the size involved (bytes), or 0
 *
 * Inline: every alloc and free ends here, nearly always with nothing to say.
 */
static inline void legacy_report(const struct legacy_verdict *v, const char *func,
				 const void *pool, unsigned long addr, unsigned long size)
{
	if (v->what)
		legacy_report_misuse(v->what, func, pool, addr, size);
}

#endif /* GENALLOC_LEGACY_CONTRACT_INTERNAL_H */
