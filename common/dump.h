/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/dump.h - the layout dump's formats and its JSON schema, one for
 * all three engines (gen_pool_dump() in modern/genalloc.h,
 * legacy_gen_pool_dump() and compat_gen_pool_dump()).  Not the kernel's.
 *
 * Both formats list every chunk in address order, a chunk smaller than
 * one granule too (with no runs), so that the totals' size is the pool's
 * size (gen_pool_size(), or obtained plus donated bytes in the 2005 APIs).
 * Two numbers describe the free memory's largest piece:
 *
 *   largest free block  the largest request the free memory could serve
 *                       without growing: the largest free run in a modern
 *                       pool; in a 2005 pool (either engine) the largest
 *                       free buddy block, a power of two aligned to its
 *                       size, which a run of several free buddies can
 *                       exceed.  The same as the engine's statistics'
 *                       largest_free.
 *   largest free run    the largest stretch of free memory with no used
 *                       byte in it.
 *
 * A dump that is refused writes nothing: the arguments are checked first,
 * and the header is written only once the walk has the pool's lock.
 *
 * GENALLOC_DUMP_TEXT: a header line, one line per chunk in address order,
 * then a line of totals (sizes in bytes, addresses in hexadecimal):
 *
 *   modern pool, granule 16, runs of used granules
 *   chunk 0x100000 +4096: used 512 (12%) blocks 2 free runs 1 largest free block 3584 run 3584 |##      ...|
 *   total: 1 chunks, 4096 bytes, used 512, free 3584 in 1 runs, largest free block 3584 run 3584, blocks 2
 *
 * The header: "ENGINE pool, granule G, KIND", ENGINE as "engine" below,
 * G the granule, KIND "blocks" when each used run is one block, or "runs
 * of used granules" (a modern pool without block records).
 *
 * A chunk: "chunk 0xSTART +SIZE: used U (P%) blocks B free runs R largest
 * free block L run LR |BAR|": its first address and size (its tail shorter
 * than a granule included), the bytes in used runs and their share of the
 * size (rounded down), the used runs (blocks, or runs of used granules),
 * the free runs, the largest free block and run, and a bar of 32 cells
 * cutting the chunk into equal parts: '#' a cell at least 3/4 used, '+' at
 * least 1/4, '.' less, ' ' nothing used.
 *
 * The totals: "total: N chunks, S bytes, used U, free F in R runs, largest
 * free block L run LR, blocks B": sums over the chunks, and for L and LR
 * the largest of any chunk.
 *
 * GENALLOC_DUMP_JSON: one object on one line (sizes and offsets in bytes;
 * addresses as hexadecimal strings, exact whatever their width), laid out
 * here for reading:
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
 *     "chunks": [                       address order, every chunk
 *       { "start": "0x100000", "size": 4096,
 *         "runs": [                     address order, tiling the chunk's
 *                                       whole granules
 *           { "offset": 0, "size": 256, "used": true }, ...
 *         ],
 *         "used": 512, "free": 3584,    bytes in used and free runs
 *         "blocks": 2, "free_runs": 1,
 *         "largest_free": 3584,         the largest free block (above)
 *         "largest_free_run": 3584 }    the largest free run
 *     ],
 *     "totals": { "chunks": 1, "size": 4096, "used": 512, "free": 3584,
 *                 "blocks": 2, "free_runs": 1, "largest_free": 3584,
 *                 "largest_free_run": 3584 }
 *   }
 *
 * A reader must ignore members it does not know: schema 1 may gain
 * members (largest_free_run was added).  A chunk's
 * "size" counts its tail shorter than a granule, which is in no run; a
 * chunk smaller than one granule has "runs": [].
 */
#ifndef GENALLOC_COMMON_DUMP_H
#define GENALLOC_COMMON_DUMP_H

#include "version.h"

#define GENALLOC_DUMP_TEXT 0	/* a line per chunk with a density bar */
#define GENALLOC_DUMP_JSON 1	/* the schema above */

/* The JSON schema's version. */
#define GENALLOC_DUMP_SCHEMA 1

#endif /* GENALLOC_COMMON_DUMP_H */
