#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/man_names.sh - every public call has a manual page.
#
#   man_names.sh [--installed] MAN3DIR HEADER...
#
# Takes every public function and function-like macro name from the
# HEADERs (the kernel-doc "name() - " lines, the static inline and
# GENALLOC_API prototypes, "#define name(" and the "#define name
# modern_name" aliases of the algorithms) and fails, naming each, if
# no page in MAN3DIR lists NAME in its NAME section (man/ in the source
# tree, where the links do not exist yet), or with --installed if MAN3DIR
# has no NAME.3, page or link, for man to find.  The engines' exported
# symbols (modern_*, legacy_*, compat_*) are internals unless a kernel-doc
# line documents them under that name, as it does the 2005 API's own calls
# (legacy_gen_pool_check()); GENALLOC_* macros are the headers' plumbing.
set -euo pipefail

installed=
if [ "${1:-}" = --installed ]; then
	installed=1
	shift
fi
if [ $# -lt 2 ]; then
	echo "usage: man_names.sh [--installed] MAN3DIR HEADER..." >&2
	exit 2
fi
mandir=$1
shift

documented=$(sed -n 's/^ \* \([A-Za-z_][A-Za-z0-9_]*\)() - .*/\1/p' "$@" | sort -u)
declared=$(
	sed -n -E 's/^(static inline|GENALLOC_API)[^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*)\(.*/\2/p' "$@"
	sed -n -E 's/^#define ([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$@"
	sed -n -E 's/^#define ([a-z_][a-z0-9_]*)[[:space:]]+(modern|legacy|compat)_[a-z0-9_]+$/\1/p' "$@"
)
names=$( { printf '%s\n' "$documented"; printf '%s\n' "$declared" |
	grep -Ev '^(modern|legacy|compat)_|^GENALLOC_|^_' || true; } |
	grep -v '^modern_' | grep -v '^$' | sort -u)

# The names the pages give in their NAME sections.
listed=$(for p in "$mandir"/*.3; do
	[ -L "$p" ] || sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z_0-9]*\).*/\1/p' "$p"
done | sort -u)

# A name listed by two pages would be installed as a link to either.
dups=$(for p in "$mandir"/*.3; do
	[ -L "$p" ] || sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z_0-9]*\).*/\1/p' "$p"
done | sort | uniq -d)
if [ -n "$dups" ]; then
	echo "man: listed in the NAME sections of two pages:" $dups >&2
	exit 1
fi

missing=0
count=0
for n in $names; do
	count=$((count + 1))
	if { [ -n "$installed" ] && [ ! -e "$mandir/$n.3" ]; } ||
		{ [ -z "$installed" ] && ! grep -qx "$n" <<<"$listed"; }; then
		echo "man: no page for $n()" >&2
		missing=$((missing + 1))
	fi
done
if [ "$missing" -gt 0 ]; then
	echo "man: $missing of the $count public names have no manual page in $mandir" >&2
	exit 1
fi
echo "man: each of the $count public names has a manual page"
