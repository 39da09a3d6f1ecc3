#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/manual.sh - the installed headers read as manuals; run by
# "make check" from the top of the tree.
#   - modern/genalloc.h reaches its first call (a declaration of a
#     gen_pool_* function) by line MAX_FIRST_CALL, and declares no modern_*
#     export before its IMPLEMENTATION part;
#   - no engine file outside modern/linux/ names the device model;
#   - each figure pattern of test/docs/figures.txt matches at most one line
#     of the library's headers and sources.
set -euo pipefail

MAX_FIRST_CALL=70
header=modern/genalloc.h
bad=0

first=$(grep -m 1 -nE '^static inline [^(]*\bgen_pool_[a-z_]+\(' "$header" | cut -d: -f1)
if [ -z "$first" ]; then
	echo "manual: $header declares no gen_pool_* call"; bad=1
elif [ "$first" -gt "$MAX_FIRST_CALL" ]; then
	echo "manual: $header's first call is at line $first, past $MAX_FIRST_CALL:" \
	     "move what callers do not need below IMPLEMENTATION"
	bad=1
fi
impl=$(grep -n '^/\* =* IMPLEMENTATION \*/$' "$header" | cut -d: -f1)
if [ -z "$impl" ]; then
	echo "manual: $header has no IMPLEMENTATION part"; bad=1
else
	early=$(head -n "$impl" "$header" |
		grep -nE '^GENALLOC_API|^struct (gen_pool|gen_pool_chunk|modern_[a-z_]+) \{|^static inline [^;]*\)$' || true)
	if [ -n "$early" ]; then
		echo "manual: $header defines before IMPLEMENTATION (line $impl) what callers do not read:"
		echo "$early"
		bad=1
	fi
fi

# The engine sits below the device model: only the linux/ shims, which
# stand for the kernel's headers, reach up to it.
dev=$(grep -lE '#[[:space:]]*include.*device/|modern_devm_|modern_(of_)?gen_pool_get|struct device(_node)?\b|devres_' \
	modern/*.c modern/*.h || true)
if [ -n "$dev" ]; then
	echo "manual: engine files that name the device model (only modern/linux/ may):" $dev
	bad=1
fi

n=0
while IFS= read -r pat; do
	case $pat in ''|'#'*) continue ;; esac
	n=$((n + 1))
	hits=$(grep -nE -- "$pat" common/*.[ch] legacy/*.[ch] modern/*.[ch] compat/*.[ch] \
		device/*.[ch] || true)
	if [ "$(printf '%s' "$hits" | grep -c '^')" -gt 1 ]; then
		echo "manual: the figure /$pat/ is written more than once; keep it in one place" \
		     "(docs/bookkeeping.md for the engine's bookkeeping):"
		echo "$hits"
		bad=1
	fi
done < test/docs/figures.txt

[ "$bad" = 0 ] && echo "manual: $header's first call at line $first; no device model in the engine; $n figures each in one place"
exit "$bad"
