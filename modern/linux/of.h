/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/of.h - lets kernel-style code that includes <linux/of.h>
 * build unchanged with -Imodern.  The device-tree model (struct device_node,
 * struct property, of_parse_phandle(), of_find_compatible_node(), child
 * iteration, of_property_read_bool(), ...) lives with the device model in
 * device/device.h, its manual; so do the kernel's <linux/of_address.h> and
 * <linux/of_platform.h> calls, which come along here as well.
 */
#ifndef GENALLOC_MODERN_LINUX_OF_H
#define GENALLOC_MODERN_LINUX_OF_H

/* Kernel code gets the kernel's lock-free pools, as from <linux/genalloc.h>. */
#ifndef GENALLOC_DEFAULT_LOCKLESS
#define GENALLOC_DEFAULT_LOCKLESS 1
#endif
#include "../../common/version.h"

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_OF_H */
