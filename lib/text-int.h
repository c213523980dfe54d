/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Text reader internals: read-text.c (lines, layouts, streaming) and
 * text-formats.c (the print formats of every event, args -> gpulat_event).
 */
#ifndef _GPULAT_TEXT_INT_H
#define _GPULAT_TEXT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulat-int.h"

/* What parsing the arguments of one event line found beyond its fields. */
enum {
	GPULAT__TX_CUT		= 1 << 0,	/* a string the kernel refused to print
						 * ([UNSAFE-MEMORY], (fault), ...) */
	GPULAT__TX_PLUGIN	= 1 << 1,	/* our plugin's vocabulary (trace-cmd
						 * report with plugin_gpu_sched) */
	GPULAT__TX_HASHED	= 1 << 2,	/* a %p printed hashed (tracefs) */
	GPULAT__TX_RAWPTR	= 1 << 3,	/* a %p printed 0x... (libtraceevent) */
};

struct gpulat__tfmt_ctx {
	struct gpulat__strtab	*strs;
	const char		*empty;		/* interned "" */
	const char		*unknown;	/* interned "?" */
};

/* the text family (set of print formats) of an event name; -1 if none */
int gpulat__tfmt_family(const char *name);

/*
 * Parse the arguments @args..@end of one line of an event of text family
 * @fam and kind @kind into @ev (ts, cpu, pid, comm, flags of the line are the
 * caller's). @cache remembers which format matched last for this event.
 * *@how gets GPULAT__TX_* bits.
 *
 * Return: 0 on success, -1 when no print format of the family matches.
 */
int gpulat__tfmt_parse(const struct gpulat__tfmt_ctx *c, int fam, enum gpulat_kind kind,
		       const char *args, const char *end, struct gpulat_event *ev,
		       unsigned int *cache, unsigned int *how);

/* the kernel's print format(s) of a family, for messages and tests */
const char *gpulat__tfmt_format(int fam, unsigned int i);

#endif /* _GPULAT_TEXT_INT_H */
