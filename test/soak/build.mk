# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/soak/build.mk - genalloc-soak: random pools, indexed against the
# kernel's linear search (see test/soak/soak.c).
#
#   make soak             run it for SOAK_SECONDS (default 600) from seed
#                         SOAK_SEED (default 1), on the VARIANT's build (release
#                         unless told)
#
# make check runs "genalloc-soak --check" (twenty short rounds) in every
# variant, so the sanitizers and valgrind see it too.

SOAK := $(B)/test/soak/genalloc-soak
SOAK_SECONDS ?= 600
SOAK_SEED ?= 1
PROGRAMS += $(SOAK)
CHECK_PROGRAMS += $(SOAK)

$(SOAK): $(B)/test/soak/soak.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

.PHONY: soak help-soak
soak: $(SOAK)
	$(SOAK) --seconds $(SOAK_SECONDS) --seed $(SOAK_SEED)

help: help-soak
help-soak:
	@echo '  soak            genalloc-soak for SOAK_SECONDS (600): random pools, indexed'
	@echo '                  against the linear search, every address compared'

-include $(B)/test/soak/soak.d
