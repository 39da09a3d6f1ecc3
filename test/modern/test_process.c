// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_process.c - a pool belongs to one process (PROCESSES in
 * modern/genalloc.h): what a forked child may do with its parent's pool,
 * and what happens when it does more.
 *
 * The pools manage a MAP_SHARED region, so that both processes see the same
 * memory: the case where a child's allocation does harm.  A child reports
 * by its exit status (bit per failed expectation), never by Check's
 * asserts, and leaves with _exit(), so that nothing of the parent's runs
 * twice.
 */
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/lock_internal.h"

#define REGION	(64 * 1024)
#define ORDER	6		/* 64-byte granules */

/* Static, so that a child's copy is still reachable when it leaves. */
static struct gen_pool *pool;
static char *region;

static void setup_shared(void)
{
	region = mmap(NULL, REGION, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(region, MAP_FAILED);
	pool = gen_pool_create(ORDER, NUMA_NO_NODE);
	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add_virt(pool, (unsigned long)region, 0x80000000UL,
					   REGION, NUMA_NO_NODE), 0);
}

static void teardown_shared(void)
{
	gen_pool_destroy(pool);
	munmap(region, REGION);
}

/* The child's exit status, which must be a normal exit with @want. */
static void expect_exit(pid_t pid, int want)
{
	int status;

	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status), "child did not exit (status %#x)", status);
	ck_assert_int_eq(WEXITSTATUS(status), want);
}

static void count_chunk(struct gen_pool *p, struct gen_pool_chunk *chunk, void *data)
{
	(void)p;
	(void)chunk;
	(*(int *)data)++;
}

/* Every query a child may make sees the pool as it was at the fork. */
START_TEST(child_reads_and_exits)
{
	unsigned long a = gen_pool_alloc(pool, 1000);	/* 16 granules */
	struct gen_pool_stats before, after;
	pid_t pid;

	ck_assert_uint_eq(a, (unsigned long)region);
	gen_pool_stats(pool, &before);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct gen_pool_stats st;
		int chunks = 0, bad = 0;

		gen_pool_stats(pool, &st);
		gen_pool_for_each_chunk(pool, count_chunk, &chunks);
		bad |= (gen_pool_avail(pool) != REGION - 1024) << 0;
		bad |= (gen_pool_size(pool) != REGION) << 1;
		bad |= !gen_pool_has_addr(pool, a, 1000) << 2;
		bad |= (gen_pool_virt_to_phys(pool, a + 64) != 0x80000040UL) << 3;
		bad |= (chunks != 1) << 4;
		bad |= (st.avail != REGION - 1024 || st.largest_free != REGION - 1024 ||
			st.nr_free_extents != 1) << 5;
		bad |= (gen_pool_check(pool) != 0) << 6;
		_exit(bad);
	}
	expect_exit(pid, 0);
	/* The parent's pool is as it was. */
	gen_pool_stats(pool, &after);
	ck_assert_uint_eq(after.avail, before.avail);
	ck_assert_uint_eq(after.largest_free, before.largest_free);
	gen_pool_free(pool, a, 1000);
	ck_assert_uint_eq(gen_pool_avail(pool), REGION);
}
END_TEST

/*
 * The hazard: after the fork the parent allocates a block and writes to it;
 * the child, whose copy of the bookkeeping predates that, is handed the same
 * block and overwrites it.  Neither process is told.
 */
START_TEST(child_allocation_takes_parents_block)
{
	int go[2];
	unsigned long p;
	pid_t pid;
	char c;

	ck_assert_int_eq(pipe(go), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		unsigned long mine;
		int bad = 0;

		close(go[1]);
		bad |= (read(go[0], &c, 1) != 1) << 0;
		bad |= (strcmp(region, "parent data") != 0) << 1;	/* the parent's, live */
		mine = gen_pool_alloc(pool, 256);
		bad |= (mine != (unsigned long)region) << 2;		/* its block again */
		if (mine)
			strcpy((char *)mine, "child data");
		_exit(bad);
	}
	close(go[0]);
	p = gen_pool_alloc(pool, 256);
	ck_assert_uint_eq(p, (unsigned long)region);
	strcpy((char *)p, "parent data");
	ck_assert_int_eq(write(go[1], "x", 1), 1);
	close(go[1]);
	expect_exit(pid, 0);

	/* The parent's live block holds the child's data, and the parent's pool
	 * never heard of the child's allocation. */
	ck_assert_str_eq((char *)p, "child data");
	ck_assert_uint_eq(gen_pool_avail(pool), REGION - 256);
	gen_pool_free(pool, p, 256);
}
END_TEST

/*
 * A fork while another thread is inside a locked call: the child's copy of
 * the lock is held by a thread the child does not have.  Here the lock
 * word names a thread that does not exist, as such a thread's token would
 * (the forking thread's own token would not do: the child's one thread
 * has it too, and a lock held under it is refused, not waited for).  The
 * lock-free queries still answer; gen_pool_stats() waits until a timer
 * kills the child.
 */
START_TEST(lock_held_at_fork_stays_held)
{
	int ready[2];
	pid_t pid;
	int status;
	char c;

	ck_assert_int_eq(pipe(ready), 0);
	atomic_store(&pool->lock.word, GENALLOC_LOCK_WAITERS - 2);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct itimerval t = { .it_value = { .tv_usec = 200000 } };
		struct gen_pool_stats st;

		close(ready[0]);
		if (gen_pool_avail(pool) != REGION || gen_pool_size(pool) != REGION)
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(2);
		signal(SIGALRM, SIG_DFL);
		setitimer(ITIMER_REAL, &t, NULL);
		gen_pool_stats(pool, &st);
		_exit(3);	/* returned: the documentation would be wrong */
	}
	atomic_store(&pool->lock.word, 0);
	close(ready[1]);
	ck_assert_int_eq(read(ready[0], &c, 1), 1);	/* the queries answered */
	close(ready[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM,
		      "child was not stuck in gen_pool_stats (status %#x)", status);
	/* The parent's lock is its own: the pool works on. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), (unsigned long)region);
	gen_pool_free(pool, (unsigned long)region, 64);
}
END_TEST

Suite *modern_process_suite(void)
{
	Suite *s = suite_create("modern_process");
	TCase *tc = tcase_create("fork");

	tcase_add_checked_fixture(tc, setup_shared, teardown_shared);
	tcase_add_test(tc, child_reads_and_exits);
	tcase_add_test(tc, child_allocation_takes_parents_block);
	tcase_add_test(tc, lock_held_at_fork_stays_held);
	suite_add_tcase(s, tc);
	return s;
}
