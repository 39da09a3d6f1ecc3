// SPDX-License-Identifier: GPL-2.0
/*
 * bench/engine_tlsf.c - the TLSF-style yardstick (bench/tlsf.c) as a bench
 * engine: one fixed range of fake addresses, 8-byte granules, one mutex
 * (as the modern engine's indexed mode) so that threads may share it.  Only
 * genalloc-speed lists it; it is not one of the library's engines.
 */
#include <pthread.h>
#include <stdlib.h>

#include "engine.h"
#include "tlsf.h"

struct locked_tlsf {
	pthread_mutex_t lock;
	struct tlsf *t;
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
	if (bench_chunks_init(&p->chunks, cfg->chunk_size, cfg->capacity, cfg->fake))
		goto fail;
	p->chunks.obtained = cfg->capacity;
	lt = calloc(1, sizeof(*lt));
	if (lt) {
		lt->t = tlsf_create(cfg->capacity, e->arg2, 1024);
		if (lt->t && !pthread_mutex_init(&lt->lock, NULL)) {
			p->impl = lt;
			return p;
		}
		tlsf_destroy(lt->t);
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
	long off;

	pthread_mutex_lock(&lt->lock);
	off = tlsf_alloc(lt->t, size);
	pthread_mutex_unlock(&lt->lock);
	return off < 0 ? 0 : p->chunks.base + (unsigned long)off;
}

static void tlsf_pool_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	struct locked_tlsf *lt = p->impl;

	(void)size;
	pthread_mutex_lock(&lt->lock);
	tlsf_free(lt->t, addr - p->chunks.base);
	pthread_mutex_unlock(&lt->lock);
}

static size_t tlsf_pool_granted(const struct bench_pool *p, size_t size)
{
	size_t g = (size_t)1 << p->engine->arg2;

	return size ? (size + g - 1) & ~(g - 1) : g;
}

static void tlsf_pool_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct locked_tlsf *lt = p->impl;

	pthread_mutex_lock(&lt->lock);
	st->obtained = p->chunks.obtained;
	st->free_bytes = tlsf_free_bytes(lt->t);
	st->largest_free = tlsf_largest_free(lt->t);
	st->metadata = tlsf_bytes(lt->t) + sizeof(*lt);
	pthread_mutex_unlock(&lt->lock);
}

static void tlsf_pool_destroy(struct bench_pool *p)
{
	struct locked_tlsf *lt = p->impl;

	pthread_mutex_destroy(&lt->lock);
	tlsf_destroy(lt->t);
	free(lt);
	bench_chunks_release(&p->chunks);
	free(p);
}

const struct bench_engine bench_engines_tlsf[] = {
	{ "tlsf8", "tlsf", "TLSF-style good fit (bench/tlsf.c, out-of-band), 8-byte granule",
	  tlsf_pool_create, tlsf_pool_alloc, tlsf_pool_free, tlsf_pool_granted,
	  tlsf_pool_stats, tlsf_pool_destroy, NULL, 0, 3, NULL },
};
const size_t bench_nr_engines_tlsf = sizeof(bench_engines_tlsf) / sizeof(bench_engines_tlsf[0]);
