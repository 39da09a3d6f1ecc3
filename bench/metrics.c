// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/metrics.c - the arithmetic behind every figure in the comparison.
 *
 * Kept free of engines and of I/O so the Check suite can #include it and
 * verify it against a case worked by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

void bench_metrics_init(struct bench_metrics *m, size_t capacity)
{
	memset(m, 0, sizeof(*m));
	m->capacity = capacity;
}

void bench_metrics_alloc(struct bench_metrics *m, size_t req, size_t granted)
{
	m->allocs++;
	m->live += req;
	m->live_granted += granted;
	/* Ties keep the first peak: the earliest moment the most was live. */
	if (m->live > m->peak_live) {
		m->peak_live = m->live;
		m->granted_at_peak = m->live_granted;
	}
}

void bench_metrics_reach(struct bench_metrics *m, size_t top)
{
	if (top > m->high_water) {
		m->high_water = top;
		m->live_at_hw = m->live;
		m->granted_at_hw = m->live_granted;
	}
}

void bench_metrics_fail(struct bench_metrics *m, size_t req)
{
	(void)req;
	m->failed++;
	if (!m->failed_once) {
		m->failed_once = 1;
		m->live_at_failure = m->live;
		m->granted_at_failure = m->live_granted;
	}
}

void bench_metrics_free(struct bench_metrics *m, size_t req, size_t granted)
{
	m->frees++;
	m->live -= req;
	m->live_granted -= granted;
}

double bench_ext_frag(const struct bench_stats *st)
{
	if (!st->free_bytes)
		return 0.0;
	return 1.0 - (double)st->largest_free / (double)st->free_bytes;
}

void bench_metrics_sample(struct bench_metrics *m, size_t t,
			  const struct bench_stats *st)
{
	double ext = bench_ext_frag(st);

	if (st->obtained > m->peak_obtained)
		m->peak_obtained = st->obtained;
	if (st->metadata > m->metadata)
		m->metadata = st->metadata;
	m->ext_sum += ext;
	if (ext > m->ext_max)
		m->ext_max = ext;
	m->ext_samples++;
	if (m->nr_series == m->cap_series) {
		size_t cap = m->cap_series ? 2 * m->cap_series : 256;
		struct bench_sample *s = realloc(m->series, cap * sizeof(*s));

		if (!s)
			return;	/* the series is optional; the sums are kept */
		m->series = s;
		m->cap_series = cap;
	}
	m->series[m->nr_series].t = t;
	m->series[m->nr_series].live = m->live;
	m->series[m->nr_series].obtained = st->obtained;
	m->series[m->nr_series].granted = m->live_granted;
	m->series[m->nr_series].used = st->obtained - st->free_bytes;
	m->series[m->nr_series].ext_frag = ext;
	m->nr_series++;
}

double bench_fragmentation(const struct bench_metrics *m)
{
	if (!m->peak_live)
		return 0.0;
	return ((double)m->peak_obtained - (double)m->peak_live) / (double)m->peak_live;
}

double bench_internal_frag(const struct bench_metrics *m)
{
	if (!m->peak_live)
		return 0.0;
	return ((double)m->granted_at_peak - (double)m->peak_live) / (double)m->peak_live;
}

/* (@a - @b) / @b, 0 when @b is 0 */
static double over(size_t a, size_t b)
{
	return b ? ((double)a - (double)b) / (double)b : 0.0;
}

double bench_frag4(const struct bench_metrics *m)
{
	return over(m->high_water, m->peak_live);
}

double bench_frag3(const struct bench_metrics *m)
{
	return over(m->high_water, m->live_at_hw);
}

double bench_frag3_internal(const struct bench_metrics *m)
{
	return over(m->granted_at_hw, m->live_at_hw);
}

double bench_frag3_external(const struct bench_metrics *m)
{
	return bench_frag3(m) - bench_frag3_internal(m);
}

double bench_occupancy(const struct bench_metrics *m)
{
	if (!m->capacity)
		return 0.0;
	return (double)(m->failed_once ? m->live_at_failure : m->peak_live) /
	       (double)m->capacity;
}

double bench_ext_frag_mean(const struct bench_metrics *m)
{
	return m->ext_samples ? m->ext_sum / (double)m->ext_samples : 0.0;
}

double bench_ns_per_op(const struct bench_metrics *m)
{
	return m->timed_ops ? m->seconds * 1e9 / (double)m->timed_ops : 0.0;
}

void bench_metrics_release(struct bench_metrics *m)
{
	free(m->series);
	free(m->fail_map);
	m->fail_map = NULL;
	m->series = NULL;
	m->nr_series = m->cap_series = 0;
}
