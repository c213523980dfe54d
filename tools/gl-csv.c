// SPDX-License-Identifier: LGPL-2.1
/*
 * --csv: one row per (group, metric) with the group's fields repeated, so
 * the file loads into any spreadsheet or `python3 -m csv` without joins.
 * With --jobs the CSV is one row per job instead (gl-jobs.c). The columns
 * are the report model's fields (gpulat-report.h): group fields, "metric",
 * summary fields. The header line is a stable interface (tests/tools checks it).
 */
#include <errno.h>

#include "gpulat-report.h"
#include "gpu-latency.h"

void gl_csv_str(FILE *out, const char *s)
{
	gpulat_csv_str(out, s);
}

/* empty for "does not exist" */
void gl_csv_u64(FILE *out, uint64_t v)
{
	if (v != GPULAT_NONE)
		fprintf(out, "%llu", (unsigned long long)v);
}

void gl_csv_header(FILE *out)
{
	fputs("group,", out);
	gpulat_report_csv_header(out, GPULAT_ROW_RING);
	fputs(",metric,", out);
	gpulat_report_csv_header(out, GPULAT_ROW_SUMMARY);
	fputc('\n', out);
}

static void csv_group(FILE *out, enum gpulat_row row, const struct gpulat_group *g)
{
	int m;

	for (m = 0; m < GPULAT_M__COUNT; m++) {
		fprintf(out, "%s,", gpulat_row_name(row));
		gpulat_report_csv_row(out, row, g);
		fprintf(out, ",%s,", gpulat_metric_name(m));
		gpulat_report_csv_row(out, GPULAT_ROW_SUMMARY, gpulat_report_summary(g, m));
		fputc('\n', out);
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
	static const enum gpulat_row order[] = {
		GPULAT_ROW_RING,
		GPULAT_ROW_PROCESS,
		GPULAT_ROW_CLIENT,
		GPULAT_ROW_DEVICE,
	};
	size_t i, k;

	if (r->opts->jobs) {
		gpulat_report_csv_header(out, GPULAT_ROW_JOB);
		fputc('\n', out);
		return gl_jobs_copy(r, out);
	}
	gl_csv_header(out);
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		size_t n = gpulat_report_nrows(r->rep, order[k]);

		for (i = 0; i < n; i++)
			csv_group(out, order[k], gpulat_report_row(r->rep, order[k], i));
	}
	return ferror(out) ? -EIO : 0;
}
