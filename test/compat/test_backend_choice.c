// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_backend_choice.c - which engine a pool gets: named at
 * creation, or read from GENALLOC_BACKEND when the pool is created.
 */
#include <stdlib.h>

#include "../support.h"
#include "compat_fixture.h"

static enum compat_backend backend_with_env(const char *value)
{
	struct gen_pool *pool;
	enum compat_backend b;

	if (value)
		ck_assert_int_eq(setenv("GENALLOC_BACKEND", value, 1), 0);
	else
		ck_assert_int_eq(unsetenv("GENALLOC_BACKEND"), 0);
	pool = alloc_gen_pool(0, 0, NULL, 0);
	if (!pool)
		return COMPAT_BACKEND_DEFAULT;
	b = compat_gen_pool_backend(pool);
	gen_pool_destroy(pool);
	return b;
}

START_TEST(environment_picks_the_backend)
{
	capture_errors();
	ck_assert_int_eq(backend_with_env(NULL), COMPAT_BACKEND_BUDDY);
	ck_assert_int_eq(backend_with_env(""), COMPAT_BACKEND_BUDDY);
	ck_assert_int_eq(backend_with_env("buddy"), COMPAT_BACKEND_BUDDY);
	ck_assert_int_eq(backend_with_env("bitmap"), COMPAT_BACKEND_BITMAP);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(unknown_environment_value_is_an_error)
{
	capture_errors();
	ck_assert_int_eq(backend_with_env("Bitmap"), COMPAT_BACKEND_DEFAULT);
	/* The value given, as text: a typo shows itself. */
	ck_assert_str_eq(last_error()->arg, "GENALLOC_BACKEND");
	ck_assert_str_eq(last_error()->arg_text, "Bitmap");
	assert_line_is("genalloc: WARN EINVAL: alloc_gen_pool: GENALLOC_BACKEND is neither \"buddy\" nor \"bitmap\" (pool NULL, addr 0, GENALLOC_BACKEND \"Bitmap\"); set GENALLOC_BACKEND to buddy or bitmap, or unset it (buddy)", NULL, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(backend_with_env("slab"), COMPAT_BACKEND_DEFAULT);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create(0, 0, NULL, 0));
	/* Creation speaks as alloc_gen_pool, by whichever name it was called. */
	ck_assert_str_eq(last_error()->func, "alloc_gen_pool");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
}
END_TEST

/* "Any other value is refused": the names are compared whole, so a value
 * that merely starts like one (or is a prefix of one) is a typo too.  The
 * cases above differ in the first letter; a comparison of the first few
 * characters passed them. */
START_TEST(near_miss_environment_values_are_errors)
{
	static const char *const near[] = { "bitmap2", "bit", "buddy2", "bud", "buddy " };

	capture_errors();
	for (unsigned k = 0; k < sizeof(near) / sizeof(near[0]); k++) {
		ck_assert_msg(backend_with_env(near[k]) == COMPAT_BACKEND_DEFAULT,
			      "GENALLOC_BACKEND=\"%s\" was accepted", near[k]);
		ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	}
}
END_TEST

START_TEST(a_named_backend_ignores_the_environment)
{
	struct gen_pool *pool;

	ck_assert_int_eq(setenv("GENALLOC_BACKEND", "nonsense", 1), 0);
	pool = gen_pool_create_backend(COMPAT_BACKEND_BITMAP, 0, 0, NULL, 0);
	ck_assert_int_eq(compat_gen_pool_backend(pool), COMPAT_BACKEND_BITMAP);
	gen_pool_destroy(pool);
	pool = gen_pool_create_backend(COMPAT_BACKEND_BUDDY, 0, 0, NULL, 0);
	ck_assert_int_eq(compat_gen_pool_backend(pool), COMPAT_BACKEND_BUDDY);
	gen_pool_destroy(pool);
}
END_TEST

/* Both engines in one process, fed from one provider, never confused. */
START_TEST(both_backends_live_in_one_process)
{
	struct fx_provider *p = fx_provider_new(12, 4);
	struct gen_pool *buddy, *bitmap;
	unsigned long a, b;

	ck_assert_int_eq(setenv("GENALLOC_BACKEND", "buddy", 1), 0);
	buddy = gen_pool_create(1, 12, fx_get_new_chunk, (unsigned long)p);
	ck_assert_int_eq(setenv("GENALLOC_BACKEND", "bitmap", 1), 0);
	bitmap = gen_pool_create(1, 12, fx_get_new_chunk, (unsigned long)p);
	ck_assert_int_eq(compat_gen_pool_backend(buddy), COMPAT_BACKEND_BUDDY);
	ck_assert_int_eq(compat_gen_pool_backend(bitmap), COMPAT_BACKEND_BITMAP);
	a = gen_pool_alloc(buddy, 64);
	b = gen_pool_alloc(bitmap, 64);
	ck_assert_uint_eq(a, p->chunk[0]);
	ck_assert_uint_eq(b, p->chunk[1]);
	gen_pool_free(buddy, a, 64);
	gen_pool_free(bitmap, b, 64);
	ck_assert_int_eq(compat_gen_pool_check(buddy), 0);
	ck_assert_int_eq(compat_gen_pool_check(bitmap), 0);
	gen_pool_destroy(buddy);
	gen_pool_destroy(bitmap);
}
END_TEST

/* The 2005 struct layout: the callback reads ->private and the shift. */
static unsigned long layout_cb(struct gen_pool *pool)
{
	struct fx_provider *p = (struct fx_provider *)pool->private;

	ck_assert_int_eq(pool->max_chunk_shift, p->shift);
	ck_assert_ptr_null(pool->h);
	ck_assert_ptr_null(pool->next);
	ck_assert_ptr_eq((void *)pool->get_new_chunk, (void *)layout_cb);
	return fx_get_new_chunk(pool);
}

START_TEST(callback_sees_the_2005_fields)
{
	struct fx_provider *p = fx_provider_new(13, 2);
	struct gen_pool *pool = gen_pool_create_backend(_i ? COMPAT_BACKEND_BITMAP :
							COMPAT_BACKEND_BUDDY,
							2, 13, layout_cb, (unsigned long)p);

	ck_assert_int_eq(atomic_load(&p->calls), 2);
	ck_assert_uint_eq(fx_free_bytes(pool), 2UL << 13);
}
END_TEST

Suite *compat_backend_choice_suite(void)
{
	Suite *s = suite_create("compat_backend_choice");
	TCase *tc = tcase_create("choice");

	tcase_add_test(tc, environment_picks_the_backend);
	tcase_add_test(tc, unknown_environment_value_is_an_error);
	tcase_add_test(tc, near_miss_environment_values_are_errors);
	tcase_add_test(tc, a_named_backend_ignores_the_environment);
	tcase_add_test(tc, both_backends_live_in_one_process);
	tcase_add_loop_test(tc, callback_sees_the_2005_fields, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
