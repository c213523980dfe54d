/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat_record_bytes() inline, for the readers' per-record path: the call
 * cost 20 instructions of a record (callgrind, shape-dense 200k events:
 * 9.2 M of 746 M), the check itself a few.
 */
#ifndef _GPULAT_BOUNDS_INT_H
#define _GPULAT_BOUNDS_INT_H

#include <stddef.h>

#include <event-parse.h>

/* see gpulat_record_bytes() (bounds.c) */
static inline size_t gpulat__record_bytes(const struct tep_record *rec, int page_size)
{
	size_t ps = page_size > 0 ? (size_t)page_size : 4096, in_page;

	if (rec->size <= 0)
		return 0;
	/* page sizes are powers of two; the offset is the file's (or read-zstd.c's) */
	in_page = page_size > 0 ? (size_t)(rec->offset & (unsigned long long)(ps - 1)) : 0;
	if (in_page + 4 > ps || (size_t)rec->size > ps - in_page - 4)
		return 0;
	return (size_t)rec->size;
}

#endif /* _GPULAT_BOUNDS_INT_H */
