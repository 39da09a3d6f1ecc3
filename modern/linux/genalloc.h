/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/genalloc.h - lets kernel-style code that includes
 * <linux/genalloc.h> build unchanged with -I<path>/modern.  Everything is in
 * modern/genalloc.h.
 */
#ifndef GENALLOC_MODERN_LINUX_GENALLOC_H
#define GENALLOC_MODERN_LINUX_GENALLOC_H

#include "../genalloc.h"

#endif /* GENALLOC_MODERN_LINUX_GENALLOC_H */
