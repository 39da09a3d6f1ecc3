// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/report_table.c - the side-by-side tables printed on stdout.
 *
 * Every ratio is against engine 0 (the buddy in the default set): a
 * footprint ratio below 1 means the engine needed less memory than the
 * buddy, an occupancy ratio above 1 that it filled the same pool further.
 */
#include <math.h>
#include <stdio.h>

#include "study.h"

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

static void growing_row(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	const struct bench_cell *c = bench_cell_at(s, BENCH_GROWING, wi, ei);
	const struct bench_cell *ref = bench_cell_at(s, BENCH_GROWING, wi, 0);
	const struct bench_metrics *m = &c->m;
	char a[16], b[16], d[16], r1[16], r2[16];

	if (!c->ok) {
		fprintf(f, "%-12s %-7s  (pool could not be created)\n",
			ei ? "" : s->w[wi].name, s->e[ei]->name);
		return;
	}
	fprintf(f, "%-12s %-7s %8s %8s %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6zu %8s %7.0f %7s %7s\n",
		ei ? "" : s->w[wi].name, s->e[ei]->name,
		human(a, sizeof(a), (double)m->peak_live),
		human(b, sizeof(b), (double)m->peak_obtained),
		100 * bench_fragmentation(m), 100 * bench_internal_frag(m),
		100 * bench_ext_frag_mean(m), 100 * m->ext_max, m->failed,
		human(d, sizeof(d), (double)m->metadata), bench_ns_per_op(m),
		ratio(r1, sizeof(r1), (double)m->peak_obtained, (double)ref->m.peak_obtained),
		ratio(r2, sizeof(r2), bench_ns_per_op(m), bench_ns_per_op(&ref->m)));
}

static void fixed_row(FILE *f, const struct bench_study *s, size_t wi, size_t ei)
{
	const struct bench_cell *c = bench_cell_at(s, BENCH_FIXED, wi, ei);
	const struct bench_cell *ref = bench_cell_at(s, BENCH_FIXED, wi, 0);
	const struct bench_metrics *m = &c->m;
	char a[16], d[16], r1[16], r2[16], r3[16];

	if (!c->ok) {
		fprintf(f, "%-12s %-7s  (pool could not be created)\n",
			ei ? "" : s->w[wi].name, s->e[ei]->name);
		return;
	}
	fprintf(f, "%-12s %-7s %8s %7.1f%%%c %7zu %6.1f%% %6.1f%% %8s %7.0f %7s %7s %7s\n",
		ei ? "" : s->w[wi].name, s->e[ei]->name,
		human(a, sizeof(a), (double)m->capacity), 100 * bench_occupancy(m),
		m->failed_once ? ' ' : '*', m->failed,
		100 * bench_ext_frag_mean(m), 100 * m->ext_max,
		human(d, sizeof(d), (double)m->metadata), bench_ns_per_op(m),
		ratio(r1, sizeof(r1), bench_occupancy(m), bench_occupancy(&ref->m)),
		ratio(r2, sizeof(r2), (double)m->failed, (double)ref->m.failed),
		ratio(r3, sizeof(r3), bench_ns_per_op(m), bench_ns_per_op(&ref->m)));
}

/* Oversized requests are dropped for every engine alike: say so once. */
static void skipped_note(FILE *f, const struct bench_study *s, enum bench_regime r,
			 size_t wi)
{
	const struct bench_cell *c = bench_cell_at(s, r, wi, 0);

	if (c->m.skipped)
		fprintf(f, "%-12s (%zu requests above the %zu-byte chunk skipped for every engine)\n",
			"", c->m.skipped, c->cfg.chunk_size);
}

/* Geometric means over the workloads of each engine's ratios to engine 0. */
static void summary(FILE *f, const struct bench_study *s)
{
	size_t wi, ei;

	fprintf(f, "\nSummary: geometric mean over workloads of the ratio to %s\n",
		s->e[0]->name);
	fprintf(f, "%-8s %12s %12s %12s %12s\n", "engine", "footprint", "grow ns/op",
		"occupancy", "fixed ns/op");
	for (ei = 0; ei < s->ne; ei++) {
		double lg[4] = { 0 };
		size_t n[4] = { 0 };
		int k;

		for (wi = 0; wi < s->nw; wi++) {
			double v[4] = { 0 };

			if (s->run[BENCH_GROWING]) {
				const struct bench_metrics *m =
					&bench_cell_at(s, BENCH_GROWING, wi, ei)->m;
				const struct bench_metrics *r =
					&bench_cell_at(s, BENCH_GROWING, wi, 0)->m;

				if (r->peak_obtained && m->peak_obtained)
					v[0] = (double)m->peak_obtained / (double)r->peak_obtained;
				if (bench_ns_per_op(r) > 0 && bench_ns_per_op(m) > 0)
					v[1] = bench_ns_per_op(m) / bench_ns_per_op(r);
			}
			if (s->run[BENCH_FIXED]) {
				const struct bench_metrics *m =
					&bench_cell_at(s, BENCH_FIXED, wi, ei)->m;
				const struct bench_metrics *r =
					&bench_cell_at(s, BENCH_FIXED, wi, 0)->m;

				if (bench_occupancy(r) > 0 && bench_occupancy(m) > 0)
					v[2] = bench_occupancy(m) / bench_occupancy(r);
				if (bench_ns_per_op(r) > 0 && bench_ns_per_op(m) > 0)
					v[3] = bench_ns_per_op(m) / bench_ns_per_op(r);
			}
			for (k = 0; k < 4; k++) {
				if (v[k] > 0) {
					lg[k] += log(v[k]);
					n[k]++;
				}
			}
		}
		fprintf(f, "%-8s", s->e[ei]->name);
		for (k = 0; k < 4; k++) {
			if (n[k])
				fprintf(f, " %12.3f", exp(lg[k] / (double)n[k]));
			else
				fprintf(f, " %12s", "-");
		}
		fprintf(f, "\n");
	}
}

void bench_report_table(FILE *f, const struct bench_study *s)
{
	size_t wi, ei;

	if (s->run[BENCH_GROWING]) {
		fprintf(f, "\nGROWING: each engine obtains %zu-byte chunks on demand through get_new_chunk\n",
			bench_cell_at(s, BENCH_GROWING, 0, 0)->cfg.chunk_size);
		fprintf(f, "%-12s %-7s %8s %8s %7s %7s %7s %7s %6s %8s %7s %7s %7s\n",
			"workload", "engine", "peaklive", "footprnt", "frag", "intfrag",
			"extmean", "extmax", "failed", "metadata", "ns/op",
			"foot/" , "ns/");
		fprintf(f, "%-12s %-7s %8s %8s %7s %7s %7s %7s %6s %8s %7s %7s %7s\n",
			"", "", "", "", "", "", "", "", "", "", "", s->e[0]->name, s->e[0]->name);
		for (wi = 0; wi < s->nw; wi++) {
			for (ei = 0; ei < s->ne; ei++)
				growing_row(f, s, wi, ei);
			skipped_note(f, s, BENCH_GROWING, wi);
		}
	}
	if (s->run[BENCH_FIXED]) {
		fprintf(f, "\nFIXED: one pool per engine; occupancy = live bytes at the first failed request / capacity\n"
			   "       (* = no request failed: peak live / capacity)\n");
		fprintf(f, "%-12s %-7s %8s %9s %7s %7s %7s %8s %7s %7s %7s %7s\n",
			"workload", "engine", "capacity", "occupancy", "failed", "extmean",
			"extmax", "metadata", "ns/op", "occ/", "fail/", "ns/");
		fprintf(f, "%-12s %-7s %8s %9s %7s %7s %7s %8s %7s %7s %7s %7s\n",
			"", "", "", "", "", "", "", "", "", s->e[0]->name, s->e[0]->name,
			s->e[0]->name);
		for (wi = 0; wi < s->nw; wi++) {
			for (ei = 0; ei < s->ne; ei++)
				fixed_row(f, s, wi, ei);
			skipped_note(f, s, BENCH_FIXED, wi);
		}
	}
	summary(f, s);
}
