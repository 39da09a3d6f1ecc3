// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_walk.c - compat_gen_pool_for_each_block() and
 * compat_gen_pool_dump() on both backends: the same blocks and free runs
 * for the same requests, in address order, the visitor stopping the walk,
 * and the answers to bad arguments.  The JSON is read back by jq in
 * test/dump/run.sh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "compat_fixture.h"

struct seen {
	int n, stop_after;
	unsigned long addr[16], size[16];
	int used[16];
};

static int record(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		  unsigned long addr, unsigned long size, int used, void *data)
{
	struct seen *s = data;

	(void)pool;
	ck_assert_uint_ge(addr, chunk);
	ck_assert_uint_le(addr + size, chunk + chunk_size);
	ck_assert_int_lt(s->n, 16);
	s->addr[s->n] = addr;
	s->size[s->n] = size;
	s->used[s->n] = used;
	return ++s->n == s->stop_after ? 9 : 0;
}

START_TEST(both_backends_tell_the_same_blocks)
{
	struct fx_provider *p = fx_provider_new(12, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 64), b = gen_pool_alloc(pool, 256);
	struct seen s = { 0 };
	unsigned long used = 0, total = 0;

	ck_assert(a && b);
	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, record, &s), 0);
	for (int i = 0; i < s.n; i++) {
		if (i)
			ck_assert_uint_eq(s.addr[i], s.addr[i - 1] + s.size[i - 1]);
		ck_assert_int_eq(s.used[i], s.addr[i] == a || s.addr[i] == b);
		if (s.used[i])
			ck_assert_uint_eq(s.size[i], s.addr[i] == a ? 64 : 256);
		used += s.used[i] ? s.size[i] : 0;
		total += s.size[i];
	}
	ck_assert_uint_eq(s.addr[0], p->chunk[0]);
	ck_assert_uint_eq(used, 320);
	ck_assert_uint_eq(total, 4096);
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, b, 256);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(visitor_stops_the_walk_and_bad_arguments)
{
	struct fx_provider *p = fx_provider_new(12, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	struct seen s = { .stop_after = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, record, &s), 9);
	ck_assert_int_eq(s.n, 1);
	ck_assert_int_eq(compat_gen_pool_dump(pool, f, GENALLOC_DUMP_JSON), 0);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, _i == 1 ? "\"engine\":\"compat-bitmap\""
						 : "\"engine\":\"compat-buddy\""));
	free(buf);
	capture_errors();
	ck_assert_int_eq(compat_gen_pool_for_each_block(NULL, record, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_for_each_block(pool, NULL, &s), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_dump(NULL, stdout, GENALLOC_DUMP_TEXT), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_dump(pool, stdout, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_walk_suite(void)
{
	Suite *s = suite_create("compat_walk");
	TCase *tc = tcase_create("walk");

	tcase_add_loop_test(tc, both_backends_tell_the_same_blocks, 0, 2);
	tcase_add_loop_test(tc, visitor_stops_the_walk_and_bad_arguments, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
