// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-job output (--jobs with --json or --csv): one row per job, written by
 * the report model's table-driven row writers (gpulat-report.h), the same
 * fields the worst and incomplete jobs of the report carry.
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

int gl_jobs_write(struct gl_run *r, const struct gpulat_job *job)
{
	if (r->opts->format == GL_FMT_CSV) {
		gpulat_report_csv_row(r->jobs_tmp, GPULAT_ROW_JOB, job);
		fputc('\n', r->jobs_tmp);
	} else {
		fputs(r->jobs_rows ? ",\n    " : "\n    ", r->jobs_tmp);
		gpulat_report_json_row(r->jobs_tmp, GPULAT_ROW_JOB, job);
	}
	r->jobs_rows++;
	return ferror(r->jobs_tmp) ? -EIO : 0;
}

/* copy the streamed rows into the report */
int gl_jobs_copy(const struct gl_run *r, FILE *out)
{
	char buf[65536];
	size_t len;

	if (!r->jobs_tmp)
		return 0;
	if (fflush(r->jobs_tmp) || fseek(r->jobs_tmp, 0, SEEK_SET))
		return -errno;
	while ((len = fread(buf, 1, sizeof(buf), r->jobs_tmp)) > 0) {
		if (fwrite(buf, 1, len, out) != len)
			return -EIO;
	}
	return ferror(r->jobs_tmp) ? -EIO : 0;
}
