// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/dump.c - the layout dump's writer (see dump_internal.h and, for
 * the formats, dump.h).
 *
 * Invariant: between genalloc_dump_chunk() and the next chunk or the end,
 * @d->chunk holds the open chunk's counts and @d->total those of every
 * chunk closed before it.  Text needs a chunk's counts before its line, so
 * a text line is written when its chunk closes; JSON writes each run as it
 * comes and the chunk's counts after its runs.
 */
#include <errno.h>
#include <string.h>

#include "dump_internal.h"
#include "error.h"

static bool json(const struct genalloc_dump *d)
{
	return d->format == GENALLOC_DUMP_JSON;
}

bool genalloc_dump_begin(struct genalloc_dump *d, const void *pool, FILE *f, int format,
			 const char *engine, unsigned long granule, bool blocks, bool buddy)
{
	if (!pool || !f || (format != GENALLOC_DUMP_TEXT && format != GENALLOC_DUMP_JSON)) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
			.func = "gen_pool_dump", .pool = pool,
			.msg = !pool ? "NULL pool" : f ? "unknown format" : "NULL file",
			.arg = pool && f ? "format" : NULL, .arg_value = format,
			.fix = !pool ? "pass the pool to dump"
			       : f ? "pass GENALLOC_DUMP_TEXT or GENALLOC_DUMP_JSON"
				   : "pass an open FILE" });
		return false;
	}
	memset(d, 0, sizeof(*d));
	d->f = f;
	d->format = format;
	d->engine = engine;
	d->granule = granule;
	d->blocks = blocks;
	d->buddy = buddy;
	d->first_chunk = true;
	return true;
}

/* The header, once, when there is something to write after it. */
static void write_header(struct genalloc_dump *d)
{
	if (d->started)
		return;
	d->started = true;
	if (json(d))
		fprintf(d->f, "{\"schema\":%d,\"engine\":\"%s\",\"granule\":%lu,"
			"\"block_kind\":\"%s\",\"chunks\":[", GENALLOC_DUMP_SCHEMA, d->engine,
			d->granule, d->blocks ? "blocks" : "used-runs");
	else
		fprintf(d->f, "%s pool, granule %lu, %s\n", d->engine, d->granule,
			d->blocks ? "blocks" : "runs of used granules");
}

static void write_counts(FILE *f, const struct genalloc_dump_counts *c)
{
	fprintf(f, "\"used\":%lu,\"free\":%lu,\"blocks\":%lu,\"free_runs\":%lu,"
		"\"largest_free\":%lu,\"largest_free_run\":%lu", c->used, c->free, c->blocks,
		c->free_runs, c->largest_free, c->largest_free_run);
}

/* '#' at least 3/4 used, '+' at least 1/4, '.' some, ' ' none. */
static char cell_mark(unsigned long used, unsigned long cell)
{
	if (!used)
		return ' ';
	if (used >= cell - cell / 4)
		return '#';
	return used >= cell / 4 ? '+' : '.';
}

static void write_text_line(struct genalloc_dump *d)
{
	const struct genalloc_dump_counts *c = &d->chunk;
	unsigned long cell = (c->size + GENALLOC_DUMP_CELLS - 1) / GENALLOC_DUMP_CELLS;
	int i;

	fprintf(d->f, "chunk 0x%lx +%lu: used %lu (%lu%%) blocks %lu free runs %lu "
		"largest free block %lu run %lu |", d->start, c->size, c->used,
		c->size ? c->used * 100 / c->size : 0, c->blocks, c->free_runs, c->largest_free,
		c->largest_free_run);
	for (i = 0; i < GENALLOC_DUMP_CELLS; i++)
		fputc(cell_mark(d->cell[i], cell), d->f);
	fputs("|\n", d->f);
}

static void add_counts(struct genalloc_dump_counts *to, const struct genalloc_dump_counts *c)
{
	to->size += c->size;
	to->used += c->used;
	to->free += c->free;
	to->blocks += c->blocks;
	to->free_runs += c->free_runs;
	if (c->largest_free > to->largest_free)
		to->largest_free = c->largest_free;
	if (c->largest_free_run > to->largest_free_run)
		to->largest_free_run = c->largest_free_run;
}

static void close_chunk(struct genalloc_dump *d)
{
	if (!d->open)
		return;
	if (json(d)) {
		fputs("],", d->f);
		write_counts(d->f, &d->chunk);
		fputc('}', d->f);
	} else {
		write_text_line(d);
	}
	add_counts(&d->total, &d->chunk);
	d->open = false;
}

void genalloc_dump_chunk(struct genalloc_dump *d, unsigned long start, unsigned long size)
{
	write_header(d);
	close_chunk(d);
	memset(&d->chunk, 0, sizeof(d->chunk));
	memset(d->cell, 0, sizeof(d->cell));
	d->chunk.size = size;
	d->start = start;
	d->open = true;
	d->first_run = true;
	d->nr_chunks++;
	if (json(d))
		fprintf(d->f, "%s{\"start\":\"0x%lx\",\"size\":%lu,\"runs\":[",
			d->first_chunk ? "" : ",", start, size);
	d->first_chunk = false;
}

/* The used bytes of [@off, @off + @size) into the text bar's cells. */
static void fill_cells(struct genalloc_dump *d, unsigned long off, unsigned long size)
{
	unsigned long cell = (d->chunk.size + GENALLOC_DUMP_CELLS - 1) / GENALLOC_DUMP_CELLS;
	unsigned long end = off + size, i, lo, hi;

	for (i = off / cell; i < GENALLOC_DUMP_CELLS && i * cell < end; i++) {
		lo = off > i * cell ? off : i * cell;
		hi = end < (i + 1) * cell ? end : (i + 1) * cell;
		d->cell[i] += hi - lo;
	}
}

/*
 * The largest power of two aligned to its size inside [@addr, +@size): a
 * buddy pool holds a free run as such blocks, greedily from its start (two
 * free buddies would have merged), and this is the largest of them.
 */
static unsigned long largest_aligned_block(unsigned long addr, unsigned long size)
{
	unsigned long end = addr + size, best = 0, b;

	while (addr < end) {
		b = addr & -addr;	/* the alignment of addr, a power of two */
		if (!b || b > end - addr) {
			b = 1;
			while (b <= (end - addr) / 2)
				b <<= 1;
		}
		if (b > best)
			best = b;
		addr += b;
	}
	return best;
}

void genalloc_dump_run(struct genalloc_dump *d, unsigned long addr, unsigned long size,
		       bool used)
{
	struct genalloc_dump_counts *c = &d->chunk;
	unsigned long off = addr - d->start;

	if (used) {
		c->used += size;
		c->blocks++;
		fill_cells(d, off, size);
	} else {
		unsigned long block = d->buddy ? largest_aligned_block(addr, size) : size;

		c->free += size;
		c->free_runs++;
		if (size > c->largest_free_run)
			c->largest_free_run = size;
		if (block > c->largest_free)
			c->largest_free = block;
	}
	if (json(d))
		fprintf(d->f, "%s{\"offset\":%lu,\"size\":%lu,\"used\":%s}",
			d->first_run ? "" : ",", off, size, used ? "true" : "false");
	d->first_run = false;
}

void genalloc_dump_block(struct genalloc_dump *d, unsigned long chunk, unsigned long chunk_size,
			 unsigned long addr, unsigned long size, bool used)
{
	if (!d->open || chunk != d->start)
		genalloc_dump_chunk(d, chunk, chunk_size);
	genalloc_dump_run(d, addr, size, used);
}

int genalloc_dump_end(struct genalloc_dump *d, int walk_rc)
{
	const struct genalloc_dump_counts *t = &d->total;

	if (walk_rc)
		return walk_rc;
	write_header(d);
	close_chunk(d);
	if (json(d)) {
		fprintf(d->f, "],\"totals\":{\"chunks\":%lu,\"size\":%lu,", d->nr_chunks, t->size);
		write_counts(d->f, t);
		fputs("}}\n", d->f);
	} else {
		fprintf(d->f, "total: %lu chunks, %lu bytes, used %lu, free %lu in %lu runs, "
			"largest free block %lu run %lu, blocks %lu\n", d->nr_chunks, t->size,
			t->used, t->free, t->free_runs, t->largest_free, t->largest_free_run,
			t->blocks);
	}
	return ferror(d->f) ? -EIO : 0;
}
