/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/err.h - lets kernel-style code that includes <linux/err.h>
 * build unchanged with -Imodern.  The manual is device/err.h.
 */
#ifndef GENALLOC_MODERN_LINUX_ERR_H
#define GENALLOC_MODERN_LINUX_ERR_H

#include "../../common/version.h"

#include "../../device/err.h"

#endif /* GENALLOC_MODERN_LINUX_ERR_H */
