// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz_session: libFuzzer target over the whole session (gpulat-session.h)
 * with every option family, on trace.dat files and ftrace text logs.
 *
 *   input = 8 option bytes, [a NUL-terminated filter name if a name filter
 *           is on], then the file: a trace.dat (v6, v7/zstd) or the text of
 *           `trace-cmd report` (lib/read-text.c; the session sniffs which)
 *
 *   byte 0  features: 1 explain, 2 fence path, 4 context, 8 emit at done,
 *           16 no stats, 32 frames listener, 64 frames learns the stall
 *           threshold, 128 a Perfetto-like listener (every event, job, stall)
 *   byte 1  filters: 1 dev, 2 ring, 4 comm (all = the name), 8 pids,
 *           16 start, 32 end, 64 the file twice (merge), 128 a listener
 *           that stops the input after byte 7 jobs
 *   byte 2  stall threshold: 0 default, else n * 250 us
 *   byte 3  top_n (low 4 bits), worst_by (high 4 bits, modulo the metrics)
 *   byte 4  gpu irq: 0xff choose, 0xfe by name (the name), else the number
 *   byte 5  pid for the pid filter (and pid + 1)
 *   byte 6  start = b * 500 ms (generated traces start at 123.45 s: 246)
 *   byte 7  end = start + (b + 1) * 10 ms; jobs before the stopping
 *           listener stops
 *
 * Checks besides ASan/UBSan: errors and warnings are one non-empty line
 * (an error names the file), hints end in a newline; counts add up; every
 * job handed to a listener passes the filters asked for (dev, comm, pid,
 * time window checked here, independently of lib/filter.c); jobs counted
 * equal the jobs the listener saw; stalls end after they start; every
 * string of the results (stats, diagnosis, frames, kept jobs) is readable;
 * a stopping listener's return is what run returns.
 *
 * Built with -fsanitize=fuzzer (GST_FUZZ=ON) and, with replay.c as main(),
 * by the normal compiler for the default suite (fuzz/session-replay).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FZ_TARGET "fuzz_session"
#include "fuzz-check.h"
#include "gpulat.h"
#include "gpulat-diag.h"
#include "gpulat-frames.h"
#include "gpulat-session.h"

#define FZS_MAX_LEN  (4u << 20)
#define FZS_HDR	     8
#define FZS_NAME_MAX 64

enum {
	FZ_EXPLAIN = 1,
	FZ_FENCE = 2,
	FZ_CONTEXT = 4,
	FZ_AT_DONE = 8,
	FZ_NO_STATS = 16,
	FZ_FRAMES = 32,
	FZ_LEARN = 64,
	FZ_PERFETTO = 128,
};
enum {
	FZ_DEV = 1,
	FZ_RING = 2,
	FZ_COMM = 4,
	FZ_PIDS = 8,
	FZ_START = 16,
	FZ_END = 32,
	FZ_TWICE = 64,
	FZ_STOP = 128,
};

struct fzs {
	const uint8_t *h;
	const char *name;
	const char *path;
	int pids[2];
	uint64_t start_ns, end_ns;
	uint64_t jobs; /* seen by the checking listener */
	uint64_t stop_after;
	bool stopped;
	uint64_t events;
	uint64_t errors;
	struct gpulat_session *s;
};

static void on_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	struct fzs *z = data;
	size_t n;

	if (!text)
		fz_fail("message NULL");
	n = strlen(text);
	if (getenv("FUZZ_SESSION_VERBOSE"))
		fprintf(stderr, "fuzz_session: message %d: %s%s", level, text,
			level == GPULAT_MSG_HINT ? "" : "\n");
	switch (level) {
	case GPULAT_MSG_ERROR:
		z->errors++;
		/*
		 * "no GPU job events" after jobs reached the listeners (F: text
		 * i915); not the words inside a fuzzed --gpu-irq name the
		 * message echoes (X5)
		 */
		if (z->jobs && strstr(text, "no GPU") && !(z->name && strstr(z->name, "no GPU")))
			fz_fail("'%s' after %" PRIu64 " jobs", text, z->jobs);
		/* fall through */
	case GPULAT_MSG_WARN:
		if (!n || strchr(text, '\n'))
			fz_fail("message of level %d is not one non-empty line: '%s'", level, text);
		break;
	case GPULAT_MSG_HINT:
		if (!n || text[n - 1] != '\n')
			fz_fail("hint does not end in a newline: '%s'", text);
		break;
	default:
		fz_fail("message level %d", level);
	}
}

/*
 * Where the time filter places a job: its first stage in pipeline order that
 * was seen (queue, else run, done, signal), not its earliest timestamp; they
 * differ when a trace's clocks go backwards across CPUs (X4).
 */
static uint64_t first_ts(const struct gpulat_job *j)
{
	int k;

	for (k = 0; k < GPULAT_ST__COUNT; k++)
		if (j->ts[k] != GPULAT_NONE)
			return j->ts[k];
	return GPULAT_NONE;
}

static int check_job(const struct gpulat_job *j, void *data)
{
	struct fzs *z = data;
	uint8_t f = z->h[1];
	unsigned int i;

	z->jobs++;
	fz_touch(j->dev);
	fz_touch(j->ring);
	fz_touch(j->comm);
	fz_touch(j->ring_name);
	fz_touch(j->ring_ptr);
	fz_touch(gpulat_timing_start(j));
	fz_touch(gpulat_timing_done(j));
	if (j->n_deps && !j->deps)
		fz_fail("job %" PRIu64 ": %u deps, no array", j->seq, j->n_deps);
	for (i = 0; i < j->n_deps; i++) {
		fz_touch(j->deps[i].dev);
		fz_touch(j->deps[i].ring);
	}
	if ((f & FZ_DEV) && (!j->dev || strcmp(j->dev, z->name)))
		fz_fail("job %" PRIu64 " of dev '%s' passed --dev '%s'", j->seq, j->dev, z->name);
	if ((f & FZ_COMM) && (!j->comm || strcmp(j->comm, z->name)))
		fz_fail("job %" PRIu64 " of comm '%s' passed --comm '%s'", j->seq,
			j->comm ? j->comm : "(null)", z->name);
	if ((f & FZ_PIDS) && j->pid != z->pids[0] && j->pid != z->pids[1])
		fz_fail("job %" PRIu64 " of pid %d passed --pid %d,%d", j->seq, j->pid, z->pids[0],
			z->pids[1]);
	/* [0, UINT64_MAX] is no window for gpulat_filter_job(): a job of no time passes (X3) */
	if ((f & (FZ_START | FZ_END)) && (z->start_ns || z->end_ns != UINT64_MAX)) {
		uint64_t t = first_ts(j);

		if (t == GPULAT_NONE || t < z->start_ns || t > z->end_ns)
			fz_fail("job %" PRIu64 " at %" PRIu64 " passed the window %" PRIu64
				"..%" PRIu64,
				j->seq, t, z->start_ns, z->end_ns);
	}
	if ((f & FZ_STOP) && z->jobs >= z->stop_after) {
		z->stopped = true;
		return -ECANCELED;
	}
	return 0;
}

static int check_stall(const struct gpulat_stall *st, void *data)
{
	(void)data;
	fz_touch(st->dev);
	fz_touch(st->ring);
	fz_touch(st->comm);
	if (st->end_ts < st->start_ts)
		fz_fail("stall ends before it starts: %" PRIu64 " < %" PRIu64, st->end_ts,
			st->start_ts);
	return 0;
}

/* what an exporter (tools/gl-pf-*.c) reads of every event */
static int pf_event(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct fzs *z = data;
	const struct gpulat_job *j;

	(void)rec;
	z->events++;
	if (file < 0 || file > 1)
		fz_fail("event of file %d", file);
	if ((unsigned int)ev->kind >= GPULAT_EV__COUNT)
		fz_fail("event kind %d", ev->kind);
	fz_touch(ev->dev);
	fz_touch(ev->ring);
	fz_touch(ev->comm);
	fz_touch(ev->driver);
	fz_touch(ev->timeline);
	/* the job of this event, as the Perfetto writer asks for it */
	j = gpulat_session_last_job(z->s);
	if (j) {
		fz_touch(j->ring);
		fz_touch(j->comm);
	}
	return 0;
}

static void check_explain(const struct gpulat_explain *e)
{
	unsigned int i;

	if (!e)
		return;
	if (e->n > GPULAT_DIAG_MAX_HINTS)
		fz_fail("explanation with %u hints", e->n);
	for (i = 0; i < e->n; i++) {
		if (!memchr(e->h[i].text, '\0', sizeof(e->h[i].text)))
			fz_fail("hint text not terminated");
		fz_touch(gpulat_cause_name(e->h[i].cause));
	}
}

static void check_stats(const struct gpulat_stats *s, struct gpulat_diag *d)
{
	size_t i, n;
	int k;

	for (k = 0; k < GPULAT_G__COUNT; k++) {
		n = gpulat_stats_ngroups(s, k);
		for (i = 0; i < n; i++) {
			const struct gpulat_group *g = gpulat_stats_group(s, k, i);

			fz_touch(g->dev);
			fz_touch(g->ring);
			fz_touch(g->comm);
		}
	}
	n = gpulat_stats_nstalls(s);
	for (i = 0; i < n; i++) {
		const struct gpulat_stall *st = gpulat_stats_stall(s, i);

		check_stall(st, NULL);
		if (d)
			check_explain(gpulat_diag_stall_explain(d, st));
	}
	n = gpulat_stats_nworst(s);
	for (i = 0; i < n; i++) {
		const struct gpulat_worst *w = gpulat_stats_worst(s, i);

		fz_touch(w->job.comm);
		if (d)
			check_explain(gpulat_diag_job_explain(d, w->job.seq));
	}
}

static void check_diag(struct gpulat_diag *d)
{
	struct gpulat_gpu_irq irq;
	size_t i, n;
	int c;

	gpulat_diag_gpu_irq(d, &irq);
	fz_touch(irq.name);
	if (irq.done_inside > irq.done_events)
		fz_fail("done inside the irq %" PRIu64 " > done events %" PRIu64, irq.done_inside,
			irq.done_events);
	n = gpulat_diag_fp_nrings(d);
	for (i = 0; i < n; i++) {
		const struct gpulat_fp_ring *r = gpulat_diag_fp_ring(d, i);

		fz_touch(r->dev);
		fz_touch(r->ring);
	}
	for (c = 0; c < gpulat_diag_ncpus(d); c++) {
		struct gpulat_irq_load l;

		gpulat_diag_irq_load(d, c, &l);
		if (l.hardirq_pct < 0 || l.softirq_pct < 0)
			fz_fail("cpu %d: negative irq load", c);
	}
}

static void check_frames(const struct gpulat_frames *f)
{
	size_t i, j, n;

	if (!f)
		return;
	n = gpulat_frames_ncrtcs(f);
	for (i = 0; i < n; i++) {
		const struct gpulat_crtc_report *c = gpulat_frames_crtc(f, i);

		if (c->late > c->frames)
			fz_fail("crtc %d: %" PRIu64 " late of %" PRIu64 " frames", c->crtc, c->late,
				c->frames);
	}
	n = gpulat_frames_nclients(f);
	for (i = 0; i < n; i++) {
		const struct gpulat_frame_client *c = gpulat_frames_client(f, i);

		fz_touch(c->comm);
		if (c->nlate > c->late)
			fz_fail("client keeps %zu late frames of %" PRIu64, c->nlate, c->late);
		for (j = 0; j < c->nlate; j++) {
			const struct gpulat_late_frame *l = gpulat_frames_late(f, i, j);
			unsigned int k;

			fz_touch(l->comm);
			fz_touch(gpulat_frame_cause_name(l->cause));
			if (l->nkept > GPULAT_FRAME_JOBS)
				fz_fail("late frame keeps %u jobs", l->nkept);
			for (k = 0; k < l->nkept; k++) {
				fz_touch(l->jobs[k].dev);
				fz_touch(l->jobs[k].ring);
				fz_touch(l->jobs[k].dep_ring);
			}
		}
	}
	n = gpulat_frames_nprocs(f);
	for (i = 0; i < n; i++)
		fz_touch(gpulat_frames_proc(f, i)->comm);
}

static void check_results(struct gpulat_session *s, struct fzs *z)
{
	struct gpulat_session_counts c = { .sz = sizeof(c) };
	const struct gpulat_stats *st = gpulat_session_stats(s);
	struct gpulat_diag *d = gpulat_session_diag(s);
	size_t i;
	int k;

	gpulat_session_counts(s, &c);
	if (c.gpu_events + c.damaged > c.events)
		fz_fail("counts: events %" PRIu64 " gpu %" PRIu64 " damaged %" PRIu64, c.events,
			c.gpu_events, c.damaged);
	if (c.jobs > c.jobs_seen || c.incomplete + c.lost + c.orphan > c.jobs)
		fz_fail("counts: jobs %" PRIu64 " of %" PRIu64 " seen, %" PRIu64
			" incomplete %" PRIu64 " lost %" PRIu64 " orphan",
			c.jobs, c.jobs_seen, c.incomplete, c.lost, c.orphan);
	if (c.jobs != z->jobs)
		fz_fail("counted %" PRIu64 " jobs, the listener saw %" PRIu64, c.jobs, z->jobs);
	if (c.first_ts != GPULAT_NONE && c.last_ts < c.first_ts)
		fz_fail("span ends before it starts");
	for (k = 0; k < GPULAT_EV__COUNT; k++)
		if (gpulat_session_kind_count(s, k) > c.events)
			fz_fail("kind %d counted more than the events", k);
	if ((z->h[0] & FZ_NO_STATS) ? st != NULL : st == NULL)
		fz_fail("stats %p with features 0x%x", (const void *)st, z->h[0]);
	if (st)
		check_stats(st, d);
	if (d)
		check_diag(d);
	for (i = 0; i < gpulat_session_nkept(s); i++) {
		const struct gpulat_worst *w = gpulat_session_kept(s, i);

		if (!w)
			fz_fail("kept job %zu is NULL", i);
		fz_touch(w->job.comm);
		fz_touch(w->job.ring);
	}
	for (k = 0; k < gpulat_session_nfiles(s); k++) {
		fz_touch(gpulat_session_path(s, k));
		fz_touch(gpulat_session_trace_clock(s, k));
	}
}

static void run_session(struct fzs *z)
{
	const uint8_t *h = z->h;
	struct gpulat_session_opts o;
	struct gpulat_listener chk = { .sz = sizeof(chk), .job = check_job, .stall = check_stall };
	struct gpulat_listener pf = { .sz = sizeof(pf), .event = pf_event, .stall = check_stall };
	struct gpulat_frames_listener *fl = NULL;
	struct gpulat_session *s;
	const char *names[1] = { z->name };
	int ret;

	gpulat_session_opts_init(&o);
	if (h[0] & FZ_EXPLAIN)
		o.features |= GPULAT_FEAT_EXPLAIN;
	if (h[0] & FZ_FENCE)
		o.features |= GPULAT_FEAT_FENCE_PATH;
	if (h[0] & FZ_CONTEXT)
		o.features |= GPULAT_FEAT_CONTEXT;
	if (h[0] & FZ_AT_DONE)
		o.features |= GPULAT_FEAT_EMIT_AT_DONE;
	if (h[0] & FZ_NO_STATS)
		o.features |= GPULAT_FEAT_NO_STATS;
	if (h[1] & FZ_DEV) {
		o.devs = names;
		o.n_devs = 1;
	}
	if (h[1] & FZ_RING) {
		o.rings = names;
		o.n_rings = 1;
	}
	if (h[1] & FZ_COMM) {
		o.comms = names;
		o.n_comms = 1;
	}
	z->pids[0] = h[5];
	z->pids[1] = h[5] + 1;
	if (h[1] & FZ_PIDS) {
		o.pids = z->pids;
		o.n_pids = 2;
	}
	z->start_ns = 0;
	z->end_ns = UINT64_MAX;
	if (h[1] & FZ_START)
		z->start_ns = o.start_ns = (uint64_t)h[6] * 500000000ull;
	if (h[1] & FZ_END)
		z->end_ns = o.end_ns = z->start_ns + ((uint64_t)h[7] + 1) * 10000000ull;
	if (h[2])
		o.stall_threshold_ns = (uint64_t)h[2] * 250000ull;
	o.top_n = h[3] & 15;
	o.worst_by = (enum gpulat_metric)((h[3] >> 4) % GPULAT_M__COUNT);
	if (h[4] == 0xfe)
		o.gpu_irq_name = z->name;
	else if (h[4] != 0xff)
		o.gpu_irq = h[4];
	z->stop_after = h[7];
	o.msg = on_msg;
	o.msg_data = z;

	s = gpulat_session_new(&o);
	if (!s) {
		/* top_n 0 and the like may be refused, but only as EINVAL */
		if (errno != EINVAL)
			fz_fail("gpulat_session_new: %s", strerror(errno));
		return;
	}
	z->s = s;
	if (gpulat_session_add_listener(s, &chk, z) < 0)
		fz_fail("add_listener");
	if ((h[0] & FZ_PERFETTO) && gpulat_session_add_listener(s, &pf, z) < 0)
		fz_fail("add_listener (perfetto-like)");
	if (h[0] & FZ_FRAMES) {
		fl = gpulat_frames_listen(s, (h[0] & FZ_LEARN) ? GPULAT_FRAMES_LEARN_THRESHOLD : 0);
		if (!fl)
			fz_fail("gpulat_frames_listen: %s", strerror(errno));
	}
	if (gpulat_session_add_file(s, z->path) < 0)
		fz_fail("add_file");
	if ((h[1] & FZ_TWICE) && gpulat_session_add_file(s, z->path) < 0)
		fz_fail("add_file (twice)");

	ret = gpulat_session_run(s);
	/* FUZZ_SESSION_VERBOSE=1: what each input reached (seeds must reach jobs) */
	if (getenv("FUZZ_SESSION_VERBOSE"))
		fprintf(stderr,
			"fuzz_session: run %d, %" PRIu64 " jobs, %" PRIu64
			" events to the exporter, %" PRIu64 " errors%s\n",
			ret, z->jobs, z->events, z->errors, z->stopped ? ", stopped" : "");
	if (z->stopped) {
		if (ret != -ECANCELED)
			fz_fail("a listener stopped the input with -ECANCELED, run returned %d",
				ret);
	} else if (ret < 0) {
		if (!z->errors)
			fz_fail("run failed (%d) without an error message", ret);
	} else {
		check_results(s, z);
		if (fl)
			check_frames(gpulat_frames_listener_frames(fl));
	}
	gpulat_frames_listener_free(fl);
	gpulat_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], name[FZS_NAME_MAX + 1];
	struct fzs z = { 0 };
	size_t off = FZS_HDR, n = 0;
	int fd;

	if (size < FZS_HDR || size > FZS_MAX_LEN)
		return 0;
	z.h = data;
	/* a name is read when a filter or the irq needs one */
	if ((data[1] & (FZ_DEV | FZ_RING | FZ_COMM)) || data[4] == 0xfe) {
		while (off < size && data[off] && n < FZS_NAME_MAX)
			name[n++] = (char)data[off++];
		if (off < size)
			off++;
	}
	name[n] = '\0';
	z.name = name;
	fz_pick_reader(size - off);
	fd = fz_memfd(data + off, size - off, path, sizeof(path));
	z.path = path;
	run_session(&z);
	close(fd);
	return 0;
}
