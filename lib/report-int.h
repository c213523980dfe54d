/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Report internals shared by report.c (the model), report-fields.c (the
 * field table) and report-write.c (the row writers).
 */
#ifndef _GPULAT_REPORT_INT_H
#define _GPULAT_REPORT_INT_H

#include "gpulat-report.h"
#include "gpulat-session.h"

struct gpulat_report {
	struct gpulat_session *s;
	const struct gpulat_stats *stats;
	struct gpulat_session_counts c;
	struct gpulat_tracker_counters tc;
	uint64_t stall_threshold_ns;
	/* the client groups that have a client id (report order) */
	const struct gpulat_group **clients;
	size_t nclients;
	char *headlines;	/* report-headline.c: '|'-joined, NULL for none */
};

/* report-headline.c */
int gpulat__report_headlines(struct gpulat_report *r);
const char *gpulat__report_headline_list(const struct gpulat_report *r);

/* the group kinds a busy or depth field is shown for (1 << enum gpulat_group_kind) */
unsigned int gpulat__report_busy_kinds(void);

/* the n-th field of the table whose rows intersect @mask */
const struct gpulat_field *gpulat__field_any(unsigned int mask, size_t i);

#define GPULAT__GROUP_ROWS                                                                  \
	((1u << GPULAT_ROW_RING) | (1u << GPULAT_ROW_PROCESS) | (1u << GPULAT_ROW_CLIENT) | \
	 (1u << GPULAT_ROW_DEVICE))

#endif /* _GPULAT_REPORT_INT_H */
