/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/genalloc.h - lets kernel-style code that includes
 * <linux/genalloc.h> build unchanged with -I<path>/modern.  Everything is in
 * modern/genalloc.h, except devm_gen_pool_create(), gen_pool_get() and
 * of_gen_pool_get(), which the device model declares (device/device.h).
 *
 * Through this header a pool gets the kernel's contract: the pools that
 * gen_pool_create() and devm_gen_pool_create() make are lock-free, so that
 * gen_pool_alloc*(), gen_pool_dma_alloc*() (not zalloc) and gen_pool_free*()
 * may be called from any context, a signal handler interrupting a call on
 * the same pool included (the kernel's NMI users: the x86 machine-check
 * records, APEI's error records), with the kernel's placement and no call
 * that is not the kernel's.  A program that wants the indexed default
 * instead defines GENALLOC_DEFAULT_LOCKLESS to 0 before including it, or
 * calls gen_pool_set_lockless(pool, false).
 *
 * The mode is fixed where modern/genalloc.h is first included, so this
 * header must come first in a file that includes both.
 */
#ifndef GENALLOC_MODERN_LINUX_GENALLOC_H
#define GENALLOC_MODERN_LINUX_GENALLOC_H

#include "../../common/version.h"

#if defined(GENALLOC_MODERN_GENALLOC_H) && !GENALLOC_DEFAULT_LOCKLESS
#error "include <linux/genalloc.h> before the library's genalloc.h: it chooses the pools' mode"
#endif

#ifndef GENALLOC_DEFAULT_LOCKLESS
#define GENALLOC_DEFAULT_LOCKLESS 1
#endif

#include "../genalloc.h"
#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_GENALLOC_H */
