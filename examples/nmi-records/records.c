// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/nmi-records/records.c - the record pool of records.h, written
 * from the kernel's documented behaviour of its machine-check and GHES
 * record pools: a fixed area handed to a genalloc pool once, records
 * allocated one at a time in NMI context and freed in process context, a
 * lock-free list between the two.
 *
 * Kernel-style: it includes <linux/genalloc.h> and calls nothing that is not
 * the kernel's; that header makes the pool lock-free, so that a record can
 * be allocated while the interrupted drainer is inside gen_pool_free() on
 * the same pool.  The list is an llist: push by compare-and-swap, take all
 * by exchange, so the drainer never holds anything the logger waits for.
 */
#include "records.h"

#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>

#include <linux/genalloc.h>

/* Power-of-two records: each is one granule of the pool. */
#define RECORD_ORDER 6
#define RECORD_BYTES (1UL << RECORD_ORDER)
#define POOL_RECORDS 256

_Static_assert(sizeof(struct err_record) <= RECORD_BYTES, "a record must fit its granule");

static alignas(RECORD_BYTES) unsigned char record_area[POOL_RECORDS * RECORD_BYTES];
static struct gen_pool *record_pool;
static _Atomic(struct err_record *) pending;

unsigned long long records_check_of(const struct err_record *r)
{
	return (r->seq * 0x9e3779b97f4a7c15ULL) ^ ((unsigned long long)r->bank << 48) ^
	       r->status;
}

int records_init(void)
{
	record_pool = gen_pool_create(RECORD_ORDER, NUMA_NO_NODE);
	if (!record_pool)
		return -ENOMEM;
	if (gen_pool_add(record_pool, (unsigned long)record_area, sizeof(record_area),
			 NUMA_NO_NODE)) {
		gen_pool_destroy(record_pool);
		record_pool = NULL;
		return -ENOMEM;
	}
	return 0;
}

void records_exit(void)
{
	gen_pool_destroy(record_pool);
	record_pool = NULL;
}

bool records_log(unsigned long seq, unsigned int bank, unsigned long long status)
{
	struct err_record *r, *head;

	r = (struct err_record *)gen_pool_alloc(record_pool, sizeof(*r));
	if (!r)
		return false;
	r->seq = seq;
	r->bank = bank;
	r->status = status;
	r->check = records_check_of(r);
	head = atomic_load_explicit(&pending, memory_order_relaxed);
	do
		r->next = head;
	while (!atomic_compare_exchange_weak_explicit(&pending, &head, r, memory_order_release,
						      memory_order_relaxed));
	return true;
}

/* The list is newest first: turn it around so records go out in order. */
static struct err_record *reverse(struct err_record *r)
{
	struct err_record *done = NULL, *next;

	for (; r; r = next) {
		next = r->next;
		r->next = done;
		done = r;
	}
	return done;
}

unsigned long records_drain(void (*fn)(const struct err_record *r, void *arg), void *arg)
{
	struct err_record *r, *next;
	unsigned long n = 0;

	r = reverse(atomic_exchange_explicit(&pending, NULL, memory_order_acquire));
	for (; r; r = next) {
		next = r->next;
		fn(r, arg);
		gen_pool_free(record_pool, (unsigned long)r, sizeof(*r));
		n++;
	}
	return n;
}
