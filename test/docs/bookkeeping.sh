#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/bookkeeping.sh - docs/bookkeeping.md's tables against what the
# engine computes (test/docs/bookkeeping.c); run by "make check".
#
#   bash test/docs/bookkeeping.sh PROGRAM PAGE
set -euo pipefail

prog=$1 page=$2
if [ "$(getconf LONG_BIT)" != 64 ]; then
	echo "bookkeeping: $page's tables are a 64-bit machine's; not checked here"
	exit 0
fi
doc=$(sed -n '/^<!-- test\/docs\/bookkeeping.c: begin -->$/,/^<!-- test\/docs\/bookkeeping.c: end -->$/p' "$page" |
	sed '1d;$d')
[ -n "$doc" ] || { echo "bookkeeping: $page has no computed tables" >&2; exit 1; }
if ! diff -u <(printf '%s\n' "$doc") <("$prog") >&2; then
	echo "bookkeeping: $page's tables differ from $prog's (- page, + engine):" \
	     "copy its output between the markers, and check the prose around them" >&2
	exit 1
fi
echo "bookkeeping: $page's tables are the engine's"
