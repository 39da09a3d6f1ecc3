/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/tlsf_inband.h - TLSF as published, its block headers and free-list
 * links inside the memory it manages: the bench's second yardstick, the
 * allocator published comparisons call TLSF (bench/tlsf_inband.c states
 * its design).  Not part of the library: genalloc's memory may not be
 * touched, which is why bench/tlsf.c keeps its blocks out of band.
 */
#ifndef GENALLOC_BENCH_TLSF_INBAND_H
#define GENALLOC_BENCH_TLSF_INBAND_H

#include <stddef.h>

struct itlsf;

/* What a block costs beyond its rounded request: its header. */
#define ITLSF_HEADER 16
/* The smallest block: a header and the two links a free block needs. */
#define ITLSF_MIN_BLOCK 32

/**
 * itlsf_create() - manage the writable memory [@mem, @mem + @bytes)
 * @mem:   8-byte aligned; the allocator writes headers into it
 * @bytes: at least 2 * ITLSF_MIN_BLOCK; rounded down to a multiple of 8
 *
 * Return: the allocator (its control block is malloc()ed, outside @mem),
 * or NULL when @mem or @bytes is unusable or malloc() fails.
 */
struct itlsf *itlsf_create(void *mem, size_t bytes);

/** itlsf_destroy() - free the control block (NULL is a no-op) */
void itlsf_destroy(struct itlsf *t);

/**
 * itlsf_block_bytes() - what a request of @bytes takes from the pool: the
 * request rounded up to 8, plus the header, at least ITLSF_MIN_BLOCK
 * (0 when that overflows).  The allocator may hand over a few more when
 * the remainder of a block would be too small to stand alone.
 */
size_t itlsf_block_bytes(size_t bytes);

/**
 * itlsf_alloc() - 8-byte aligned memory for @bytes (0 counts as 1), or NULL
 * when no free block is large enough
 */
void *itlsf_alloc(struct itlsf *t, size_t bytes);

/**
 * itlsf_free() - give back what itlsf_alloc() returned
 *
 * Return: 0, or -1 (nothing changed) when @p is outside the pool,
 * misaligned, or its block is already free.  A pointer into the middle of
 * a live block is not detected: its "header" is the block's data.
 */
int itlsf_free(struct itlsf *t, void *p);

/** itlsf_free_bytes() - bytes in free blocks, headers included */
size_t itlsf_free_bytes(const struct itlsf *t);

/** itlsf_largest_free() - the largest request that would succeed now */
size_t itlsf_largest_free(const struct itlsf *t);

/** itlsf_control_bytes() - bookkeeping outside the managed memory */
size_t itlsf_control_bytes(const struct itlsf *t);

/**
 * itlsf_check() - walk every block and every list, as mem5.c's checker
 * does: sizes, physical links, the free flags and "free before" flags, no
 * two free neighbours, each free block on the list its size maps to, the
 * bitmaps, and the free byte count.
 *
 * Return: 0 when all hold, else the number of the first rule broken (> 0).
 */
int itlsf_check(const struct itlsf *t);

#endif /* GENALLOC_BENCH_TLSF_INBAND_H */
