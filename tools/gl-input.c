// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading: one gpulat session (gpulat-session.h) per input set. The session
 * opens and checks the files, links, filters, counts and diagnoses; this
 * file gives it the command line's options, prints its messages and copies
 * its results into struct gl_run for the renderers. The --jobs rows are a
 * session listener (gl-jobs.c).
 *
 * Every problem is reported as one line naming the file, before anything is
 * printed on stdout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-report.h"
#include "gpulat-session.h"
#include "gpu-latency.h"

void gl_msg_print(const struct gl_opts *o, enum gpulat_msg_level level, const char *text)
{
	switch (level) {
	case GPULAT_MSG_ERROR:
		fprintf(stderr, "%s: %s\n", GL_NAME, text);
		break;
	case GPULAT_MSG_WARN:
		if (!o->quiet)
			fprintf(stderr, "%s: warning: %s\n", GL_NAME, text);
		break;
	case GPULAT_MSG_HINT:
		fputs(text, stderr);
		break;
	}
}

/* the session's one error channel: errors, warnings (unless -q), hints */
static void gl_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	const struct gl_run *r = data;

	gl_msg_print(r->opts, level, text);
}

void gl_session_opts(const struct gl_opts *o, struct gpulat_session_opts *so)
{
	gpulat_session_opts_init(so);
	gl_filter_session_opts(&o->filter, so);
	so->stall_threshold_ns = o->stats.stall_threshold_ns;
	so->top_n = o->stats.top_n;
	so->worst_by = o->stats.worst_by;
	if (o->explain)
		so->features |= GPULAT_FEAT_EXPLAIN;
	so->gpu_irq = o->gpu_irq;
	so->gpu_irq_name = o->gpu_irq_name;
}

static int gl_job_row(const struct gpulat_job *job, void *data)
{
	return gl_jobs_write(data, job);
}

int gl_run_init(struct gl_run *r, const struct gl_opts *o, const char **files, size_t n)
{
	struct gpulat_session_opts so;
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->opts = o;
	r->files = files;
	r->nfiles = n;
	r->c.first_ts = UINT64_MAX;

	gl_session_opts(o, &so);
	if (o->fence_path)
		so.features |= GPULAT_FEAT_FENCE_PATH;
	if (o->perfetto_sched)
		so.features |= GPULAT_FEAT_CONTEXT;	/* sched_switch, sched_waking */
	so.msg = gl_msg;
	so.msg_data = r;
	/* -j N: threads for this report; --each runs one report per process */
	so.threads = o->each ? 1 : o->njobs ? o->njobs : gl_each_default_jobs();

	r->session = gpulat_session_new(&so);
	if (!r->session)
		return -errno;
	for (i = 0; i < n; i++) {
		ret = gpulat_session_add_file(r->session, files[i]);
		if (ret < 0)
			return ret;
	}
#ifdef GST_PERFETTO
	if (o->perfetto) {
		ret = gl_pf_attach(r, &so);
		if (ret < 0)
			return ret;
	}
#endif
	ret = gl_frames_attach(r);
	if (ret < 0)
		return ret;
	if (o->jobs) {
		struct gpulat_listener l = { .sz = sizeof(l), .job = gl_job_row };

		ret = gl_jobs_open(r);
		if (ret < 0)
			return ret;
		return gpulat_session_add_listener(r->session, &l, r);
	}
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
	if (r->jobs_tmp)
		fclose(r->jobs_tmp);
#ifdef GST_PERFETTO
	gl_pf_detach(r);
#endif
	gl_frames_free(r);
	gpulat_report_free(r->rep);
	/* the interned names of the report live in the session */
	gpulat_session_free(r->session);
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
	char msg[2048], label[1024];

	if (gpulat_session_run(r->session) < 0)
		return -1;
	r->c.sz = sizeof(r->c);
	gpulat_session_counts(r->session, &r->c);
	gpulat_session_tracker_counters(r->session, &r->counters);
	r->stats = gpulat_session_stats(r->session);
	r->diag = gpulat_session_diag(r->session);
	gl_frames_collect(r);
	if (gl_filter_miss(r, msg, sizeof(msg))) {
		/* empty tables and exit 0 would say "all fine" (issue 16) */
		fprintf(stderr, "%s: %s: %s\n", GL_NAME, gl_run_label(r, label, sizeof(label)),
			msg);
		return -1;
	}
	r->rep = gpulat_report_new(r->session);
	if (!r->rep) {
		fprintf(stderr, "%s: %s\n", GL_NAME, strerror(errno));
		return -1;
	}
	return 0;
}
