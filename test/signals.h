/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/signals.h - what the signal suites of every engine share
 * (test/{modern,legacy,compat}/test_signal.c): counters a signal handler
 * keeps, an error hook that tells refusals for re-entry from any other
 * report, the SIGUSR1 handler's installation, and a thread that sends a
 * bounded number of signals to the test's thread.
 */
#ifndef GENALLOC_TEST_SIGNALS_H
#define GENALLOC_TEST_SIGNALS_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

/* What the handler did (calls made, blocks served) and what was reported
 * meanwhile (refused: WARN EREENTRY; others: any other report, a failure).
 * Only the test's thread writes them, in its handler or its body. */
extern volatile sig_atomic_t sig_calls, sig_served, sig_refused, sig_others;

/**
 * sig_start() - zero the counters, install @fn for SIGUSR1 and the counting
 * error hook, and arm a watchdog: alarm(@watchdog), whose default action
 * ends a run that hangs
 */
void sig_start(void (*fn)(int), unsigned int watchdog);

/** sig_stop() - the default error hook again, the watchdog off */
void sig_stop(void);

/*
 * How much a sender sends: at most SIG_SEND_MAX signals, for at most
 * SIG_SEND_SECONDS.  The time bound is for valgrind, which runs one thread
 * at a time: the sender then sends one signal per turn it gets, and a busy
 * handler (every path refused and reported) could keep a loop that waits
 * for a few hundred of them going past the watchdog.  It is well inside the
 * suites' 30 s watchdogs.
 */
#define SIG_SEND_MAX 2000
#define SIG_SEND_SECONDS 10

/**
 * struct sig_sender - a thread sending SIGUSR1 to @target about every 20
 * microseconds, within the bounds above, until sig_sender_stop()
 */
struct sig_sender {
	pthread_t target;
	pthread_t thread;
	atomic_int stop;
	atomic_int done;
	int sent;
};

/** sig_sender_start() - start sending to the calling thread */
void sig_sender_start(struct sig_sender *s);

/**
 * sig_sender_done() - has the sender sent all it will?  A loop waiting for
 * signals ends there too: under valgrind, which delivers few of them and
 * runs every thread in turn, it would otherwise spin to its bound and
 * past the watchdog.
 */
static inline bool sig_sender_done(struct sig_sender *s)
{
	return atomic_load(&s->done) != 0;
}

/** sig_sender_stop() - stop sending and wait for the sender */
void sig_sender_stop(struct sig_sender *s);

#endif /* GENALLOC_TEST_SIGNALS_H */
