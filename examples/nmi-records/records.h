/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * examples/nmi-records/records.h - a pool of error records that a handler
 * in NMI-like context fills and process context drains, the pattern of the
 * x86 machine-check log (arch/x86/kernel/cpu/mce/genpool.c) and of APEI's
 * GHES error records: the interrupting side may not sleep or take a lock
 * the interrupted side could hold, so it allocates from a genalloc pool
 * (lock-free in the kernel, and here through <linux/genalloc.h>) and
 * publishes the record on a lock-free list; the drainer takes the whole
 * list at once, handles each record and frees it back to the pool.
 */
#ifndef NMI_RECORDS_H
#define NMI_RECORDS_H

#include <stdbool.h>

/**
 * struct err_record - one logged event, as a machine-check bank would give it
 * @next:   the pending list's link (records.c)
 * @seq:    the logger's sequence number, from 0
 * @bank:   which bank reported it
 * @status: the bank's status word
 * @check:  a function of the fields above, to catch a torn record
 */
struct err_record {
	struct err_record *next;
	unsigned long seq;
	unsigned int bank;
	unsigned long long status;
	unsigned long long check;
};

/** records_check_of() - the check word that @r's fields call for */
unsigned long long records_check_of(const struct err_record *r);

/** records_init() - create the pool over a static area; 0 or -ENOMEM */
int records_init(void);

/** records_exit() - destroy the pool; every record must have been drained */
void records_exit(void);

/**
 * records_log() - log one event from NMI-like context (a signal handler)
 * @seq:    its sequence number
 * @bank:   bank
 * @status: status word
 *
 * Async-signal-safe: no lock, no malloc.
 *
 * Return: true if logged, false if the pool was full (the kernel prints
 * "MCE records pool full!" and drops the event; the caller counts it).
 */
bool records_log(unsigned long seq, unsigned int bank, unsigned long long status);

/**
 * records_drain() - hand every pending record to @fn, oldest first, and
 * free it
 * @fn:  called once per record, in process context
 * @arg: passed to @fn
 *
 * Return: how many records were drained.
 */
unsigned long records_drain(void (*fn)(const struct err_record *r, void *arg), void *arg);

#endif /* NMI_RECORDS_H */
