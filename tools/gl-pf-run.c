// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto OUT.pftrace: one run (the input files merged in time) streamed
 * into a Perfetto trace by a session listener (gpulat-session.h): every
 * decoded event (ring depth, --perfetto-sched), every job that passes the
 * filters, every stall as the statistics find it, every vblank as the frames
 * analysis counts it. The export is opened
 * before the first record is read; any error drops its temporary file, so a
 * damaged input never leaves a half-written OUT.pftrace behind.
 */
#include <errno.h>
#include <string.h>

#include <event-parse.h>

#include "gl-perfetto.h"
#include "gpulat-frames.h"
#include "gpulat-session.h"
#include "gpu-latency.h"

static const char *pf_ring_label(void *data, int file, const char *dev, const char *ring,
				 char *buf, size_t len)
{
	return gl_ring_label(data, file, dev, ring, buf, len);
}

static bool list_has(const struct gl_strlist *l, const char *s)
{
	size_t i;

	if (!l->n)
		return true;
	for (i = 0; s && i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

/* --dev / --ring keep this ring (a producer ring of a dependency arrow) */
static bool pf_keep_ring(void *data, const char *dev, const char *ring)
{
	const struct gl_run *r = data;

	return list_has(&r->opts->filter.devs, dev) && list_has(&r->opts->filter.rings, ring);
}

/* thread names as the trace's saved cmdlines tell them */
static const char *pf_comm(void *data, int file, int pid)
{
	struct gl_run *r = data;
	struct tep_handle *tep;

	if (!pid)
		return "swapper";
	tep = gpulat_session_tep(r->session, file);
	return tep ? tep_data_comm_from_pid(tep, pid) : NULL;
}

static int pf_on_event(const struct gpulat_event *ev, struct tep_record *rec, int file,
		       void *data)
{
	struct gl_run *r = data;
	const struct gpulat_job *job = NULL;

	(void)rec;
	if (!r->pf)
		return 0;
	/* the job the event just fed belongs to, when it passes the filters */
	switch (ev->kind) {
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_DONE:
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
	case GPULAT_EV_FENCE_SIGNALED:
		job = gpulat_session_last_job(r->session);
		if (job && !gpulat_filter_job(r->pf_filter, job))
			job = NULL;
		break;
	default:
		break;
	}
	return gl_pf_event(r->pf, ev, file, job);
}

static int pf_on_job(const struct gpulat_job *job, void *data)
{
	struct gl_run *r = data;

	return r->pf ? gl_pf_job(r->pf, job) : 0;
}

static int pf_on_stall(const struct gpulat_stall *st, void *data)
{
	struct gl_run *r = data;

	return r->pf ? gl_pf_stall(r->pf, st) : 0;
}

/* every vblank --frames counts, as it comes (gpulat_frames_listener_set_cb) */
static int pf_on_vblank(const struct gpulat_vblank *v, void *data)
{
	struct gl_run *r = data;

	return r->pf ? gl_pf_vblank(r->pf, v) : 0;
}

/* gl_run_init(): the listener, and the jobs filter for events (@so's filters) */
int gl_pf_attach(struct gl_run *r, const struct gpulat_session_opts *so)
{
	struct gpulat_listener l = {
		.sz	= sizeof(l),
		.event	= pf_on_event,
		.job	= pf_on_job,
		.stall	= pf_on_stall,
		.flags	= GPULAT_LISTEN_NO_RECORD,	/* pf_on_event() reads the event only */
	};

	r->pf_filter = gpulat_filter_new(so);
	if (!r->pf_filter)
		return -errno;
	return gpulat_session_add_listener(r->session, &l, r);
}

void gl_pf_detach(struct gl_run *r)
{
	char err[256];

	if (r->pf)
		gl_pf_close(r->pf, false, err, sizeof(err));
	r->pf = NULL;
	gpulat_filter_free(r->pf_filter);
	r->pf_filter = NULL;
}

/**
 * gl_pf_main - read @r's files into the Perfetto trace r->opts->perfetto
 *
 * Return: the exit code (one error line on stderr on failure).
 */
int gl_pf_main(struct gl_run *r)
{
	const struct gl_opts *o = r->opts;
	struct gl_pf_opts po = {
		.sz		= sizeof(po),
		.sched		= o->perfetto_sched,
		.start_ns	= o->filter.start_ns,
		.end_ns		= o->filter.end_ns,
		.ring_label	= pf_ring_label,
		.comm		= pf_comm,
		.keep_ring	= pf_keep_ring,
		.data		= r,
	};
	struct gl_pf_counts c;
	char err[1024];
	size_t i;
	int ret;

	r->pf = gl_pf_open(o->perfetto, &po, err, sizeof(err));
	if (!r->pf) {
		fprintf(stderr, "%s: %s\n", GL_NAME, err);
		return GL_EXIT_ERROR;
	}
	/* vblank ticks beside the late frames (issue 18) */
	if (gpulat_frames_listener_set_cb(r->fl, pf_on_vblank, NULL, r) < 0) {
		fprintf(stderr, "%s: %s: the frames analysis started before the export\n", GL_NAME,
			o->perfetto);
		return GL_EXIT_ERROR;
	}
	if (gl_run_read(r) < 0)
		return GL_EXIT_ERROR;	/* gl_pf_detach() drops the file */
	/* late frames (--frames' analysis, always on): the kept ones per client */
	for (i = 0; r->frames && i < gpulat_frames_nclients(r->frames); i++) {
		const struct gpulat_frame_client *fc = gpulat_frames_client(r->frames, i);
		size_t k;

		for (k = 0; k < fc->nlate; k++)
			if (gl_pf_late_frame(r->pf, gpulat_frames_late(r->frames, i, k)) < 0)
				break;
	}
	gl_pf_counts(r->pf, &c);
	ret = gl_pf_close(r->pf, true, err, sizeof(err));
	r->pf = NULL;
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", GL_NAME, err);
		return GL_EXIT_ERROR;
	}
	if (!o->quiet)
		fprintf(stderr, "%s: wrote %s: %llu jobs, %llu tracks, %llu flows, %llu sched "
			"events, %llu bytes\n", GL_NAME, o->perfetto, (unsigned long long)c.jobs,
			(unsigned long long)c.tracks, (unsigned long long)c.flows,
			(unsigned long long)c.sched_events, (unsigned long long)c.bytes);
	return GL_EXIT_OK;
}
