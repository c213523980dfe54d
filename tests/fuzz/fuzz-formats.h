/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The format section of a fuzz_core input (fuzz-input.h) -> a tep_handle,
 * shared by the harness and the fuzz-tep-probe helper.
 */
#ifndef _FUZZ_FORMATS_H
#define _FUZZ_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FZ_MAX_EVENTS	64	/* parsed event ids remembered for FZ_OP_SETID */

struct tep_handle;

struct fz_formats {
	struct tep_handle	*tep;
	int			ids[FZ_MAX_EVENTS];
	int			nids;
};

/* a tep_handle set up as the header flags say (endianness, long size) */
struct tep_handle *fz_new_tep(uint8_t flags);
/* parse "%%SYS" and "%%COMM" chunks into fm->tep */
void fz_parse_formats(struct fz_formats *fm, const uint8_t *p, size_t len);
/*
 * Whether libtraceevent survives parsing this section: parsed first by the
 * fuzz-tep-probe helper (FUZZ_TEP_PROBE, a separate process serving the
 * run), the verdict remembered. True when the helper is not available.
 */
bool fz_tep_survives(uint8_t flags, const uint8_t *p, size_t len);
/*
 * The section parsed as fz_new_tep(@flags) + fz_parse_formats() would: the
 * same handle again for the same bytes and flags (kept for the process, the
 * last FZ_TEP_CACHE sections). Read-only for the caller; NULL: no memory.
 */
const struct fz_formats *fz_formats_get(uint8_t flags, const uint8_t *p, size_t len);

/* the harness <-> fuzz-tep-probe socket: all @len bytes out (@out) or in */
bool fz_xfer_all(int fd, void *buf, size_t len, bool out);

#endif /* _FUZZ_FORMATS_H */
