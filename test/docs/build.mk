# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/docs/build.mk - make check keeps docs/misuse.md true to the tests:
# every test a row names as its proof exists and is run.

.PHONY: check-misuse-doc
CHECK_TARGETS += check-misuse-doc
check-misuse-doc:
	@bash test/docs/misuse_rows.sh docs/misuse.md

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
