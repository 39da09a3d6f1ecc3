# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# examples/offsets/build.mk - a heap of offsets at scale:
# $(B)/examples/offsets/offsets hands out 1 TiB of GPU-style virtual
# addresses at 4 KiB granules, with nothing behind them, through a pool
# added at a bias.  "make check" runs "offsets --check".

OFFSETS_SRCS := $(sort $(wildcard examples/offsets/*.c))
OFFSETS_OBJS := $(OFFSETS_SRCS:%.c=$(B)/%.o)
OFFSETS_BIN := $(B)/examples/offsets/offsets

PROGRAMS += $(OFFSETS_BIN)
CHECK_PROGRAMS += $(OFFSETS_BIN)

$(OFFSETS_BIN): $(OFFSETS_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(OFFSETS_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-offsets
help: help-offsets
help-offsets:
	@echo '  examples/offsets $(OFFSETS_BIN): offsets [--check]'
	@echo '                  (1 TiB of GPU virtual addresses as a heap of offsets)'

-include $(OFFSETS_OBJS:.o=.d)
