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
	uint64_t *key;		/* trace id + 1; 0 marks an empty slot */
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
	m->val = calloc(slots, sizeof(*m->val));
	m->size = calloc(slots, sizeof(*m->size));
	m->mask = slots - 1;
	return m->key && m->val && m->size ? 0 : -1;
}

static void map_release(struct id_map *m)
{
	free(m->key);
	free(m->val);
	free(m->size);
	free(m->spare);
}

static size_t map_find(const struct id_map *m, uint64_t id)
{
	size_t i = id_hash(id) & m->mask;

	while (m->key[i] && m->key[i] != id + 1)
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
		if (old.key[i]) {
			size_t j = map_find(m, old.key[i] - 1);

			m->key[j] = old.key[i];
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

	m->key[i] = 0;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (!m->key[j])
			break;
		home = id_hash(m->key[j] - 1) & m->mask;
		/* Move j back into the hole unless its home lies in (i, j]. */
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->key[i] = m->key[j];
			m->val[i] = m->val[j];
			m->size[i] = m->size[j];
			m->key[j] = 0;
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

	if (m->key[i]) {
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
	m->key[i] = id + 1;
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

	if (!m->key[i]) {
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

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	size_t n;
	static char buf[64];

	s = s ? s + 1 : path;
	snprintf(buf, sizeof(buf), "%s", s);
	n = strcspn(buf, ".");
	buf[n] = 0;
	return buf;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Parse one line; 1 if it carried an event, 0 if blank, -1 if malformed. */
static int parse_line(char *line, char *op, uint64_t *id, unsigned long long *size)
{
	char *p = line, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n' || *p == '#')
		return 0;
	*op = *p++;
	if (*op != 'a' && *op != 'f')
		return -1;
	errno = 0;
	*id = strtoull(p, &end, 0);
	if (end == p || errno)
		return -1;
	if (*op == 'f')
		return 1;
	p = end;
	*size = strtoull(p, &end, 0);
	if (end == p || errno || *size > UINT32_MAX)
		return -1;
	return 1;
}

static int read_stream(struct bench_workload *w, FILE *f, const char **err)
{
	struct id_map m;
	char line[256];
	int rc = 0;

	if (map_init(&m, 1 << 16)) {
		*err = "out of memory";
		map_release(&m);
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char op;
		uint64_t id;
		unsigned long long size = 0;
		int r = parse_line(line, &op, &id, &size);

		if (r < 0) {
			*err = "malformed line (expected \"a ID SIZE\" or \"f ID\")";
			rc = -1;
		} else if (r > 0) {
			rc = op == 'a' ? on_alloc(w, &m, id, (uint32_t)size)
				       : on_free(w, &m, id);
			if (rc)
				*err = "out of memory";
		}
	}
	w->nr_ids = m.next;
	map_release(&m);
	return rc;
}

int bench_workload_read(struct bench_workload *w, const char *path,
			const char **err)
{
	FILE *f;
	int gz = ends_with(path, ".gz");
	int rc, status = 0;

	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", base_name(path));
	snprintf(w->descr, sizeof(w->descr), "trace %s", path);
	if (gz) {
		char cmd[4096];

		if (strchr(path, '\'')) {
			*err = "quote in file name";
			return -1;
		}
		snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", path);
		f = popen(cmd, "r");
	} else {
		f = fopen(path, "r");
	}
	if (!f) {
		*err = strerror(errno);
		return -1;
	}
	rc = read_stream(w, f, err);
	if (gz)
		status = pclose(f);
	else
		fclose(f);
	if (!rc && status) {
		*err = "gzip -dc failed";
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
