// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/main.c - run the mspec workload and print what the
 * uncached allocator did.
 *
 *   mspec            the 2005 allocator on the backend GENALLOC_BACKEND names
 *   mspec --modern   the 2006 port on the modern API
 *   mspec --check    all three (2005 on buddy, 2005 on bitmap, 2006) with
 *                    assertions; exit status 0 if every run passed
 *
 * The workload: one thread per node maps the device and touches each of its
 * pages, then every thread touches one shared mapping at once (so faults
 * race to install the same page).  More pages are wanted than the granule
 * cap allows on one node, so allocations fall back to other nodes, and the
 * firmware pages donated at boot get used.  Then every mapping is closed.
 * The checks: no page is handed out twice while it is held, every fault got
 * a page on a real node, every page comes back, the pools are whole, and
 * no more granules were taken than the cap.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mspec.h"

#define NR_THREADS	SIM_NODES
/*
 * Sized so that the nodes' own needs (4 + 2 + 1 + 2 granules, less the
 * firmware pages) exceed the cap of 8, which forces fallbacks, while the
 * total (440 pages, plus at most one losing page per thread) fits in the 8
 * granules and the firmware pages, so no fault may fail.
 */
#define OWN_PAGES	80
#define SHARED_PAGES	120
#define MAX_PAGES	(SIM_MAX_RANGES * (long)(SIM_GRANULE_SIZE / SIM_PAGE_SIZE))

/* ------------------------------------------------ ownership tracking */

/* Sits between mspec and the allocator under test and records, per page of
 * the machine, whether it is handed out: a second hand-out is a failure. */
static const struct uncached_allocator *under_test;
static atomic_char held[MAX_PAGES];
static atomic_int violations;

static unsigned long tracked_alloc_page(int nid)
{
	unsigned long maddr = under_test->alloc_page(nid);
	long idx = maddr ? sim_page_index(maddr) : 0;

	if (maddr && (idx < 0 || (maddr & (SIM_PAGE_SIZE - 1)) ||
		      atomic_exchange(&held[idx], 1)))
		atomic_fetch_add(&violations, 1);
	return maddr;
}

static void tracked_free_page(unsigned long maddr)
{
	long idx = sim_page_index(maddr);

	if (idx < 0 || !atomic_exchange(&held[idx], 0))
		atomic_fetch_add(&violations, 1);
	under_test->free_page(maddr);
}

static const struct uncached_allocator tracked = {
	.name = "tracked",
	.alloc_page = tracked_alloc_page,
	.free_page = tracked_free_page,
};

/* ------------------------------------------------------- workload */

static pthread_barrier_t start_line;

struct worker {
	pthread_t thread;
	int nid;
	struct mspec_vma *own, *shared;
	int failed_faults;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	/* All start together on the shared mapping, so first touches race. */
	pthread_barrier_wait(&start_line);
	for (int i = 0; i < w->shared->npages; i++)
		w->failed_faults += !mspec_nopage(w->shared, i);
	for (int i = 0; i < w->own->npages; i++)
		w->failed_faults += !mspec_nopage(w->own, i);
	return NULL;
}

struct result {
	struct uncached_stats st;
	int failed_faults;
	int races;
	int wrong_node;
	int violations;
	int setup_failed;
};

static int all_pages_on_a_node(const struct mspec_vma *vma)
{
	int bad = 0;

	for (int i = 0; i < vma->npages; i++)
		bad += sim_node_of(atomic_load(&vma->maddr[i])) < 0;
	return bad;
}

static void run_workload(const struct uncached_allocator *a, struct result *r)
{
	struct worker w[NR_THREADS];
	struct mspec_vma *shared;

	memset(r, 0, sizeof(*r));
	under_test = a;
	atomic_store(&violations, 0);
	if (sim_boot() || a->init()) {
		r->setup_failed = 1;
		a->exit();
		sim_shutdown();
		return;
	}
	shared = mspec_mmap(&tracked, SHARED_PAGES, 0);
	for (int t = 0; t < NR_THREADS; t++) {
		w[t] = (struct worker){ .nid = t, .shared = shared };
		w[t].own = mspec_mmap(&tracked, OWN_PAGES, t);
	}
	pthread_barrier_init(&start_line, NULL, NR_THREADS);
	for (int t = 0; t < NR_THREADS; t++)
		pthread_create(&w[t].thread, NULL, worker_run, &w[t]);
	for (int t = 0; t < NR_THREADS; t++)
		pthread_join(w[t].thread, NULL);
	pthread_barrier_destroy(&start_line);

	r->wrong_node = all_pages_on_a_node(shared);
	r->races = atomic_load(&shared->races);
	for (int t = 0; t < NR_THREADS; t++) {
		r->failed_faults += w[t].failed_faults;
		r->wrong_node += all_pages_on_a_node(w[t].own);
		mspec_close(w[t].own);
	}
	mspec_close(shared);
	a->exit();
	a->stats(&r->st);
	r->violations = atomic_load(&violations);
	sim_shutdown();
}

/* ------------------------------------------------------- report */

static void print_summary(const char *label, const struct result *r)
{
	long granules = 0;

	printf("%s\n  node:            ", label);
	for (int n = 0; n < SIM_NODES; n++)
		printf("%6d", n);
	printf("\n  pages served:    ");
	for (int n = 0; n < SIM_NODES; n++)
		printf("%6ld", r->st.pages_served[n]);
	printf("\n  granules taken:  ");
	for (int n = 0; n < SIM_NODES; n++) {
		printf("%6ld", r->st.granules_taken[n]);
		granules += r->st.granules_taken[n];
	}
	printf("\n  granules %ld of %d, fallbacks %ld, firmware pages used %ld, "
	       "install races lost %d\n",
	       granules, MAX_UNCACHED_GRANULES, r->st.fallbacks, r->st.donated_served, r->races);
}

/* The assertions of --check; prints each failure.  Return: 0 if all hold. */
static int check_result(const char *label, const struct result *r)
{
	long granules = 0;
	int bad = 0;

	for (int n = 0; n < SIM_NODES; n++)
		granules += r->st.granules_taken[n];
#define EXPECT(cond, what)                                                   \
	do {                                                                 \
		if (!(cond)) {                                               \
			printf("  FAIL (%s): %s\n", label, what);            \
			bad = 1;                                             \
		}                                                            \
	} while (0)
	EXPECT(!r->setup_failed, "pools could not be set up");
	EXPECT(!r->violations, "a page was handed out twice or freed unheld");
	EXPECT(!r->failed_faults, "a fault found no uncached memory");
	EXPECT(!r->wrong_node, "a page is on no node");
	EXPECT(r->st.outstanding == 0, "not every page came back");
	EXPECT(r->st.pool_free_ok, "a pool is not whole after every page came back");
	EXPECT(granules <= MAX_UNCACHED_GRANULES, "more granules than the cap");
	EXPECT(r->st.fallbacks > 0, "the workload never fell back to another node");
	EXPECT(r->st.donated_served > 0, "no firmware page was used");
#undef EXPECT
	return bad;
}

static int run_one(const char *label, const struct uncached_allocator *a,
		   const char *backend, int check)
{
	struct result r;

	if (backend && setenv("GENALLOC_BACKEND", backend, 1))
		return 1;
	run_workload(a, &r);
	print_summary(label, &r);
	return check ? check_result(label, &r) : r.setup_failed;
}

int main(int argc, char **argv)
{
	int check = argc > 1 && !strcmp(argv[1], "--check");
	int modern = argc > 1 && !strcmp(argv[1], "--modern");
	const char *env = getenv("GENALLOC_BACKEND");
	int bad = 0;

	if (argc > 2 || (argc == 2 && !check && !modern)) {
		fprintf(stderr, "usage: %s [--check | --modern]\n", argv[0]);
		return 2;
	}
	if (check) {
		bad |= run_one("2005 API, buddy backend", &uncached_2005, "buddy", 1);
		bad |= run_one("2005 API, bitmap backend", &uncached_2005, "bitmap", 1);
		bad |= run_one("2006 port, modern API", &uncached_2006, NULL, 1);
		printf("mspec --check: %s\n", bad ? "FAILED" : "ok");
	} else if (modern) {
		bad = run_one("2006 port, modern API", &uncached_2006, NULL, 0);
	} else {
		char label[64];

		snprintf(label, sizeof(label), "2005 API, %s backend",
			 env && *env ? env : "buddy (default)");
		bad = run_one(label, &uncached_2005, NULL, 0);
	}
	return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
