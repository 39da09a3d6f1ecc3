# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/docs/build.mk - make check keeps docs/misuse.md true to the tests:
# every test a row names as its proof exists and is run, and every message
# it shows is one the tests compare with what the code prints; the headers
# read as manuals; docs/bookkeeping.md holds the engine's figures.

.PHONY: check-misuse-doc
CHECK_TARGETS += check-misuse-doc
check-misuse-doc:
	@bash test/docs/misuse_rows.sh docs/misuse.md
	@bash test/docs/misuse_messages.sh docs/misuse.md test

# The installed headers read as manuals, and each figure of the
# bookkeeping lives in one place (test/docs/manual.sh).
.PHONY: check-manual
CHECK_TARGETS += check-manual
check-manual:
	@bash test/docs/manual.sh

# docs/bookkeeping.md's tables are what the engine computes.
BOOKKEEPING := $(B)/test/docs/bookkeeping
PROGRAMS += $(BOOKKEEPING)
$(BOOKKEEPING): $(B)/test/docs/bookkeeping.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

.PHONY: check-bookkeeping-doc
CHECK_TARGETS += check-bookkeeping-doc
check-bookkeeping-doc: $(BOOKKEEPING)
	@bash test/docs/bookkeeping.sh $(BOOKKEEPING) docs/bookkeeping.md

-include $(B)/test/docs/bookkeeping.d
# bench/results.sh, which writes bench/README.md's Results section from
# make compare's files, on a fixed set of them with known means.
.PHONY: check-bench-results
CHECK_TARGETS += check-bench-results
check-bench-results:
	@sh bench/results.sh test/docs/results | diff -u test/docs/results/expected.md - \
		&& echo "bench/results.sh: the means of test/docs/results/ are right"

# The manual pages: mandoc finds nothing to warn about in any of them, and
# every public call of the installed headers has one (test/docs/man_names.sh;
# make check-install checks the installed pages and links the same way).
.PHONY: check-man
CHECK_TARGETS += check-man
check-man: | deps-mandoc
	@mandoc -T lint -W warning $(MAN_PAGES) && \
		echo "man: mandoc -T lint -W warning: nothing to say about the $(words $(MAN_PAGES)) pages"
	@bash test/docs/man_names.sh man $(PUBLIC_HDRS)

# No ablation switch or lab-note pointer in library code.
.PHONY: check-lab-notes
CHECK_TARGETS += check-lab-notes
check-lab-notes:
	@bash test/docs/lab_notes.sh
