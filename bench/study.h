/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/study.h - a comparison: every chosen workload through every chosen
 * engine under each chosen regime, and what came out.
 */
#ifndef GENALLOC_BENCH_STUDY_H
#define GENALLOC_BENCH_STUDY_H

#include <stddef.h>
#include <stdio.h>

#include "engine.h"
#include "metrics.h"
#include "workload.h"

/** struct bench_spread - ns per call over timed replays: median and range */
struct bench_spread {
	double median, lo, hi;
	size_t runs;		/* 0: nothing timed (no such call) */
};

/**
 * struct bench_cell - one engine on one workload under one regime
 * @m:       what the first replay measured
 * @cfg:     its conditions (an arena that filled was doubled and rerun)
 * @ok:      the pool could be created
 * @ok_ns:   successful allocations and frees, over the timed replays
 * @fail_ns: refused allocations, each timed alone
 */
struct bench_cell {
	struct bench_metrics m;
	struct bench_pool_config cfg;
	int ok;
	struct bench_spread ok_ns, fail_ns;
};

/**
 * struct bench_study - the whole comparison
 * @nw, @w:       the workloads
 * @ne, @e:       the engines; @e[0] is the reference for every ratio when
 *                it is the buddy
 * @run:          which regimes ran (indexed by enum bench_regime)
 * @cell:         per regime, @nw * @ne cells, workload-major
 * @refused:      traces that could not be read (reported, left out)
 * @repeat:       timed runs asked per cell
 * @jobs:         cells replayed at once (the times' conditions)
 */
struct bench_study {
	size_t nw, ne;
	size_t refused;
	size_t repeat, jobs;
	struct bench_workload *w;
	const struct bench_engine **e;
	int run[BENCH_NR_REGIMES];
	struct bench_cell *cell[BENCH_NR_REGIMES];
};

/** bench_cell_at() - the cell of workload @wi, engine @ei under @r */
static inline struct bench_cell *bench_cell_at(const struct bench_study *s,
					       enum bench_regime r,
					       size_t wi, size_t ei)
{
	return &s->cell[r][wi * s->ne + ei];
}

/** enum bench_value - a figure the verdict and the summary average */
enum bench_value {
	BENCH_V_MEMORY,		/* arena high water, or growing footprint: bytes */
	BENCH_V_OCCUPANCY,	/* fixed: live at first refusal / capacity */
	BENCH_V_NS,		/* median ns per successful call */
	BENCH_V_FRAG4,		/* arena measure #4 */
};

/** bench_cell_value() - figure @v of cell @c (0 if it has none) */
double bench_cell_value(const struct bench_cell *c, enum bench_value v);

/**
 * bench_geo_ratio() - geometric mean over the workloads of engine @ei's
 * figure @v over engine @ref's, under regime @r; 0 if no workload has both
 */
double bench_geo_ratio(const struct bench_study *s, enum bench_regime r, size_t ei,
		       size_t ref, enum bench_value v);

/**
 * bench_best_of() - the engine of @family (bench_engine_family()) whose
 * memory under @r is least against engine @ref's, as a geometric mean over
 * the workloads; -1 if none of the family ran
 */
ptrdiff_t bench_best_of(const struct bench_study *s, enum bench_regime r, size_t ref,
		       const char *family);

/**
 * bench_verdict() - the answer in a few sentences, computed from @s, into
 * @buf (plain text, no markup)
 *
 * Return: the length it needed (as snprintf).
 */
size_t bench_verdict(const struct bench_study *s, char *buf, size_t n);

/** struct bench_legend_item - one column of a table, explained */
struct bench_legend_item {
	const char *column;
	const char *meaning;	/* with its unit and which way is better */
};

/** bench_legend() - the columns of regime @r's table; @n set to how many */
const struct bench_legend_item *bench_legend(enum bench_regime r, size_t *n);

/** bench_disagree_note - why external fragmentation and footprint may disagree */
extern const char *const bench_disagree_note;

/**
 * bench_skipped_share() - "N of M requests, P% of the bytes" skipped on
 * workload @wi under @r; valid until the next call from the same thread
 */
const char *bench_skipped_share(const struct bench_study *s, enum bench_regime r, size_t wi);

/** bench_report_table() - the aligned tables, ratios against engine 0 */
void bench_report_table(FILE *f, const struct bench_study *s);

/**
 * bench_report_files() - CSV files, gnuplot script and plots, index.html
 * @s:     the study
 * @dir:   the output directory (created)
 * @plots: run gnuplot (the script is written either way)
 *
 * Return: 0, or -1 if a file could not be written (errno set).
 */
int bench_report_files(const struct bench_study *s, const char *dir, int plots);

#endif /* GENALLOC_BENCH_STUDY_H */
