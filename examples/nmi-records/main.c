// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/nmi-records/main.c - a machine-check log in miniature: a signal
 * handler stands in for the NMI and logs one record per signal into the
 * record pool (records.c) while the main thread, the one it interrupts,
 * logs records of its own (the kernel's machine-check poller logs into the
 * same pool from process context) and drains the pool, freeing each
 * record: the handler often runs while its own thread is inside
 * gen_pool_alloc() or gen_pool_free() on the same pool.  Another thread
 * raises the "NMIs", each once the last one was handled.
 *
 *   nmi-records           run and print what happened
 *   nmi-records --check   the same; exit status 0 only if every event was
 *                         logged and drained exactly once (or counted as
 *                         dropped on a full pool), no record was torn, and
 *                         the run ended before its watchdog
 *
 * A hang ends the run: alarm() fires after WATCHDOG_SECONDS and its
 * default action kills the process, which the check reports as a failure.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "records.h"

#define EVENTS 5000
#define BANKS 8
#define POLL_BANK BANKS		/* the main thread's own records */
#define POLLED_MAX 200000
#define WATCHDOG_SECONDS 60

/* Written by the handler, which runs on the main thread. */
static unsigned long next_seq;
static unsigned char dropped[EVENTS];
/* How many events were handled: the raiser waits on it. */
static atomic_ulong handled;

/* Written by the main thread, as poller and drainer. */
static unsigned char seen[EVENTS];
static unsigned char polled_seen[POLLED_MAX];
static unsigned long duplicated, torn;

static unsigned long long status_of(unsigned long seq)
{
	return 0xbe00000000000000ULL | (seq << 8) | (seq % BANKS);
}

static void nmi(int sig)
{
	unsigned long seq = next_seq;
	int saved = errno;

	(void)sig;
	if (seq < EVENTS) {
		if (!records_log(seq, (unsigned int)(seq % BANKS), status_of(seq)))
			dropped[seq] = 1;
		next_seq = seq + 1;
		atomic_store_explicit(&handled, seq + 1, memory_order_release);
	}
	errno = saved;
}

static void consume(const struct err_record *r, void *arg)
{
	unsigned long limit = r->bank == POLL_BANK ? POLLED_MAX : EVENTS;
	unsigned char *mark = r->bank == POLL_BANK ? polled_seen : seen;

	(void)arg;
	if (r->check != records_check_of(r) || r->seq >= limit ||
	    r->status != status_of(r->seq) ||
	    (r->bank != POLL_BANK && r->bank != r->seq % BANKS)) {
		torn++;
		return;
	}
	if (mark[r->seq]++)
		duplicated++;
}

static atomic_int raiser_done;

static void *raise_nmis(void *arg)
{
	pthread_t target = *(pthread_t *)arg;

	for (unsigned long i = 0; i < EVENTS; i++) {
		pthread_kill(target, SIGUSR1);
		while (atomic_load_explicit(&handled, memory_order_acquire) <= i)
			sched_yield();
	}
	atomic_store(&raiser_done, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec idle = { 0, 1000 };
	unsigned long drained = 0, lost = 0, nr_dropped = 0, polled = 0, polled_dropped = 0;
	unsigned long round = 0;
	pthread_t self = pthread_self(), raiser;
	struct sigaction sa;
	int checking;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--check"))) {
		fprintf(stderr, "usage: %s [--check]\n", argv[0]);
		return 2;
	}
	checking = argc == 2;
	alarm(WATCHDOG_SECONDS);
	if (records_init()) {
		fprintf(stderr, "nmi-records: no memory for the pool\n");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nmi;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	if (pthread_create(&raiser, NULL, raise_nmis, &self)) {
		fprintf(stderr, "nmi-records: cannot start the raiser\n");
		return 1;
	}
	/* Poll and drain until the raiser is done; a short sleep now and
	 * then (where sanitizers deliver signals, too). */
	while (!atomic_load(&raiser_done) || atomic_load(&handled) < EVENTS) {
		if (polled < POLLED_MAX) {
			if (records_log(polled, POLL_BANK, status_of(polled)))
				polled++;
			else
				polled_dropped++;
		}
		drained += records_drain(consume, NULL);
		if (!(++round & 255))
			nanosleep(&idle, NULL);
	}
	pthread_join(raiser, NULL);
	drained += records_drain(consume, NULL);
	records_exit();

	for (unsigned long s = 0; s < EVENTS; s++) {
		nr_dropped += dropped[s];
		if (!dropped[s] && !seen[s])
			lost++;
	}
	for (unsigned long s = 0; s < polled; s++)
		lost += !polled_seen[s];
	printf("nmi-records: %d events logged from a signal handler while the thread it\n"
	       "  interrupted logged its own and drained the pool: none lost, duplicated\n"
	       "  or torn: %s\n", EVENTS, lost || duplicated || torn ? "NO" : "yes");
	if (lost || duplicated || torn || drained + nr_dropped != EVENTS + polled) {
		printf("nmi-records: lost %lu, duplicated %lu, torn %lu, drained %lu, dropped %lu\n",
		       lost, duplicated, torn, drained, nr_dropped);
		printf("nmi-records: FAILED\n");
		return 1;
	}
	/* The counts depend on the scheduling; only --check shows them. */
	if (checking)
		printf("nmi-records: %lu of the thread's own records; dropped on a full pool:"
		       " %lu of the handler's, %lu of the thread's\n",
		       polled, nr_dropped, polled_dropped);
	return 0;
}
