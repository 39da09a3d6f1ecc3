/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/proto/proto.h - the candidate search structures as bench engines
 * (engine_proto.c), for genalloc-proto only.
 */
#ifndef GENALLOC_BENCH_PROTO_PROTO_H
#define GENALLOC_BENCH_PROTO_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "../engine.h"

extern const struct bench_engine proto_engines[];
extern const size_t proto_nr_engines;

/* The same pool, in granules: an offset or -1; and its release. */
long proto_pool_alloc_granules(struct bench_pool *p, uint32_t nr);
void proto_pool_free_granules(struct bench_pool *p, uint32_t off, uint32_t nr);
/* How many free runs the structure holds. */
size_t proto_pool_runs(const struct bench_pool *p);
/* The structure's runs against the bitmap's free runs; 0 if they agree. */
int proto_pool_check(const struct bench_pool *p);
/* Bytes of the search structure alone (the bitmap apart): as allocated,
 * or (@live) its nodes in use. */
size_t proto_pool_search_bytes(const struct bench_pool *p, int live);

#endif /* GENALLOC_BENCH_PROTO_PROTO_H */
