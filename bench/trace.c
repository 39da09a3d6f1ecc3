// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/trace.c - workloads as text: the trace reader and writer.
 *
 * Gzip is read by piping through "gzip -dc" rather than linking zlib, so
 * the bench needs no library the rest of the project does not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

void bench_workload_push(struct bench_workload *w, enum bench_op op,
			 uint32_t id, uint32_t size)
{
	if (w->nr == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 4096;
		struct bench_event *ev = realloc(w->ev, cap * sizeof(*ev));

		if (!ev)
			abort();
		w->ev = ev;
		w->cap = cap;
	}
	w->ev[w->nr].op = op;
	w->ev[w->nr].id = id;
	w->ev[w->nr].size = size;
	w->nr++;
}

void bench_workload_release(struct bench_workload *w)
{
	free(w->ev);
	w->ev = NULL;
	w->nr = w->cap = 0;
}

/*
 * Trace ids (addresses, usually) are renumbered densely, recycling the
 * numbers of freed blocks, so that a replay indexes a plain array.  The map
 * is open addressing with linear probing and backward-shift deletion.
 */
struct id_map {
	uint64_t *key;		/* the trace id, any 64-bit value */
	uint8_t *full;		/* whether the slot holds one */
	uint32_t *val;
	uint32_t *size;
	size_t mask, used;
	uint32_t *spare;
	size_t nr_spare, cap_spare;
	uint32_t next;
};

static size_t id_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

static int map_init(struct id_map *m, size_t slots)
{
	memset(m, 0, sizeof(*m));
	m->key = calloc(slots, sizeof(*m->key));
	m->full = calloc(slots, sizeof(*m->full));
	m->val = calloc(slots, sizeof(*m->val));
	m->size = calloc(slots, sizeof(*m->size));
	m->mask = slots - 1;
	return m->key && m->full && m->val && m->size ? 0 : -1;
}

static void map_release(struct id_map *m)
{
	free(m->key);
	free(m->full);
	free(m->val);
	free(m->size);
	free(m->spare);
}

static size_t map_find(const struct id_map *m, uint64_t id)
{
	size_t i = id_hash(id) & m->mask;

	while (m->full[i] && m->key[i] != id)
		i = (i + 1) & m->mask;
	return i;
}

static int map_grow(struct id_map *m)
{
	struct id_map old = *m;
	size_t i;

	if (map_init(m, 2 * (old.mask + 1)))
		return -1;
	m->spare = old.spare;
	m->nr_spare = old.nr_spare;
	m->cap_spare = old.cap_spare;
	m->next = old.next;
	m->used = old.used;
	for (i = 0; i <= old.mask; i++) {
		if (old.full[i]) {
			size_t j = map_find(m, old.key[i]);

			m->key[j] = old.key[i];
			m->full[j] = 1;
			m->val[j] = old.val[i];
			m->size[j] = old.size[i];
		}
	}
	old.spare = NULL;
	map_release(&old);
	return 0;
}

static void map_delete(struct id_map *m, size_t i)
{
	size_t j = i;

	m->full[i] = 0;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (!m->full[j])
			break;
		home = id_hash(m->key[j]) & m->mask;
		/* Move j back into the hole unless its home lies in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->key[i] = m->key[j];
			m->full[i] = 1;
			m->val[i] = m->val[j];
			m->size[i] = m->size[j];
			m->full[j] = 0;
			i = j;
		}
	}
	m->used--;
}

static int on_alloc(struct bench_workload *w, struct id_map *m, uint64_t id,
		    uint32_t size)
{
	size_t i = map_find(m, id);
	uint32_t dense;

	if (m->full[i]) {
		w->reused++;
		bench_workload_push(w, BENCH_FREE, m->val[i], m->size[i]);
		m->size[i] = size;
		bench_workload_push(w, BENCH_ALLOC, m->val[i], size);
		return 0;
	}
	if (m->nr_spare) {
		dense = m->spare[--m->nr_spare];
	} else {
		dense = m->next++;
	}
	m->key[i] = id;
	m->full[i] = 1;
	m->val[i] = dense;
	m->size[i] = size;
	bench_workload_push(w, BENCH_ALLOC, dense, size);
	if (++m->used * 2 > m->mask)
		return map_grow(m);
	return 0;
}

static int on_free(struct bench_workload *w, struct id_map *m, uint64_t id)
{
	size_t i = map_find(m, id);

	if (!m->full[i]) {
		w->dropped++;
		return 0;
	}
	bench_workload_push(w, BENCH_FREE, m->val[i], m->size[i]);
	if (m->nr_spare == m->cap_spare) {
		size_t cap = m->cap_spare ? 2 * m->cap_spare : 1024;
		uint32_t *s = realloc(m->spare, cap * sizeof(*s));

		if (!s)
			return -1;
		m->spare = s;
		m->cap_spare = cap;
	}
	m->spare[m->nr_spare++] = m->val[i];
	map_delete(m, i);
	return 0;
}

void bench_workload_name_from_path(char *name, size_t n, const char *path)
{
	const char *s = strrchr(path, '/');

	s = s ? s + 1 : path;
	/* "cc1.trace.gz" is cc1; ".trace" keeps its whole name. */
	snprintf(name, n, "%.*s", strcspn(s, ".") ? (int)strcspn(s, ".") : (int)strlen(s), s);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * A trace number: decimal digits with no leading zero (so that "010" is not
 * mistaken for octal or for ten), or 0x and hex digits.  No sign, no
 * suffix.  Returns NULL with *why set, or the first character after it.
 */
static const char *parse_number(const char *p, uint64_t *out, const char **why)
{
	uint64_t v = 0;
	unsigned int base = 10, d;
	const char *start;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	start = p;
	for (;; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned int)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned int)(*p - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base) {
			*why = "number above 2^64 - 1";
			return NULL;
		}
		v = v * base + d;
	}
	if (p == start) {
		*why = base == 16 ? "0x without hex digits" : "expected a number";
		return NULL;
	}
	if (base == 10 && *start == '0' && p - start > 1) {
		*why = "leading zero (decimal is written without, hex with 0x)";
		return NULL;
	}
	if (*p && *p != ' ' && *p != '\t') {
		*why = "text glued to a number";
		return NULL;
	}
	*out = v;
	return p;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * One line, its newline removed: 1 if it carried an event, 0 if it is blank
 * or a comment, -1 (and *why) if it is anything else.  Every field is
 * checked to its end, so that a typo is refused rather than half-read.
 */
static int parse_line(const char *p, char *op, uint64_t *id, uint64_t *size,
		      const char **why)
{
	p = skip_blanks(p);
	if (!*p || *p == '#')
		return 0;
	*op = *p++;
	if (*op != 'a' && *op != 'f') {
		*why = "expected \"a ID SIZE\" or \"f ID\"";
		return -1;
	}
	if (*p != ' ' && *p != '\t') {
		*why = "no blank after the event letter";
		return -1;
	}
	p = parse_number(skip_blanks(p), id, why);
	if (!p)
		return -1;
	p = skip_blanks(p);
	if (*op == 'a') {
		if (!*p) {
			*why = "allocation without a size";
			return -1;
		}
		p = parse_number(p, size, why);
		if (!p)
			return -1;
		if (*size > UINT32_MAX) {
			*why = "size above 4 GiB - 1";
			return -1;
		}
		p = skip_blanks(p);
	}
	if (*p) {
		*why = "trailing text after the event";
		return -1;
	}
	return 1;
}

/* Drop the line's end ("\n" or "\r\n"); -1 if it holds a NUL byte. */
static int chomp(char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		line[--len] = 0;
	if (len && line[len - 1] == '\r')
		line[--len] = 0;
	return strlen(line) == len ? 0 : -1;
}

static int read_stream(struct bench_workload *w, FILE *f, const char *path,
		       char *err, size_t errlen)
{
	struct id_map m;
	char *line = NULL;
	size_t cap = 0, nr = 0;
	ssize_t len;
	int rc = 0;

	if (map_init(&m, 1 << 16)) {
		snprintf(err, errlen, "%s: out of memory", path);
		map_release(&m);
		return -1;
	}
	while (!rc && (len = getline(&line, &cap, f)) >= 0) {
		char op = 0;
		uint64_t id = 0, size = 0;
		const char *why = "a NUL byte in the line";
		int r = -1;

		nr++;
		if (!chomp(line, (size_t)len))
			r = parse_line(line, &op, &id, &size, &why);
		if (r < 0) {
			snprintf(err, errlen, "%s:%zu: %s: \"%.40s%s\"", path, nr, why, line,
				 strlen(line) > 40 ? "..." : "");
			rc = -1;
		} else if (r > 0) {
			rc = op == 'a' ? on_alloc(w, &m, id, (uint32_t)size)
				       : on_free(w, &m, id);
			if (rc)
				snprintf(err, errlen, "%s:%zu: out of memory", path, nr);
		}
	}
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s:%zu: %s", path, nr, strerror(errno));
		rc = -1;
	}
	free(line);
	w->nr_ids = m.next;
	map_release(&m);
	return rc;
}

int bench_workload_read(struct bench_workload *w, const char *path,
			char *err, size_t errlen)
{
	FILE *f;
	int gz = ends_with(path, ".gz");
	int rc, status = 0;

	memset(w, 0, sizeof(*w));
	bench_workload_name_from_path(w->name, sizeof(w->name), path);
	snprintf(w->descr, sizeof(w->descr), "trace %s", path);
	if (gz) {
		char cmd[4096];

		if (strchr(path, '\'') || strlen(path) > sizeof(cmd) - 32) {
			snprintf(err, errlen, "%s: quote in the file name, or a name too long", path);
			return -1;
		}
		/* gzip's complaint goes to stderr, before ours. */
		snprintf(cmd, sizeof(cmd), "exec gzip -dc -- '%s'", path);
		f = popen(cmd, "r");
	} else {
		f = fopen(path, "r");
	}
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	rc = read_stream(w, f, path, err, errlen);
	if (gz)
		status = pclose(f);
	else
		fclose(f);
	if (!rc && status) {
		snprintf(err, errlen, "%s: gzip -dc failed", path);
		rc = -1;
	}
	if (rc)
		bench_workload_release(w);
	return rc;
}

int bench_workload_write(const struct bench_workload *w, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	size_t i;
	int rc;

	if (!f)
		return -1;
	fprintf(f, "# genalloc bench trace: %s\n# %s\n", w->name, w->descr);
	for (i = 0; i < w->nr; i++) {
		const struct bench_event *e = &w->ev[i];

		if (e->op == BENCH_ALLOC)
			fprintf(f, "a %u %u\n", e->id, e->size);
		else
			fprintf(f, "f %u\n", e->id);
	}
	rc = ferror(f) ? -1 : 0;
	if (f != stdout && fclose(f))
		rc = -1;
	return rc;
}
