#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/docs/lab_notes.sh - library code holds reasons, not history: no
# measurement-only switch and no pointer to the bench's lab notes in any
# file of the library (ablations live as patches under bench/ablations/,
# measurements in bench/FINDINGS.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
found=$(grep -rnE 'MODERN_ABLATE_|FINDINGS' common legacy modern compat device \
	--include='*.c' --include='*.h' || true)
if [ -n "$found" ]; then
	echo "lab notes in library code (say the reason in the present tense instead):" >&2
	echo "$found" >&2
	exit 1
fi
echo "lab notes: none in library code"
