/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/ioport.h - lets kernel-style code that includes
 * <linux/ioport.h> build unchanged with -Imodern: struct resource,
 * resource_size() and the IORESOURCE_ kinds.  They live with the device
 * model in device/device.h, their manual.
 */
#ifndef GENALLOC_MODERN_LINUX_IOPORT_H
#define GENALLOC_MODERN_LINUX_IOPORT_H

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_IOPORT_H */
