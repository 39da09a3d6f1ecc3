# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# examples/minimal/readme_copy.awk - print the code block that follows the
# first README line naming FILE (-v file=examples/minimal/NAME.c), without
# its four-space indent, so that make check can compare it with the file.
!found && index($0, "(`" file "`)") { found = 1; next }
!found { next }
/^    / { line[++n] = substr($0, 5); last = n; next }
/^$/ { if (n) line[++n] = ""; next }
n { exit }
END { for (i = 1; i <= last; i++) print line[i] }
