# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# examples/nmi-records/build.mk - a record pool that a signal handler fills
# while the thread it interrupts drains it, the way the kernel's
# machine-check and GHES record pools work in NMI context:
# $(B)/examples/nmi-records/nmi-records.  Kernel-style code that includes
# <linux/genalloc.h> through -Imodern and nothing but kernel calls.
# "make check" runs "nmi-records --check" in every variant (TSan included).

NMI_SRCS := $(sort $(wildcard examples/nmi-records/*.c))
NMI_OBJS := $(NMI_SRCS:%.c=$(B)/%.o)
NMI_BIN := $(B)/examples/nmi-records/nmi-records

PROGRAMS += $(NMI_BIN)
CHECK_PROGRAMS += $(NMI_BIN)

$(NMI_OBJS): ALL_CPPFLAGS += -Imodern

$(NMI_BIN): $(NMI_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(NMI_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-nmi-records
help: help-nmi-records
help-nmi-records:
	@echo '  examples/nmi-records $(NMI_BIN): nmi-records [--check]'
	@echo '                  (records logged from a signal handler, drained by its thread)'

-include $(NMI_OBJS:.o=.d)
