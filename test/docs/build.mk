# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/docs/build.mk - make check keeps docs/misuse.md true to the tests:
# every test a row names as its proof exists and is run, and every message
# it shows is one the tests compare with what the code prints.

.PHONY: check-misuse-doc
CHECK_TARGETS += check-misuse-doc
check-misuse-doc:
	@bash test/docs/misuse_rows.sh docs/misuse.md
	@bash test/docs/misuse_messages.sh docs/misuse.md test
