# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# examples/minimal/build.mk - a minimal program per API, built by "make"
# and run by "make check" (the compat one on both backends), which also
# checks that README's copies of them are the files, so that README never
# shows code that does not work.

MINIMAL_NAMES := legacy modern compat
MINIMAL_BINS := $(MINIMAL_NAMES:%=$(B)/examples/minimal/%)
PROGRAMS += $(MINIMAL_BINS)
CHECK_PROGRAMS += $(MINIMAL_BINS)

$(B)/examples/minimal/%: $(B)/examples/minimal/%.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

# The same compat binary, unchanged, on the bitmap engine.
.PHONY: check-minimal-bitmap
CHECK_TARGETS += check-minimal-bitmap
check-minimal-bitmap: $(B)/examples/minimal/compat
	GENALLOC_BACKEND=bitmap $(TEST_WRAPPER) $<

# README shows these programs whole (the quick start's and the 2005 API's
# on either engine): its copies must not drift.
MINIMAL_README := modern compat
.PHONY: check-minimal-readme
CHECK_TARGETS += check-minimal-readme
check-minimal-readme:
	@mkdir -p $(B)/examples/minimal
	@set -e; for f in $(MINIMAL_README); do \
		src=examples/minimal/$$f.c; out=$(B)/examples/minimal/$$f; \
		sed -n '/^#include/,$$p' $$src | expand -t 8 > $$out.want; \
		awk -v file=$$src -f examples/minimal/readme_copy.awk README > $$out.readme; \
		if ! cmp -s $$out.want $$out.readme; then \
			echo "README: its copy of $$src differs from the file:"; \
			diff -u $$out.want $$out.readme; exit 1; \
		fi; \
	done; echo "README: its copies of $(MINIMAL_README:%=examples/minimal/%.c) match"

-include $(MINIMAL_BINS:=.d)
