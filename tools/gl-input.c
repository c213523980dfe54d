// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading: the core library's reader (gpulat-read.h) opens and checks the
 * files, binds their GPU events and streams every record, merged in time
 * order, into one tracker; the finished jobs come back here, go through the
 * filter (gl-filter.c) and into the statistics.
 *
 * Memory stays O(jobs in flight): records are never kept, only the tracker's
 * open jobs and the statistics' per-group state.
 *
 * Every problem is reported as one line naming the file, before anything is
 * printed on stdout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-diag.h"
#include "gpulat-read.h"
#include "gpu-latency.h"

static void gl_warn(const char *msg, void *data)
{
	struct gl_run *r = data;

	if (!r->opts->quiet)
		fprintf(stderr, "%s: warning: %s\n", GL_NAME, msg);
}

/* what to record, per kernel era; printed when a trace has no GPU events */
static void hint_record(void)
{
	fprintf(stderr,
		"  record the GPU scheduler events, for example:\n"
		"    Linux 6.17+:     trace-cmd record -e gpu_scheduler:drm_sched_job_queue"
		" -e gpu_scheduler:drm_sched_job_run -e gpu_scheduler:drm_sched_job_done"
		" -e gpu_scheduler:drm_sched_job_add_dep"
		" -e gpu_scheduler:drm_sched_job_unschedulable -e dma_fence:dma_fence_signaled"
		" COMMAND\n"
		"    Linux 5.7-6.16:  trace-cmd record -e gpu_scheduler:drm_sched_job"
		" -e gpu_scheduler:drm_run_job -e gpu_scheduler:drm_sched_process_job"
		" -e gpu_scheduler:drm_sched_job_wait_dep -e dma_fence:dma_fence_signaled"
		" COMMAND\n"
		"    Linux 4.16-5.6:  trace-cmd record -e gpu_scheduler:drm_sched_job"
		" -e gpu_scheduler:drm_sched_process_job -e gpu_scheduler:drm_sched_job_wait_dep"
		" -e dma_fence:dma_fence_signaled COMMAND\n"
		"    any era:         trace-cmd record -e gpu_scheduler -e dma_fence COMMAND\n");
}

/* ------------------------------------------------------------------------ */

static void gl_job(const struct gpulat_job *job, void *data)
{
	struct gl_run *r = data;
	int ret;

	r->jobs_seen++;
	if (r->err || !gl_filter_job(&r->opts->filter, job))
		return;
	r->jobs++;

	ret = gpulat_stats_add(r->stats, job);
	if (ret < 0)
		goto fail;
	if (r->diag) {
		ret = gpulat_diag_job(r->diag, job);
		if (ret < 0)
			goto fail;
	}

	switch (job->status) {
	case GPULAT_JOB_COMPLETE:
		break;
	case GPULAT_JOB_INCOMPLETE:
		r->n_incomplete++;
		break;
	case GPULAT_JOB_LOST:
		r->n_lost++;
		break;
	case GPULAT_JOB_ORPHAN:
		r->n_orphan++;
		break;
	}
	if (job->status != GPULAT_JOB_COMPLETE) {
		ret = gl_kept_add(&r->kept, job);
		if (ret < 0)
			goto fail;
	}
	if (r->jobs_tmp) {
		ret = gl_jobs_write(r, job);
		if (ret < 0)
			goto fail;
	}
	return;
 fail:
	r->err = ret;
}

/* ------------------------------------------------------------------------ */

int gl_run_init(struct gl_run *r, const struct gl_opts *o, const char **files, size_t n)
{
	struct gpulat_tracker_ops ops = {
		.job	= gl_job,
		.warn	= gl_warn,
	};

	memset(r, 0, sizeof(*r));
	r->opts = o;
	r->files = files;
	r->nfiles = n;
	r->first_ts = UINT64_MAX;
	r->kept.cap = o->top;

	r->tracker = gpulat_tracker_new(&ops, r);
	r->stats = gpulat_stats_new(&o->stats);
	if (!r->tracker || !r->stats || gl_diag_init(r) < 0)
		return -ENOMEM;
	if (o->jobs && o->format != GL_FMT_TEXT)
		return gl_jobs_open(r);
	return 0;
}

/* "trace.dat" or "a.dat + b.dat" for headers */
const char *gl_run_label(const struct gl_run *r, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nfiles && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " + " : "", r->files[i]);

		if (w < 0)
			break;
		off += (size_t)w;
	}
	return buf;
}


void gl_run_free(struct gl_run *r)
{
	if (r->tracker)
		gpulat_tracker_free(r->tracker);
	if (r->stats)
		gpulat_stats_free(r->stats);
	if (r->jobs_tmp)
		fclose(r->jobs_tmp);
	gl_kept_free(&r->kept);
	gl_diag_free(r);
	/* last: the interned names of the report live in its bindings */
	if (r->reader)
		gpulat_reader_close(r->reader);
	memset(r, 0, sizeof(*r));
}

/**
 * gl_run_read - read the run's files and compute its statistics
 * @r: initialised by gl_run_init()
 *
 * Return: 0, or -1 after one error line (plus hints) on stderr.
 */
int gl_run_read(struct gl_run *r)
{
	const struct gl_filter *f = &r->opts->filter;
	struct gpulat_reader_counts c;
	char err[1024];
	size_t i;
	int ret;

	r->reader = gpulat_reader_open(r->files, (int)r->nfiles, err, sizeof(err));
	if (!r->reader) {
		int e = errno;

		if (e == ENODATA) {
			/* one short line; the record lines follow, one per era */
			char *cut = strstr(err, "; record them");

			if (cut)
				*cut = '\0';
		}
		fprintf(stderr, "%s: %s\n", GL_NAME, err);
		if (e == ENODATA)
			hint_record();
		return -1;
	}
	gpulat_reader_set_warn(r->reader, gl_warn, r);
	/* only --explain / --fence-path look at irq, sched and power events */
	if (!r->diag)
		for (i = 0; i < r->nfiles; i++)
			gpulat_binding_set_context(gpulat_reader_binding(r->reader, (int)i),
						   false);
	r->era = gpulat_reader_era(r->reader);
	r->cpus = gpulat_reader_cpus(r->reader, -1);

	/* jobs of different event layouts cannot be linked as one trace */
	for (i = 0; i < r->nfiles; i++) {
		enum gpulat_era era;

		era = gpulat_binding_era(gpulat_reader_binding(r->reader, (int)i));
		if (era == GPULAT_ERA_NONE || era == r->era)
			continue;
		fprintf(stderr, "%s: %s: incompatible layout: GPU events of kernel era %s, but "
			"the other input has era %s (analyse them one by one, or use --compare)\n",
			GL_NAME, r->files[i], gpulat_era_name(era), gpulat_era_name(r->era));
		return -1;
	}

	ret = gpulat_reader_run(r->reader, r->tracker, r->diag ? gl_diag_event : NULL, r,
				err, sizeof(err));
	if (ret < 0 || r->err) {
		if (ret < 0)
			fprintf(stderr, "%s: %s\n", GL_NAME, err);
		else
			fprintf(stderr, "%s: %s: %s\n", GL_NAME, r->files[0], strerror(-r->err));
		return -1;
	}
	gpulat_reader_counts(r->reader, &c);
	gpulat_reader_span(r->reader, &r->first_ts, &r->last_ts);
	r->events = c.events;
	r->gpu_events = c.gpu_events;
	memcpy(r->kind, c.kind, sizeof(r->kind));
	r->lost_events = c.lost_events;
	r->lost_unknown = c.lost_gaps;
	r->damaged = c.damaged;

	if (!r->events || r->first_ts == GPULAT_NONE) {
		fprintf(stderr, "%s: %s: the trace holds no events at all (empty recording)\n",
			GL_NAME, r->files[0]);
		hint_record();
		return -1;
	}
	if (!c.kind[GPULAT_EV_QUEUE] && !c.kind[GPULAT_EV_RUN] && !c.kind[GPULAT_EV_DONE] &&
	    !c.kind[GPULAT_EV_AMD_CS] && !c.kind[GPULAT_EV_AMD_RUN]) {
		fprintf(stderr, "%s: %s: no GPU scheduler events were recorded (the trace has "
			"their formats but no records)\n", GL_NAME,
			r->nfiles == 1 ? r->files[0] : "(all files)");
		hint_record();
		return -1;
	}
	gpulat_tracker_counters(r->tracker, &r->counters);

	r->span_first = r->first_ts > f->start_ns ? r->first_ts : f->start_ns;
	r->span_last = r->last_ts < f->end_ns ? r->last_ts : f->end_ns;
	if (r->span_last < r->span_first)
		r->span_last = r->span_first;
	gpulat_stats_set_span(r->stats, r->span_first, r->span_last);
	if (r->diag)
		gl_diag_finish(r);
	if (gpulat_stats_finish(r->stats) < 0) {
		fprintf(stderr, "%s: %s: %s\n", GL_NAME, r->files[0], strerror(ENOMEM));
		return -1;
	}
	return 0;
}
