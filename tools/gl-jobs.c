// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-job output (--jobs): one row per job, written by the report model's
 * table-driven row writers (gpulat-report.h) for --json and --csv, the same
 * fields the worst and incomplete jobs of the report carry; in the text
 * report a fixed-width table (streamed: no widths to learn) after the report.
 *
 * Job rows are streamed into a temporary file while the trace is read (so
 * memory does not grow with the number of jobs) and copied into the report
 * once reading succeeded: stdout never sees a partial report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-report.h"
#include "gpu-latency.h"

int gl_jobs_open(struct gl_run *r)
{
	r->jobs_tmp = tmpfile();
	return r->jobs_tmp ? 0 : -errno;
}

/* the text table's columns (fixed widths: the rows are streamed) */
#define TEXT_ROW "  %-10s  %-20s  %-18s  %9s  %9s  %9s  %9s  %-17s  %-17s  %-17s  %s\n"

static void text_row(struct gl_run *r, const struct gpulat_job *j)
{
	char ring[256], proc[256], id[320], t[4][24], ts[3][48];

	if (j->pid < 0)
		snprintf(proc, sizeof(proc), "(unknown)");
	else
		snprintf(proc, sizeof(proc), "%s-%d", j->comm && *j->comm ? j->comm : "<...>",
			 j->pid);
	fprintf(r->jobs_tmp, TEXT_ROW, gpulat_status_name(j->status),
		gl_ring_label(r, j->file, j->dev, j->ring, ring, sizeof(ring)), proc,
		gl_fmt_dur(t[0], sizeof(t[0]), j->total), gl_fmt_dur(t[1], sizeof(t[1]), j->wait),
		gl_fmt_dur(t[2], sizeof(t[2]), j->hw_queue),
		gl_fmt_dur(t[3], sizeof(t[3]), j->exec),
		gl_fmt_ts_cpu(ts[0], sizeof(ts[0]), j->ts[GPULAT_ST_QUEUE],
			      j->cpu[GPULAT_ST_QUEUE]),
		gl_fmt_ts_cpu(ts[1], sizeof(ts[1]), j->ts[GPULAT_ST_RUN], j->cpu[GPULAT_ST_RUN]),
		gl_fmt_ts_cpu(ts[2], sizeof(ts[2]), j->ts[GPULAT_ST_DONE], j->cpu[GPULAT_ST_DONE]),
		gpulat_job_identity(id, sizeof(id), j));
}

int gl_jobs_write(struct gl_run *r, const struct gpulat_job *job)
{
	if (r->opts->format == GL_FMT_TEXT) {
		text_row(r, job);
	} else if (r->opts->format == GL_FMT_CSV) {
		gpulat_report_csv_row(r->jobs_tmp, GPULAT_ROW_JOB, job);
		fputc('\n', r->jobs_tmp);
	} else {
		fputs(r->jobs_rows ? ",\n    " : "\n    ", r->jobs_tmp);
		gpulat_report_json_row(r->jobs_tmp, GPULAT_ROW_JOB, job);
	}
	r->jobs_rows++;
	return ferror(r->jobs_tmp) ? -EIO : 0;
}

/* copy the streamed rows into the report (text: under a title and a header) */
int gl_jobs_copy(const struct gl_run *r, FILE *out)
{
	char buf[65536];
	size_t len;

	if (!r->jobs_tmp)
		return 0;
	if (r->opts->format == GL_FMT_TEXT) {
		fprintf(out, "\nJobs (--jobs: %llu, in the order they ended)\n",
			(unsigned long long)r->jobs_rows);
		fprintf(out, TEXT_ROW, "status", "ring", "process", "total", "wait", "hw_queue",
			"exec", "queue [cpu]", "run [cpu]", "done [cpu]", "job");
	}
	if (fflush(r->jobs_tmp) || fseek(r->jobs_tmp, 0, SEEK_SET))
		return -errno;
	while ((len = fread(buf, 1, sizeof(buf), r->jobs_tmp)) > 0) {
		if (fwrite(buf, 1, len, out) != len)
			return -EIO;
	}
	return ferror(r->jobs_tmp) ? -EIO : 0;
}
