// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/report_table.c - what genalloc-compare prints: the verdict, then a
 * table per regime with what shaped it and a legend of every column, then
 * the geometric means.
 *
 * Every ratio is against engine 0 (the buddy in the default set).  The
 * workload column is as wide as the longest name, so a long trace name
 * shifts the columns of every row alike.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study.h"

#define ENGINE_W 26

static const struct bench_legend_item legend_arena[] = {
	{ "peak live", "the most bytes requested and not yet freed at once (bytes)" },
	{ "high water", "the highest byte the engine ever handed out, from the region's "
			"start (bytes; lower is better)" },
	{ "#4", "measure #4: (high water - peak live) / peak live (%; lower is better)" },
	{ "#3", "measure #3: (high water - live) / live, live when the mark was last "
		"raised (%; lower is better) = internal + external" },
	{ "internal", "of #3: bytes granted beyond those requested (rounding) (%)" },
	{ "external", "of #3: the rest, memory below the mark no block held (%)" },
	{ "mem/ref", "high water over the first engine's (lower is better)" },
	{ "ns/call", "median ns per successful alloc or free over the timed replays, "
		     "this machine, [least-most] (lower is better)" },
};

static const struct bench_legend_item legend_growing[] = {
	{ "peak live", "the most bytes requested and not yet freed at once (bytes)" },
	{ "footprint", "the most bytes the engine obtained, in whole chunks (bytes; "
		       "lower is better)" },
	{ "frag", "(footprint - peak live) / peak live (%; lower is better)" },
	{ "internal", "bytes granted beyond those requested at peak live, / peak live (%)" },
	{ "ext mean", "1 - largest free extent / free bytes, mean over the run (%): the "
		      "shape of the free memory, not its amount" },
	{ "metadata", "the most bookkeeping bytes outside the managed memory" },
	{ "foot/ref", "footprint over the first engine's (lower is better)" },
	{ "ns/call", "median ns per successful alloc or free, this machine, [least-most] "
		     "(lower is better)" },
};

static const struct bench_legend_item legend_fixed[] = {
	{ "capacity", "the pool's bytes, the same for every engine" },
	{ "occupancy", "live bytes requested at the first refused request / capacity (%; "
		       "higher is better; * = nothing refused: peak live / capacity)" },
	{ "refused", "allocations refused over the run (lower is better)" },
	{ "ext mean", "1 - largest free extent / free bytes, mean over the run (%)" },
	{ "occ/ref", "occupancy over the first engine's (higher is better)" },
	{ "ns/call", "median ns per successful alloc or free, this machine (lower is better)" },
	{ "ns/refusal", "median ns per refused allocation, timed apart (lower is better)" },
};

const struct bench_legend_item *bench_legend(enum bench_regime r, size_t *n)
{
	switch (r) {
	case BENCH_ARENA:
		*n = sizeof(legend_arena) / sizeof(legend_arena[0]);
		return legend_arena;
	case BENCH_GROWING:
		*n = sizeof(legend_growing) / sizeof(legend_growing[0]);
		return legend_growing;
	default:
		*n = sizeof(legend_fixed) / sizeof(legend_fixed[0]);
		return legend_fixed;
	}
}

const char *const bench_disagree_note =
	"Why mean external fragmentation and footprint can seem to disagree: "
	"external fragmentation is the shape of the free memory (how much of it one "
	"large request could use), not its amount.  A bitmap pool that keeps a few "
	"small holes scattered among its blocks scores high while holding less memory "
	"in all than the buddy, whose free memory is fewer, larger power-of-two blocks.  "
	"In the growing regime it also cannot see past one chunk.  For memory needed, "
	"read the footprint and measure #4.";

/* A byte count in at most 7 characters: 512, 12.3K, 4.00M, 1.00G. */
static const char *human(char *buf, size_t n, double v)
{
	static const char unit[] = "BKMGT";
	int u = 0;

	while (v >= 1024.0 && u < 4) {
		v /= 1024.0;
		u++;
	}
	if (!u)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.*f%c", v < 10 ? 2 : v < 100 ? 1 : 0, v, unit[u]);
	return buf;
}

static const char *ratio(char *buf, size_t n, double a, double b)
{
	if (b <= 0.0 || !isfinite(a / b))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.2f", a / b);
	return buf;
}

/* "97 [90-130]", or "-" when nothing was timed. */
static const char *ns(char *buf, size_t n, const struct bench_spread *sp)
{
	if (!sp->runs)
		snprintf(buf, n, "-");
	else if (sp->runs == 1)
		snprintf(buf, n, "%.0f", sp->median);
	else
		snprintf(buf, n, "%.0f [%.0f-%.0f]", sp->median, sp->lo, sp->hi);
	return buf;
}

static int name_width(const struct bench_study *s)
{
	size_t wi, w = 8;

	for (wi = 0; wi < s->nw; wi++)
		if (strlen(s->w[wi].name) > w)
			w = strlen(s->w[wi].name);
	return (int)w;
}

static void row_head(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	fprintf(f, "%-*s  %-*s", name_width(s), ei ? "" : s->w[wi].name, ENGINE_W,
		bench_engine_label(s->e[ei]));
}

static void arena_row(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	const struct bench_cell *c = bench_cell_at(s, BENCH_ARENA, wi, ei);
	const struct bench_cell *ref = bench_cell_at(s, BENCH_ARENA, wi, 0);
	const struct bench_metrics *m = &c->m;
	char a[16], b[16], r1[16], t[48];

	fprintf(f, " %9s %10s %6.1f%% %6.1f%% %8.1f%% %8.1f%% %7s  %s\n",
		human(a, sizeof(a), (double)m->peak_live),
		human(b, sizeof(b), (double)m->high_water),
		100 * bench_frag4(m), 100 * bench_frag3(m), 100 * bench_frag3_internal(m),
		100 * bench_frag3_external(m),
		ratio(r1, sizeof(r1), (double)m->high_water, (double)ref->m.high_water),
		ns(t, sizeof(t), &c->ok_ns));
}

static void growing_row(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	const struct bench_cell *c = bench_cell_at(s, BENCH_GROWING, wi, ei);
	const struct bench_cell *ref = bench_cell_at(s, BENCH_GROWING, wi, 0);
	const struct bench_metrics *m = &c->m;
	char a[16], b[16], d[16], r1[16], t[48];

	fprintf(f, " %9s %9s %6.1f%% %8.1f%% %8.1f%% %8s %8s  %s\n",
		human(a, sizeof(a), (double)m->peak_live),
		human(b, sizeof(b), (double)m->peak_obtained),
		100 * bench_fragmentation(m), 100 * bench_internal_frag(m),
		100 * bench_ext_frag_mean(m), human(d, sizeof(d), (double)m->metadata),
		ratio(r1, sizeof(r1), (double)m->peak_obtained, (double)ref->m.peak_obtained),
		ns(t, sizeof(t), &c->ok_ns));
}

static void fixed_row(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	const struct bench_cell *c = bench_cell_at(s, BENCH_FIXED, wi, ei);
	const struct bench_cell *ref = bench_cell_at(s, BENCH_FIXED, wi, 0);
	const struct bench_metrics *m = &c->m;
	char a[16], r1[16], t[48], t2[48];

	fprintf(f, " %9s %8.1f%%%c %8zu %8.1f%% %7s  %-18s %s\n",
		human(a, sizeof(a), (double)m->capacity), 100 * bench_occupancy(m),
		m->failed_once ? ' ' : '*', m->failed, 100 * bench_ext_frag_mean(m),
		ratio(r1, sizeof(r1), bench_occupancy(m), bench_occupancy(&ref->m)),
		ns(t, sizeof(t), &c->ok_ns), ns(t2, sizeof(t2), &c->fail_ns));
}

/* Oversized requests are dropped for every engine alike: say how many. */
static void skipped_note(FILE *f, const struct bench_study *s, enum bench_regime r,
			 size_t wi)
{
	const struct bench_cell *c = bench_cell_at(s, r, wi, 0);
	char a[16];

	if (c->m.skipped)
		fprintf(f, "%-*s  (requests above %s skipped for every engine: %s)\n",
			name_width(s), "", human(a, sizeof(a), (double)c->cfg.chunk_size),
			bench_skipped_share(s, r, wi));
}

const char *bench_skipped_share(const struct bench_study *s, enum bench_regime r, size_t wi)
{
	static _Thread_local char buf[96];
	const struct bench_metrics *m = &bench_cell_at(s, r, wi, 0)->m;
	const struct bench_workload *w = &s->w[wi];
	size_t k, reqs = 0, bytes = 0;

	for (k = 0; k < w->nr; k++) {
		if (w->ev[k].op == BENCH_ALLOC) {
			reqs++;
			bytes += w->ev[k].size;
		}
	}
	snprintf(buf, sizeof(buf), "%zu of %zu requests, %.2f%% of the bytes", m->skipped, reqs,
		 bytes ? 100.0 * (double)m->skipped_bytes / (double)bytes : 0.0);
	return buf;
}

static void legend(FILE *f, enum bench_regime r)
{
	size_t k, n;
	const struct bench_legend_item *l = bench_legend(r, &n);

	for (k = 0; k < n; k++)
		fprintf(f, "  %-11s %s\n", l[k].column, l[k].meaning);
}

static void header(FILE *f, const struct bench_study *s, const char *cols)
{
	fprintf(f, "%-*s  %-*s%s\n", name_width(s), "workload", ENGINE_W, "engine", cols);
}

static void table(FILE *f, const struct bench_study *s, enum bench_regime r,
		  void (*row)(FILE *, const struct bench_study *, size_t, size_t))
{
	size_t wi, ei;

	for (wi = 0; wi < s->nw; wi++) {
		for (ei = 0; ei < s->ne; ei++) {
			row_head(f, s, wi, ei);
			if (bench_cell_at(s, r, wi, ei)->ok)
				row(f, s, wi, ei);
			else
				fprintf(f, "  (pool could not be created)\n");
		}
		skipped_note(f, s, r, wi);
	}
	for (wi = 0, ei = 0; wi < s->nw; wi++)
		ei += bench_cell_at(s, r, wi, 0)->m.skipped;
	if (!ei)
		fprintf(f, "(no request was larger than a chunk: none skipped)\n");
	fprintf(f, "Columns (ratios against %s):\n", bench_engine_label(s->e[0]));
	legend(f, r);
}

/* Geometric means over workloads of each engine's ratios to engine 0. */
static void summary(FILE *f, const struct bench_study *s)
{
	static const struct {
		enum bench_regime r;
		enum bench_value v;
		const char *head;
	} col[] = {
		{ BENCH_ARENA, BENCH_V_MEMORY, "arena memory" },
		{ BENCH_GROWING, BENCH_V_MEMORY, "growing memory" },
		{ BENCH_FIXED, BENCH_V_OCCUPANCY, "fixed occupancy" },
		{ BENCH_ARENA, BENCH_V_NS, "ns/call" },
	};
	size_t ei, k;

	fprintf(f, "\nSUMMARY: geometric mean over the workloads of each figure over %s's\n"
		   "(memory: lower is better; occupancy: higher is better; ns/call: lower is "
		   "better, arena regime, this machine)\n", bench_engine_label(s->e[0]));
	fprintf(f, "%-*s", ENGINE_W, "engine");
	for (k = 0; k < sizeof(col) / sizeof(col[0]); k++)
		fprintf(f, " %15s", col[k].head);
	fprintf(f, "\n");
	for (ei = 0; ei < s->ne; ei++) {
		fprintf(f, "%-*s", ENGINE_W, bench_engine_label(s->e[ei]));
		for (k = 0; k < sizeof(col) / sizeof(col[0]); k++) {
			double v = bench_geo_ratio(s, col[k].r, ei, 0, col[k].v);

			if (v > 0)
				fprintf(f, " %15.3f", v);
			else
				fprintf(f, " %15s", "-");
		}
		fprintf(f, "\n");
	}
}

/* Fold @text at 78 columns. */
static void paragraph(FILE *f, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + n > 78) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, n, f);
		col += n;
		text += n;
		while (*text == ' ')
			text++;
	}
	fputc('\n', f);
}

void bench_report_table(FILE *f, const struct bench_study *s)
{
	char verdict[2048];
	const struct bench_cell *c0;

	bench_verdict(s, verdict, sizeof(verdict));
	fprintf(f, "VERDICT\n");
	paragraph(f, verdict);
	fprintf(f, "\nTimes are this machine's: ns per call, the median of up to %zu runs per "
		   "cell (fewer\non long workloads) with [least-most], %zu cell%s replayed at "
		   "once.\n", s->repeat, s->jobs, s->jobs > 1 ? "s" : "");
	if (s->run[BENCH_ARENA]) {
		c0 = bench_cell_at(s, BENCH_ARENA, 0, 0);
		fprintf(f, "\nARENA, the allocator literature's setting: each engine manages one region "
			   "that never fills;\nthe 2005 engines get it as %zu KiB chunks laid out from "
			   "one base and handed out in\norder by get_new_chunk, the bitmap engines as "
			   "one range.\n", c0->cfg.chunk_size >> 10);
		header(f, s, " peak live high water     #4     #3  internal  external mem/ref  ns/call");
		table(f, s, BENCH_ARENA, arena_row);
	}
	if (s->run[BENCH_GROWING]) {
		c0 = bench_cell_at(s, BENCH_GROWING, 0, 0);
		fprintf(f, "\nGROWING: each engine obtains %zu KiB chunks on demand (2005 API: "
			   "get_new_chunk;\nbitmap: gen_pool_add), and searches them newest first, "
			   "as the kernel's list does.\n", c0->cfg.chunk_size >> 10);
		header(f, s, " peak live footprint   frag  internal ext mean metadata foot/ref  ns/call");
		table(f, s, BENCH_GROWING, growing_row);
	}
	if (s->run[BENCH_FIXED]) {
		fprintf(f, "\nFIXED: one pool per engine, the largest power of two at or below the "
			   "peak live of the\nrequests it can take (at least 64 KiB), so that every "
			   "workload overflows it.\n");
		header(f, s, "  capacity occupancy  refused ext mean occ/ref  ns/call            ns/refusal");
		table(f, s, BENCH_FIXED, fixed_row);
	}
	fprintf(f, "\n");
	paragraph(f, bench_disagree_note);
	summary(f, s);
}
