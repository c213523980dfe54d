// SPDX-License-Identifier: LGPL-2.1
/*
 * Headlines of the report: one line per ring that stopped completing (a
 * hang, issue 16), the same text in the CLI's header, its JSON "headlines"
 * and any other front end. The rule is gpulat_group.stopped_ns (stats.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-ring.h"
#include "report-int.h"

/**
 * gpulat_ring_headline - the headline of a ring that stopped completing
 * @buf: out
 * @len: its size
 * @g: a ring group of a finished session
 *
 * "gfx: 18 jobs pending after 124.252075, nothing completed for 224ms" (the
 * last done event's timestamp as trace-cmd report prints it; "since the
 * start" when the ring completed nothing).
 *
 * Return: @buf, "" when the ring did not stop.
 */
char *gpulat_ring_headline(char *buf, size_t len, const struct gpulat_group *g)
{
	char label[256], d[32];

	if (!len)
		return buf;
	buf[0] = '\0';
	if (g->kind != GPULAT_G_RING || !g->stopped_ns)
		return buf;
	gpulat_ring_label(label, sizeof(label), g->dev, g->ring);
	gpulat_fmt_duration(d, sizeof(d), g->stopped_ns);
	if (g->last_done_ts == GPULAT_NONE)
		snprintf(buf, len,
			 "%s: %llu job%s pending, nothing completed for %s (none since "
			 "the start)",
			 label, (unsigned long long)g->incomplete, g->incomplete == 1 ? "" : "s",
			 d);
	else
		snprintf(buf, len,
			 "%s: %llu job%s pending after %llu.%06llu, nothing completed "
			 "for %s",
			 label, (unsigned long long)g->incomplete, g->incomplete == 1 ? "" : "s",
			 (unsigned long long)(g->last_done_ts / 1000000000),
			 (unsigned long long)(g->last_done_ts % 1000000000 / 1000), d);
	return buf;
}

/* the headlines '|'-joined for the trace row's "headlines" list; -ENOMEM */
int gpulat__report_headlines(struct gpulat_report *r)
{
	size_t i, n = gpulat_stats_ngroups(r->stats, GPULAT_G_RING), len = 0;
	char line[512];

	free(r->headlines);
	r->headlines = NULL;
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_RING, i);
		char *tmp;
		size_t k;

		if (!*gpulat_ring_headline(line, sizeof(line), g))
			continue;
		/* '|' separates the list: a ring name holding one gets '/' */
		for (k = 0; line[k]; k++)
			if (line[k] == '|')
				line[k] = '/';
		k = strlen(line);
		tmp = realloc(r->headlines, len + k + 2);
		if (!tmp)
			return -ENOMEM;
		r->headlines = tmp;
		if (len)
			r->headlines[len++] = '|';
		memcpy(r->headlines + len, line, k + 1);
		len += k;
	}
	return 0;
}

const char *gpulat__report_headline_list(const struct gpulat_report *r)
{
	return r->headlines ? r->headlines : "";
}
