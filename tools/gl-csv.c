// SPDX-License-Identifier: LGPL-2.1
/*
 * --csv: one row per (group, metric) with the group's counters repeated, so
 * the file loads into any spreadsheet or `python3 -m csv` without joins.
 * With --jobs the CSV is one row per job instead (gl-jobs.c). The header
 * line is a stable interface (tests/tools checks it).
 */
#include "gpu-latency.h"

#define GL_CSV_HEADER \
	"group,dev,ring,pid,comm,client_id,jobs,complete,incomplete,lost,busy_ns,busy_pct," \
	"max_depth,avg_depth,metric,n,min,max,mean,stddev,p50,p90,p99,p999,exact,max_ts," \
	"max_cpu\n"

static const char * const group_names[GPULAT_G__COUNT] = {
	[GPULAT_G_RING]		= "ring",
	[GPULAT_G_PROCESS]	= "process",
	[GPULAT_G_CLIENT]	= "client",
	[GPULAT_G_DEVICE]	= "device",
};

void gl_csv_header(FILE *out)
{
	fputs(GL_CSV_HEADER, out);
}

static void csv_group(FILE *out, const struct gpulat_group *g)
{
	int m;

	for (m = 0; m < GPULAT_M__COUNT; m++) {
		const struct gpulat_summary *s = &g->m[m];
		bool ring = g->kind == GPULAT_G_RING || g->kind == GPULAT_G_DEVICE;

		fprintf(out, "%s,", group_names[g->kind]);
		gl_csv_str(out, g->kind == GPULAT_G_RING || g->kind == GPULAT_G_DEVICE ?
			   g->dev : NULL);
		fputc(',', out);
		gl_csv_str(out, g->kind == GPULAT_G_RING ? g->ring : NULL);
		fputc(',', out);
		if (g->kind == GPULAT_G_PROCESS)
			fprintf(out, "%d", g->pid);
		fputc(',', out);
		gl_csv_str(out, g->kind == GPULAT_G_PROCESS ? g->comm : NULL);
		fputc(',', out);
		gl_csv_u64(out, g->kind == GPULAT_G_CLIENT ? g->client_id : GPULAT_NONE);
		fprintf(out, ",%llu,%llu,%llu,%llu,", (unsigned long long)g->jobs,
			(unsigned long long)g->complete, (unsigned long long)g->incomplete,
			(unsigned long long)g->lost);
		if (ring)
			fprintf(out, "%llu,%.3f,%u,%.3f", (unsigned long long)g->busy_ns,
				g->busy_pct, g->max_depth, g->avg_depth);
		else
			fputs(",,,", out);
		fprintf(out, ",%s,%llu,", gpulat_metric_name(m), (unsigned long long)s->n);
		if (s->n)
			fprintf(out, "%llu,%llu,%llu,%.3f,%llu,%llu,%llu,%llu,%d,%llu,%d\n",
				(unsigned long long)s->min, (unsigned long long)s->max,
				(unsigned long long)s->mean, s->stddev,
				(unsigned long long)s->p50, (unsigned long long)s->p90,
				(unsigned long long)s->p99, (unsigned long long)s->p999,
				s->exact ? 1 : 0, (unsigned long long)s->max_ts, s->max_cpu);
		else
			fprintf(out, ",,,,,,,,%d,,\n", s->exact ? 1 : 0);
	}
}

/**
 * gl_csv_report - the report as CSV
 * @r: a run after gl_run_read()
 * @out: where to write
 *
 * Rings first, then processes, clients and devices. With --jobs: the job rows.
 *
 * Return: 0, or a negative errno.
 */
int gl_csv_report(const struct gl_run *r, FILE *out)
{
	static const enum gpulat_group_kind order[] = {
		GPULAT_G_RING, GPULAT_G_PROCESS, GPULAT_G_CLIENT, GPULAT_G_DEVICE,
	};
	size_t i, k;

	if (r->opts->jobs) {
		gl_job_csv_header(out);
		return gl_jobs_copy(r, out);
	}
	gl_csv_header(out);
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		size_t n = gpulat_stats_ngroups(r->stats, order[k]);

		for (i = 0; i < n; i++) {
			const struct gpulat_group *g = gpulat_stats_group(r->stats, order[k], i);

			if (order[k] == GPULAT_G_CLIENT && g->client_id == GPULAT_NONE)
				continue;
			csv_group(out, g);
		}
	}
	return 0;
}
