/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/of.h - lets kernel-style code that includes <linux/of.h>
 * build unchanged with -Imodern.  The device-tree model (struct device_node,
 * struct property, of_parse_phandle(), ...) lives with the device model in
 * device/device.h, its manual.
 */
#ifndef GENALLOC_MODERN_LINUX_OF_H
#define GENALLOC_MODERN_LINUX_OF_H

#include "../../common/version.h"

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_OF_H */
