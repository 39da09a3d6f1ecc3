// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_dump.c - gen_pool_dump(): the text format of a layout
 * written out by hand, the answers to bad arguments and to a file that
 * cannot be written, and a dump taken while other threads allocate (run
 * under ThreadSanitizer by make check-tsan).  The JSON is read back by jq
 * in test/dump/run.sh.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

#define BASE 0x100000UL

/* Text of a dump of @pool, NUL-terminated, to free(). */
static char *dump_text(struct gen_pool *pool, int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(gen_pool_dump(pool, f, format), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* 4096 bytes at 16-byte granules: [0, 1024) in use as two blocks, the
 * rest free; a second chunk below it, unused, with an 8-byte tail. */
static struct gen_pool *layout(bool records)
{
	struct gen_pool *pool = gen_pool_create(4, -1);

	if (records)
		ck_assert_int_eq(gen_pool_use_block_records(pool), 0);
	/* The newest chunk is searched first. */
	ck_assert_int_eq(gen_pool_add(pool, BASE / 2, 512 + 8, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 512), BASE);
	ck_assert_uint_eq(gen_pool_alloc(pool, 512), BASE + 512);
	return pool;
}

START_TEST(text_has_a_line_per_chunk)
{
	struct gen_pool *pool = layout(false);
	char *text = dump_text(pool, GENALLOC_DUMP_TEXT);

	ck_assert_str_eq(text,
		"modern pool, granule 16, runs of used granules\n"
		"chunk 0x80000 +520: used 0 (0%) blocks 0 free runs 1 largest free block 512 "
		"run 512 |                                |\n"
		"chunk 0x100000 +4096: used 1024 (25%) blocks 1 free runs 1 largest free block "
		"3072 run 3072 |########                        |\n"
		"total: 2 chunks, 4616 bytes, used 1024, free 3584 in 2 runs, largest free block "
		"3072 run 3072, blocks 1\n");
	free(text);
	gen_pool_free(pool, BASE, 1024);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(json_with_records_lists_each_block)
{
	struct gen_pool *pool = layout(true);
	char *text = dump_text(pool, GENALLOC_DUMP_JSON);

	ck_assert_str_eq(text,
		"{\"schema\":1,\"engine\":\"modern\",\"granule\":16,\"block_kind\":\"blocks\","
		"\"chunks\":[{\"start\":\"0x80000\",\"size\":520,\"runs\":["
		"{\"offset\":0,\"size\":512,\"used\":false}],\"used\":0,\"free\":512,"
		"\"blocks\":0,\"free_runs\":1,\"largest_free\":512,\"largest_free_run\":512},"
		"{\"start\":\"0x100000\",\"size\":4096,\"runs\":["
		"{\"offset\":0,\"size\":512,\"used\":true},"
		"{\"offset\":512,\"size\":512,\"used\":true},"
		"{\"offset\":1024,\"size\":3072,\"used\":false}],\"used\":1024,\"free\":3072,"
		"\"blocks\":2,\"free_runs\":1,\"largest_free\":3072,\"largest_free_run\":3072}],"
		"\"totals\":{\"chunks\":2,\"size\":4616,\"used\":1024,\"free\":3584,\"blocks\":2,"
		"\"free_runs\":2,\"largest_free\":3072,\"largest_free_run\":3072}}\n");
	free(text);
	gen_pool_free(pool, BASE, 512);
	gen_pool_free(pool, BASE + 512, 512);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(bad_arguments_and_write_errors)
{
	struct gen_pool *pool = layout(false);
	FILE *full = fopen("/dev/full", "w");

	capture_errors();
	ck_assert_int_eq(gen_pool_dump(NULL, stdout, GENALLOC_DUMP_TEXT), -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_dump", NULL, 0, 0,
				"NULL pool"));
	ck_assert_int_eq(gen_pool_dump(pool, NULL, GENALLOC_DUMP_TEXT), -EINVAL);
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_dump", pool, 0, 0,
				"NULL file"));
	ck_assert_int_eq(gen_pool_dump(pool, stdout, 7), -EINVAL);
	assert_report_is(REPORT_ARG(GENALLOC_WARN, GENALLOC_EINVAL, "gen_pool_dump", pool, 0,
				    "unknown format", "format", 7));
	ck_assert_ptr_nonnull(full);
	setvbuf(full, NULL, _IONBF, 0);
	ck_assert_int_eq(gen_pool_dump(pool, full, GENALLOC_DUMP_JSON), -EIO);
	fclose(full);
	gen_pool_free(pool, BASE, 1024);
	gen_pool_destroy(pool);
}
END_TEST

/* A chunk smaller than a granule is listed, with no runs, so that the
 * totals' size is gen_pool_size()'s (common/dump.h says so). */
START_TEST(chunk_below_a_granule_is_listed)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	char *text;

	ck_assert_int_eq(gen_pool_add(pool, BASE, 4096, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 2 * BASE, 8, -1), 0);
	ck_assert_uint_eq(gen_pool_size(pool), 4104);
	text = dump_text(pool, GENALLOC_DUMP_TEXT);
	ck_assert_str_eq(text,
		"modern pool, granule 16, runs of used granules\n"
		"chunk 0x100000 +4096: used 0 (0%) blocks 0 free runs 1 largest free block 4096 "
		"run 4096 |                                |\n"
		"chunk 0x200000 +8: used 0 (0%) blocks 0 free runs 0 largest free block 0 run 0 "
		"|                                |\n"
		"total: 2 chunks, 4104 bytes, used 0, free 4096 in 1 runs, largest free block "
		"4096 run 4096, blocks 0\n");
	free(text);
	text = dump_text(pool, GENALLOC_DUMP_JSON);
	ck_assert_ptr_nonnull(strstr(text, "{\"start\":\"0x200000\",\"size\":8,\"runs\":[],"
					   "\"used\":0,\"free\":0,"));
	ck_assert_ptr_nonnull(strstr(text, "\"totals\":{\"chunks\":2,\"size\":4104,"));
	free(text);
	gen_pool_destroy(pool);
}
END_TEST

/* From inside a walk's callback the dump is refused: nothing written (not
 * even the header), and the report names the call made. */
struct refused {
	int rc;
	char *buf;
	size_t len;
};

static int dump_inside(struct gen_pool *pool, struct gen_pool_chunk *chunk, unsigned long addr,
		       size_t size, bool used, void *data)
{
	struct refused *r = data;
	FILE *f = open_memstream(&r->buf, &r->len);

	(void)chunk;
	(void)addr;
	(void)size;
	(void)used;
	ck_assert_ptr_nonnull(f);
	r->rc = gen_pool_dump(pool, f, r->rc);
	ck_assert_int_eq(fclose(f), 0);
	return 1;
}

START_TEST(refused_dump_writes_nothing)
{
	struct gen_pool *pool = layout(false);
	struct refused r = { .rc = _i ? GENALLOC_DUMP_JSON : GENALLOC_DUMP_TEXT };

	capture_errors();
	ck_assert_int_eq(gen_pool_for_each_run(pool, GEN_POOL_RUNS_ALL, dump_inside, &r), 1);
	ck_assert_int_eq(r.rc, -EDEADLK);
	ck_assert_uint_eq(r.len, 0);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_int_eq(last_error()->code, GENALLOC_EREENTRY);
	ck_assert_str_eq(last_error()->func, "gen_pool_dump");
	free(r.buf);
	gen_pool_free(pool, BASE, 1024);
	gen_pool_destroy(pool);
}
END_TEST

/* Allocating threads against a thread dumping in a loop: every dump must
 * be whole (one line per chunk and the totals) and the pool consistent. */
struct churn {
	struct gen_pool *pool;
	unsigned int seed;
};

static void *churn_thread(void *arg)
{
	struct churn *c = arg;
	unsigned long addr[64] = { 0 };

	for (int i = 0; i < 20000; i++) {
		int k = (int)(rand_r(&c->seed) % 64);

		if (addr[k])
			gen_pool_free(c->pool, addr[k], 48);
		addr[k] = gen_pool_alloc(c->pool, 48);
	}
	for (int k = 0; k < 64; k++)
		if (addr[k])
			gen_pool_free(c->pool, addr[k], 48);
	return NULL;
}

START_TEST(dump_while_others_allocate)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct churn c[2] = { { pool, 1 }, { pool, 2 } };
	pthread_t t[2];

	if (_i)
		ck_assert_int_eq(gen_pool_use_block_records(pool), 0);
	ck_assert_int_eq(gen_pool_add(pool, BASE, 65536, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 2 * BASE, 65536, -1), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn_thread, &c[i]), 0);
	for (int n = 0; n < 200; n++) {
		char *text = dump_text(pool, n % 2 ? GENALLOC_DUMP_JSON : GENALLOC_DUMP_TEXT);

		ck_assert(strstr(text, n % 2 ? "\"totals\":{\"chunks\":2," : "total: 2 chunks"));
		free(text);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 2 * 65536);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_dump_suite(void)
{
	Suite *s = suite_create("modern_dump");
	TCase *tc = tcase_create("dump");

	tcase_add_test(tc, text_has_a_line_per_chunk);
	tcase_add_test(tc, json_with_records_lists_each_block);
	tcase_add_test(tc, bad_arguments_and_write_errors);
	tcase_add_test(tc, chunk_below_a_granule_is_listed);
	tcase_add_loop_test(tc, refused_dump_writes_nothing, 0, 2);
	tcase_add_loop_test(tc, dump_while_others_allocate, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
