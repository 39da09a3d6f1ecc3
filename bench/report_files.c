// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/report_files.c - what a comparison leaves in its output directory:
 *
 *   arena.csv, growing.csv,      one row per workload and engine, the
 *   fixed.csv                    columns named as in bench/metrics.h
 *   series-REGIME-WORKLOAD.csv   external fragmentation over time, a column
 *                                per engine (same sampling points for all)
 *   footprint.csv, occupancy.csv the bar charts' data
 *   plots.gp, *.png, *.svg       the gnuplot script and what it draws
 *   peak-ENGINE.json             the first workload replayed to its peak
 *                                live bytes on the buddy, the 2005 API on
 *                                the bitmap, bitmap first and best fit;
 *                                each pool's layout (common/dump.h)
 *   peak-map.svg, peak-map.png   those pools, one above another (bench/map.sh)
 *   index.html                   the verdict, the plots and the tables,
 *                                with machine.txt (written by make compare
 *                                beside them) when it is there
 *
 * A further view of the same run (a map of each pool at its peak, say)
 * gets a writer of its own here, called from bench_report_files(), and a
 * section in write_html() after the plots; nothing else needs to change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay.h"
#include "study.h"

static const char *const regime_name[BENCH_NR_REGIMES] = { "growing", "fixed", "arena" };

static FILE *open_in(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

static int close_checked(FILE *f)
{
	int bad = ferror(f);

	if (fclose(f) || bad)
		return -1;
	return 0;
}

static int write_summary_csv(const struct bench_study *s, const char *dir,
			     enum bench_regime r)
{
	char name[64];
	FILE *f;
	size_t wi, ei;

	snprintf(name, sizeof(name), "%s.csv", regime_name[r]);
	f = open_in(dir, name);
	if (!f)
		return -1;
	fprintf(f, "workload,engine,chunk_size,capacity,allocs,frees,refused,"
		   "skipped,skipped_bytes,peak_live,footprint,fragmentation,internal_frag,"
		   "granted_at_peak,high_water,frag4,frag3,frag3_internal,frag3_external,"
		   "ext_frag_mean,ext_frag_max,occupancy,live_at_first_refusal,metadata,"
		   "ns_per_call,ns_per_call_min,ns_per_call_max,ns_per_refusal,timed_replays\n");
	for (wi = 0; wi < s->nw; wi++) {
		for (ei = 0; ei < s->ne; ei++) {
			const struct bench_cell *c = bench_cell_at(s, r, wi, ei);
			const struct bench_metrics *m = &c->m;

			fprintf(f, "%s,%s,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%.6f,%.6f,"
				   "%zu,%zu,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%zu,%zu,"
				   "%.2f,%.2f,%.2f,%.2f,%zu\n",
				s->w[wi].name, s->e[ei]->name, c->cfg.chunk_size, c->cfg.capacity, m->allocs, m->frees, m->failed,
				m->skipped, m->skipped_bytes, m->peak_live, m->peak_obtained,
				bench_fragmentation(m), bench_internal_frag(m), m->granted_at_peak,
				m->high_water, bench_frag4(m), bench_frag3(m),
				bench_frag3_internal(m), bench_frag3_external(m),
				bench_ext_frag_mean(m), m->ext_max, bench_occupancy(m),
				m->live_at_failure, m->metadata, c->ok_ns.median, c->ok_ns.lo,
				c->ok_ns.hi, c->fail_ns.median, c->ok_ns.runs);
		}
	}
	return close_checked(f);
}

static int write_series_csv(const struct bench_study *s, const char *dir,
			    enum bench_regime r, size_t wi)
{
	char name[128];
	FILE *f;
	size_t ei, k, nr = (size_t)-1;

	snprintf(name, sizeof(name), "series-%s-%s.csv", regime_name[r], s->w[wi].name);
	f = open_in(dir, name);
	if (!f)
		return -1;
	fprintf(f, "events");
	for (ei = 0; ei < s->ne; ei++) {
		const struct bench_metrics *m = &bench_cell_at(s, r, wi, ei)->m;

		fprintf(f, ",%s", s->e[ei]->name);
		if (m->nr_series < nr)
			nr = m->nr_series;
	}
	fprintf(f, "\n");
	for (k = 0; k < nr; k++) {
		fprintf(f, "%zu", bench_cell_at(s, r, wi, 0)->m.series[k].t);
		for (ei = 0; ei < s->ne; ei++)
			fprintf(f, ",%.5f", bench_cell_at(s, r, wi, ei)->m.series[k].ext_frag);
		fprintf(f, "\n");
	}
	return close_checked(f);
}

/* A bar chart's value for one cell. */
static double bar_value(const struct bench_study *s, enum bench_regime r, size_t wi, size_t ei)
{
	const struct bench_metrics *m = &bench_cell_at(s, r, wi, ei)->m;
	const struct bench_metrics *ref = &bench_cell_at(s, r, wi, 0)->m;

	switch (r) {
	case BENCH_ARENA:
		return ref->high_water ? (double)m->high_water / (double)ref->high_water : 0;
	case BENCH_GROWING:
		return m->peak_live ? (double)m->peak_obtained / (double)m->peak_live : 0;
	default:
		return 100 * bench_occupancy(m);
	}
}

/* A bar chart's data: a row per workload, a column per engine. */
static int write_bars_csv(const struct bench_study *s, const char *dir,
			  const char *name, enum bench_regime r)
{
	FILE *f = open_in(dir, name);
	size_t wi, ei;

	if (!f)
		return -1;
	fprintf(f, "workload");
	for (ei = 0; ei < s->ne; ei++)
		fprintf(f, ",%s", s->e[ei]->name);
	fprintf(f, "\n");
	for (wi = 0; wi < s->nw; wi++) {
		fprintf(f, "%s", s->w[wi].name);
		for (ei = 0; ei < s->ne; ei++)
			fprintf(f, ",%.4f", bar_value(s, r, wi, ei));
		fprintf(f, "\n");
	}
	return close_checked(f);
}

/*
 * Colours by family, from the Okabe-Ito palette (told apart with any of the
 * common colour-vision deficiencies); the granules of a family are shades
 * of its colour, darkest for 8 bytes, and the bars carry patterns too.
 */
static const struct {
	const char *family;
	const char *shade[3];
} palette[] = {
	{ "buddy", { "#000000", "#000000", "#000000" } },
	{ "compat", { "#E69F00", "#E69F00", "#E69F00" } },
	{ "first fit", { "#005A8C", "#0072B2", "#56B4E9" } },
	{ "best fit", { "#006B4F", "#009E73", "#7FD4B9" } },
	{ "order-aligned", { "#A04000", "#D55E00", "#F0A070" } },
	{ "instant fit", { "#CC79A7", "#CC79A7", "#CC79A7" } },
};

static const char *colour_of(const struct bench_study *s, size_t ei)
{
	const char *fam = bench_engine_family(s->e[ei]);
	size_t k, j, nth = 0;

	for (j = 0; j < ei; j++)
		nth += !strcmp(bench_engine_family(s->e[j]), fam);
	for (k = 0; k < sizeof(palette) / sizeof(palette[0]); k++)
		if (!strcmp(palette[k].family, fam))
			return palette[k].shade[nth < 3 ? nth : 2];
	return "#999999";
}

/* Every plot twice: PNG to look at, SVG to zoom. */
static void gp_both(FILE *f, const char *base, const char *size, const char *body)
{
	fprintf(f, "set terminal pngcairo size %s font 'sans,10'\nset output '%s.png'\n%s\n"
		   "unset multiplot\n"
		   "set terminal svg size %s dynamic font 'sans,11'\nset output '%s.svg'\n%s\n"
		   "unset multiplot\nreset session\nset datafile separator ','\n\n",
		size, base, body, size, base, body);
}

static void gp_bars(FILE *f, const struct bench_study *s, const char *base,
		    const char *title, const char *ylabel)
{
	char body[4096];
	size_t len, ei;

	len = (size_t)snprintf(body, sizeof(body),
		"set title \"%s\"\nset ylabel \"%s\"\nset key outside right top title "
		"'engine (by family)'\nset grid ytics\nset style data histograms\n"
		"set style histogram clustered gap 2\nset style fill solid 1.0 border -1\n"
		"set boxwidth 0.95\nset xtics rotate by -30 nomirror\nset yrange [0:*]\n"
		"set xrange [0.4:*]\nplot ", title, ylabel);
	for (ei = 0; ei < s->ne && len < sizeof(body); ei++)
		len += (size_t)snprintf(body + len, sizeof(body) - len,
			"%s'%s.csv' using %zu:xtic(1) title '%s' lc rgb '%s'",
			ei ? ", " : "", base, ei + 2, bench_engine_label(s->e[ei]),
			colour_of(s, ei));
	gp_both(f, base, "1200,560", body);
}

/* The time series' four lines: the families' colours, their brightest. */
static const char *const series_colour[4] = { "#000000", "#E69F00", "#56B4E9", "#009E73" };

/*
 * Up to four engines for the time series: the buddy, compat, and the first
 * fit and best fit that needed the least memory (growing, against engine 0).
 */
static size_t series_engines(const struct bench_study *s, size_t *pick)
{
	static const char *const fam[] = { "buddy", "compat", "first fit", "best fit" };
	size_t k, n = 0;

	for (k = 0; k < 4; k++) {
		ptrdiff_t ei = bench_best_of(s, BENCH_GROWING, 0, fam[k]);

		if (ei >= 0)
			pick[n++] = (size_t)ei;
	}
	return n;
}

/* Small multiples: a panel per workload, at most four lines in each. */
static void gp_series(FILE *f, const struct bench_study *s)
{
	size_t pick[4], np = series_engines(s, pick), wi, k, cols = 4;
	size_t rows = (s->nw + cols - 1) / cols, len;
	char *body = malloc(2048 + s->nw * 1024), size[32];

	if (!body || !np) {
		free(body);
		return;
	}
	len = (size_t)sprintf(body, "set multiplot layout %zu,%zu title \"External fragmentation "
			      "over the run, growing regime (1 - largest free / free; lower: free "
			      "memory in fewer pieces)\"\nset yrange [0:1]\nset key bottom right "
			      "font ',8' opaque\nset xtics format '%%.0s%%c' font ',8'\nset ytics 0.25 font ',8'\n",
			      rows, cols);
	for (wi = 0; wi < s->nw; wi++) {
		len += (size_t)sprintf(body + len, "set title '%s'\nplot ", s->w[wi].name);
		for (k = 0; k < np; k++)
			len += (size_t)sprintf(body + len, "%s'series-growing-%s.csv' using 1:%zu "
					       "with lines lw 2 dt %zu lc rgb '%s' title '%s'",
					       k ? ", " : "", s->w[wi].name, pick[k] + 2, k + 1,
					       series_colour[k], bench_engine_label(s->e[pick[k]]));
		len += (size_t)sprintf(body + len, "\n");
	}
	snprintf(size, sizeof(size), "1400,%zu", 260 * rows + 60);
	gp_both(f, "frag-growing", size, body);
	free(body);
}

static int write_gnuplot(const struct bench_study *s, const char *dir)
{
	FILE *f = open_in(dir, "plots.gp");

	if (!f)
		return -1;
	fprintf(f, "# Generated by genalloc-compare; run from this directory: gnuplot plots.gp\n"
		   "set datafile separator ','\n\n");
	if (s->run[BENCH_ARENA])
		gp_bars(f, s, "arena-memory", "Arena high water over buddy 2005's, per workload "
			"(lower is better)", "high water / buddy's");
	if (s->run[BENCH_GROWING])
		gp_bars(f, s, "footprint", "Growing regime: peak footprint over peak live "
			"(lower is better)", "footprint / peak live");
	if (s->run[BENCH_FIXED])
		gp_bars(f, s, "occupancy", "Fixed pool: occupancy at the first refusal "
			"(higher is better)", "live bytes / capacity, %");
	if (s->run[BENCH_GROWING])
		gp_series(f, s);
	return close_checked(f);
}

/* Text into HTML: the three characters that would be read as markup. */
static void html_text(FILE *f, const char *t)
{
	for (; *t; t++) {
		if (*t == '<')
			fputs("&lt;", f);
		else if (*t == '>')
			fputs("&gt;", f);
		else if (*t == '&')
			fputs("&amp;", f);
		else
			fputc(*t, f);
	}
}

/* The stdout report, verbatim: the same tables, legends and notes. */
static void html_tables(FILE *f, const struct bench_study *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	bench_report_table(m, s);
	fclose(m);
	fputs("<h2>Tables</h2>\n<pre>", f);
	html_text(f, text);
	fputs("</pre>\n", f);
	free(text);
}

/*
 * The stamp "make compare" writes beside the results before the run
 * (bench/machine.sh: machine, compiler, date, load), so that the page's
 * times say which machine they are from; nothing when run without it.
 */
static void html_machine(FILE *f, const char *dir)
{
	char path[4096], line[512];
	FILE *m;

	snprintf(path, sizeof(path), "%s/machine.txt", dir);
	m = fopen(path, "r");
	if (!m)
		return;
	fputs("<h2>On this machine</h2>\n<pre>", f);
	while (fgets(line, sizeof(line), m))
		html_text(f, line);
	fputs("</pre>\n", f);
	fclose(m);
}

/* The engines the peak maps draw, top to bottom. */
static const char *const map_engines[] = { "buddy", "compat", "ff8", "bf8" };
#define NR_MAP_ENGINES (sizeof(map_engines) / sizeof(map_engines[0]))

/* The regime whose pools the maps show: growing (many chunks) if run. */
static int map_regime(const struct bench_study *s)
{
	static const enum bench_regime order[] = { BENCH_GROWING, BENCH_FIXED, BENCH_ARENA };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (s->run[order[i]])
			return (int)order[i];
	return -1;
}

/*
 * peak-ENGINE.json for each map engine the study ran, from the first
 * workload replayed to its peak; then bench/map.sh draws them (when run
 * from the top of the tree, as make compare does).  Returns whether
 * peak-map.png was drawn.
 */
static int write_peak_maps(const struct bench_study *s, const char *dir)
{
	char path[4200], cmd[8192];
	int r = map_regime(s), n = 0;
	size_t len;
	FILE *f;

	if (r < 0 || !s->nw || strchr(dir, '\'') || access("bench/map.sh", R_OK))
		return 0;
	len = (size_t)snprintf(cmd, sizeof(cmd), "sh bench/map.sh '%s/peak-map'", dir);
	for (size_t k = 0; k < NR_MAP_ENGINES; k++)
		for (size_t ei = 0; ei < s->ne; ei++) {
			if (strcmp(s->e[ei]->name, map_engines[k]) || !s->e[ei]->dump)
				continue;
			snprintf(path, sizeof(path), "%s/peak-%s.json", dir, s->e[ei]->name);
			f = fopen(path, "w");
			if (!f)
				return 0;
			if (bench_replay_dump_peak(s->e[ei], &bench_cell_at(s, (enum bench_regime)r,
									    0, ei)->cfg,
						   &s->w[0], f) | close_checked(f))
				return 0;
			len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, " '%s=%s'",
						bench_engine_label(s->e[ei]), path);
			n++;
		}
	if (!n || len >= sizeof(cmd) || system(cmd)) {
		fprintf(stderr, "genalloc-compare: no peak-memory maps\n");
		return 0;
	}
	return 1;
}

static int write_html(const struct bench_study *s, const char *dir, int plots, int maps)
{
	FILE *f = open_in(dir, "index.html");
	char verdict[2048];
	size_t wi, ei;

	if (!f)
		return -1;
	bench_verdict(s, verdict, sizeof(verdict));
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		   "<title>genalloc: buddy or bitmap?</title>\n<style>"
		   "body{font-family:sans-serif;margin:2em;max-width:70em} "
		   "p.verdict{font-size:1.15em;border-left:4px solid #0072b2;padding-left:1em} "
		   "img{max-width:100%%} pre{font-size:0.8em}</style>"
		   "</head><body>\n<h1>genalloc: buddy or bitmap?</h1>\n<p class=verdict>");
	html_text(f, verdict);
	fprintf(f, "</p>\n");
	html_machine(f, dir);
	if (plots && s->run[BENCH_ARENA])
		fprintf(f, "<h2>Memory needed (arena high water over the buddy's)</h2>\n"
			   "<img src=\"arena-memory.png\" alt=\"arena high water per engine\">\n");
	if (plots && s->run[BENCH_GROWING])
		fprintf(f, "<h2>Peak footprint (growing)</h2>\n"
			   "<img src=\"footprint.png\" alt=\"footprint\">\n");
	if (plots && s->run[BENCH_FIXED])
		fprintf(f, "<h2>Occupancy at first refusal (fixed)</h2>\n"
			   "<img src=\"occupancy.png\" alt=\"occupancy\">\n");
	fprintf(f, "<p>");
	html_text(f, bench_disagree_note);
	fprintf(f, "</p>\n<h2>Engines</h2>\n<ul>\n");
	for (ei = 0; ei < s->ne; ei++) {
		fprintf(f, "<li><b>");
		html_text(f, bench_engine_label(s->e[ei]));
		fprintf(f, "</b> (%s): %s</li>\n", s->e[ei]->name, s->e[ei]->descr);
	}
	fprintf(f, "</ul>\n<h2>Workloads</h2>\n<ul>\n");
	for (wi = 0; wi < s->nw; wi++) {
		fprintf(f, "<li><b>%s</b>: ", s->w[wi].name);
		html_text(f, s->w[wi].descr);
		fprintf(f, "; %zu events</li>\n", s->w[wi].nr);
	}
	fprintf(f, "</ul>\n");
	html_tables(f, s);
	if (plots && s->run[BENCH_GROWING]) {
		fprintf(f, "<h2>External fragmentation over time (growing)</h2>\n"
			   "<img src=\"frag-growing.png\" alt=\"external fragmentation\">\n");
	}
	if (maps) {
		fprintf(f, "<h2>Memory at the peak</h2>\n<p>The workload %s replayed up to "
			   "its peak of live bytes, each engine's pool as it is there: a strip "
			   "per chunk in address order, used memory dark, free memory light, a "
			   "white line at every block's edge (data: peak-*.json).</p>\n"
			   "<img src=\"peak-map.png\" alt=\"each engine's pool at the peak\">\n",
			s->w[0].name);
	}
	fprintf(f, "<p>Data: arena.csv, growing.csv, fixed.csv, series-*.csv; plots drawn "
		   "by <a href=\"plots.gp\">plots.gp</a>; definitions in bench/metrics.h.</p>\n"
		   "</body></html>\n");
	return close_checked(f);
}

static int run_gnuplot(const char *dir)
{
	char cmd[4200];

	if (strchr(dir, '\''))
		return -1;
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot plots.gp", dir);
	return system(cmd) ? -1 : 0;
}

int bench_report_files(const struct bench_study *s, const char *dir, int plots)
{
	size_t wi;
	int r;

	if (mkdir(dir, 0777) && errno != EEXIST)
		return -1;
	for (r = 0; r < BENCH_NR_REGIMES; r++) {
		if (!s->run[r])
			continue;
		if (write_summary_csv(s, dir, (enum bench_regime)r))
			return -1;
		/* The series is plotted for the growing regime only (gp_series()). */
		for (wi = 0; r == BENCH_GROWING && wi < s->nw; wi++)
			if (write_series_csv(s, dir, (enum bench_regime)r, wi))
				return -1;
	}
	if (s->run[BENCH_ARENA] && write_bars_csv(s, dir, "arena-memory.csv", BENCH_ARENA))
		return -1;
	if (s->run[BENCH_GROWING] && write_bars_csv(s, dir, "footprint.csv", BENCH_GROWING))
		return -1;
	if (s->run[BENCH_FIXED] && write_bars_csv(s, dir, "occupancy.csv", BENCH_FIXED))
		return -1;
	if (write_gnuplot(s, dir))
		return -1;
	if (plots && run_gnuplot(dir)) {
		fprintf(stderr, "genalloc-compare: gnuplot failed; the data and plots.gp are in %s\n",
			dir);
		plots = 0;
	}
	return write_html(s, dir, plots, plots && write_peak_maps(s, dir));
}
