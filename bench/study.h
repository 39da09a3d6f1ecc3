/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/study.h - a comparison: every chosen workload through every chosen
 * engine under each chosen regime, and what came out.
 */
#ifndef GENALLOC_BENCH_STUDY_H
#define GENALLOC_BENCH_STUDY_H

#include <stdio.h>

#include "engine.h"
#include "metrics.h"
#include "workload.h"

/** struct bench_cell - one engine on one workload under one regime */
struct bench_cell {
	struct bench_metrics m;
	struct bench_pool_config cfg;
	int ok;			/* the pool could be created */
};

/**
 * struct bench_study - the whole comparison
 * @nw, @w:       the workloads
 * @ne, @e:       the engines; @e[0] is the reference for every ratio when
 *                it is the buddy
 * @run:          which regimes ran (indexed by enum bench_regime)
 * @cell:         per regime, @nw * @ne cells, workload-major
 * @refused:      traces that could not be read (reported, left out)
 */
struct bench_study {
	size_t nw, ne;
	size_t refused;
	struct bench_workload *w;
	const struct bench_engine **e;
	int run[2];
	struct bench_cell *cell[2];
};

/** bench_cell_at() - the cell of workload @wi, engine @ei under @r */
static inline struct bench_cell *bench_cell_at(const struct bench_study *s,
					       enum bench_regime r,
					       size_t wi, size_t ei)
{
	return &s->cell[r][wi * s->ne + ei];
}

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
