// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/test_metrics.c - the comparison's figures against a case
 * worked by hand.
 *
 * The suite links the bench's own objects (test/bench/build.mk), so what is
 * checked here is exactly what genalloc-compare prints.
 *
 * The hand-worked case, chunks of 256 bytes obtained on demand:
 *
 *   event      buddy (2005)                     ff8 (modern, 8-byte granule)
 *   A = 136    256: chunk C1 whole   (C1)       136: C1 [0,136)
 *   B = 60     64: new chunk C2, split (C2+0)   64:  C1 [136,200)
 *   C = 56     64: C2+64                        56:  C1 [200,256)
 *   D = 136    256: new chunk C3     (C3)       136: new chunk C2 [0,136)
 *   free B     C2+0 back (buddy C2+64 is live)  C1 [136,200) free
 *   E = 40     64: C2+0 again                   40: newest chunk first: C2+136
 *
 *   live requested: 136 196 252 388 328 368 -> peak live 388 (after D)
 *   buddy: footprint 768, fragmentation (768-388)/388 = 380/388,
 *          granted at peak 256+64+64+256 = 640, internal 252/388,
 *          at the end free = one 128 block: external 0
 *   ff8:   footprint 512, fragmentation (512-388)/388 = 124/388,
 *          granted at peak 136+64+56+136 = 392, internal 4/388,
 *          at the end free = C1 64 + C2 80: external 1 - 80/144 = 64/144
 *
 * Fixed regime, capacity 512: the buddy holds C1 and C2, so D fails with
 * 252 bytes live (occupancy 252/512, its peak too); ff8 has one 512-byte
 * range and never fails (peak 388/512).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../support.h"
#include "bench/engine.h"
#include "bench/metrics.h"
#include "bench/replay.h"
#include "bench/workload.h"

#define EPS 1e-9

static void hand_case(struct bench_workload *w)
{
	static const struct { int op, id, size; } seq[] = {
		{ BENCH_ALLOC, 0, 136 }, { BENCH_ALLOC, 1, 60 }, { BENCH_ALLOC, 2, 56 },
		{ BENCH_ALLOC, 3, 136 }, { BENCH_FREE, 1, 60 }, { BENCH_ALLOC, 4, 40 },
	};
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		bench_workload_push(w, (enum bench_op)seq[i].op, (uint32_t)seq[i].id,
				    (uint32_t)seq[i].size);
	w->nr_ids = 5;
}

static const struct bench_pool_config growing = {
	.regime = BENCH_GROWING, .chunk_size = 256, .capacity = 4096, .fake = 1,
};
static const struct bench_pool_config fixed = {
	.regime = BENCH_FIXED, .chunk_size = 256, .capacity = 512, .fake = 1,
};

static const struct bench_engine *need(const char *name)
{
	const struct bench_engine *e = bench_engine_find(name);

	ck_assert_msg(e != NULL, "engine %s is not compiled into the bench", name);
	return e;
}

static void run(const char *engine, const struct bench_pool_config *cfg,
		struct bench_metrics *m)
{
	struct bench_workload w;

	hand_case(&w);
	/* A snapshot after every event, so peaks are exact. */
	ck_assert_int_eq(bench_replay(need(engine), cfg, &w, w.nr, m), 0);
	bench_workload_release(&w);
}

START_TEST(accumulator_by_hand)
{
	struct bench_metrics m;
	struct bench_stats st = { .obtained = 256, .free_bytes = 192, .largest_free = 128 };

	bench_metrics_init(&m, 0);
	bench_metrics_alloc(&m, 100, 128);
	bench_metrics_alloc(&m, 40, 64);
	bench_metrics_free(&m, 100, 128);
	bench_metrics_sample(&m, 3, &st);
	ck_assert_uint_eq(m.peak_live, 140);
	ck_assert_uint_eq(m.granted_at_peak, 192);
	ck_assert_uint_eq(m.live, 40);
	ck_assert_uint_eq(m.peak_obtained, 256);
	ck_assert_double_eq_tol(bench_fragmentation(&m), 116.0 / 140, EPS);
	ck_assert_double_eq_tol(bench_internal_frag(&m), 52.0 / 140, EPS);
	ck_assert_double_eq_tol(bench_ext_frag(&st), 1.0 / 3, EPS);
	ck_assert_double_eq_tol(bench_ext_frag_mean(&m), 1.0 / 3, EPS);
	ck_assert_uint_eq(m.nr_series, 1);
	ck_assert_uint_eq(m.series[0].live, 40);
	bench_metrics_release(&m);
}
END_TEST

START_TEST(accumulator_edges)
{
	struct bench_metrics m;
	struct bench_stats none = { .obtained = 64 };

	bench_metrics_init(&m, 1000);
	ck_assert_double_eq(bench_fragmentation(&m), 0.0);
	ck_assert_double_eq(bench_internal_frag(&m), 0.0);
	ck_assert_double_eq(bench_ext_frag(&none), 0.0);	/* nothing free */
	ck_assert_double_eq(bench_ns_per_op(&m), 0.0);
	bench_metrics_alloc(&m, 300, 300);
	bench_metrics_fail(&m, 800);
	bench_metrics_alloc(&m, 100, 100);
	bench_metrics_fail(&m, 900);
	ck_assert_uint_eq(m.failed, 2);
	ck_assert_uint_eq(m.live_at_failure, 300);	/* the first failure */
	ck_assert_double_eq_tol(bench_occupancy(&m), 0.3, EPS);
	bench_metrics_release(&m);
}
END_TEST

START_TEST(buddy_growing_by_hand)
{
	struct bench_metrics m;

	run("buddy", &growing, &m);
	ck_assert_uint_eq(m.peak_live, 388);
	ck_assert_uint_eq(m.peak_obtained, 768);
	ck_assert_uint_eq(m.granted_at_peak, 640);
	ck_assert_double_eq_tol(bench_fragmentation(&m), 380.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_internal_frag(&m), 252.0 / 388, EPS);
	ck_assert_double_eq_tol(m.series[m.nr_series - 1].ext_frag, 0.0, EPS);
	ck_assert_uint_eq(m.failed, 0);
	bench_metrics_release(&m);
}
END_TEST

START_TEST(ff8_growing_by_hand)
{
	struct bench_metrics m;

	run("ff8", &growing, &m);
	ck_assert_uint_eq(m.peak_live, 388);
	ck_assert_uint_eq(m.peak_obtained, 512);
	ck_assert_uint_eq(m.granted_at_peak, 392);
	ck_assert_double_eq_tol(bench_fragmentation(&m), 124.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_internal_frag(&m), 4.0 / 388, EPS);
	ck_assert_double_eq_tol(m.series[m.nr_series - 1].ext_frag, 64.0 / 144, EPS);
	bench_metrics_release(&m);
}
END_TEST

/* The bitmap engine behind the 2005 API keeps the 2005 rounding: as buddy. */
START_TEST(compat_growing_by_hand)
{
	struct bench_metrics m;

	run("compat", &growing, &m);
	ck_assert_uint_eq(m.peak_live, 388);
	ck_assert_uint_eq(m.peak_obtained, 768);
	ck_assert_uint_eq(m.granted_at_peak, 640);
	bench_metrics_release(&m);
}
END_TEST

/*
 * The arena regime: the hand case, then free A, free C and F = 160.
 *
 *   buddy (256-byte chunks laid out from one base, in order): A takes C1
 *   [0,256), B and C split C2 [256,512) at 256 and 320, D takes C3 [512,768):
 *   high water 768 with 388 live, 640 granted; E reuses 256; F takes the
 *   freed C1.  #4 = #3 = 380/388, internal 252/388, external 128/388.
 *   ff8 (one range): A [0,136) B [136,200) C [200,256) D [256,392); E in B's
 *   hole [136,176); F fits no hole ([0,136), [176,256)) and goes to
 *   [392,552): high water 552 with E+D+F = 336 live, all granted exactly.
 *   #4 = (552-388)/388, #3 = 216/336, internal 0, external 216/336.
 */
static void arena_case(struct bench_workload *w)
{
	hand_case(w);
	bench_workload_push(w, BENCH_FREE, 0, 136);
	bench_workload_push(w, BENCH_FREE, 2, 56);
	bench_workload_push(w, BENCH_ALLOC, 5, 160);
	w->nr_ids = 6;
}

static const struct bench_pool_config arena = {
	.regime = BENCH_ARENA, .chunk_size = 256, .capacity = 4096, .fake = 1,
};

START_TEST(arena_by_hand)
{
	struct bench_workload w;
	struct bench_metrics b, f;

	arena_case(&w);
	ck_assert_int_eq(bench_replay(need("buddy"), &arena, &w, w.nr, &b), 0);
	ck_assert_int_eq(bench_replay(need("ff8"), &arena, &w, w.nr, &f), 0);
	bench_workload_release(&w);
	ck_assert_uint_eq(b.high_water, 768);
	ck_assert_uint_eq(b.peak_live, 388);
	ck_assert_uint_eq(b.live_at_hw, 388);
	ck_assert_uint_eq(b.granted_at_hw, 640);
	ck_assert_double_eq_tol(bench_frag4(&b), 380.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_frag3(&b), 380.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_frag3_internal(&b), 252.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_frag3_external(&b), 128.0 / 388, EPS);
	ck_assert_uint_eq(f.high_water, 552);
	ck_assert_uint_eq(f.peak_live, 388);
	ck_assert_uint_eq(f.live_at_hw, 336);
	ck_assert_uint_eq(f.granted_at_hw, 336);
	ck_assert_double_eq_tol(bench_frag4(&f), 164.0 / 388, EPS);
	ck_assert_double_eq_tol(bench_frag3(&f), 216.0 / 336, EPS);
	ck_assert_double_eq_tol(bench_frag3_internal(&f), 0.0, EPS);
	ck_assert_double_eq_tol(bench_frag3_external(&f), 216.0 / 336, EPS);
	ck_assert_uint_eq(b.failed + f.failed, 0);
	bench_metrics_release(&b);
	bench_metrics_release(&f);
}
END_TEST

START_TEST(fixed_by_hand)
{
	struct bench_metrics b, f;

	run("buddy", &fixed, &b);
	ck_assert_uint_eq(b.failed, 1);
	ck_assert_int_eq(b.failed_once, 1);
	ck_assert_uint_eq(b.live_at_failure, 252);
	ck_assert_double_eq_tol(bench_occupancy(&b), 252.0 / 512, EPS);
	ck_assert_uint_eq(b.peak_live, 252);	/* A+B+C; D never lived */
	run("ff8", &fixed, &f);
	ck_assert_uint_eq(f.failed, 0);
	ck_assert_int_eq(f.failed_once, 0);
	ck_assert_double_eq_tol(bench_occupancy(&f), 388.0 / 512, EPS);
	bench_metrics_release(&b);
	bench_metrics_release(&f);
}
END_TEST

/* The addresses behind the table above, through the engine interface. */
START_TEST(placement_by_hand)
{
	const struct bench_engine *bd = need("buddy"), *ff = need("ff8");
	struct bench_pool *p = bd->create(bd, &growing);
	unsigned long c1 = p->chunks.base, a[5];

	a[0] = bd->alloc(p, 136);
	a[1] = bd->alloc(p, 60);
	a[2] = bd->alloc(p, 56);
	a[3] = bd->alloc(p, 136);
	bd->free(p, a[1], 60);
	a[4] = bd->alloc(p, 40);
	ck_assert_uint_eq(a[0], c1);
	ck_assert_uint_eq(a[2], c1 + 256 + 64);
	ck_assert_uint_eq(a[3], c1 + 512);
	ck_assert_uint_eq(a[4], c1 + 256);
	bd->free(p, a[0], 136);
	bd->free(p, a[2], 56);
	bd->free(p, a[3], 136);
	bd->free(p, a[4], 40);
	bd->destroy(p);

	p = ff->create(ff, &growing);
	c1 = p->chunks.base;
	a[0] = ff->alloc(p, 136);
	a[1] = ff->alloc(p, 60);
	a[2] = ff->alloc(p, 56);
	a[3] = ff->alloc(p, 136);
	ff->free(p, a[1], 60);
	a[4] = ff->alloc(p, 40);
	ck_assert_uint_eq(a[0], c1);
	ck_assert_uint_eq(a[2], c1 + 200);
	ck_assert_uint_eq(a[3], c1 + 256);
	ck_assert_uint_eq(a[4], c1 + 256 + 136);
	ff->free(p, a[0], 136);
	ff->free(p, a[2], 56);
	ff->free(p, a[3], 136);
	ff->free(p, a[4], 40);
	ff->destroy(p);
}
END_TEST

/*
 * The internal fragmentation the tables print rests on each adapter's
 * granted(): check it against what every engine itself reports as in use,
 * at every snapshot of two workloads, in both regimes.
 */
START_TEST(granted_matches_engine_accounting)
{
	const struct bench_gen_params gp = {
		.seed = 5, .ops = 3000, .target_live = 48 << 10, .max_size = 4096,
	};
	const char *const gens[] = { "loguniform", "peak" };
	const struct bench_pool_config cfgs[] = {
		{ .regime = BENCH_GROWING, .chunk_size = 16384, .capacity = 1 << 20, .fake = 1 },
		{ .regime = BENCH_FIXED, .chunk_size = 32768, .capacity = 32768, .fake = 1 },
	};
	const struct bench_engine *e[BENCH_MAX_ENGINES];
	size_t ne = bench_engine_list(e, BENCH_MAX_ENGINES), gi, ci, ei, k;

	ck_assert_uint_ge(ne, 11);
	for (gi = 0; gi < 2; gi++) {
		struct bench_workload w;

		bench_workload_generate(&w, bench_generator_find(gens[gi]), &gp);
		for (ci = 0; ci < 2; ci++) {
			for (ei = 0; ei < ne; ei++) {
				struct bench_metrics m;

				ck_assert_int_eq(bench_replay(e[ei], &cfgs[ci], &w, 50, &m), 0);
				ck_assert_uint_gt(m.nr_series, 10);
				for (k = 0; k < m.nr_series; k++)
					ck_assert_msg(m.series[k].granted == m.series[k].used,
						      "%s on %s (%s): granted %zu, engine uses %zu",
						      e[ei]->name, gens[gi], ci ? "fixed" : "growing",
						      m.series[k].granted, m.series[k].used);
				/* The fixed pool is smaller than the workload's peak. */
				if (ci)
					ck_assert_uint_gt(m.failed, 0);
				bench_metrics_release(&m);
			}
		}
		bench_workload_release(&w);
	}
}
END_TEST

/* Trace text in, the same events out; unknown frees and reused ids counted. */
/* Every generator is deterministic, balanced and within its limits. */
START_TEST(generators_are_sane)
{
	const struct bench_gen_params p = {
		.seed = 42, .ops = 5000, .target_live = 64 << 10, .max_size = 16384,
	};
	size_t n, i, k;
	const struct bench_generator *g = bench_generators(&n);

	ck_assert_uint_ge(n, 8);
	for (i = 0; i < n; i++) {
		struct bench_workload a, b;
		char *live;

		bench_workload_generate(&a, &g[i], &p);
		bench_workload_generate(&b, &g[i], &p);
		ck_assert_uint_eq(a.nr, b.nr);
		ck_assert_int_eq(memcmp(a.ev, b.ev, a.nr * sizeof(*a.ev)), 0);
		ck_assert_uint_gt(a.nr, 100);
		live = calloc(a.nr_ids, 1);
		for (k = 0; k < a.nr; k++) {
			const struct bench_event *e = &a.ev[k];

			ck_assert_uint_lt(e->id, a.nr_ids);
			ck_assert_uint_le(e->size, p.max_size);
			ck_assert_uint_ge(e->size, 1);
			/* An id is allocated only when free, freed only when live. */
			ck_assert_int_eq(live[e->id], e->op == BENCH_FREE);
			live[e->id] = e->op == BENCH_ALLOC;
		}
		ck_assert_uint_ge(bench_workload_peak_live(&a), p.target_live / 2);
		free(live);
		bench_workload_release(&a);
		bench_workload_release(&b);
	}
	ck_assert_ptr_null(bench_generator_find("no-such-generator"));
}
END_TEST

Suite *bench_metrics_suite(void)
{
	Suite *s = suite_create("bench_metrics");
	TCase *tc = tcase_create("metrics");

	tcase_add_test(tc, accumulator_by_hand);
	tcase_add_test(tc, accumulator_edges);
	tcase_add_test(tc, buddy_growing_by_hand);
	tcase_add_test(tc, ff8_growing_by_hand);
	tcase_add_test(tc, compat_growing_by_hand);
	tcase_add_test(tc, fixed_by_hand);
	tcase_add_test(tc, arena_by_hand);
	tcase_add_test(tc, placement_by_hand);
	tcase_add_test(tc, granted_matches_engine_accounting);
	suite_add_tcase(s, tc);
	tc = tcase_create("workloads");
	tcase_add_test(tc, generators_are_sane);
	suite_add_tcase(s, tc);
	return s;
}
