// SPDX-License-Identifier: LGPL-2.1
/*
 * The session: one pipeline for every front end.
 *
 *   input (session-file.c: trace.dat files; here: records a host pushes)
 *     -> binding (era from the formats present) -> tracker -> filter
 *     -> statistics, diagnosis, kept incomplete jobs, listeners
 *
 * Everything the tracker used to be configured with by hand (era, whether
 * finished-fence signals link, whether context events are decoded) is
 * decided here, once, from the trace and the features asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "bounds-int.h"
#include "gpulat-diag.h"
#include "report-int.h"
#include "session-int.h"

/* copy @sz bytes of a caller's sized struct into ours (@ours bytes, defaults set) */
static int sized_copy(void *dst, size_t ours, const void *src, size_t sz)
{
	const unsigned char *p = src;
	size_t i;

	if (sz < sizeof(size_t))
		return -EINVAL;
	/* a newer caller: what we do not know must be zero (libbpf's rule) */
	for (i = ours; i < sz; i++) {
		if (p[i])
			return -EINVAL;
	}
	memcpy(dst, src, sz < ours ? sz : ours);
	return 0;
}

void gpulat_session_opts_init_sz(struct gpulat_session_opts *o, size_t sz)
{
	struct gpulat_session_opts d;

	memset(&d, 0, sizeof(d));
	d.sz = sz;
	d.stall_threshold_ns = 16666667;	/* one 60 Hz frame */
	d.top_n = 10;
	d.worst_by = GPULAT_M_TOTAL;
	d.end_ns = UINT64_MAX;
	d.gpu_irq = -1;
	memset(o, 0, sz);
	memcpy(o, &d, sz < sizeof(d) ? sz : sizeof(d));
}

void gpulat__session_msg(struct gpulat_session *s, enum gpulat_msg_level level,
			 const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	if (!s->o.msg)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->o.msg(level, line, s->o.msg_data);
}

static void s_warn(const char *msg, void *data)
{
	gpulat__session_msg(data, GPULAT_MSG_WARN, "%s", msg);
}

static const char *session_label(const struct gpulat_session *s);

/* the tracker's warnings do not know the file: name it (the binding's do) */
static void s_track_warn(const char *msg, void *data)
{
	gpulat__session_msg(data, GPULAT_MSG_WARN, "%s: %s", session_label(data), msg);
}

/* ------------------------------------------------------------------------ */
/* jobs and stalls                                                            */

static int keep_job(struct gpulat_session *s, const struct gpulat_job *job)
{
	struct gpulat_worst *w;

	if (s->nkept >= s->o.top_n)
		return 0;
	if (!s->kept) {
		s->kept = calloc(s->o.top_n, sizeof(*s->kept));
		if (!s->kept)
			return -ENOMEM;
	}
	w = &s->kept[s->nkept++];
	memset(w, 0, sizeof(*w));
	w->job = *job;
	w->job.deps = NULL;
	w->dep_wait = job->dep_wait;
	if (job->deps && job->n_deps)
		w->dep_ring = job->deps[0].ring;
	return 0;
}

static int s_job_filtered(struct gpulat_session *s, const struct gpulat_job *job)
{
	size_t i;
	int ret;

	/* the fence path first: a ring gap the job ends is explained from its state */
	if (s->diag) {
		ret = gpulat_diag_job(s->diag, job);
		if (ret < 0)
			return ret;
	}
	if (s->stats) {
		ret = gpulat_stats_add(s->stats, job);
		if (ret < 0)
			return ret;
		if (s->err)
			return s->err; /* explaining a gap it ended failed (s_gap) */
	}
	/* explain the worst jobs the statistics found (s_worst), no others */
	if (s->worst_entered) {
		s->worst_entered = false;
		ret = gpulat__diag_worst(s->diag, job);
		if (ret < 0)
			return ret;
	}
	switch (job->status) {
	case GPULAT_JOB_COMPLETE:
		break;
	case GPULAT_JOB_INCOMPLETE:
		s->c.incomplete++;
		break;
	case GPULAT_JOB_LOST:
		s->c.lost++;
		break;
	case GPULAT_JOB_ORPHAN:
		s->c.orphan++;
		break;
	}
	if (job->status != GPULAT_JOB_COMPLETE) {
		ret = keep_job(s, job);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < s->nls; i++) {
		if (!s->ls[i].l.job)
			continue;
		ret = s->ls[i].l.job(job, s->ls[i].data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* a job before the filters: its ring and time, for gpulat_session_seen_ring() */
static void s_seen(struct gpulat_session *s, const struct gpulat_job *job)
{
	size_t i, max = sizeof(s->seen) / sizeof(s->seen[0]);
	int st;

	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		uint64_t ts = job->ts[st];

		if (ts == GPULAT_NONE)
			continue;
		if (s->seen_first == GPULAT_NONE || ts < s->seen_first)
			s->seen_first = ts;
		if (s->seen_last == GPULAT_NONE || ts > s->seen_last)
			s->seen_last = ts;
	}
	for (i = s->nseen; i-- > 0;) {
		/* names are interned: equal strings are the same pointer */
		if (s->seen[i].ring == job->ring && s->seen[i].dev == job->dev)
			return;
	}
	if (s->nseen == max)
		return;
	s->seen[s->nseen].dev = job->dev;
	s->seen[s->nseen].ring = job->ring;
	s->seen[s->nseen].ring_ptr = job->ring_ptr;
	s->nseen++;
}

/* the tracker's job callback: filters first, then everything that wants jobs */
static void s_job(const struct gpulat_job *job, void *data)
{
	struct gpulat_session *s = data;
	int ret;

	s->c.jobs_seen++;
	s_seen(s, job);
	if (s->err || !gpulat_filter_job(s->filter, job))
		return;
	s->c.jobs++;
	ret = s_job_filtered(s, job);
	if (ret < 0)
		s->err = ret;
}

/* gpulat_stats_add() of the job being added put it into the worst list */
static void s_worst(const struct gpulat_job *job, void *data)
{
	struct gpulat_session *s = data;

	(void)job;
	s->worst_entered = true;
}

/*
 * A gap over the threshold ended (gpulat__stats_on_gap()): the diagnosis
 * explains it from the context around it. A ring gap ends in the job being
 * added, after the diagnosis saw that job; a submit gap at a queue event,
 * inside the tracker's feed: the diagnosis explains it once it saw that
 * event too (gpulat__session_event()), as the window's context then is.
 */
static void s_gap(const struct gpulat__gap *g, void *data)
{
	struct gpulat_session *s = data;
	int ret;

	if (g->kind == GPULAT_STALL_SUBMIT_GAP) {
		/* one queue event queues one job: at most one gap per event */
		s->gap = *g;
		s->gap_pending = true;
		return;
	}
	ret = gpulat__diag_gap(s->diag, g);
	if (ret < 0 && !s->err)
		s->err = ret;
}

/* the tracker took a job's queue event: submission gaps, in time order */
static void s_queued(const struct gpulat_event *ev, void *data)
{
	struct gpulat_session *s = data;
	int ret = s->stats ? gpulat__stats_queued(s->stats, ev) : 0;

	if (ret < 0 && !s->err)
		s->err = ret;
}

static void s_stall(const struct gpulat_stall *st, void *data)
{
	struct gpulat_session *s = data;
	size_t i;
	int ret;

	for (i = 0; i < s->nls && !s->err; i++) {
		if (!s->ls[i].l.stall)
			continue;
		ret = s->ls[i].l.stall(st, s->ls[i].data);
		if (ret < 0)
			s->err = ret;
	}
}

/*
 * the tracker's horizon for the statistics' sweeps: only for trace files,
 * whose reader feeds every cpu's events merged in time order (a host may
 * push records in any order)
 */
static uint64_t s_horizon(void *data)
{
	struct gpulat_session *s = data;

	return s->reader ? gpulat__tracker_horizon(s->tracker) : 0;
}

/* statistics configured from the opts, stalls to the listeners (live: one per interval) */
struct gpulat_stats *gpulat__session_new_stats(struct gpulat_session *s)
{
	struct gpulat_stats_opts so;
	struct gpulat_stats *st;

	gpulat_stats_opts_init(&so);
	so.stall_threshold_ns = s->o.stall_threshold_ns;
	so.top_n = s->o.top_n;
	so.worst_by = s->o.worst_by;
	st = gpulat_stats_new(&so);
	if (!st)
		return NULL;
	/* busy and depth for the kinds the report shows them for (report-fields.c) */
	gpulat__stats_busy_kinds(st, gpulat__report_busy_kinds());
	gpulat__stats_on_stall(st, s_stall, s);
	gpulat__stats_on_horizon(st, s_horizon, s);
	/* the gaps to explain (s->diag is made after the first statistics) */
	if (s->o.features & (GPULAT_FEAT_EXPLAIN | GPULAT_FEAT_FENCE_PATH))
		gpulat__stats_on_gap(st, s_gap, s);
	return st;
}

/* ------------------------------------------------------------------------ */
/* life cycle                                                                 */

/**
 * gpulat_session_new - a session configured by @o
 * @o: options (gpulat_session_opts_init()), NULL for the defaults
 *
 * Return: the session, or NULL with errno set.
 */
struct gpulat_session *gpulat_session_new(const struct gpulat_session_opts *o)
{
	struct gpulat_tracker_ops ops = { .job = s_job, .warn = s_track_warn };
	struct gpulat_session *s;
	int ret = -ENOMEM;

	s = calloc(1, sizeof(*s));
	if (!s)
		goto fail;
	gpulat_session_opts_init(&s->o);
	if (o) {
		ret = sized_copy(&s->o, sizeof(s->o), o, o->sz);
		if (ret)
			goto fail;
		s->o.sz = sizeof(s->o);
		ret = -ENOMEM;
	}
	if (s->o.worst_by >= GPULAT_M__COUNT) {
		ret = -EINVAL;
		goto fail;
	}
	s->era = GPULAT_ERA_NONE;
	s->c.first_ts = s->c.last_ts = GPULAT_NONE;
	s->c.span_first = s->c.span_last = GPULAT_NONE;
	s->seen_first = s->seen_last = GPULAT_NONE;
	s->str = gpulat__strtab_new();
	if (!s->str)
		goto fail;
	if (s->o.gpu_irq_name) {
		s->o.gpu_irq_name = gpulat__strtab_intern(s->str, s->o.gpu_irq_name);
		if (!s->o.gpu_irq_name)
			goto fail;
	}
	s->filter = gpulat_filter_new(&s->o);
	if (!s->filter) {
		ret = -errno;
		goto fail;
	}
	/* the lists were copied by the filter; the opts keep no caller pointer */
	s->o.devs = s->o.rings = s->o.comms = NULL;
	s->o.pids = NULL;
	s->o.n_devs = s->o.n_rings = s->o.n_comms = s->o.n_pids = 0;

	s->tracker = gpulat_tracker_new(&ops, s);
	if (!s->tracker)
		goto fail;
	if (!(s->o.features & GPULAT_FEAT_NO_STATS)) {
		s->stats = gpulat__session_new_stats(s);
		if (!s->stats)
			goto fail;
	}
	if (s->o.features & (GPULAT_FEAT_EXPLAIN | GPULAT_FEAT_FENCE_PATH)) {
		struct gpulat_diag_opts d;

		gpulat_diag_opts_init(&d);
		d.stall_threshold_ns = s->o.stall_threshold_ns;
		d.top_n = s->o.top_n;
		d.worst_by = s->o.worst_by;
		d.gpu_irq = s->o.gpu_irq;
		d.gpu_irq_name = s->o.gpu_irq_name;
		s->diag = gpulat_diag_new(&d);
		if (!s->diag)
			goto fail;
		if (s->stats) {
			/* one detection of worst jobs and stalls: the statistics' */
			gpulat__stats_on_worst(s->stats, s_worst, s);
			gpulat__tracker_on_queued(s->tracker, s_queued, s);
		}
	}
	return s;
 fail:
	gpulat_session_free(s);
	errno = -ret;
	return NULL;
}

/**
 * gpulat_session_free - free the session and every string it handed out
 * @s: session, may be NULL
 */
void gpulat_session_free(struct gpulat_session *s)
{
	if (!s)
		return;
	gpulat_tracker_free(s->tracker);
	gpulat_stats_free(s->stats);
	gpulat_diag_free(s->diag);
	gpulat_filter_free(s->filter);
	free(s->kept);
	free(s->ls);
	free(s->cpu_last);
	/* last: the names of jobs and groups live in the bindings */
	if (s->close_input)
		s->close_input(s);
	gpulat_binding_free(s->own_bind);
	free(s->files);
	gpulat__strtab_free(s->str);
	free(s);
}

/**
 * gpulat_session_add_listener - receive events, jobs, stalls and the end
 * @s: session
 * @l: callbacks (copied; l->sz set by the caller)
 * @data: their argument
 *
 * Return: 0, -EINVAL (bad @l), -EBUSY (input already started) or -ENOMEM.
 */
int gpulat_session_add_listener(struct gpulat_session *s, const struct gpulat_listener *l,
				void *data)
{
	struct slistener *v;
	int ret;

	if (!l)
		return -EINVAL;
	if (s->started)
		return -EBUSY;
	v = realloc(s->ls, (s->nls + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->ls = v;
	memset(&v[s->nls], 0, sizeof(v[s->nls]));
	ret = sized_copy(&v[s->nls].l, sizeof(v[s->nls].l), l, l->sz);
	if (ret)
		return ret;
	v[s->nls].data = data;
	if (v[s->nls].l.event)
		s->ls_kinds |= v[s->nls].l.kinds ? v[s->nls].l.kinds : ~0ULL;
	if (v[s->nls].l.event && !(v[s->nls].l.flags & GPULAT_LISTEN_NO_RECORD))
		s->ls_records = true;
	s->nls++;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* the pipeline, shared by every input                                        */

bool gpulat__session_wants_context(const struct gpulat_session *s)
{
	/* the diagnosis reads irq, sched and power events; nothing else does */
	return s->o.features & (GPULAT_FEAT_CONTEXT | GPULAT_FEAT_EXPLAIN |
				GPULAT_FEAT_FENCE_PATH);
}

void gpulat__session_configure(struct gpulat_session *s, enum gpulat_era era, bool signals)
{
	s->era = era;
	s->c.era = era;
	s->started = true;
	gpulat_tracker_set_era(s->tracker, era);
	if (s->o.features & GPULAT_FEAT_EMIT_AT_DONE) {
		/* final at the done line: the signal is printed, not waited for */
		gpulat_tracker_set_signal_expected(s->tracker, false);
		gpulat_tracker_set_linger(s->tracker, 0);
	} else {
		gpulat_tracker_set_signal_expected(s->tracker, signals);
	}
}

/* a kind is a bit of gpulat_listener.kinds */
_Static_assert(GPULAT_EV__COUNT <= 64, "gpulat_listener.kinds holds every event kind");

int gpulat__session_event_slow(struct gpulat_session *s, const struct gpulat_event *ev,
			       struct tep_record *rec, int file)
{
	size_t i;
	int ret;

	if (s->err)
		return s->err;
	if (s->diag) {
		ret = gpulat_diag_feed(s->diag, ev, gpulat_session_tep(s, file), rec);
		if (ret < 0)
			return ret;
		/* a submit gap this queue event ended (s_gap) */
		if (s->gap_pending) {
			s->gap_pending = false;
			ret = gpulat__diag_gap(s->diag, &s->gap);
			if (ret < 0)
				return ret;
		}
	}
	/*
	 * No listener wants this kind (the KernelShark plugin's and the frames
	 * listener: 237 k of dense-1M's 333 k pushed records, 12 M instructions)
	 */
	if ((unsigned int)ev->kind < 64 && !(s->ls_kinds & GPULAT_LISTEN_KIND(ev->kind)))
		return 0;
	for (i = 0; i < s->nls; i++) {
		const struct gpulat_listener *l = &s->ls[i].l;

		/* a pushed event of a kind out of range goes to every listener */
		if (!l->event || (l->kinds && (unsigned int)ev->kind < 64 &&
				  !(l->kinds & GPULAT_LISTEN_KIND(ev->kind))))
			continue;
		ret = l->event(ev, rec, file, s->ls[i].data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* the input named in end-of-session messages: the file, "(all files)", or "gpulat" (pushed) */
static const char *session_label(const struct gpulat_session *s)
{
	if (s->nfiles > 1)
		return "(all files)";
	return s->nfiles && s->files[0].path ? s->files[0].path : "gpulat";
}

/*
 * Lost events are loud (issue 16), as perf's "lost N chunks": one warning at
 * the end, on the one message channel, so every front end shows it. A
 * lost-events record without a count (an overrun of unknown size) still warns.
 */
static void lost_warning(struct gpulat_session *s)
{
	char n[64] = "events";

	if (!s->c.lost_events && !s->c.lost_gaps)
		return;
	if (s->c.lost_events)
		snprintf(n, sizeof(n), "%" PRIu64 " events", s->c.lost_events);
	gpulat__session_msg(s, GPULAT_MSG_WARN,
			    "%s: the trace lost %s in %" PRIu64 " ring-buffer overrun%s; %" PRIu64
			    " jobs missing a stage are counted as lost, not measured (record "
			    "with a bigger buffer: trace-cmd record -b 20000)",
			    session_label(s), n, s->c.lost_gaps, s->c.lost_gaps == 1 ? "" : "s",
			    s->c.lost);
}

/* the statistics' group cap (lib/caps.c), once per kind that hit it */
static void caps_warning(struct gpulat_session *s)
{
	static const char * const what[GPULAT_G__COUNT] = {
		[GPULAT_G_RING] = "rings",
		[GPULAT_G_PROCESS] = "processes",
		[GPULAT_G_CLIENT] = "clients",
		[GPULAT_G_DEVICE] = "devices",
	};
	size_t max;
	uint64_t n;
	int k;

	for (k = 0; s->stats && k < GPULAT_G__COUNT; k++) {
		n = gpulat_stats_groups_dropped(s->stats, k, &max);
		if (n)
			gpulat__session_msg(s, GPULAT_MSG_WARN,
					    "%s: more than %zu %s: %" PRIu64 " jobs of the others "
					    "are counted in one \"%s\" group (GPULAT_MAX_GROUPS)",
					    session_label(s), max, what[k], n, GPULAT_GROUP_OTHERS);
	}
}

int gpulat__session_end(struct gpulat_session *s)
{
	uint64_t start, end;
	size_t i;
	int ret;

	s->finished = true;
	gpulat_tracker_counters(s->tracker, &s->tc);
	gpulat__filter_window(s->filter, &start, &end);
	if (s->c.first_ts != GPULAT_NONE) {
		s->c.span_first = s->c.first_ts > start ? s->c.first_ts : start;
		s->c.span_last = s->c.last_ts < end ? s->c.last_ts : end;
		if (s->c.span_last < s->c.span_first)
			s->c.span_last = s->c.span_first;
		/* live input: the statistics are those of the last interval */
		if (s->stats && s->live)
			gpulat__live_span(s, s->stats);
		else if (s->stats)
			gpulat_stats_set_span(s->stats, s->c.span_first, s->c.span_last);
	}
	if (s->diag) {
		char line[1024];

		gpulat_diag_finish(s->diag, s->c.first_ts, s->c.last_ts);
		/* an irq the trace never saw: the fence path would be empty, not wrong-looking */
		if (gpulat_diag_gpu_irq_missing(s->diag, line, sizeof(line))) {
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: %s", session_label(s), line);
			return -ENOENT;
		}
		/* the memory bounds of the diagnosis, said once */
		if (gpulat_diag_caps_hit(s->diag, line, sizeof(line)))
			gpulat__session_msg(s, GPULAT_MSG_WARN, "%s: %s", session_label(s), line);
		if (gpulat_diag_stalls_dropped(s->diag))
			gpulat__session_msg(s, GPULAT_MSG_WARN,
					    "--explain: more than %d gaps over the stall threshold "
					    "(%" PRIu64 "): explanations kept for the %d longest, "
					    "shorter listed stalls may have none",
					    GPULAT_DIAG_STALLS_KEPT,
					    (uint64_t)GPULAT_DIAG_STALLS_KEPT +
						    gpulat_diag_stalls_dropped(s->diag),
					    GPULAT_DIAG_STALLS_KEPT);
	}
	lost_warning(s);
	caps_warning(s);
	if (s->stats && gpulat_stats_finish(s->stats) < 0) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: %s", session_label(s),
				    strerror(ENOMEM));
		return -ENOMEM;
	}
	if (s->err)
		return s->err;
	for (i = 0; i < s->nls; i++) {
		if (!s->ls[i].l.finish)
			continue;
		ret = s->ls[i].l.finish(s, s->ls[i].data);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* input 2: a host pushes records                                             */

/**
 * gpulat_session_attach_tep - read records of @tep pushed one by one
 * @s: session without other input
 * @tep: the host's handle, must outlive the session
 *
 * Return: 0, -EBUSY (input already given), -ENOMEM.
 */
int gpulat_session_attach_tep(struct gpulat_session *s, struct tep_handle *tep)
{
	if (!tep)
		return -EINVAL;
	if (s->started || s->nfiles)
		return -EBUSY;
	s->own_bind = gpulat_binding_new(tep);
	if (!s->own_bind)
		return -ENOMEM;
	s->files = calloc(1, sizeof(*s->files));
	if (!s->files)
		return -ENOMEM;
	s->nfiles = 1;
	s->files[0].tep = tep;
	s->files[0].b = s->own_bind;
	s->files[0].cpus = tep_get_cpus(tep);
	s->files[0].page_size = tep_get_page_size(tep);
	s->c.cpus = s->files[0].cpus;
	gpulat_binding_set_warn(s->own_bind, s_warn, s);
	gpulat_binding_set_context(s->own_bind, gpulat__session_wants_context(s));
	gpulat__session_configure(s, gpulat_binding_era(s->own_bind),
				  gpulat_binding_has(s->own_bind, GPULAT_EV_FENCE_SIGNALED));
	return 0;
}

/*
 * Inline in gpulat_session_push(): one frame a pushed record instead of two, and
 * the copy test known false there (callgrind, KernelShark dense-1M: 332.6 k
 * records).
 */
static inline __attribute__((always_inline)) int
session_feed(struct gpulat_session *s, const struct gpulat_event *ev, struct tep_record *rec)
{
	int ret;

	if (ev->kind > GPULAT_EV_NONE && ev->kind < GPULAT_EV__COUNT)
		s->kind[ev->kind]++;
	if (gpulat__is_gpu_kind(ev->kind))
		s->c.gpu_events++;
	/* gpulat_session_push() decodes into last_ev itself: no copy per record */
	if (ev != &s->last_ev)
		s->last_ev = *ev;
	s->cur_ev = &s->last_ev;
	s->have_last_ev = true;
	ret = gpulat_tracker_feed(s->tracker, ev);
	if (ret < 0)
		return ret;
	ret = gpulat__session_event(s, ev, rec, ev->file);
	if (ret < 0) {
		s->err = ret;
		return ret;
	}
	return 1;
}

int gpulat__session_feed(struct gpulat_session *s, const struct gpulat_event *ev,
			 struct tep_record *rec)
{
	return session_feed(s, ev, rec);
}

/* a gap before @rec on its cpu (rec->missed_events) */
static int push_lost(struct gpulat_session *s, struct tep_record *rec)
{
	int cpu = rec->cpu;

	if (cpu >= 0 && cpu >= s->ncpu_last) {
		int n = cpu + 1 > s->files[0].cpus ? cpu + 1 : s->files[0].cpus;
		uint64_t *v = realloc(s->cpu_last, (size_t)n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + s->ncpu_last, 0, (size_t)(n - s->ncpu_last) * sizeof(*v));
		s->cpu_last = v;
		s->ncpu_last = n;
	}
	if (rec->missed_events)
		gpulat_session_lost(s, cpu, GPULAT_NONE, rec->ts,
				    rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0);
	if (cpu >= 0)
		s->cpu_last[cpu] = rec->ts;
	return 0;
}

/*
 * One record, after the session's state was checked: decode and feed. Inline
 * in gpulat_session_push() and gpulat_session_push_many(); 1 fed, 0 not
 * ours or damaged, or -errno.
 */
static inline __attribute__((always_inline)) int push_one(struct gpulat_session *s,
							  struct tep_record *rec, void *host_ref)
{
	struct gpulat_event *ev = &s->last_ev;
	int ret;

	/* a damaged length reaching past the page is not decoded (bounds.c) */
	if (!gpulat__record_bytes(rec, s->files[0].page_size)) {
		s->c.damaged++;
		return 0;
	}
	/*
	 * Decoded straight into last_ev (what gpulat_session_last_event() gives;
	 * have_last_ev is false until it is fed): a copy of the 232-byte event per
	 * record was 10 M of dense-1M's 2487 M instructions in KernelShark.
	 */
	ret = gpulat_binding_decode(s->own_bind, rec, ev);
	if (ret < 0) {
		s->c.damaged++;
		return 0;
	}
	if (ret == 0)
		return 0;
	ev->ref = host_ref;
	ev->file = 0;
	return session_feed(s, ev, rec);
}

/* pushed input is still taken: 0, -EALREADY after the finish, or the session's error */
static int push_open(const struct gpulat_session *s)
{
	if (s->finished)
		return -EALREADY;
	return s->err;
}

/**
 * gpulat_session_push - feed one record of the attached tep
 * @s: session (gpulat_session_attach_tep() done)
 * @rec: the record, in time order across CPUs
 * @host_ref: copied into the job's ref[stage] for this record's stage
 *
 * Return: 1 fed (see gpulat_session_last_job()), 0 not ours, or -errno.
 */
int gpulat_session_push(struct gpulat_session *s, struct tep_record *rec, void *host_ref)
{
	int ret;

	if (!s->own_bind || !rec)
		return -EINVAL;
	ret = push_open(s);
	if (ret < 0)
		return ret;
	s->have_last_ev = false;
	gpulat__session_see_ts(s, rec->ts);
	ret = push_lost(s, rec);
	if (ret < 0)
		return ret;
	return push_one(s, rec, host_ref);
}

/**
 * gpulat_session_push_many - feed records of the attached tep
 * @s: session (gpulat_session_attach_tep() done)
 * @recs: the records, in time order across CPUs
 * @n: how many
 * @rec_sz: the distance between two records (sizeof(struct gpulat_host_rec))
 *
 * gpulat_session_push() of each record (its offset in its page unknown: 0),
 * with the session's state checked once, no lost events and no call a
 * record (callgrind, KernelShark dense-1M: 333 k records in 77 k batches).
 *
 * Return: the number of records fed, or -errno.
 */
int gpulat_session_push_many(struct gpulat_session *s, const struct gpulat_host_rec *recs, size_t n,
			     size_t rec_sz)
{
	const char *p = (const char *)recs;
	struct tep_record rec;
	int ret, fed = 0;
	size_t i;

	if (!s->own_bind || (!recs && n) || rec_sz < sizeof(*recs))
		return -EINVAL;
	ret = push_open(s);
	if (ret < 0)
		return ret;
	memset(&rec, 0, sizeof(rec));
	for (i = 0; i < n; i++, p += rec_sz) {
		const struct gpulat_host_rec *r = (const struct gpulat_host_rec *)p;

		if (!r->data)
			continue;
		s->have_last_ev = false;
		gpulat__session_see_ts(s, r->ts);
		rec.ts = r->ts;
		rec.cpu = r->cpu;
		rec.data = (void *)r->data;
		rec.size = r->size;
		/* the cpu's last time, for the lost events said between batches (push_lost()) */
		if (rec.cpu >= 0) {
			if (rec.cpu >= s->ncpu_last) {
				ret = push_lost(s, &rec);
				if (ret < 0)
					return ret;
			}
			s->cpu_last[rec.cpu] = rec.ts;
		}
		ret = push_one(s, &rec, r->ref);
		if (ret < 0)
			return ret;
		fed += ret;
		/* a listener's error from the tracker's job callback (s_job()) */
		if (s->err)
			return s->err;
	}
	return fed;
}

/**
 * gpulat_session_push_event - feed one event decoded elsewhere
 * @s: session
 * @ev: the event (ev->ref: the host's reference)
 *
 * Return: 1, or -errno.
 */
int gpulat_session_push_event(struct gpulat_session *s, const struct gpulat_event *ev)
{
	int ret;

	if (!ev)
		return -EINVAL;
	ret = push_open(s);
	if (ret < 0)
		return ret;
	if (!s->started)
		gpulat__session_configure(s, GPULAT_ERA_NONE, false);
	gpulat__session_see_ts(s, ev->ts);
	return gpulat__session_feed(s, ev, NULL);
}

void gpulat_session_lost(struct gpulat_session *s, int cpu, uint64_t from_ts, uint64_t to_ts,
			 uint64_t count)
{
	if (from_ts == GPULAT_NONE)
		from_ts = cpu >= 0 && cpu < s->ncpu_last ? s->cpu_last[cpu] : 0;
	s->c.lost_events += count;
	s->c.lost_gaps++;
	gpulat_tracker_lost_range(s->tracker, cpu, from_ts, to_ts, count);
}

const struct gpulat_job *gpulat_session_last_job(const struct gpulat_session *s)
{
	return s->have_last_ev ? gpulat_tracker_last_job(s->tracker) : NULL;
}

const struct gpulat_event *gpulat_session_last_event(const struct gpulat_session *s)
{
	return s->have_last_ev ? s->cur_ev : NULL;
}

/**
 * gpulat_session_ring_name - the name a ring of the input has so far
 * @s: session
 * @dev: an event's device ("" / NULL before 6.17)
 * @ring: its ring as traced
 *
 * 4.16-5.18 events name a ring by the address of its name: the tracker names
 * it from the drm_sched fence timelines of its jobs (ringname.c).
 *
 * Return: that name once learnt, else @ring (strings live with the session).
 */
const char *gpulat_session_ring_name(struct gpulat_session *s, const char *dev, const char *ring)
{
	return gpulat_tracker_ring_name(s->tracker, dev, ring);
}

/**
 * gpulat_session_finish - end of pushed input
 * @s: session
 *
 * Return: 0 or -errno (a second call returns 0 and does nothing).
 */
int gpulat_session_finish(struct gpulat_session *s)
{
	int ret;

	if (s->finished)
		return 0;
	/* live input: what was pushed but not fed yet, the text log's end */
	if (s->live) {
		ret = gpulat__live_end(s);
		if (ret < 0)
			return ret;
	}
	if (!s->started)
		gpulat__session_configure(s, GPULAT_ERA_NONE, false);
	gpulat_tracker_flush(s->tracker, s->c.last_ts == GPULAT_NONE ? 0 : s->c.last_ts);
	return gpulat__session_end(s);
}

/* ------------------------------------------------------------------------ */
/* results                                                                    */

void gpulat_session_counts(const struct gpulat_session *s, struct gpulat_session_counts *c)
{
	size_t sz = c->sz;

	if (sz < sizeof(size_t))
		return;
	memcpy(c, &s->c, sz < sizeof(s->c) ? sz : sizeof(s->c));
	c->sz = sz;
}

uint64_t gpulat_session_kind_count(const struct gpulat_session *s, enum gpulat_kind kind)
{
	if ((unsigned int)kind >= GPULAT_EV__COUNT)
		return 0;
	return s->kind[kind];
}

void gpulat_session_tracker_counters(const struct gpulat_session *s,
				     struct gpulat_tracker_counters *c)
{
	if (s->finished)
		*c = s->tc;
	else
		gpulat_tracker_counters(s->tracker, c);
}

enum gpulat_era gpulat_session_era(const struct gpulat_session *s)
{
	return s->era;
}

const struct gpulat_stats *gpulat_session_stats(const struct gpulat_session *s)
{
	return s->stats;
}

struct gpulat_diag *gpulat_session_diag(const struct gpulat_session *s)
{
	return s->diag;
}

size_t gpulat_session_nkept(const struct gpulat_session *s)
{
	return s->nkept;
}

const struct gpulat_worst *gpulat_session_kept(const struct gpulat_session *s, size_t i)
{
	return i < s->nkept ? &s->kept[i] : NULL;
}

int gpulat_session_nfiles(const struct gpulat_session *s)
{
	return s->nfiles;
}

static const struct sfile *sfile(const struct gpulat_session *s, int file)
{
	return file >= 0 && file < s->nfiles ? &s->files[file] : NULL;
}

/*
 * The trace clock of @file ("local", "mono", ...) as trace-cmd recorded it;
 * NULL when unknown (a pushed tep). drm_vblank_event `time` is
 * CLOCK_MONOTONIC: comparable with record timestamps only under "mono".
 */
const char *gpulat_session_trace_clock(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	return f ? f->clock : NULL;
}

/**
 * gpulat_session_set_stall_threshold - a threshold learnt from the input
 * @s: session
 * @ns: the new threshold (e.g. the display's refresh, lib/frames.c)
 *
 * Return: 0, or -EBUSY when the statistics already looked for stalls with
 * the old one (then nothing changes).
 */
int gpulat_session_set_stall_threshold(struct gpulat_session *s, uint64_t ns)
{
	int ret = s->stats ? gpulat_stats_set_stall_threshold(s->stats, ns) : 0;

	if (ret < 0)
		return ret;
	s->o.stall_threshold_ns = ns;
	return 0;
}

uint64_t gpulat_session_stall_threshold(const struct gpulat_session *s)
{
	return s->o.stall_threshold_ns;
}

const char *gpulat_session_path(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	return f ? f->path : NULL;
}

int gpulat_session_cpus(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	if (file < 0)
		return s->c.cpus;
	return f ? f->cpus : -EINVAL;
}

int gpulat_session_cpu_base(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	return f ? f->cpu_base : -EINVAL;
}

struct tep_handle *gpulat_session_tep(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	return f ? f->tep : NULL;
}

struct gpulat_binding *gpulat_session_binding(const struct gpulat_session *s, int file)
{
	const struct sfile *f = sfile(s, file);

	return f ? f->b : NULL;
}

const char *gpulat_session_intern(struct gpulat_session *s, const char *str)
{
	return str ? gpulat__strtab_intern(s->str, str) : NULL;
}

size_t gpulat_session_nseen_rings(const struct gpulat_session *s)
{
	return s->nseen;
}

int gpulat_session_seen_ring(const struct gpulat_session *s, size_t i, const char **dev,
			     const char **ring, const char **ring_ptr)
{
	if (i >= s->nseen)
		return -ENOENT;
	*dev = s->seen[i].dev ? s->seen[i].dev : "";
	*ring = s->seen[i].ring;
	*ring_ptr = s->seen[i].ring_ptr;
	return 0;
}

void gpulat_session_seen_window(const struct gpulat_session *s, uint64_t *first, uint64_t *last)
{
	*first = s->seen_first;
	*last = s->seen_last;
}
