/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * compat/linux/genalloc.h - "#include <linux/genalloc.h>" for 2005-era
 * kernel-style sources built with -Icompat: the 2005 API of compat/genalloc.h.
 */
#ifndef GENALLOC_COMPAT_LINUX_GENALLOC_H
#define GENALLOC_COMPAT_LINUX_GENALLOC_H

#include "../../common/version.h"

#include "../genalloc.h"

#endif /* GENALLOC_COMPAT_LINUX_GENALLOC_H */
