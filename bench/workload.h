/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/workload.h - a workload: the sequence of requests every engine
 * replays, made by a seeded generator or read from a trace.
 *
 * Trace format (text, one event per line, optionally gzip-compressed;
 * a name ending in ".gz" is read through "gzip -dc"):
 *
 *     # a comment; blank lines are ignored too
 *     a ID SIZE     allocate SIZE bytes and call the block ID
 *     f ID          free the block called ID
 *
 * ID is any unsigned 64-bit number, unique among live blocks and free to
 * reuse once its block is freed (the tracer writes the address malloc
 * returned).  SIZE is a byte count below 2^32.  A number is decimal without
 * a leading zero, or 0x and hex digits; no sign, no suffix.  Fields are
 * separated by blanks (spaces or tabs); lines may be of any length and end
 * in "\n" or "\r\n".  Anything else on a line (trailing text, "010",
 * "1e6", "a1 64", "0x" alone) is refused with the file and line number,
 * never half-read.  A free of an ID
 * that is not live (memory allocated before tracing began) is dropped; an
 * allocation reusing a live ID first frees the old block.  Both are counted
 * and reported, never silently corrected.
 */
#ifndef GENALLOC_BENCH_WORKLOAD_H
#define GENALLOC_BENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

/** enum bench_op - what an event does */
enum bench_op {
	BENCH_ALLOC = 0,
	BENCH_FREE = 1,
};

/**
 * struct bench_event - one request
 * @op:   BENCH_ALLOC or BENCH_FREE
 * @id:   dense block number, below the workload's @nr_ids
 * @size: bytes (BENCH_FREE repeats the allocation's size)
 */
struct bench_event {
	uint32_t op;
	uint32_t id;
	uint32_t size;
};

/**
 * struct bench_workload - a named sequence of requests
 * @name:      short name for tables and file names
 * @descr:     how it was made
 * @ev:        the events
 * @nr:        how many
 * @cap:       room for
 * @nr_ids:    ids run from 0 to @nr_ids - 1
 * @dropped:   trace frees of unknown blocks that were dropped
 * @reused:    trace allocations that reused a live id
 */
struct bench_workload {
	char name[64];
	char descr[160];
	struct bench_event *ev;
	size_t nr;
	size_t cap;
	uint32_t nr_ids;
	size_t dropped;
	size_t reused;
};

/**
 * struct bench_gen_params - what every generator takes
 * @seed:        the PRNG seed (never 0; 0 is replaced by 1)
 * @ops:         roughly how many events to make
 * @target_live: the live bytes the generator steers towards
 * @max_size:    no request is larger (the growing chunk size)
 */
struct bench_gen_params {
	uint64_t seed;
	size_t ops;
	size_t target_live;
	size_t max_size;
};

/** struct bench_generator - a named generator */
struct bench_generator {
	const char *name;
	const char *descr;
	void (*make)(struct bench_workload *w, const struct bench_gen_params *p);
};

/** bench_generators() - every generator; @n is set to how many */
const struct bench_generator *bench_generators(size_t *n);

/** bench_generator_find() - the generator called @name, or NULL */
const struct bench_generator *bench_generator_find(const char *name);

/**
 * bench_workload_generate() - run a generator into a fresh workload
 * @w:   the workload (its previous content is not freed)
 * @g:   the generator
 * @p:   its parameters
 */
void bench_workload_generate(struct bench_workload *w,
			     const struct bench_generator *g,
			     const struct bench_gen_params *p);

/**
 * bench_workload_read() - read a trace file
 * @w:      the workload to fill (initialised here; its name is the file's
 *          base name up to the first dot)
 * @path:   a trace, gzip-compressed if it ends in ".gz"
 * @err:    filled on failure with "PATH:LINE: what is wrong: \"the line\""
 *          (or "PATH: why" when the file cannot be read)
 * @errlen: room in @err
 *
 * Return: 0, or -1 (the file cannot be read or a line is malformed; @w then
 * holds nothing to release).
 */
int bench_workload_read(struct bench_workload *w, const char *path,
			char *err, size_t errlen);

/** bench_workload_name_from_path() - "dir/cc1.trace.gz" -> "cc1", in @name */
void bench_workload_name_from_path(char *name, size_t n, const char *path);

/**
 * bench_workload_write() - write a workload in the trace format
 * @w:    the workload
 * @path: where to ("-" for stdout)
 *
 * Return: 0, or -1.
 */
int bench_workload_write(const struct bench_workload *w, const char *path);

/** bench_workload_push() - append an event (aborts if out of memory) */
void bench_workload_push(struct bench_workload *w, enum bench_op op,
			 uint32_t id, uint32_t size);

/** bench_workload_release() - free the events */
void bench_workload_release(struct bench_workload *w);

/** bench_rng_next() - the PRNG (xorshift64*) every generator uses */
uint64_t bench_rng_next(uint64_t *state);

/*
 * A uniform draw in [0, @n), @n <= 2^32: the top half of a PRNG word scaled
 * by @n (Lemire's multiply-shift), where "% n" would be a 64-bit division
 * (20 to 40 cycles each, three a pair) billed to every engine's time.
 * Inline: genalloc-speed's loop makes three draws a pair.  The
 * workload generators keep their "%" draws (generators.c), so that the
 * streams genalloc-compare and the traces replay stay the same.
 */
static inline size_t bench_rng_below(uint64_t *rng, size_t n)
{
	return (size_t)(((bench_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

/* Log-uniform in [@lo, @hi]: a uniform exponent, then a uniform mantissa
 * (genalloc-speed's and genalloc-order-cost's request sizes). */
static inline size_t bench_draw_log_uniform(uint64_t *rng, size_t lo, size_t hi)
{
	size_t v;
	/* The fewest doublings of lo that reach hi, from the bit lengths: a
	 * loop of up to a dozen steps a pair weighed on every figure. */
	unsigned int span = hi > lo ? (unsigned int)(__builtin_clzl(lo) - __builtin_clzl(hi)) : 0;

	span += (lo << span) < hi;
	v = lo << bench_rng_below(rng, span + 1);
	v += bench_rng_below(rng, v);
	return v < lo ? lo : v > hi ? hi : v;
}

#endif /* GENALLOC_BENCH_WORKLOAD_H */
