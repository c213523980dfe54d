// SPDX-License-Identifier: LGPL-2.1
/*
 * How many payload bytes a record can really have: the one bound every
 * front end applies before it copies or decodes a record (issue 24).
 */
#include <event-parse.h>

#include "bounds-int.h"
#include "gpulat.h"

/**
 * gpulat_record_bytes - the payload size of @rec if it fits its page
 * @rec: a record read by libtracecmd or lib/read-zstd.c
 * @page_size: the file's ring-buffer page size (tracecmd_page_size); <= 0:
 *	unknown, 4096 is assumed (the smallest page of any kernel)
 *
 * A record's payload lies in one ring-buffer page, after its event header
 * (at least 4 bytes) at rec->offset. kbuffer takes a damaged length field
 * as is, so rec->size can be up to 4 GB; reading that much runs past the
 * page (and the file mapping).
 *
 * Return: rec->size, or 0 when it is not positive or does not fit.
 */
size_t gpulat_record_bytes(const struct tep_record *rec, int page_size)
{
	return gpulat__record_bytes(rec, page_size);
}
