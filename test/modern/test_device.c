// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_device.c - the device model: device lifetime, devres
 * (LIFO release, lookup, misuse), devm_gen_pool_create/gen_pool_get with
 * names and duplicates, of_gen_pool_get over caller-built device trees, the
 * error pointers, and concurrent creation on one device.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/linux/device.h"
#include "modern/linux/err.h"
#include "modern/linux/of.h"
#include "modern/linux/of_address.h"
#include "modern/linux/of_platform.h"
#include "modern/linux/platform_device.h"

/* Somewhere no test maps: the engine never touches managed memory. */
#define BASE 0x40000000UL

static struct device dev;

static void dev_setup(void)
{
	memset(&dev, 0, sizeof(dev));
	dev.name = "test-dev";
	device_initialize(&dev);
}

static void dev_teardown(void)
{
	device_release(&dev);
}

static struct gen_pool *devm_pool(struct device *d, int order, const char *name)
{
	struct gen_pool *pool = devm_gen_pool_create(d, order, -1, name);

	ck_assert_msg(!IS_ERR_OR_NULL(pool), "devm_gen_pool_create(%s) failed",
		      name ? name : "NULL");
	return pool;
}

/* ------------------------------------------------------------ managed pools */

START_TEST(create_and_get_by_name)
{
	char name[] = "alpha";
	struct gen_pool *a = devm_pool(&dev, 4, name);
	struct gen_pool *b = devm_pool(&dev, 5, "beta");
	struct gen_pool *anon = devm_pool(&dev, 6, NULL);

	ck_assert_ptr_ne(a, b);
	ck_assert_int_eq(a->min_alloc_order, 4);
	ck_assert_int_eq(b->min_alloc_order, 5);
	ck_assert_int_eq(anon->min_alloc_order, 6);
	/* The pool keeps its own copy of the name. */
	ck_assert_ptr_ne(a->name, name);
	name[0] = 'X';
	ck_assert_str_eq(a->name, "alpha");
	ck_assert_ptr_null(anon->name);

	ck_assert_ptr_eq(gen_pool_get(&dev, "alpha"), a);
	ck_assert_ptr_eq(gen_pool_get(&dev, "beta"), b);
	ck_assert_ptr_eq(gen_pool_get(&dev, NULL), anon);
	ck_assert_ptr_null(gen_pool_get(&dev, "gamma"));
	ck_assert_ptr_null(gen_pool_get(&dev, "Xlpha"));
}
END_TEST

START_TEST(null_name_matches_only_unnamed_pool)
{
	struct gen_pool *a = devm_pool(&dev, 3, "alpha");

	ck_assert_ptr_null(gen_pool_get(&dev, NULL));
	struct gen_pool *anon = devm_pool(&dev, 3, NULL);

	ck_assert_ptr_eq(gen_pool_get(&dev, NULL), anon);
	ck_assert_ptr_eq(gen_pool_get(&dev, "alpha"), a);
	ck_assert_ptr_null(gen_pool_get(&dev, ""));
}
END_TEST

START_TEST(duplicate_name_refused)
{
	struct gen_pool *a = devm_pool(&dev, 4, "alpha");
	struct gen_pool *dup;

	capture_errors();
	dup = devm_gen_pool_create(&dev, 4, -1, "alpha");
	ck_assert(IS_ERR(dup));
	ck_assert_int_eq(PTR_ERR(dup), -EINVAL);
	/* As the kernel's: refused without a word. */
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_eq(gen_pool_get(&dev, "alpha"), a);
	/* Only one resource was added: the refused call left nothing behind. */
	ck_assert_int_eq(devres_release_all(&dev), 1);
}
END_TEST

START_TEST(duplicate_unnamed_refused)
{
	struct gen_pool *anon = devm_pool(&dev, 4, NULL);
	struct gen_pool *dup;

	capture_errors();
	dup = devm_gen_pool_create(&dev, 7, -1, NULL);
	ck_assert_int_eq(PTR_ERR(dup), -EINVAL);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_eq(gen_pool_get(&dev, NULL), anon);
	/* The same name on another device is fine. */
	struct device other = { .name = "other" };

	device_initialize(&other);
	ck_assert_ptr_ne(devm_pool(&other, 4, NULL), anon);
	device_release(&other);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(bad_order_is_enomem_and_leaves_nothing)
{
	struct gen_pool *pool;

	capture_errors();
	pool = devm_gen_pool_create(&dev, -1, -1, "bad");
	ck_assert(IS_ERR(pool));
	ck_assert_int_eq(PTR_ERR(pool), -ENOMEM);
	/* The engine itself reported the order. */
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_get(&dev, "bad"));
	ck_assert_int_eq(devres_release_all(&dev), 0);
}
END_TEST

START_TEST(release_destroys_pools)
{
	struct gen_pool *a = devm_pool(&dev, 4, "alpha");
	struct gen_pool *anon = devm_pool(&dev, 6, NULL);
	unsigned long addr;

	ck_assert_int_eq(gen_pool_add(a, BASE, 4096, -1), 0);
	ck_assert_int_eq(gen_pool_add(anon, BASE + 0x10000, 4096, -1), 0);
	addr = gen_pool_alloc(a, 100);
	ck_assert_uint_eq(addr, BASE);
	gen_pool_free(a, addr, 100);
	ck_assert_uint_eq(gen_pool_alloc(anon, 64), BASE + 0x10000);
	gen_pool_free(anon, BASE + 0x10000, 64);

	capture_errors();
	device_release(&dev);
	/* Freed pools, chunks and names: ASan and valgrind see no leak. */
	ck_assert_int_eq(errors_seen(), 0);
	/* A released device is empty, and releasing again does nothing. */
	ck_assert_ptr_null(gen_pool_get(&dev, "alpha"));
	ck_assert_ptr_null(gen_pool_get(&dev, NULL));
	ck_assert_int_eq(devres_release_all(&dev), 0);
	device_release(&dev);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(release_with_live_block_reports_ebusy)
{
	struct gen_pool *pool = devm_pool(&dev, 5, "busy");
	unsigned long addr;

	ck_assert_int_eq(gen_pool_add(pool, BASE, 1024, -1), 0);
	addr = gen_pool_alloc(pool, 64);
	ck_assert_uint_ne(addr, 0);

	capture_errors();
	ck_assert_int_eq(devres_release_all(&dev), 1);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	/* The pool survived, intact, and is now the caller's. */
	ck_assert_ptr_null(gen_pool_get(&dev, "busy"));
	ck_assert_uint_eq(gen_pool_avail(pool), 1024 - 64);
	ck_assert_str_eq(pool->name, "busy");
	gen_pool_free(pool, addr, 64);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(release_with_live_block_dies)
{
	struct gen_pool *pool = devm_pool(&dev, 5, NULL);

	ck_assert_int_eq(gen_pool_add(pool, BASE, 1024, -1), 0);
	ck_assert_uint_ne(gen_pool_alloc(pool, 32), 0);
	expect_death();
	device_release(&dev);
}
END_TEST

START_TEST(create_on_bad_device_refused)
{
	struct device junk;
	struct gen_pool *pool;

	memset(&junk, 0xa5, sizeof(junk));	/* garbage, not all zero */
	capture_errors();
	pool = devm_gen_pool_create(NULL, 4, -1, "x");
	ck_assert_int_eq(PTR_ERR(pool), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	pool = devm_gen_pool_create(&junk, 4, -1, "x");
	ck_assert_int_eq(PTR_ERR(pool), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);

	device_release(&dev);
	pool = devm_gen_pool_create(&dev, 4, -1, "x");
	ck_assert_int_eq(PTR_ERR(pool), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);

	ck_assert_ptr_null(gen_pool_get(NULL, "x"));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_get(&junk, NULL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* A released device may live again. */
	device_initialize(&dev);
	pool = devm_pool(&dev, 4, "x");
	ck_assert_ptr_eq(gen_pool_get(&dev, "x"), pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* ------------------------------------------------------------ devres */

struct order_log {
	int seq[8];
	int n;
};

static struct order_log order_log;

struct tagged {
	int tag;
};

static void tagged_release(struct device *d, void *res)
{
	struct tagged *t = res;

	ck_assert_ptr_eq(d, &dev);
	ck_assert_int_lt(order_log.n, 8);
	order_log.seq[order_log.n++] = t->tag;
}

static struct tagged *add_tagged(int tag)
{
	struct tagged *t = devres_alloc(tagged_release, sizeof(*t), GFP_KERNEL);

	ck_assert_ptr_nonnull(t);
	t->tag = tag;
	devres_add(&dev, t);
	return t;
}

START_TEST(release_is_lifo)
{
	memset(&order_log, 0, sizeof(order_log));
	add_tagged(1);
	add_tagged(2);
	devm_pool(&dev, 4, "between");
	add_tagged(3);
	ck_assert_int_eq(devres_release_all(&dev), 4);
	ck_assert_int_eq(order_log.n, 3);
	ck_assert_int_eq(order_log.seq[0], 3);
	ck_assert_int_eq(order_log.seq[1], 2);
	ck_assert_int_eq(order_log.seq[2], 1);

	/* The device stays alive and takes new resources after release_all. */
	add_tagged(4);
	add_tagged(5);
	device_release(&dev);
	ck_assert_int_eq(order_log.n, 5);
	ck_assert_int_eq(order_log.seq[3], 5);
	ck_assert_int_eq(order_log.seq[4], 4);
}
END_TEST

static int tag_match(struct device *d, void *res, void *data)
{
	(void)d;
	return ((struct tagged *)res)->tag == *(int *)data;
}

static void other_release(struct device *d, void *res)
{
	(void)d;
	(void)res;
}

START_TEST(find_newest_match)
{
	memset(&order_log, 0, sizeof(order_log));
	struct tagged *t1 = add_tagged(1);
	struct tagged *t2 = add_tagged(2);
	struct tagged *t1b = add_tagged(1);
	void *o = devres_alloc(other_release, 16, GFP_KERNEL);
	int want;

	devres_add(&dev, o);
	want = 1;
	ck_assert_ptr_eq(devres_find(&dev, tagged_release, tag_match, &want), t1b);
	want = 2;
	ck_assert_ptr_eq(devres_find(&dev, tagged_release, tag_match, &want), t2);
	want = 9;
	ck_assert_ptr_null(devres_find(&dev, tagged_release, tag_match, &want));
	ck_assert_ptr_eq(devres_find(&dev, tagged_release, NULL, NULL), t1b);
	ck_assert_ptr_eq(devres_find(&dev, other_release, NULL, NULL), o);
	ck_assert_ptr_null(devres_find(&dev, NULL, NULL, NULL));
	want = 1;
	ck_assert_ptr_ne(devres_find(&dev, tagged_release, tag_match, &want), t1);
}
END_TEST

START_TEST(alloc_is_zeroed_and_aligned)
{
	for (size_t size = 0; size < 200; size += 13) {
		unsigned char *p = devres_alloc(other_release, size, GFP_KERNEL);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % alignof(max_align_t), 0);
		for (size_t i = 0; i < size; i++)
			ck_assert_uint_eq(p[i], 0);
		devres_free(p);
	}
	devres_free(NULL);
}
END_TEST

START_TEST(alloc_refusals)
{
	capture_errors();
	ck_assert_ptr_null(devres_alloc(NULL, 8, GFP_KERNEL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* An overflowing size is an allocation failure, not a report. */
	ck_assert_ptr_null(devres_alloc(other_release, SIZE_MAX, GFP_KERNEL));
	ck_assert_ptr_null(devres_alloc(other_release, SIZE_MAX - 8, GFP_KERNEL));
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(add_misuse_refused)
{
	struct device junk;
	void *res = devres_alloc(other_release, 8, GFP_KERNEL);

	memset(&junk, 0xa5, sizeof(junk));	/* garbage, not all zero */
	capture_errors();
	devres_add(NULL, res);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	devres_add(&junk, res);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	devres_add(&dev, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);

	devres_add(&dev, res);
	ck_assert_int_eq(errors_seen(), 0);
	devres_add(&dev, res);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(devres_release_all(&dev), 1);

	/* A released device refuses additions; the record stays ours. */
	device_release(&dev);
	res = devres_alloc(other_release, 8, GFP_KERNEL);
	devres_add(&dev, res);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	devres_free(res);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(free_of_added_record_reports_ebusy)
{
	void *res = devres_alloc(other_release, 8, GFP_KERNEL);

	devres_add(&dev, res);
	capture_errors();
	devres_free(res);
	ck_assert_str_eq(last_error()->func, "devres_free");
	ck_assert_uint_eq(last_error()->addr, (uintptr_t)res);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	/* Not freed: the device still owns and releases it. */
	ck_assert_ptr_eq(devres_find(&dev, other_release, NULL, NULL), res);
	ck_assert_int_eq(devres_release_all(&dev), 1);
}
END_TEST

START_TEST(free_of_added_record_dies)
{
	void *res = devres_alloc(other_release, 8, GFP_KERNEL);

	devres_add(&dev, res);
	expect_death();
	devres_free(res);
}
END_TEST

START_TEST(bad_device_in_lookups)
{
	struct device junk;

	memset(&junk, 0xa5, sizeof(junk));	/* garbage, not all zero */
	capture_errors();
	ck_assert_ptr_null(devres_find(NULL, other_release, NULL, NULL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(devres_find(&junk, other_release, NULL, NULL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(devres_release_all(NULL), -ENODEV);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(devres_release_all(&junk), -ENODEV);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	device_initialize(NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* Releasing what is not live is a silent no-op. */
	device_release(NULL);
	device_release(&junk);
	device_release(&dev);
	ck_assert_ptr_null(devres_find(&dev, other_release, NULL, NULL));
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(devm_kzalloc_memory)
{
	unsigned char *p = devm_kzalloc(&dev, 100, GFP_KERNEL);
	struct device junk;

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq((uintptr_t)p % alignof(max_align_t), 0);
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(p[i], 0);
	memset(p, 0xa5, 100);
	ck_assert_ptr_nonnull(devm_kzalloc(&dev, 1, GFP_KERNEL));

	memset(&junk, 0xa5, sizeof(junk));	/* garbage, not all zero */
	capture_errors();
	ck_assert_ptr_null(devm_kzalloc(&dev, 0, GFP_KERNEL));
	ck_assert_ptr_null(devm_kzalloc(&dev, SIZE_MAX, GFP_KERNEL));
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_null(devm_kzalloc(NULL, 8, GFP_KERNEL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(devm_kzalloc(&junk, 8, GFP_KERNEL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(devres_release_all(&dev), 2);
	device_release(&dev);
	ck_assert_ptr_null(devm_kzalloc(&dev, 8, GFP_KERNEL));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
}
END_TEST

/* A release function may use its device: the lock is not held. */
static void reentrant_release(struct device *d, void *res)
{
	(void)res;
	ck_assert_ptr_null(devres_find(d, other_release, NULL, NULL));
	ck_assert_ptr_null(gen_pool_get(d, "p"));
	order_log.n++;
}

/* Tries to give the device one more resource while it is being released. */
static void adding_release(struct device *d, void *res)
{
	void *more = devres_alloc(other_release, 8, GFP_KERNEL);

	(void)res;
	order_log.n++;
	devres_add(d, more);
	if (errors_seen()) {
		devres_free(more);	/* refused: still ours */
		order_log.seq[0] = 1;
	}
}

START_TEST(release_all_keeps_late_additions)
{
	memset(&order_log, 0, sizeof(order_log));
	capture_errors();
	devres_add(&dev, devres_alloc(adding_release, 0, GFP_KERNEL));
	ck_assert_int_eq(devres_release_all(&dev), 1);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_nonnull(devres_find(&dev, other_release, NULL, NULL));
	ck_assert_int_eq(devres_release_all(&dev), 1);
}
END_TEST

START_TEST(device_release_refuses_late_additions)
{
	memset(&order_log, 0, sizeof(order_log));
	capture_errors();
	devres_add(&dev, devres_alloc(adding_release, 0, GFP_KERNEL));
	device_release(&dev);
	ck_assert_int_eq(order_log.n, 1);
	ck_assert_int_eq(order_log.seq[0], 1);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
}
END_TEST

START_TEST(release_may_use_device)
{
	void *r = devres_alloc(reentrant_release, 0, GFP_KERNEL);

	devres_add(&dev, devres_alloc(other_release, 0, GFP_KERNEL));
	devm_pool(&dev, 4, "p");
	devres_add(&dev, r);
	memset(&order_log, 0, sizeof(order_log));
	device_release(&dev);
	ck_assert_int_eq(order_log.n, 1);
}
END_TEST

/* ------------------------------------------------------------ device tree */

/*
 * The tree of the tests:
 *
 *	sram: sram@5c000000 {			bound to sram_dev (named pools)
 *		alpha: part@0 { label = "alpha"; };
 *		part@1000 { };			(no label: full name)
 *		odd: part@2000 { label = <&alpha>; };	(label not a string)
 *		bare { };			(no full name given: name)
 *	};
 *	ocram: ocram@900000 { };		bound to ocram_dev (unnamed pool)
 *	lonely@0 { };				no device, parent has none
 *	consumer {
 *		pools = <&ocram &alpha &part1000 0 &lonely &odd &bare>;
 *		label = "consumer";
 *	};
 */
struct tree {
	struct device sram_dev, ocram_dev;
	struct device_node root, sram, alpha, part1000, odd, bare, ocram, lonely,
		consumer;
	struct property alpha_label, odd_label, pools, consumer_label;
	struct device_node *pool_list[7];
	struct device_node *odd_list[1];
};

static struct tree t;

static void tree_setup(void)
{
	memset(&t, 0, sizeof(t));
	t.root = (struct device_node){ .name = "", .full_name = "/" };
	t.sram = (struct device_node){ .name = "sram", .full_name = "sram@5c000000",
				       .parent = &t.root };
	t.alpha_label = (struct property){ .name = "label", .string = "alpha" };
	t.alpha = (struct device_node){ .name = "part", .full_name = "part@0",
					.parent = &t.sram, .properties = &t.alpha_label };
	t.part1000 = (struct device_node){ .name = "part", .full_name = "part@1000",
					   .parent = &t.sram };
	t.odd_list[0] = &t.alpha;
	t.odd_label = (struct property){ .name = "label", .phandles = t.odd_list,
					 .nr_phandles = 1 };
	t.odd = (struct device_node){ .name = "part", .full_name = "part@2000",
				      .parent = &t.sram, .properties = &t.odd_label };
	t.bare = (struct device_node){ .name = "bare", .parent = &t.sram };
	t.ocram = (struct device_node){ .name = "ocram", .full_name = "ocram@900000",
					.parent = &t.root };
	t.lonely = (struct device_node){ .name = "lonely", .full_name = "lonely@0",
					 .parent = &t.root };
	t.pool_list[0] = &t.ocram;
	t.pool_list[1] = &t.alpha;
	t.pool_list[2] = &t.part1000;
	t.pool_list[3] = NULL;
	t.pool_list[4] = &t.lonely;
	t.pool_list[5] = &t.odd;
	t.pool_list[6] = &t.bare;
	t.consumer_label = (struct property){ .name = "label", .string = "consumer" };
	t.pools = (struct property){ .name = "pools", .phandles = t.pool_list,
				     .nr_phandles = 7, .next = &t.consumer_label };
	t.consumer = (struct device_node){ .name = "consumer", .full_name = "consumer",
					   .parent = &t.root, .properties = &t.pools };

	t.sram_dev.name = "sram";
	device_initialize(&t.sram_dev);
	device_set_of_node(&t.sram_dev, &t.sram);
	t.ocram_dev.name = "ocram";
	device_initialize(&t.ocram_dev);
	device_set_of_node(&t.ocram_dev, &t.ocram);
}

static void tree_teardown(void)
{
	device_release(&t.sram_dev);
	device_release(&t.ocram_dev);
}

START_TEST(of_phandle_to_bound_device)
{
	struct gen_pool *anon = devm_pool(&t.ocram_dev, 4, NULL);

	ck_assert_ptr_eq(t.ocram_dev.of_node, &t.ocram);
	ck_assert_ptr_eq(t.ocram.device, &t.ocram_dev);
	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 0), anon);
}
END_TEST

START_TEST(of_bound_device_needs_unnamed_pool)
{
	/* A named pool of the bound device is not what the phandle means. */
	devm_pool(&t.ocram_dev, 4, "ocram@900000");
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 0));
}
END_TEST

START_TEST(of_label_names_parent_pool)
{
	struct gen_pool *alpha = devm_pool(&t.sram_dev, 3, "alpha");
	struct gen_pool *part = devm_pool(&t.sram_dev, 3, "part@1000");
	struct gen_pool *odd = devm_pool(&t.sram_dev, 3, "part@2000");
	struct gen_pool *bare = devm_pool(&t.sram_dev, 3, "bare");

	devm_pool(&t.sram_dev, 3, NULL);	/* never chosen by name */
	devm_pool(&t.sram_dev, 3, "part@0");	/* the label wins over this */
	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 1), alpha);
	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 2), part);
	/* A "label" that is not a string falls back to the full name. */
	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 5), odd);
	/* No full name given: the node name is its full name. */
	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 6), bare);
}
END_TEST

START_TEST(of_label_without_pool)
{
	/* The parent device exists but made no pool of that name. */
	devm_pool(&t.sram_dev, 3, "beta");
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 1));
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 2));
}
END_TEST

START_TEST(of_unresolvable_gives_null)
{
	devm_pool(&t.ocram_dev, 4, NULL);
	devm_pool(&t.sram_dev, 3, "alpha");
	capture_errors();
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 3));	/* <0> */
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 4));	/* no device */
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 7));	/* past end */
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", -1));
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "nosuch", 0));
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "label", 0));	/* a string */
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, NULL, 0));
	ck_assert_ptr_null(of_gen_pool_get(NULL, "pools", 0));
	ck_assert_ptr_null(of_gen_pool_get(&t.root, "pools", 0));	/* no properties */
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(of_released_device_has_no_pool)
{
	struct gen_pool *alpha = devm_pool(&t.sram_dev, 3, "alpha");

	ck_assert_ptr_eq(of_gen_pool_get(&t.consumer, "pools", 1), alpha);
	device_release(&t.sram_dev);
	ck_assert_ptr_null(of_gen_pool_get(&t.consumer, "pools", 1));
}
END_TEST

START_TEST(of_helpers)
{
	const char *s = "untouched";
	int len = -1;

	ck_assert_ptr_eq(of_find_property(&t.consumer, "label", &len), &t.consumer_label);
	ck_assert_int_eq(len, (int)sizeof("consumer"));
	ck_assert_ptr_eq(of_find_property(&t.consumer, "pools", &len), &t.pools);
	ck_assert_int_eq(len, 7 * 4);
	ck_assert_ptr_null(of_find_property(&t.consumer, "nosuch", &len));
	ck_assert_int_eq(len, 7 * 4);	/* untouched when not found, as the kernel */
	ck_assert_ptr_null(of_find_property(NULL, "label", NULL));
	ck_assert_ptr_null(of_find_property(&t.consumer, NULL, NULL));

	ck_assert_int_eq(of_property_read_string(&t.consumer, "pools", &s), -EILSEQ);
	ck_assert_int_eq(of_property_read_string(&t.consumer, "nosuch", &s), -EINVAL);
	ck_assert_int_eq(of_property_read_string(NULL, "label", &s), -EINVAL);
	ck_assert_int_eq(of_property_read_string(&t.consumer, "label", NULL), -EINVAL);
	ck_assert_str_eq(s, "untouched");
	ck_assert_int_eq(of_property_read_string(&t.consumer, "label", &s), 0);
	ck_assert_str_eq(s, "consumer");

	/* A nameless property is skipped, never matched. */
	struct property empty = { .name = "empty" };
	struct property nameless = { .name = NULL, .string = "x", .next = &empty };
	struct device_node holder = { .name = "h", .properties = &nameless };

	ck_assert_int_eq(of_property_read_string(&holder, "empty", &s), -ENODATA);
	ck_assert_ptr_eq(of_find_property(&holder, "empty", &len), &empty);
	ck_assert_int_eq(len, 0);
	ck_assert_ptr_null(of_parse_phandle(&holder, "empty", 0));

	ck_assert_ptr_eq(of_parse_phandle(&t.consumer, "pools", 2), &t.part1000);
	ck_assert_ptr_null(of_parse_phandle(&t.consumer, "pools", 3));
	ck_assert_ptr_eq(of_get_parent(&t.alpha), &t.sram);
	ck_assert_ptr_null(of_get_parent(&t.root));
	ck_assert_ptr_null(of_get_parent(NULL));
	/* Bound, and of_gen_pool_get() finds its pools, but it is no platform
	 * device: the kernel's of_find_device_by_node() would not find it. */
	ck_assert_ptr_eq(t.sram.device, &t.sram_dev);
	ck_assert_ptr_null(of_find_device_by_node(&t.sram));
	ck_assert_ptr_null(of_find_device_by_node(&t.alpha));
	ck_assert_ptr_null(of_find_device_by_node(NULL));

	ck_assert_str_eq(of_node_full_name(&t.part1000), "part@1000");
	ck_assert_str_eq(of_node_full_name(&t.bare), "bare");
	ck_assert_str_eq(of_node_full_name(NULL), "<no-node>");
	struct device_node anon = { .name = NULL };

	ck_assert_str_eq(of_node_full_name(&anon), "");
	ck_assert_ptr_eq(of_node_get(&t.sram), &t.sram);
	of_node_put(&t.sram);

	ck_assert_str_eq(dev_name(&t.sram_dev), "sram");
	ck_assert_str_eq(dev_name(NULL), "");
	struct device unnamed = { .name = NULL };

	ck_assert_str_eq(dev_name(&unnamed), "");
	device_set_of_node(&unnamed, NULL);
	ck_assert_ptr_null(unnamed.of_node);
}
END_TEST

/* ------------------------------------------------------------ look-ups */

/*
 * A tree as a .dts would give it, built with of_node_add_child():
 *
 *	/ {
 *		#address-cells = <1>; #size-cells = <1>;
 *		soc {
 *			compatible = "simple-bus"; ranges;
 *			sram@5c000000 {
 *				compatible = "acme,sram", "mmio-sram";
 *				reg = <0x5c000000 0x40000>;
 *				#address-cells = <1>; #size-cells = <1>;
 *				ranges = <0 0x5c000000 0x40000>;
 *				part@0 { reg = <0 0x1000>; pool; label = "alpha"; };
 *				part@1000 { reg = <0x1000 0x800>; export; status = "disabled"; };
 *				part@2000 { reg = <0x2000 0x400 0x3000 0x400>;
 *					    reg-names = "a", "b"; status = "okay"; };
 *			};
 *			muram@110000 { compatible = "fsl,cpm-muram-data"; device_type = "muram";
 *				       reg = <0x110000 0x2000 0x118000 0x1000>; };
 *			data-only { status = "ok"; };
 *		};
 *		wide {	#address-cells = <2>; #size-cells = <2>;
 *			ranges = <0 0 0x80000000 0 0x10000>;
 *			dev@100 { reg = <0 0x100 0 0x20  0 0x20000 0 0x10>; };
 *		};
 *		nobus { #address-cells = <1>; #size-cells = <1>;
 *			dev@0 { reg = <0 0x10>; }; };
 *		zero { #size-cells = <0>; dev@0 { reg = <4>; }; };
 *	};
 */
struct lk_tree {
	struct device_node root, soc, sram, part0, part1000, part2000, muram, dataonly,
		wide, widedev, nobus, nobusdev, zero, zerodev;
	struct property p[40];
	int np;
};

static struct lk_tree lk;

static const uint32_t one[] = { 1 }, two[] = { 2 }, none[] = { 0 };
static const uint32_t sram_reg[] = { 0x5c000000, 0x40000 };
static const uint32_t sram_ranges[] = { 0, 0x5c000000, 0x40000 };
static const uint32_t part0_reg[] = { 0, 0x1000 }, part1000_reg[] = { 0x1000, 0x800 };
static const uint32_t part2000_reg[] = { 0x2000, 0x400, 0x3000, 0x400 };
static const uint32_t muram_reg[] = { 0x110000, 0x2000, 0x118000, 0x1000 };
static const uint32_t wide_ranges[] = { 0, 0, 0x80000000, 0, 0x10000 };
static const uint32_t widedev_reg[] = { 0, 0x100, 0, 0x20, 0, 0x20000, 0, 0x10 };
static const uint32_t small_reg[] = { 0, 0x10 }, zero_reg[] = { 4 };

#define CELLS(a) .cells = (a), .nr_cells = (int)(sizeof(a) / sizeof((a)[0]))

static void lk_prop(struct device_node *np, struct property pp)
{
	struct property *slot = &lk.p[lk.np++], **link;

	ck_assert_int_le(lk.np, (int)(sizeof(lk.p) / sizeof(lk.p[0])));
	*slot = pp;
	for (link = &np->properties; *link; link = &(*link)->next)
		;
	*link = slot;
}

static void lk_node(struct device_node *np, struct device_node *parent, const char *name,
		    const char *full_name)
{
	*np = (struct device_node){ .name = name, .full_name = full_name };
	if (parent)
		of_node_add_child(parent, np);
}

static void lookup_setup(void)
{
	memset(&lk, 0, sizeof(lk));
	lk_node(&lk.root, NULL, "", "/");
	lk_prop(&lk.root, (struct property){ .name = "#address-cells", CELLS(one) });
	lk_prop(&lk.root, (struct property){ .name = "#size-cells", CELLS(one) });
	lk_node(&lk.soc, &lk.root, "soc", "soc");
	lk_prop(&lk.soc, (struct property){ .name = "compatible", .string = "simple-bus" });
	lk_prop(&lk.soc, (struct property){ .name = "ranges" });
	lk_node(&lk.sram, &lk.soc, "sram", "sram@5c000000");
	lk_prop(&lk.sram, (struct property){ .name = "compatible",
					     .string = "acme,sram\0mmio-sram",
					     .length = sizeof("acme,sram\0mmio-sram") });
	lk_prop(&lk.sram, (struct property){ .name = "reg", CELLS(sram_reg) });
	lk_prop(&lk.sram, (struct property){ .name = "#address-cells", CELLS(one) });
	lk_prop(&lk.sram, (struct property){ .name = "#size-cells", CELLS(one) });
	lk_prop(&lk.sram, (struct property){ .name = "ranges", CELLS(sram_ranges) });
	lk_node(&lk.part0, &lk.sram, "part", "part@0");
	lk_prop(&lk.part0, (struct property){ .name = "reg", CELLS(part0_reg) });
	lk_prop(&lk.part0, (struct property){ .name = "pool" });
	lk_prop(&lk.part0, (struct property){ .name = "label", .string = "alpha" });
	lk_node(&lk.part1000, &lk.sram, "part", "part@1000");
	lk_prop(&lk.part1000, (struct property){ .name = "reg", CELLS(part1000_reg) });
	lk_prop(&lk.part1000, (struct property){ .name = "export" });
	lk_prop(&lk.part1000, (struct property){ .name = "status", .string = "disabled" });
	lk_node(&lk.part2000, &lk.sram, "part", "part@2000");
	lk_prop(&lk.part2000, (struct property){ .name = "reg", CELLS(part2000_reg) });
	lk_prop(&lk.part2000, (struct property){ .name = "reg-names", .string = "a\0b",
						 .length = sizeof("a\0b") });
	lk_prop(&lk.part2000, (struct property){ .name = "status", .string = "okay" });
	lk_node(&lk.muram, &lk.soc, "muram", "muram@110000");
	lk_prop(&lk.muram, (struct property){ .name = "compatible",
					      .string = "fsl,cpm-muram-data" });
	lk_prop(&lk.muram, (struct property){ .name = "device_type", .string = "muram" });
	lk_prop(&lk.muram, (struct property){ .name = "reg", CELLS(muram_reg) });
	lk_node(&lk.dataonly, &lk.soc, "data-only", "data-only");
	lk_prop(&lk.dataonly, (struct property){ .name = "status", .string = "ok" });
	lk_node(&lk.wide, &lk.root, "wide", "wide");
	lk_prop(&lk.wide, (struct property){ .name = "#address-cells", CELLS(two) });
	lk_prop(&lk.wide, (struct property){ .name = "#size-cells", CELLS(two) });
	lk_prop(&lk.wide, (struct property){ .name = "ranges", CELLS(wide_ranges) });
	lk_node(&lk.widedev, &lk.wide, "dev", "dev@100");
	lk_prop(&lk.widedev, (struct property){ .name = "reg", CELLS(widedev_reg) });
	lk_node(&lk.nobus, &lk.root, "nobus", "nobus");
	lk_prop(&lk.nobus, (struct property){ .name = "#address-cells", CELLS(one) });
	lk_prop(&lk.nobus, (struct property){ .name = "#size-cells", CELLS(one) });
	lk_node(&lk.nobusdev, &lk.nobus, "dev", "dev@0");
	lk_prop(&lk.nobusdev, (struct property){ .name = "reg", CELLS(small_reg) });
	lk_node(&lk.zero, &lk.root, "zero", "zero");
	lk_prop(&lk.zero, (struct property){ .name = "#size-cells", CELLS(none) });
	lk_node(&lk.zerodev, &lk.zero, "dev", "dev@0");
	lk_prop(&lk.zerodev, (struct property){ .name = "reg", CELLS(zero_reg) });
	of_set_root(&lk.root);
}

static void lookup_teardown(void)
{
	of_set_root(NULL);
}

START_TEST(tree_is_built_in_order)
{
	int wide_children;

	ck_assert_ptr_eq(lk.root.child, &lk.soc);
	ck_assert_ptr_eq(lk.soc.sibling, &lk.wide);
	ck_assert_ptr_eq(lk.wide.sibling, &lk.nobus);
	ck_assert_ptr_eq(lk.nobus.sibling, &lk.zero);
	ck_assert_ptr_null(lk.zero.sibling);
	ck_assert_ptr_eq(lk.part1000.parent, &lk.sram);
	ck_assert_ptr_eq(of_get_parent(&lk.part2000), &lk.sram);
	capture_errors();
	of_node_add_child(NULL, &lk.part0);
	ck_assert_int_eq(last_error()->severity, GENALLOC_WARN);
	ck_assert_int_eq(last_error()->code, GENALLOC_EINVAL);
	of_node_add_child(&lk.sram, NULL);
	ck_assert_int_eq(errors_seen(), 2);
	/* A node already in a tree, or a node under itself: refused, the
	 * tree unchanged. */
	of_node_add_child(&lk.sram, &lk.part0);
	ck_assert_int_eq(errors_seen(), 3);
	ck_assert_int_eq(last_error()->code, GENALLOC_EINVAL);
	wide_children = of_get_child_count(&lk.wide);
	of_node_add_child(&lk.wide, &lk.part1000);
	of_node_add_child(&lk.zero, &lk.zero);
	ck_assert_int_eq(errors_seen(), 5);
	ck_assert_ptr_eq(lk.part0.parent, &lk.sram);
	ck_assert_ptr_eq(lk.part1000.parent, &lk.sram);
	ck_assert_int_eq(of_get_child_count(&lk.sram), 3);
	ck_assert_int_eq(of_get_child_count(&lk.wide), wide_children);
}
END_TEST

START_TEST(children_in_order)
{
	struct device_node *child, *seen[4];
	int n = 0;

	for_each_child_of_node(&lk.sram, child) {
		ck_assert_int_lt(n, 4);
		seen[n++] = child;
	}
	ck_assert_int_eq(n, 3);
	ck_assert_ptr_eq(seen[0], &lk.part0);
	ck_assert_ptr_eq(seen[1], &lk.part1000);
	ck_assert_ptr_eq(seen[2], &lk.part2000);
	ck_assert_ptr_eq(of_get_next_child(&lk.sram, NULL), &lk.part0);
	ck_assert_ptr_eq(of_get_next_child(&lk.sram, &lk.part0), &lk.part1000);
	ck_assert_ptr_null(of_get_next_child(&lk.sram, &lk.part2000));
	ck_assert_ptr_null(of_get_next_child(&lk.part0, NULL));	/* a leaf */
	ck_assert_ptr_null(of_get_next_child(NULL, NULL));
	ck_assert_int_eq(of_get_child_count(&lk.part0), 0);
	ck_assert_int_eq(of_get_child_count(NULL), 0);
	ck_assert_int_eq(of_get_child_count(&lk.root), 4);

	/* part@1000 is disabled; "okay", "ok" and no status are available. */
	n = 0;
	for_each_available_child_of_node(&lk.sram, child)
		seen[n++] = child;
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_eq(seen[0], &lk.part0);
	ck_assert_ptr_eq(seen[1], &lk.part2000);
	ck_assert_ptr_eq(of_get_next_available_child(&lk.sram, &lk.part0), &lk.part2000);
	ck_assert_ptr_null(of_get_next_available_child(NULL, NULL));
	ck_assert_int_eq(of_get_available_child_count(&lk.sram), 2);
	ck_assert(of_device_is_available(&lk.part0));
	ck_assert(!of_device_is_available(&lk.part1000));
	ck_assert(of_device_is_available(&lk.part2000));
	ck_assert(of_device_is_available(&lk.dataonly));
	ck_assert(!of_device_is_available(NULL));
	/* A status that is no string is not "okay". */
	lk_prop(&lk.part0, (struct property){ .name = "status", CELLS(one) });
	ck_assert(!of_device_is_available(&lk.part0));
}
END_TEST

START_TEST(find_compatible)
{
	struct device_node *np;
	int n = 0;

	ck_assert_ptr_eq(of_find_compatible_node(NULL, NULL, "mmio-sram"), &lk.sram);
	ck_assert_ptr_eq(of_find_compatible_node(NULL, NULL, "acme,sram"), &lk.sram);
	ck_assert_ptr_eq(of_find_compatible_node(NULL, NULL, "MMIO-SRAM"), &lk.sram);
	ck_assert_ptr_null(of_find_compatible_node(NULL, NULL, "mmio"));	/* whole strings */
	ck_assert_ptr_null(of_find_compatible_node(NULL, NULL, "nosuch"));
	/* @from itself is not a candidate; the search goes on after it. */
	ck_assert_ptr_null(of_find_compatible_node(&lk.sram, NULL, "mmio-sram"));
	ck_assert_ptr_eq(of_find_compatible_node(&lk.soc, NULL, "mmio-sram"), &lk.sram);
	ck_assert_ptr_eq(of_find_compatible_node(&lk.part2000, NULL, "fsl,cpm-muram-data"),
			 &lk.muram);
	ck_assert_ptr_null(of_find_compatible_node(&lk.muram, NULL, "simple-bus"));
	/* The type must match as well; a type alone is enough. */
	ck_assert_ptr_eq(of_find_compatible_node(NULL, "muram", "fsl,cpm-muram-data"),
			 &lk.muram);
	ck_assert_ptr_null(of_find_compatible_node(NULL, "memory", "fsl,cpm-muram-data"));
	ck_assert_ptr_eq(of_find_compatible_node(NULL, "muram", NULL), &lk.muram);
	/* Nothing asked, nothing found. */
	ck_assert_ptr_null(of_find_compatible_node(NULL, NULL, NULL));
	ck_assert_ptr_null(of_find_compatible_node(NULL, NULL, ""));
	ck_assert_ptr_null(of_find_compatible_node(NULL, "", ""));

	for_each_compatible_node(np, NULL, "simple-bus")
		n++;
	ck_assert_int_eq(n, 1);

	/* The kernel's score: the first string beats the second. */
	ck_assert_int_eq(of_device_is_compatible(&lk.sram, "acme,sram"), INT_MAX / 2);
	ck_assert_int_eq(of_device_is_compatible(&lk.sram, "mmio-sram"), INT_MAX / 2 - 4);
	ck_assert_int_eq(of_device_is_compatible(&lk.sram, "simple-bus"), 0);
	ck_assert_int_eq(of_device_is_compatible(&lk.sram, ""), 0);
	ck_assert_int_eq(of_device_is_compatible(&lk.sram, NULL), 0);
	ck_assert_int_eq(of_device_is_compatible(NULL, "mmio-sram"), 0);
	ck_assert_int_eq(of_device_is_compatible(&lk.part0, "mmio-sram"), 0);

	ck_assert_ptr_eq(of_find_node_by_name(NULL, "data-only"), &lk.dataonly);
	ck_assert_ptr_eq(of_find_node_by_name(NULL, "part"), &lk.part0);
	ck_assert_ptr_eq(of_find_node_by_name(&lk.part0, "part"), &lk.part1000);
	ck_assert_ptr_eq(of_find_node_by_name(&lk.part2000, "dev"), &lk.widedev);
	ck_assert_ptr_null(of_find_node_by_name(NULL, "nosuch"));
	ck_assert_ptr_null(of_find_node_by_name(NULL, NULL));

	/* Without a root, a search from NULL finds nothing; one from a node
	 * still walks that node's tree. */
	of_set_root(NULL);
	ck_assert_ptr_null(of_find_compatible_node(NULL, NULL, "mmio-sram"));
	ck_assert_ptr_null(of_find_node_by_name(NULL, "data-only"));
	ck_assert_ptr_eq(of_find_compatible_node(&lk.soc, NULL, "mmio-sram"), &lk.sram);
}
END_TEST

START_TEST(read_properties)
{
	const char *s = "untouched";
	uint32_t v = 77;
	int len = -1;

	ck_assert(of_property_read_bool(&lk.part0, "pool"));
	ck_assert(!of_property_read_bool(&lk.part0, "export"));
	ck_assert(of_property_read_bool(&lk.part1000, "export"));
	ck_assert(of_property_read_bool(&lk.part0, "label"));	/* present is true */
	ck_assert(!of_property_read_bool(NULL, "pool"));
	ck_assert(!of_property_read_bool(&lk.part0, NULL));
	ck_assert(of_property_present(&lk.sram, "ranges"));
	ck_assert(!of_property_present(&lk.part0, "ranges"));

	/* A string list: the first string, its whole length. */
	ck_assert_int_eq(of_property_read_string(&lk.sram, "compatible", &s), 0);
	ck_assert_str_eq(s, "acme,sram");
	ck_assert_ptr_nonnull(of_find_property(&lk.sram, "compatible", &len));
	ck_assert_int_eq(len, (int)sizeof("acme,sram\0mmio-sram"));
	ck_assert_ptr_nonnull(of_find_property(&lk.muram, "reg", &len));
	ck_assert_int_eq(len, 4 * 4);
	ck_assert_int_eq(of_property_read_string(&lk.sram, "reg", &s), -ENODATA);

	ck_assert_int_eq(of_property_read_u32(&lk.sram, "#address-cells", &v), 0);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(of_property_read_u32(&lk.muram, "reg", &v), 0);
	ck_assert_int_eq(v, 0x110000);
	v = 77;
	ck_assert_int_eq(of_property_read_u32(&lk.sram, "compatible", &v), -EOVERFLOW);
	ck_assert_int_eq(of_property_read_u32(&lk.part0, "pool", &v), -ENODATA);
	ck_assert_int_eq(of_property_read_u32(&lk.part0, "nosuch", &v), -EINVAL);
	ck_assert_int_eq(of_property_read_u32(NULL, "reg", &v), -EINVAL);
	ck_assert_int_eq(of_property_read_u32(&lk.part0, "reg", NULL), -EINVAL);
	ck_assert_int_eq(v, 77);
}
END_TEST

static void expect_resource(struct device_node *np, int index, resource_size_t start,
			    resource_size_t size, const char *name)
{
	struct resource r;

	memset(&r, 0xa5, sizeof(r));
	ck_assert_int_eq(of_address_to_resource(np, index, &r), 0);
	ck_assert_uint_eq(r.start, start);
	ck_assert_uint_eq(r.end, start + size - 1);
	ck_assert_uint_eq(resource_size(&r), size);
	ck_assert_uint_eq(r.flags, IORESOURCE_MEM);
	ck_assert_uint_eq(resource_type(&r), IORESOURCE_MEM);
	ck_assert_uint_eq(r.desc, 0);
	ck_assert_str_eq(r.name, name);
}

START_TEST(address_to_resource)
{
	struct resource r;

	/* Through the soc's empty "ranges": 1:1. */
	expect_resource(&lk.sram, 0, 0x5c000000, 0x40000, "sram@5c000000");
	/* Through the SRAM's "ranges": offsets become CPU addresses. */
	expect_resource(&lk.part0, 0, 0x5c000000, 0x1000, "part@0");
	expect_resource(&lk.part1000, 0, 0x5c001000, 0x800, "part@1000");
	expect_resource(&lk.part2000, 0, 0x5c002000, 0x400, "a");
	expect_resource(&lk.part2000, 1, 0x5c003000, 0x400, "b");
	expect_resource(&lk.muram, 0, 0x110000, 0x2000, "muram@110000");
	expect_resource(&lk.muram, 1, 0x118000, 0x1000, "muram@110000");
	/* Two cells of address and of size, into a bus of one. */
	expect_resource(&lk.widedev, 0, 0x80000100, 0x20, "dev@100");

	memset(&r, 0x5a, sizeof(r));
	/* Past the entries, negative, no "reg" at all. */
	ck_assert_int_eq(of_address_to_resource(&lk.part2000, 2, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.muram, 2, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.part0, -1, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.soc, 0, &r), -EINVAL);
	/* An address outside every "ranges" entry; a bus with no "ranges";
	 * a bus with #size-cells 0; the root, which has no parent bus. */
	ck_assert_int_eq(of_address_to_resource(&lk.widedev, 1, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.nobusdev, 0, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.zerodev, 0, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.root, 0, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(NULL, 0, &r), -EINVAL);
	ck_assert_int_eq(of_address_to_resource(&lk.sram, 0, NULL), -EINVAL);
	ck_assert_uint_eq(r.start, 0x5a5a5a5a5a5a5a5aULL);	/* untouched */
	/* A "reg" with a partial entry: the whole entries are read. */
	lk.p[lk.np - 1].nr_cells = 3;	/* the zero bus's dev: one cell is now 3 */
	ck_assert_int_eq(of_address_to_resource(&lk.zerodev, 0, &r), -EINVAL);
}
END_TEST

START_TEST(platform_devices)
{
	struct resource res[2] = {
		{ .start = 0x5c000000, .end = 0x5c03ffff, .flags = IORESOURCE_MEM },
		{ .start = 0x10, .end = 0x1f, .flags = IORESOURCE_IO },
	};
	struct platform_device pdev = { .name = "mmio-sram", .id = PLATFORM_DEVID_NONE,
					.num_resources = 2, .resource = res };
	struct platform_device other = { .name = "other" };
	struct device plain = { .name = "plain" };
	int pdata = 7, drv = 9;
	struct device_node *phandle[1] = { &lk.part0 };
	struct property pools = { .name = "sram", .phandles = phandle, .nr_phandles = 1 };
	struct device_node consumer = { .name = "consumer", .properties = &pools };

	pdev.dev.of_node = &lk.sram;
	pdev.dev.platform_data = &pdata;
	ck_assert_ptr_null(of_find_device_by_node(&lk.sram));
	ck_assert_int_eq(platform_device_register(&pdev), 0);
	ck_assert(_Generic(of_find_device_by_node(&lk.sram), struct platform_device *: 1,
			   default: 0));
	ck_assert_ptr_eq(of_find_device_by_node(&lk.sram), &pdev);
	ck_assert_ptr_eq(to_platform_device(&pdev.dev), &pdev);
	ck_assert_ptr_eq(pdev.dev.bus, &platform_bus_type);
	ck_assert(dev_is_platform(&pdev.dev));
	ck_assert(!dev_is_platform(&plain));
	ck_assert_str_eq(dev_name(&pdev.dev), "mmio-sram");
	ck_assert_ptr_eq(dev_get_platdata(&pdev.dev), &pdata);
	ck_assert_ptr_null(platform_get_drvdata(&pdev));
	platform_set_drvdata(&pdev, &drv);
	ck_assert_ptr_eq(platform_get_drvdata(&pdev), &drv);
	ck_assert_ptr_eq(dev_get_drvdata(&pdev.dev), &drv);
	dev_set_drvdata(&plain, &pdata);
	ck_assert_ptr_eq(dev_get_drvdata(&plain), &pdata);
	ck_assert_ptr_eq(get_device(&pdev.dev), &pdev.dev);
	put_device(&pdev.dev);

	ck_assert_ptr_eq(platform_get_resource(&pdev, IORESOURCE_MEM, 0), &res[0]);
	ck_assert_ptr_eq(platform_get_resource(&pdev, IORESOURCE_IO, 0), &res[1]);
	ck_assert_ptr_null(platform_get_resource(&pdev, IORESOURCE_MEM, 1));

	/* A registered device owns pools, found through the tree. */
	struct gen_pool *alpha = devm_pool(&pdev.dev, 5, "alpha");

	ck_assert_ptr_eq(of_gen_pool_get(&consumer, "sram", 0), alpha);

	/* The node is taken: another device is refused, nothing changes. */
	capture_errors();
	other.dev.of_node = &lk.sram;
	ck_assert_int_eq(platform_device_register(&other), -EBUSY);
	ck_assert_int_eq(last_error()->severity, GENALLOC_WARN);
	ck_assert_int_eq(last_error()->code, GENALLOC_EINVAL);
	ck_assert_ptr_null(other.dev.bus);
	ck_assert_ptr_eq(of_find_device_by_node(&lk.sram), &pdev);
	ck_assert_int_eq(platform_device_register(NULL), -EINVAL);
	ck_assert_int_eq(errors_seen(), 2);
	/* Registering again keeps what the device owns. */
	ck_assert_int_eq(platform_device_register(&pdev), 0);
	ck_assert_ptr_eq(of_gen_pool_get(&consumer, "sram", 0), alpha);

	platform_device_unregister(&pdev);
	ck_assert_ptr_null(of_find_device_by_node(&lk.sram));
	ck_assert_ptr_null(lk.sram.device);
	ck_assert_ptr_null(of_gen_pool_get(&consumer, "sram", 0));
	platform_device_unregister(NULL);
	ck_assert_int_eq(errors_seen(), 2);

	/* Now the other one may have it; a device without a node is fine. */
	ck_assert_int_eq(platform_device_register(&other), 0);
	ck_assert_ptr_eq(of_find_device_by_node(&lk.sram), &other);
	ck_assert_str_eq(dev_name(&other.dev), "other");
	platform_device_unregister(&other);
	other.dev.of_node = NULL;
	ck_assert_int_eq(platform_device_register(&other), 0);
	ck_assert_ptr_null(of_find_device_by_node(&lk.sram));
	platform_device_unregister(&other);
}
END_TEST

/* ------------------------------------------------------------ error pointers */

START_TEST(error_pointers)
{
	int obj;

	ck_assert(IS_ERR(ERR_PTR(-EINVAL)));
	ck_assert_int_eq(PTR_ERR(ERR_PTR(-EINVAL)), -EINVAL);
	ck_assert(IS_ERR(ERR_PTR(-1)));
	ck_assert(IS_ERR(ERR_PTR(-MAX_ERRNO)));
	ck_assert_int_eq(PTR_ERR(ERR_PTR(-MAX_ERRNO)), -4095);
	ck_assert(!IS_ERR(ERR_PTR(-MAX_ERRNO - 1)));
	ck_assert(!IS_ERR(NULL));
	ck_assert(!IS_ERR(&obj));
	ck_assert(IS_ERR_OR_NULL(NULL));
	ck_assert(IS_ERR_OR_NULL(ERR_PTR(-ENOMEM)));
	ck_assert(!IS_ERR_OR_NULL(&obj));
	ck_assert_ptr_eq(ERR_CAST(ERR_PTR(-ENODEV)), ERR_PTR(-ENODEV));
	ck_assert_int_eq(PTR_ERR_OR_ZERO(ERR_PTR(-ENODEV)), -ENODEV);
	ck_assert_int_eq(PTR_ERR_OR_ZERO(&obj), 0);
	ck_assert_int_eq(PTR_ERR_OR_ZERO(NULL), 0);
	ck_assert(IS_ERR_VALUE((unsigned long)-EINVAL));
	ck_assert(!IS_ERR_VALUE(0x1000UL));
}
END_TEST

/* ------------------------------------------------------------ threads */

#define NTHREADS 8
#define ROUNDS 50

/* Counts reports without support.c's unsynchronized recorder. */
static atomic_int thread_warns;

static void count_warn(const struct genalloc_error *err)
{
	if (err->severity == GENALLOC_WARN && err->code == GENALLOC_EINVAL)
		atomic_fetch_add(&thread_warns, 1);
}

/* Every round, all threads start together and race for one name. */
static pthread_barrier_t start_line;
static atomic_int winners[ROUNDS];

static void *race_for_names(void *arg)
{
	int id = (int)(intptr_t)arg;
	char name[32];

	for (int i = 0; i < ROUNDS; i++) {
		struct gen_pool *p;

		snprintf(name, sizeof(name), "round-%d", i);
		pthread_barrier_wait(&start_line);
		p = devm_gen_pool_create(&dev, 4, -1, name);
		if (!IS_ERR(p)) {
			atomic_fetch_add(&winners[i], 1);
			ck_assert_ptr_eq(gen_pool_get(&dev, name), p);
		} else {
			ck_assert_int_eq(PTR_ERR(p), -EINVAL);
		}
		/* A name of its own always succeeds, whatever the others do. */
		snprintf(name, sizeof(name), "t%d-%d", id, i);
		p = devm_gen_pool_create(&dev, 4, -1, name);
		ck_assert(!IS_ERR_OR_NULL(p));
		ck_assert_ptr_eq(gen_pool_get(&dev, name), p);
	}
	return NULL;
}

START_TEST(concurrent_create_one_winner)
{
	pthread_t threads[NTHREADS];

	atomic_store(&thread_warns, 0);
	for (int i = 0; i < ROUNDS; i++)
		atomic_store(&winners[i], 0);
	genalloc_set_error_handler(count_warn);
	pthread_barrier_init(&start_line, NULL, NTHREADS);
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_create(&threads[i], NULL, race_for_names,
						(void *)(intptr_t)i), 0);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start_line);
	for (int i = 0; i < ROUNDS; i++)
		ck_assert_msg(atomic_load(&winners[i]) == 1, "round %d: %d winners",
			      i, atomic_load(&winners[i]));
	/* The losers are refused silently, as in the kernel. */
	ck_assert_int_eq(atomic_load(&thread_warns), 0);
	ck_assert_int_eq(devres_release_all(&dev), ROUNDS * (NTHREADS + 1));
}
END_TEST

/* ------------------------------------------------------------ as drivers use it */

/* A kernel driver's device, set up by its bus: never device_initialize()d. */
static struct device bus_dev = { .name = "bus-dev" };

START_TEST(zero_device_initialised_on_first_use)
{
	struct device local = { .name = "local" };
	struct gen_pool *pool;

	capture_errors();
	pool = devm_gen_pool_create(&bus_dev, 4, NUMA_NO_NODE, "p");
	ck_assert(!IS_ERR_OR_NULL(pool));
	ck_assert_ptr_eq(gen_pool_get(&bus_dev, "p"), pool);
	/* The first call may be a lookup, too. */
	ck_assert_ptr_null(gen_pool_get(&local, NULL));
	ck_assert_ptr_nonnull(devm_kzalloc(&local, 16, GFP_KERNEL));
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_int_eq(devres_release_all(&local), 1);
	device_release(&local);
	device_release(&bus_dev);
	ck_assert_ptr_null(gen_pool_get(&bus_dev, "p"));
}
END_TEST

#define RACERS 4

static struct device race_dev;
static atomic_int race_go;

static void *first_use(void *arg)
{
	while (!atomic_load(&race_go))
		;
	return devm_kzalloc(&race_dev, 8 + (size_t)(uintptr_t)arg, GFP_KERNEL);
}

/* Threads that meet an all-zero device at once initialise it once: every
 * addition survives (a second initialisation would forget the first). */
START_TEST(zero_device_first_use_races)
{
	pthread_t racer[RACERS];
	void *got[RACERS];

	memset(&race_dev, 0, sizeof(race_dev));
	atomic_store(&race_go, 0);
	for (uintptr_t i = 0; i < RACERS; i++)
		ck_assert_int_eq(pthread_create(&racer[i], NULL, first_use, (void *)i), 0);
	atomic_store(&race_go, 1);
	for (int i = 0; i < RACERS; i++) {
		pthread_join(racer[i], &got[i]);
		ck_assert_ptr_nonnull(got[i]);
	}
	ck_assert_int_eq(devres_release_all(&race_dev), RACERS);
	device_release(&race_dev);
}
END_TEST

static char dev_msg[1024];

/* The helpers write to stderr: catch it for one call. */
#define CAPTURE_STDERR(call)                                                  \
	do {                                                                  \
		struct stderr_capture c_;                                     \
		stderr_capture_start(&c_);                                    \
		call;                                                         \
		stderr_capture_end(&c_, dev_msg, sizeof(dev_msg));            \
	} while (0)

START_TEST(driver_helpers)
{
	unsigned long long pa = 0x1234abcdULL;

	ck_assert_str_eq(dev_name(&dev), "test-dev");
	ck_assert_int_eq(dev_to_node(&dev), NUMA_NO_NODE);
	ck_assert_int_eq(dev_to_node(NULL), -1);
	CAPTURE_STDERR(dev_err(&dev, "bad block at %#llx", pa));
	ck_assert_str_eq(dev_msg, "test-dev: error: bad block at 0x1234abcd\n");
	CAPTURE_STDERR(dev_warn(&dev, "low on %s\n", "memory"));
	ck_assert_str_eq(dev_msg, "test-dev: warning: low on memory\n");
	CAPTURE_STDERR(dev_info(NULL, "%d pools", 2));
	ck_assert_str_eq(dev_msg, "(NULL device *): info: 2 pools\n");
	CAPTURE_STDERR(dev_notice(&dev, "n"));
	ck_assert_str_eq(dev_msg, "test-dev: notice: n\n");
	/* Without DEBUG, dev_dbg() prints nothing. */
	CAPTURE_STDERR(dev_dbg(&dev, "hidden %d", 1); fputs("-", stderr));
	ck_assert_str_eq(dev_msg, "-");
}
END_TEST

/* The kernel's types: its own typedefs repeat these, compatibly. */
typedef unsigned long long phys_addr_t;
typedef unsigned long long dma_addr_t;

START_TEST(kernel_address_types)
{
	dma_addr_t dma = 0;
	char line[64];

	ck_assert(_Generic((phys_addr_t)0, unsigned long long: 1, default: 0));
	ck_assert(_Generic(gen_pool_virt_to_phys(NULL, 0), unsigned long long: 1, default: 0));
	capture_errors();
	ck_assert_ptr_null(gen_pool_dma_alloc(NULL, 8, &dma));
	snprintf(line, sizeof(line), "%llx", (phys_addr_t)0xfeedULL);
	ck_assert_str_eq(line, "feed");
}
END_TEST

Suite *modern_device_suite(void)
{
	Suite *s = suite_create("modern_device");
	TCase *tc;

	tc = tcase_create("pools");
	tcase_add_checked_fixture(tc, dev_setup, dev_teardown);
	tcase_add_test(tc, create_and_get_by_name);
	tcase_add_test(tc, null_name_matches_only_unnamed_pool);
	tcase_add_test(tc, duplicate_name_refused);
	tcase_add_test(tc, duplicate_unnamed_refused);
	tcase_add_test(tc, bad_order_is_enomem_and_leaves_nothing);
	tcase_add_test(tc, release_destroys_pools);
	tcase_add_test(tc, release_with_live_block_reports_ebusy);
	tcase_add_test_raise_signal(tc, release_with_live_block_dies, SIGABRT);
	tcase_add_test(tc, create_on_bad_device_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("devres");
	tcase_add_checked_fixture(tc, dev_setup, dev_teardown);
	tcase_add_test(tc, release_is_lifo);
	tcase_add_test(tc, find_newest_match);
	tcase_add_test(tc, alloc_is_zeroed_and_aligned);
	tcase_add_test(tc, alloc_refusals);
	tcase_add_test(tc, add_misuse_refused);
	tcase_add_test(tc, free_of_added_record_reports_ebusy);
	tcase_add_test_raise_signal(tc, free_of_added_record_dies, SIGABRT);
	tcase_add_test(tc, bad_device_in_lookups);
	tcase_add_test(tc, devm_kzalloc_memory);
	tcase_add_test(tc, release_may_use_device);
	tcase_add_test(tc, release_all_keeps_late_additions);
	tcase_add_test(tc, device_release_refuses_late_additions);
	suite_add_tcase(s, tc);

	tc = tcase_create("of");
	tcase_add_checked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_test(tc, of_phandle_to_bound_device);
	tcase_add_test(tc, of_bound_device_needs_unnamed_pool);
	tcase_add_test(tc, of_label_names_parent_pool);
	tcase_add_test(tc, of_label_without_pool);
	tcase_add_test(tc, of_unresolvable_gives_null);
	tcase_add_test(tc, of_released_device_has_no_pool);
	tcase_add_test(tc, of_helpers);
	suite_add_tcase(s, tc);

	tc = tcase_create("lookups");
	tcase_add_checked_fixture(tc, lookup_setup, lookup_teardown);
	tcase_add_test(tc, tree_is_built_in_order);
	tcase_add_test(tc, children_in_order);
	tcase_add_test(tc, find_compatible);
	tcase_add_test(tc, read_properties);
	tcase_add_test(tc, address_to_resource);
	tcase_add_test(tc, platform_devices);
	suite_add_tcase(s, tc);

	tc = tcase_create("misc");
	tcase_add_test(tc, error_pointers);
	suite_add_tcase(s, tc);

	tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, dev_setup, dev_teardown);
	tcase_add_test(tc, concurrent_create_one_winner);
	tcase_add_test(tc, zero_device_initialised_on_first_use);
	tcase_add_test(tc, zero_device_first_use_races);
	tcase_add_test(tc, driver_helpers);
	tcase_add_test(tc, kernel_address_types);
	suite_add_tcase(s, tc);
	return s;
}
