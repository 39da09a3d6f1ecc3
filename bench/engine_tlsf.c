// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engine_tlsf.c - the two TLSF yardsticks as bench engines, each
 * behind one mutex (as the modern engine's indexed mode) so that threads
 * may share it: tlsf8 (bench/tlsf.c, out of band) on one fixed range of
 * fake addresses in 8-byte granules, and tlsfi8 (bench/tlsf_inband.c, TLSF
 * as published) on real memory, which it writes its headers into.  Only
 * genalloc-speed lists them; they are not engines of the library.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "tlsf.h"
#include "tlsf_inband.h"

/* @e->arg says which: 0 tlsf8 (@t), 1 tlsfi8 (@it). */
struct locked_tlsf {
	pthread_mutex_t lock;
	struct tlsf *t;
	struct itlsf *it;
};

static struct bench_pool *tlsf_pool_create(const struct bench_engine *e,
					   const struct bench_pool_config *cfg)
{
	struct locked_tlsf *lt;
	struct bench_pool *p;

	if (cfg->regime != BENCH_FIXED)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->engine = e;
	p->cfg = *cfg;
	/* The in-band allocator needs memory to write in, whatever @cfg says. */
	if (bench_chunks_init(&p->chunks, cfg->chunk_size, cfg->capacity,
			      e->arg ? 0 : cfg->fake))
		goto fail;
	p->chunks.obtained = cfg->capacity;
	lt = calloc(1, sizeof(*lt));
	if (lt) {
		if (e->arg) {
			/* Memory a program hands to TLSF is memory it has: fault
			 * it in now, not in the timed pairs that first split it. */
			memset((void *)p->chunks.base, 0, cfg->capacity);
			lt->it = itlsf_create((void *)p->chunks.base, cfg->capacity);
		} else {
			lt->t = tlsf_create(cfg->capacity, e->arg2, 1024);
		}
		if ((lt->t || lt->it) && !pthread_mutex_init(&lt->lock, NULL)) {
			p->impl = lt;
			return p;
		}
		tlsf_destroy(lt->t);
		itlsf_destroy(lt->it);
		free(lt);
	}
	bench_chunks_release(&p->chunks);
fail:
	free(p);
	return NULL;
}

static unsigned long tlsf_pool_alloc(struct bench_pool *p, size_t size)
{
	struct locked_tlsf *lt = p->impl;
	unsigned long addr;

	pthread_mutex_lock(&lt->lock);
	if (lt->it) {
		addr = (unsigned long)itlsf_alloc(lt->it, size);
	} else {
		long off = tlsf_alloc(lt->t, size);

		addr = off < 0 ? 0 : p->chunks.base + (unsigned long)off;
	}
	pthread_mutex_unlock(&lt->lock);
	return addr;
}

static void tlsf_pool_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	struct locked_tlsf *lt = p->impl;
	int err;

	(void)size;
	pthread_mutex_lock(&lt->lock);
	if (lt->it)
		err = itlsf_free(lt->it, (void *)addr);
	else
		err = tlsf_free(lt->t, addr - p->chunks.base);
	pthread_mutex_unlock(&lt->lock);
	/* The bench frees only what it was given: a refusal is a bug here. */
	if (err)
		abort();
}

static size_t tlsf_pool_granted(const struct bench_pool *p, size_t size)
{
	size_t g = (size_t)1 << p->engine->arg2;

	/* For tlsfi8 too, though its blocks take a header more: counted the
	 * same, the fill stops at the same block, and both yardsticks face
	 * ff8's stream of requests and frees, the header TLSF's overhead. */
	return size ? (size + g - 1) & ~(g - 1) : g;
}

static void tlsf_pool_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct locked_tlsf *lt = p->impl;

	pthread_mutex_lock(&lt->lock);
	st->obtained = p->chunks.obtained;
	if (lt->it) {
		st->free_bytes = itlsf_free_bytes(lt->it);
		st->largest_free = itlsf_largest_free(lt->it);
		st->metadata = itlsf_control_bytes(lt->it) + sizeof(*lt);
	} else {
		st->free_bytes = tlsf_free_bytes(lt->t);
		st->largest_free = tlsf_largest_free(lt->t);
		st->metadata = tlsf_bytes(lt->t) + sizeof(*lt);
	}
	pthread_mutex_unlock(&lt->lock);
}

static void tlsf_pool_destroy(struct bench_pool *p)
{
	struct locked_tlsf *lt = p->impl;

	pthread_mutex_destroy(&lt->lock);
	tlsf_destroy(lt->t);
	itlsf_destroy(lt->it);
	free(lt);
	bench_chunks_release(&p->chunks);
	free(p);
}

const struct bench_engine bench_engines_tlsf[] = {
	{ "tlsf8", "tlsf", "TLSF-style good fit (bench/tlsf.c, out-of-band), 8-byte granule",
	  tlsf_pool_create, tlsf_pool_alloc, tlsf_pool_free, tlsf_pool_granted,
	  tlsf_pool_stats, tlsf_pool_destroy, NULL, 0, 3, NULL, NULL },
	{ "tlsfi8", "tlsf", "TLSF as published, headers in the pool's memory (bench/tlsf_inband.c), 8-byte granule",
	  tlsf_pool_create, tlsf_pool_alloc, tlsf_pool_free, tlsf_pool_granted,
	  tlsf_pool_stats, tlsf_pool_destroy, NULL, 1, 3, NULL, NULL },
};
const size_t bench_nr_engines_tlsf = sizeof(bench_engines_tlsf) / sizeof(bench_engines_tlsf[0]);
