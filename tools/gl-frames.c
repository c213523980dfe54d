// SPDX-License-Identifier: LGPL-2.1
/*
 * --frames: GPU jobs judged against the display's vblanks (lib/frames.c as
 * a session listener, definitions in docs/frames.md). Also, whenever the trace has
 * drm_vblank_event records and no --threshold was given, the stall
 * threshold becomes the measured refresh interval (the shortest over the
 * CRTCs), said in the report header.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gpulat-frames.h"
#include "gpulat-session.h"
#include "gl-table.h"
#include "gpu-latency.h"

#define DUR(b, v)	gl_fmt_dur(b, sizeof(b), v)
#define TS(b, v)	gl_fmt_ts(b, sizeof(b), v)

/**
 * gl_frames_attach - the frames listener on the run's session
 * @r: the run, session created, input not read yet
 *
 * Without --threshold, the stall threshold becomes the measured refresh
 * interval as soon as the trace shows it.
 */
int gl_frames_attach(struct gl_run *r)
{
	r->stall_threshold_ns = r->opts->stats.stall_threshold_ns;
	r->threshold_from_crtc = -1;
	r->fl = gpulat_frames_listen(r->session, r->opts->threshold_given ? 0 :
				     GPULAT_FRAMES_LEARN_THRESHOLD);
	return r->fl ? 0 : -errno;
}

/* after the run: the analysis and the threshold used */
void gl_frames_collect(struct gl_run *r)
{
	r->frames = gpulat_frames_listener_frames(r->fl);
	r->threshold_from_crtc = gpulat_frames_listener_threshold_crtc(r->fl);
	r->stall_threshold_ns = gpulat_session_stall_threshold(r->session);
}

void gl_frames_free(struct gl_run *r)
{
	gpulat_frames_listener_free(r->fl);
	r->fl = NULL;
	r->frames = NULL;
}

/* ---- text ------------------------------------------------------------------ */

static const char *instant_source(const struct gl_run *r)
{
	size_t i, n = gpulat_frames_ncrtcs(r->frames);

	for (i = 0; i < n; i++)
		if (!gpulat_frames_crtc(r->frames, i)->vbl_time)
			return "record timestamp of drm_vblank_event (trace clock is not mono: "
			       "record with trace-cmd record -C mono to use `time`)";
	return "drm_vblank_event `time` (hardware vblank, trace_clock=mono)";
}

/* header lines: where vblank instants and the stall threshold come from */
void gl_frames_header(const struct gl_run *r, FILE *out)
{
	char a[32];

	if (!r->frames)
		return;
	fprintf(out, "  %-12s %s\n", "vblanks", instant_source(r));
	if (gpulat_frames_ignored(r->frames))
		fprintf(out, "  %-12s %llu drm events of more than 64 CRTCs or 4096 clients or "
			"processes ignored (damaged trace?)\n", "warning",
			(unsigned long long)gpulat_frames_ignored(r->frames));
	if (r->threshold_from_crtc >= 0)
		fprintf(out, "  %-12s %s (measured refresh interval of CRTC %d; --threshold "
			"overrides)\n", "stall thr.", DUR(a, r->stall_threshold_ns),
			r->threshold_from_crtc);
	else if (r->opts->threshold_given)
		fprintf(out, "  %-12s %s (--threshold)\n", "stall thr.",
			DUR(a, r->stall_threshold_ns));
	else
		fprintf(out, "  %-12s %s (default: too few vblanks to measure the refresh)\n",
			"stall thr.", DUR(a, r->stall_threshold_ns));
}

static void causes_text(char *buf, size_t len, const struct gpulat_frame_client *c)
{
	size_t off = 0;
	int k;

	buf[0] = '\0';
	for (k = 1; k < GPULAT_FC__COUNT && off < len; k++) {
		int w;

		if (!c->by_cause[k])
			continue;
		w = snprintf(buf + off, len - off, "%s%s %llu", off ? ", " : "",
			     gpulat_frame_cause_name(k), (unsigned long long)c->by_cause[k]);
		if (w < 0)
			break;
		off += (size_t)w;
	}
	if (!off)
		snprintf(buf, len, "-");
}

static void proc_label(char *buf, size_t len, const char *comm, int pid)
{
	snprintf(buf, len, "%s-%d", comm && *comm ? comm : "<...>", pid);
}

/* what the trace shows for a late frame, one line */
static void late_detail(char *buf, size_t len, const struct gpulat_late_frame *lf)
{
	const struct gpulat_frame_job *j = lf->nkept ? &lf->jobs[0] : NULL;
	char a[32], b[32], c[32];

	switch (lf->cause) {
	case GPULAT_FC_LATE_SUBMIT:
		if (lf->first_submit_ts != GPULAT_NONE && lf->first_submit_ts > lf->deadline_ts)
			snprintf(buf, len, "work queued %s after the deadline (at %s); CPU side: "
				 "--explain shows pid %d's submit gap",
				 DUR(a, lf->first_submit_ts - lf->deadline_ts),
				 TS(b, lf->first_submit_ts), lf->pid);
		else if (lf->request_ts > lf->deadline_ts)
			snprintf(buf, len, "vblank requested %s after the deadline; CPU side: "
				 "--explain shows pid %d's submit gap",
				 DUR(a, lf->request_ts - lf->deadline_ts), lf->pid);
		else
			snprintf(buf, len, "no job in flight at the deadline; asked for vblank %llu",
				 (unsigned long long)lf->target);
		return;
	case GPULAT_FC_DEP_WAIT:
		if (!j)
			break;
		snprintf(buf, len, "job %llu on %s blocked on fence %llu:%llu (%s) until %s",
			 (unsigned long long)j->seq, j->ring ? j->ring : "?",
			 (unsigned long long)j->dep_ctx, (unsigned long long)j->dep_seqno,
			 j->dep_ring ? j->dep_ring : "no traced job",
			 j->dep_signal_ts != GPULAT_NONE ? TS(a, j->dep_signal_ts) : "never");
		return;
	case GPULAT_FC_SCHED_QUEUE:
	case GPULAT_FC_HW_QUEUE:
	case GPULAT_FC_GPU_EXEC:
		if (!j)
			break;
		snprintf(buf, len, "job %llu on %s: queued %s, %s at the deadline, exec %s, done %s",
			 (unsigned long long)j->seq, j->ring ? j->ring : "?", TS(a, j->queue_ts),
			 lf->cause == GPULAT_FC_GPU_EXEC ? "executing" :
			 lf->cause == GPULAT_FC_HW_QUEUE ? "behind other jobs on the ring" :
			 "not run by the scheduler",
			 j->exec != GPULAT_NONE ? DUR(b, j->exec) : "?",
			 j->done_ts != GPULAT_NONE ? TS(c, j->done_ts) : "never");
		return;
	case GPULAT_FC_NONE:
		/* a page-flip client's flip: no request traced, no cause */
		if (lf->request_ts == GPULAT_NONE && lf->deadline)
			snprintf(buf, len,
				 "page flip shown at vblank %llu, the previous one at %llu "
				 "(no vblank request traced: no cause)",
				 (unsigned long long)lf->presented,
				 (unsigned long long)lf->deadline - 1);
		else
			snprintf(buf, len, "-");
		return;
	default:
		break;
	}
	snprintf(buf, len, "-");
}

static int print_crtcs(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"crtc", "vblanks", "refresh", "min", "max", "vrr", "gaps", "frames", "late",
		"missed", "irq delay max",
	};
	size_t i, n = gpulat_frames_ncrtcs(r->frames);
	char a[32], b[32], c[32], d[32];
	struct gl_table t;
	int ret;

	gl_table_init(&t, "rrrrrlrrrrr", h);
	for (i = 0; i < n; i++) {
		const struct gpulat_crtc_report *x = gpulat_frames_crtc(r->frames, i);

		gl_table_cell(&t, "%d", x->crtc);
		gl_table_cell(&t, "%llu", (unsigned long long)x->vblanks);
		gl_table_cell(&t, "%s", x->refresh_ns ? DUR(a, x->refresh_ns) : "-");
		gl_table_cell(&t, "%s", x->interval.n ? DUR(b, x->interval.min) : "-");
		gl_table_cell(&t, "%s", x->interval.n ? DUR(c, x->interval.max) : "-");
		gl_table_cell(&t, "%s", x->vrr ? "yes" : "no");
		gl_table_cell(&t, "%llu", (unsigned long long)x->seq_gaps);
		gl_table_cell(&t, "%llu", (unsigned long long)x->frames);
		gl_table_cell(&t, "%llu", (unsigned long long)x->late);
		gl_table_cell(&t, "%llu", (unsigned long long)x->missed);
		gl_table_cell(&t, "%s", x->vbl_time ? DUR(d, x->irq_delay_max) : "-");
	}
	fprintf(out, "\nCRTCs (refresh = median vblank interval; vrr = it varies)\n");
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

static int print_clients(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"client (drm_file)", "crtc", "process", "asked", "got", "frames", "late",
		"missed", "p50 frame", "p99 frame", "max frame", "p50 gpu", "max gpu", "late causes",
	};
	size_t i, n = gpulat_frames_nclients(r->frames);
	char a[32], b[32], c[32], d[32], e[32], p[64], causes[256];
	struct gl_table t;
	int ret;

	gl_table_init(&t, "lrlrrrrrrrrrrl", h);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_client *x = gpulat_frames_client(r->frames, i);

		proc_label(p, sizeof(p), x->comm, x->pid);
		causes_text(causes, sizeof(causes), x);
		gl_table_cell(&t, "0x%llx", (unsigned long long)x->drm_file);
		gl_table_cell(&t, "%d", x->crtc);
		gl_table_cell(&t, "%s", p);
		gl_table_cell(&t, "%llu", (unsigned long long)x->requested);
		gl_table_cell(&t, "%llu", (unsigned long long)x->delivered);
		gl_table_cell(&t, "%llu", (unsigned long long)x->frames);
		gl_table_cell(&t, "%llu", (unsigned long long)x->late);
		gl_table_cell(&t, "%llu", (unsigned long long)x->missed);
		gl_table_cell(&t, "%s", x->frame_time.n ? DUR(a, x->frame_time.p50) : "-");
		gl_table_cell(&t, "%s", x->frame_time.n ? DUR(b, x->frame_time.p99) : "-");
		gl_table_cell(&t, "%s", x->frame_time.n ? DUR(c, x->frame_time.max) : "-");
		gl_table_cell(&t, "%s", x->gpu_time.n ? DUR(d, x->gpu_time.p50) : "-");
		gl_table_cell(&t, "%s", x->gpu_time.n ? DUR(e, x->gpu_time.max) : "-");
		gl_table_cell(&t, "%s", causes);
	}
	fprintf(out, "\nClients (asked = drm_vblank_event_queued, got = _delivered; frame = "
		"time between presented vblanks; gpu = exec of a frame's jobs)\n");
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

static int print_late(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"process", "crtc", "deadline [vblank]", "presented", "missed", "cause",
		"what the trace shows",
	};
	size_t i, k, n = gpulat_frames_nclients(r->frames), shown = 0, total = 0;
	char a[32], p[64], pres[32], detail[512];
	struct gl_table t;
	int ret;

	gl_table_init(&t, "lrlrrll", h);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_client *x = gpulat_frames_client(r->frames, i);

		total += x->late;
		for (k = 0; k < x->nlate && shown < r->opts->top; k++, shown++) {
			const struct gpulat_late_frame *lf = gpulat_frames_late(r->frames, i, k);

			proc_label(p, sizeof(p), lf->comm, lf->pid);
			if (lf->presented != GPULAT_NONE)
				snprintf(pres, sizeof(pres), "%llu", (unsigned long long)lf->presented);
			else
				snprintf(pres, sizeof(pres), "not by the end");
			late_detail(detail, sizeof(detail), lf);
			gl_table_cell(&t, "%s", p);
			gl_table_cell(&t, "%d", lf->crtc);
			gl_table_cell(&t, "%s [%llu]", TS(a, lf->deadline_ts),
				      (unsigned long long)lf->deadline);
			gl_table_cell(&t, "%s", pres);
			gl_table_cell(&t, "%llu", (unsigned long long)lf->missed);
			gl_table_cell(&t, "%s", gpulat_frame_cause_name(lf->cause));
			gl_table_cell(&t, "%s", detail);
		}
	}
	if (!total) {
		fprintf(out, "\nLate frames: none\n");
		gl_table_free(&t);
		return 0;
	}
	fprintf(out, "\nLate frames (%zu of %zu, in time order per client; cause = the state at "
		"the deadline of the job that finished last)\n", shown, total);
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

static int print_procs(const struct gl_run *r, FILE *out)
{
	static const char * const h[] = {
		"process", "crtc", "jobs", "intervals", "p50", "p90", "p99", "max",
	};
	size_t i, n = gpulat_frames_nprocs(r->frames);
	char a[32], b[32], c[32], d[32], p[64];
	struct gl_table t;
	int ret;

	gl_table_init(&t, "lrrrrrrr", h);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_proc *x = gpulat_frames_proc(r->frames, i);
		const struct gpulat_summary *s = &x->gpu_time;

		if (!s->n)
			continue;
		proc_label(p, sizeof(p), x->comm, x->pid);
		gl_table_cell(&t, "%s", p);
		gl_table_cell(&t, "%d", x->crtc);
		gl_table_cell(&t, "%llu", (unsigned long long)x->jobs);
		gl_table_cell(&t, "%llu", (unsigned long long)s->n);
		gl_table_cell(&t, "%s", DUR(a, s->p50));
		gl_table_cell(&t, "%s", DUR(b, s->p90));
		gl_table_cell(&t, "%s", DUR(c, s->p99));
		gl_table_cell(&t, "%s", DUR(d, s->max));
	}
	fprintf(out, "\nGPU time per vblank interval (per process: exec of its jobs between two "
		"vblanks of its CRTC, intervals with GPU work)\n");
	ret = gl_table_print(&t, out, "  ");
	gl_table_free(&t);
	return ret;
}

/**
 * gl_frames_text - the --frames text report
 */
int gl_frames_text(const struct gl_run *r, FILE *out)
{
	char label[4096];
	int ret;

	fprintf(out, "%s --frames: %s\n", GL_NAME, gl_run_label(r, label, sizeof(label)));
	if (!r->frames) {
		fprintf(out, "  no drm_vblank_event records: record with %s\n",
			gpulat_record_frames());
		return 0;
	}
	gl_frames_header(r, out);
	ret = print_crtcs(r, out);
	if (!ret)
		ret = print_clients(r, out);
	if (!ret)
		ret = print_late(r, out);
	if (!ret)
		ret = print_procs(r, out);
	return ret;
}

/* ---- JSON ------------------------------------------------------------------ */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

static struct json_object *j_ts(uint64_t v)
{
	return v == GPULAT_NONE ? NULL : json_object_new_uint64(v);
}

static struct json_object *late_json(const struct gpulat_late_frame *lf)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	unsigned int k;

	add(o, "crtc", json_object_new_int(lf->crtc));
	add(o, "pid", json_object_new_int(lf->pid));
	add(o, "target", json_object_new_uint64(lf->target));
	add(o, "deadline", json_object_new_uint64(lf->deadline));
	add(o, "deadline_ts", json_object_new_uint64(lf->deadline_ts));
	add(o, "request_ts", j_ts(lf->request_ts));
	add(o, "first_submit_ts", j_ts(lf->first_submit_ts));
	add(o, "last_submit_ts", j_ts(lf->last_submit_ts));
	add(o, "ready_ts", j_ts(lf->ready_ts));
	add(o, "presented", j_ts(lf->presented));
	add(o, "presented_ts", j_ts(lf->presented_ts));
	add(o, "missed", json_object_new_uint64(lf->missed));
	add(o, "cause", json_object_new_string(gpulat_frame_cause_name(lf->cause)));
	add(o, "jobs", json_object_new_uint64(lf->njobs));
	for (k = 0; k < lf->nkept; k++) {
		const struct gpulat_frame_job *j = &lf->jobs[k];
		struct json_object *x = json_object_new_object();

		add(x, "seq", json_object_new_uint64(j->seq));
		add(x, "dev", json_object_new_string(j->dev ? j->dev : ""));
		add(x, "ring", json_object_new_string(j->ring ? j->ring : ""));
		add(x, "queue_ts", j_ts(j->queue_ts));
		add(x, "run_ts", j_ts(j->run_ts));
		add(x, "start_ts", j_ts(j->start_ts));
		add(x, "done_ts", j_ts(j->done_ts));
		add(x, "exec", j_ts(j->exec));
		add(x, "state", json_object_new_string(j->state ? gpulat_frame_cause_name(j->state)
								: "done"));
		if (j->state == GPULAT_FC_DEP_WAIT) {
			add(x, "dep_ctx", json_object_new_uint64(j->dep_ctx));
			add(x, "dep_seqno", json_object_new_uint64(j->dep_seqno));
			add(x, "dep_ring", j->dep_ring ? json_object_new_string(j->dep_ring) : NULL);
			add(x, "dep_signal_ts", j_ts(j->dep_signal_ts));
		}
		json_object_array_add(a, x);
	}
	add(o, "late_jobs", a);
	return o;
}

/* the "frames" object of the JSON report (only with vblank events) */
void gl_frames_json(const struct gl_run *r, struct json_object *root)
{
	struct json_object *o, *a, *x, *bc, *l;
	size_t i, k, n;

	/* frames judged on filtered jobs would be wrong: only the whole trace */
	if (!r->frames || gl_filter_active(&r->opts->filter))
		return;
	o = json_object_new_object();
	add(o, "vblank_instant", json_object_new_string(
		    strncmp(instant_source(r), "drm_vblank_event `time`", 23) ? "record" : "time"));
	add(o, "ignored_events", json_object_new_uint64(gpulat_frames_ignored(r->frames)));
	add(o, "stall_threshold_from_crtc", r->threshold_from_crtc >= 0 ?
	    json_object_new_int(r->threshold_from_crtc) : NULL);
	a = json_object_new_array();
	n = gpulat_frames_ncrtcs(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_crtc_report *c = gpulat_frames_crtc(r->frames, i);

		x = json_object_new_object();
		add(x, "crtc", json_object_new_int(c->crtc));
		add(x, "file", json_object_new_int(c->file));
		add(x, "vblanks", json_object_new_uint64(c->vblanks));
		add(x, "seq_gaps", json_object_new_uint64(c->seq_gaps));
		add(x, "first_ts", j_ts(c->first_ts));
		add(x, "last_ts", j_ts(c->last_ts));
		add(x, "refresh_ns", json_object_new_uint64(c->refresh_ns));
		add(x, "interval", gl_json_summary(&c->interval));
		add(x, "vrr", json_object_new_boolean(c->vrr));
		add(x, "vblank_instant", json_object_new_string(c->vbl_time ? "time" : "record"));
		add(x, "irq_delay_max", c->vbl_time ? json_object_new_uint64(c->irq_delay_max) : NULL);
		add(x, "irq_delay_mean", c->vbl_time ? json_object_new_uint64(c->irq_delay_mean) : NULL);
		add(x, "frames", json_object_new_uint64(c->frames));
		add(x, "late", json_object_new_uint64(c->late));
		add(x, "missed", json_object_new_uint64(c->missed));
		json_object_array_add(a, x);
	}
	add(o, "crtcs", a);
	a = json_object_new_array();
	n = gpulat_frames_nclients(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_client *c = gpulat_frames_client(r->frames, i);

		x = json_object_new_object();
		add(x, "drm_file", json_object_new_uint64(c->drm_file));
		add(x, "crtc", json_object_new_int(c->crtc));
		add(x, "file", json_object_new_int(c->file));
		add(x, "pid", json_object_new_int(c->pid));
		add(x, "comm", json_object_new_string(c->comm ? c->comm : ""));
		add(x, "requested", json_object_new_uint64(c->requested));
		add(x, "delivered", json_object_new_uint64(c->delivered));
		add(x, "flips", json_object_new_uint64(c->flips));
		add(x, "pid_inferred", json_object_new_boolean(c->pid_inferred));
		add(x, "frames", json_object_new_uint64(c->frames));
		add(x, "late", json_object_new_uint64(c->late));
		add(x, "missed", json_object_new_uint64(c->missed));
		add(x, "unresolved", json_object_new_uint64(c->unresolved));
		bc = json_object_new_object();
		for (k = 1; k < GPULAT_FC__COUNT; k++)
			add(bc, gpulat_frame_cause_name(k), json_object_new_uint64(c->by_cause[k]));
		add(x, "by_cause", bc);
		add(x, "frame_time", gl_json_summary(&c->frame_time));
		add(x, "gpu_time", gl_json_summary(&c->gpu_time));
		l = json_object_new_array();
		for (k = 0; k < c->nlate; k++)
			json_object_array_add(l, late_json(gpulat_frames_late(r->frames, i, k)));
		add(x, "late_frames", l);
		json_object_array_add(a, x);
	}
	add(o, "clients", a);
	a = json_object_new_array();
	n = gpulat_frames_nprocs(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_proc *p = gpulat_frames_proc(r->frames, i);

		x = json_object_new_object();
		add(x, "pid", json_object_new_int(p->pid));
		add(x, "comm", json_object_new_string(p->comm ? p->comm : ""));
		add(x, "crtc", json_object_new_int(p->crtc));
		add(x, "jobs", json_object_new_uint64(p->jobs));
		add(x, "gpu_time_per_vblank", gl_json_summary(&p->gpu_time));
		json_object_array_add(a, x);
	}
	add(o, "processes", a);
	add(root, "frames", o);
}

/* ---- CSV ------------------------------------------------------------------- */

/*
 * One row per CRTC, client and process:
 * table,crtc,pid,comm,drm_file,vblanks,refresh_ns,vrr,frames,late,missed,
 * p50_ns,p99_ns,max_ns (frame time for clients, per-vblank GPU time for
 * processes, interval for CRTCs)
 */
int gl_frames_csv(const struct gl_run *r, FILE *out)
{
	size_t i, n;

	fprintf(out, "table,crtc,pid,comm,drm_file,vblanks,refresh_ns,vrr,frames,late,missed,"
		"p50_ns,p99_ns,max_ns\n");
	if (!r->frames)
		return 0;
	n = gpulat_frames_ncrtcs(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_crtc_report *c = gpulat_frames_crtc(r->frames, i);

		fprintf(out, "crtc,%d,,,,%llu,%llu,%d,%llu,%llu,%llu,%llu,%llu,%llu\n", c->crtc,
			(unsigned long long)c->vblanks, (unsigned long long)c->refresh_ns,
			c->vrr ? 1 : 0, (unsigned long long)c->frames, (unsigned long long)c->late,
			(unsigned long long)c->missed, (unsigned long long)c->interval.p50,
			(unsigned long long)c->interval.p99, (unsigned long long)c->interval.max);
	}
	n = gpulat_frames_nclients(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_client *c = gpulat_frames_client(r->frames, i);

		fprintf(out, "client,%d,%d,", c->crtc, c->pid);
		gl_csv_str(out, c->comm);
		fprintf(out, ",0x%llx,,,,%llu,%llu,%llu,%llu,%llu,%llu\n",
			(unsigned long long)c->drm_file, (unsigned long long)c->frames,
			(unsigned long long)c->late, (unsigned long long)c->missed,
			(unsigned long long)c->frame_time.p50, (unsigned long long)c->frame_time.p99,
			(unsigned long long)c->frame_time.max);
	}
	n = gpulat_frames_nprocs(r->frames);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_proc *p = gpulat_frames_proc(r->frames, i);

		if (!p->gpu_time.n)
			continue;
		fprintf(out, "process,%d,%d,", p->crtc, p->pid);
		gl_csv_str(out, p->comm);
		fprintf(out, ",,,,,,,,%llu,%llu,%llu\n", (unsigned long long)p->gpu_time.p50,
			(unsigned long long)p->gpu_time.p99, (unsigned long long)p->gpu_time.max);
	}
	return 0;
}
