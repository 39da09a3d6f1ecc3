// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/signals.c - see signals.h.
 */
#include "signals.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

volatile sig_atomic_t sig_calls, sig_served, sig_refused, sig_others;

static void count_reports(const struct genalloc_error *err)
{
	if (err->code == GENALLOC_EREENTRY && err->severity == GENALLOC_WARN)
		sig_refused = sig_refused + 1;
	else
		sig_others = sig_others + 1;
}

void sig_start(void (*fn)(int), unsigned int watchdog)
{
	struct sigaction sa;

	alarm(watchdog);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	sig_calls = sig_served = sig_refused = sig_others = 0;
	genalloc_set_error_handler(count_reports);
}

void sig_stop(void)
{
	genalloc_set_error_handler(NULL);
	alarm(0);
}

static double seconds_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *send_signals(void *arg)
{
	struct sig_sender *s = arg;
	struct timespec pause = { 0, 20 * 1000 };
	double end = seconds_now() + SIG_SEND_SECONDS;

	while (!atomic_load(&s->stop) && s->sent < SIG_SEND_MAX && seconds_now() < end) {
		pthread_kill(s->target, SIGUSR1);
		s->sent++;
		nanosleep(&pause, NULL);
	}
	atomic_store(&s->done, 1);
	return NULL;
}

void sig_sender_start(struct sig_sender *s)
{
	s->target = pthread_self();
	atomic_init(&s->stop, 0);
	atomic_init(&s->done, 0);
	s->sent = 0;
	ck_assert_int_eq(pthread_create(&s->thread, NULL, send_signals, s), 0);
}

void sig_sender_stop(struct sig_sender *s)
{
	atomic_store(&s->stop, 1);
	pthread_join(s->thread, NULL);
}
