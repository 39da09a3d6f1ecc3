// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/report_verdict.c - the answer first: a few sentences computed from
 * the run, and the geometric means behind them.
 *
 * Every ratio is an engine's figure over the buddy's on the same workload,
 * averaged geometrically over the workloads (so that one workload twice as
 * large weighs no more than one twice as small).  Memory is the arena's high
 * water when that regime ran, else the growing footprint.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "study.h"

double bench_cell_value(const struct bench_cell *c, enum bench_value v)
{
	const struct bench_metrics *m = &c->m;

	if (!c->ok)
		return 0.0;
	switch (v) {
	case BENCH_V_MEMORY:
		return (double)(c->cfg.regime == BENCH_ARENA ? m->high_water : m->peak_obtained);
	case BENCH_V_OCCUPANCY:
		return bench_occupancy(m);
	case BENCH_V_NS:
		return c->ok_ns.median;
	case BENCH_V_FRAG4:
		return bench_frag4(m);
	}
	return 0.0;
}

double bench_geo_ratio(const struct bench_study *s, enum bench_regime r, size_t ei,
		       size_t ref, enum bench_value v)
{
	double lg = 0.0;
	size_t wi, n = 0;

	if (!s->run[r])
		return 0.0;
	for (wi = 0; wi < s->nw; wi++) {
		double a = bench_cell_value(bench_cell_at(s, r, wi, ei), v);
		double b = bench_cell_value(bench_cell_at(s, r, wi, ref), v);

		if (a > 0 && b > 0) {
			lg += log(a / b);
			n++;
		}
	}
	return n ? exp(lg / (double)n) : 0.0;
}

/* The mean over workloads of an arena measure, in percent. */
static double mean_frag4(const struct bench_study *s, size_t ei)
{
	double sum = 0.0;
	size_t wi;

	for (wi = 0; wi < s->nw; wi++)
		sum += bench_frag4(&bench_cell_at(s, BENCH_ARENA, wi, ei)->m);
	return s->nw ? 100 * sum / (double)s->nw : 0.0;
}

static ptrdiff_t find(const struct bench_study *s, const char *name)
{
	size_t ei;

	for (ei = 0; ei < s->ne; ei++)
		if (!strcmp(s->e[ei]->name, name))
			return (ptrdiff_t)ei;
	return -1;
}

ptrdiff_t bench_best_of(const struct bench_study *s, enum bench_regime r, size_t ref,
		       const char *family)
{
	ptrdiff_t best = -1;
	double bv = 0.0;
	size_t ei;

	for (ei = 0; ei < s->ne; ei++) {
		double v = bench_geo_ratio(s, r, ei, ref, BENCH_V_MEMORY);

		if (strcmp(bench_engine_family(s->e[ei]), family) || v <= 0)
			continue;
		if (best < 0 || v < bv) {
			best = (ptrdiff_t)ei;
			bv = v;
		}
	}
	return best;
}

/* "16% less" / "5% more" / "as much"; the ratio is @v. */
static const char *less_more(char *buf, size_t n, double v)
{
	if (fabs(v - 1.0) < 0.005)
		snprintf(buf, n, "as much");
	else
		snprintf(buf, n, "%.0f%% %s", 100 * fabs(1.0 - v), v < 1.0 ? "less" : "more");
	return buf;
}

#define PUT(...) (len += (size_t)snprintf(buf + len, len < n ? n - len : 0, __VA_ARGS__))

/* One sentence on engine @ei against the buddy @b. */
static size_t one_engine(const struct bench_study *s, size_t ei, size_t b,
			 enum bench_regime mem, char *buf, size_t n)
{
	size_t len = 0;
	char w[32];
	double mr = bench_geo_ratio(s, mem, ei, b, BENCH_V_MEMORY);
	double occ = bench_geo_ratio(s, BENCH_FIXED, ei, b, BENCH_V_OCCUPANCY);
	double ns = bench_geo_ratio(s, mem, ei, b, BENCH_V_NS);

	PUT("%c%s needed %s memory than buddy 2005", toupper(*bench_engine_label(s->e[ei])),
	    bench_engine_label(s->e[ei]) + 1, less_more(w, sizeof(w), mr));
	if (mem == BENCH_ARENA)
		PUT(" (arena measure #4, mean over workloads: %.0f%% against %.0f%%)",
		    mean_frag4(s, ei), mean_frag4(s, b));
	else
		PUT(" (growing footprint)");
	if (occ > 0)
		PUT("; a fixed pool filled %.0f%% %s before its first refusal",
		    100 * fabs(occ - 1.0), occ >= 1.0 ? "further" : "less far");
	if (ns > 0)
		PUT("; it took %.2fx the buddy's time per call on this machine", ns);
	PUT(".");
	return len;
}

size_t bench_verdict(const struct bench_study *s, char *buf, size_t n)
{
	enum bench_regime mem = s->run[BENCH_ARENA] ? BENCH_ARENA : BENCH_GROWING;
	ptrdiff_t b = find(s, "buddy"), c = find(s, "compat"), ff, bf;
	size_t len = 0;
	char w[32];

	if (n)
		buf[0] = 0;
	if (b < 0 || (!s->run[BENCH_ARENA] && !s->run[BENCH_GROWING])) {
		PUT("No verdict: it needs buddy 2005 among the engines and the arena or growing "
		    "regime.");
		return len;
	}
	ff = bench_best_of(s, mem, (size_t)b, "first fit");
	bf = bench_best_of(s, mem, (size_t)b, "best fit");
	PUT("Over %zu workload%s, averaged geometrically. ", s->nw, s->nw > 1 ? "s" : "");
	if (ff >= 0)
		len += one_engine(s, (size_t)ff, (size_t)b, mem, buf + len, len < n ? n - len : 0);
	if (bf >= 0) {
		PUT(" ");
		len += one_engine(s, (size_t)bf, (size_t)b, mem, buf + len, len < n ? n - len : 0);
	}
	if (c >= 0) {
		double mr = bench_geo_ratio(s, mem, (size_t)c, (size_t)b, BENCH_V_MEMORY);

		PUT(" The 2005 API on the bitmap engine (power-of-two sizes kept) ");
		if (fabs(mr - 1.0) < 0.03)
			PUT("saved nothing (%.2fx the buddy's memory): the 2005 rounding, not the "
			    "buddy, is what costs.", mr);
		else
			PUT("needed %s memory than the buddy (%.2fx).", less_more(w, sizeof(w), mr), mr);
	}
	if (s->refused)
		PUT(" %zu trace%s could not be read and %s left out.", s->refused,
		    s->refused > 1 ? "s" : "", s->refused > 1 ? "are" : "is");
	return len;
}
