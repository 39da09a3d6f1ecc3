/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/dump.h - the layout dump's formats and its JSON schema, one for
 * all three engines (gen_pool_dump() in modern/genalloc.h,
 * legacy_gen_pool_dump() and compat_gen_pool_dump()).  Not the kernel's.
 *
 * GENALLOC_DUMP_TEXT: one line per chunk, in address order, then a line of
 * totals:
 *
 *   chunk 0x100000 +4096: used 512 (12%) blocks 2 free runs 1 largest 3584 |##      |
 *
 * The bar cuts the chunk into equal cells: '#' a cell at least 3/4 used,
 * '+' at least 1/4, '.' less, ' ' nothing used.
 *
 * GENALLOC_DUMP_JSON: one object (sizes and offsets in bytes; addresses as
 * hexadecimal strings, exact whatever their width):
 *
 *   {
 *     "schema": 1,                      this layout; a new one gets 2
 *     "engine": "modern",               "modern", "legacy", "compat-buddy",
 *                                       "compat-bitmap"
 *     "granule": 16,                    the smallest unit of a block
 *     "block_kind": "blocks",           "blocks": each used run is one
 *                                       block; "used-runs": a maximal run of
 *                                       used granules (a modern pool
 *                                       without block records)
 *     "chunks": [                       address order
 *       { "start": "0x100000", "size": 4096,
 *         "runs": [                     address order, tiling the chunk's
 *                                       whole granules
 *           { "offset": 0, "size": 256, "used": true }, ...
 *         ],
 *         "used": 512, "free": 3584,    bytes in used and free runs
 *         "blocks": 2, "free_runs": 1, "largest_free": 3584 }
 *     ],
 *     "totals": { "chunks": 1, "size": 4096, "used": 512, "free": 3584,
 *                 "blocks": 2, "free_runs": 1, "largest_free": 3584 }
 *   }
 *
 * A chunk's "size" counts its tail shorter than a granule, which is in no
 * run; a chunk smaller than one granule has no runs.
 */
#ifndef GENALLOC_COMMON_DUMP_H
#define GENALLOC_COMMON_DUMP_H

#include "version.h"

#define GENALLOC_DUMP_TEXT 0	/* a line per chunk with a density bar */
#define GENALLOC_DUMP_JSON 1	/* the schema above */

/* The JSON schema's version. */
#define GENALLOC_DUMP_SCHEMA 1

#endif /* GENALLOC_COMMON_DUMP_H */
