// SPDX-License-Identifier: LGPL-2.1
/*
 * --watch: live GPU job latency.
 *
 *   1. check tracefs: mounted, accessible, gpu_scheduler events present
 *      (each failure is one line saying what is missing; exit 1, nothing
 *      created)
 *   2. create our own tracefs instance (libtracefs) and enable the GPU,
 *      dma_fence, amdgpu, irq, sched and power events there; the top-level
 *      buffer and its settings are never touched
 *   3. read the instance's per-CPU raw pages (trace_pipe_raw, non-blocking)
 *      and push them into the session's live input (lib/session-live.c:
 *      decoding, the merge in time order, the one pipeline); every
 *      --interval end the session's interval and print one line per ring of
 *      its statistics, check the --fail-if gates on that interval
 *   4. keep the raw pages of the last --save-seconds per CPU; on an alert
 *      write them as DIR/alert-N.dat (libtracecmd output API, formats from
 *      tracefs) for KernelShark
 *   5. on exit, --duration, Ctrl-C or SIGTERM: tracing off, instance
 *      destroyed
 *
 * `--watch -` reads an ftrace text log on stdin instead (trace_pipe through
 * cat, `trace-cmd stream`, a grep pipeline): no tracefs, the same summaries;
 * it ends at the end of the log, whose jobs still open are then reported.
 *
 * Exit: 0, 1 (error), 3 (a gate was crossed in some interval).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <tracefs.h>

#include "gpulat.h"
#include "gpulat-diag.h"
#include "gpulat-session.h"
#include "gpulat-tracecmd.h"
#include "gpu-latency.h"

#define W_PAGES_MAX	4096		/* raw pages kept per CPU for --save-dir */
#define W_TICK_NS	100000000ULL	/* read every 100 ms */
#define W_BUFFER_KB	4096		/* instance buffer per CPU */
#define W_SYSTEMS_MAX	64 /* event systems the pipeline reads */

static volatile sig_atomic_t w_stop;

static void on_signal(int sig)
{
	(void)sig;
	w_stop = 1;
}

struct w_page {
	uint64_t	mono;		/* when it was read (--save-seconds) */
	unsigned char	*data;
};

struct w_cpu {
	struct tracefs_cpu *tc;
	struct w_page	*pages;		/* ring of the newest pages */
	size_t		head, n;
};

struct watch {
	const struct gl_opts *o;
	bool		text;		/* --watch -: a text log on stdin */
	const char	*dir;		/* tracing dir */
	struct tracefs_instance *inst;
	char		name[64];
	struct tep_handle *tep;
	struct gpulat_session *s;	/* the pipeline, fed live */
	const struct gpulat_stats *stats; /* of the interval that just ended */
	struct gpulat_live_interval iv;
	struct w_cpu	*cpus;
	int		ncpus;
	int		page_size;
	unsigned char	*buf;
	unsigned int	intervals, alerts, saved;
	/* --explain: the interval's worst job and its hints */
	uint64_t	ibest;		/* its metric, GPULAT_NONE: no job yet */
	struct gpulat_explain ibest_x;
	char		ibest_what[160];
	uint64_t	last_save;	/* mono ns of the last saved trace, 0 none */
	bool		failed;		/* an error line was printed */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------------ */
/* checks before anything is created                                          */

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int check_tracefs(struct watch *w)
{
	char path[4096];

	w->dir = tracefs_tracing_dir();
	if (!w->dir) {
		if (access("/sys/kernel/tracing", F_OK) == 0 &&
		    access("/sys/kernel/tracing", X_OK) < 0 && errno == EACCES)
			fprintf(stderr, "%s: permission denied opening tracefs (/sys/kernel/tracing): "
				"run as root or grant tracefs access\n", GL_NAME);
		else
			fprintf(stderr, "%s: tracefs is not mounted (mount -t tracefs nodev "
				"/sys/kernel/tracing)\n", GL_NAME);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events", w->dir);
	if (access(path, R_OK | X_OK) < 0 ||
	    (snprintf(path, sizeof(path), "%s/instances", w->dir),
	     access(path, R_OK | W_OK | X_OK) < 0)) {
		if (errno == EACCES || errno == EPERM)
			fprintf(stderr, "%s: permission denied opening tracefs (%s): run as root or "
				"grant tracefs access\n", GL_NAME, w->dir);
		else
			fprintf(stderr, "%s: %s: %s (is tracefs mounted there?)\n", GL_NAME, path,
				strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events/gpu_scheduler", w->dir);
	if (is_dir(path))
		return 0;
	snprintf(path, sizeof(path), "%s/events/gpu_sched", w->dir);
	if (is_dir(path))
		return 0;
	fprintf(stderr, "%s: gpu_scheduler events are not available in %s/events: is "
		"gpu-sched.ko loaded?\n", GL_NAME, w->dir);
	return -1;
}

/* ------------------------------------------------------------------------ */
/* the instance                                                               */

/*
 * Systems enabled event by event: the context the diagnosis reads of them
 * (and amdgpu's job events, not its many buffer-object ones). Every other
 * system the pipeline reads (gpulat_session_live_systems()) is enabled whole.
 */
static const struct {
	const char	*sys;
	const char	*event;
} w_events[] = {
	{ "amdgpu", "amdgpu_cs_ioctl" }, { "amdgpu", "amdgpu_sched_run_job" },
	{ "amdgpu", "amdgpu_iv" },	 { "irq", "irq_handler_entry" },
	{ "irq", "irq_handler_exit" },	 { "irq", "softirq_entry" },
	{ "irq", "softirq_exit" },	 { "sched", "sched_switch" },
	{ "sched", "sched_waking" },	 { "power", "cpu_frequency" },
};

static bool by_event(const char *sys)
{
	size_t i;

	for (i = 0; i < sizeof(w_events) / sizeof(w_events[0]); i++)
		if (!strcmp(w_events[i].sys, sys))
			return true;
	return false;
}

static bool has_system(const struct watch *w, const char *sys)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/events/%s", w->dir, sys);
	return is_dir(path);
}

static int instance_start(struct watch *w)
{
	const char *sys[W_SYSTEMS_MAX];
	size_t i;
	int enabled = 0;

	snprintf(w->name, sizeof(w->name), "gpu-latency-watch-%d", (int)getpid());
	w->inst = tracefs_instance_create(w->name);
	if (!w->inst) {
		if (errno == EACCES || errno == EPERM)
			fprintf(stderr, "%s: permission denied creating a tracefs instance in "
				"%s/instances: run as root or grant tracefs access\n", GL_NAME, w->dir);
		else
			fprintf(stderr, "%s: cannot create the tracefs instance %s: %s\n", GL_NAME,
				w->name, strerror(errno));
		return -1;
	}
	tracefs_trace_off(w->inst);
	tracefs_instance_set_buffer_size(w->inst, W_BUFFER_KB, -1);
	gpulat_session_live_systems(sys, W_SYSTEMS_MAX);
	for (i = 0; sys[i]; i++) {
		if (by_event(sys[i]) || !has_system(w, sys[i]))
			continue;
		if (tracefs_event_enable(w->inst, sys[i], NULL) == 0 &&
		    (!strcmp(sys[i], "gpu_scheduler") || !strcmp(sys[i], "gpu_sched")))
			enabled++;
	}
	for (i = 0; i < sizeof(w_events) / sizeof(w_events[0]); i++)
		if (has_system(w, w_events[i].sys))
			tracefs_event_enable(w->inst, w_events[i].sys, w_events[i].event);
	if (!enabled) {
		fprintf(stderr, "%s: cannot enable the gpu_scheduler events in the instance %s: %s\n",
			GL_NAME, w->name, strerror(errno));
		return -1;
	}
	return 0;
}

static void instance_stop(struct watch *w)
{
	if (!w->inst)
		return;
	tracefs_trace_off(w->inst);
	if (tracefs_instance_destroy(w->inst) < 0)
		fprintf(stderr, "%s: warning: could not remove the tracefs instance %s: %s\n",
			GL_NAME, w->name, strerror(errno));
	tracefs_instance_free(w->inst);
	w->inst = NULL;
}

/* ------------------------------------------------------------------------ */
/* reading                                                                    */

/*
 * --explain: the interval's worst job is the statistics' (the interval's
 * worst list, the one ranking): when the job just added became its first,
 * keep its hints, while the context is at hand
 */
static int w_job(const struct gpulat_job *job, void *data)
{
	struct watch *w = data;
	struct gpulat_diag *diag = gpulat_session_diag(w->s);
	const struct gpulat_stats *st = gpulat_session_stats(w->s);
	const struct gpulat_worst *top = st ? gpulat_stats_worst(st, 0) : NULL;
	uint64_t m;
	char a[32], ring[128];

	if (!diag || !top || top->job.seq != job->seq)
		return 0;
	m = gpulat_job_metric(job, w->o->stats.worst_by);
	w->ibest = m;
	gpulat_diag_explain_now(diag, job, &w->ibest_x);
	snprintf(w->ibest_what, sizeof(w->ibest_what), "%s job of %s-%d, %s %s",
		 gpulat_ring_label(ring, sizeof(ring), job->dev, job->ring),
		 job->comm && job->comm[0] ? job->comm : "<...>", job->pid,
		 gpulat_metric_name(w->o->stats.worst_by), gl_fmt_dur(a, sizeof(a), m));
	return 0;
}

/* the session's one error channel */
static void w_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	struct watch *w = data;

	if (level == GPULAT_MSG_ERROR)
		w->failed = true;
	gl_msg_print(w->o, level, text);
}

static int keep_page(struct watch *w, struct w_cpu *c, uint64_t now)
{
	struct w_page *p;

	if (!w->o->save_dir)
		return 0;
	if (!c->pages) {
		c->pages = calloc(W_PAGES_MAX, sizeof(*c->pages));
		if (!c->pages)
			return -ENOMEM;
	}
	if (c->n == W_PAGES_MAX) {
		p = &c->pages[c->head];
		c->head = (c->head + 1) % W_PAGES_MAX;
		c->n--;
	} else {
		p = &c->pages[(c->head + c->n) % W_PAGES_MAX];
		if (!p->data)
			p->data = malloc((size_t)w->page_size);
		if (!p->data)
			return -ENOMEM;
	}
	memcpy(p->data, w->buf, (size_t)w->page_size);
	p->mono = now;
	c->n++;
	/* read longer than --save-seconds before this page: not needed any more */
	while (c->n > 1 && c->pages[c->head].mono + w->o->save_ns < now) {
		c->head = (c->head + 1) % W_PAGES_MAX;
		c->n--;
	}
	return 0;
}

/* drain every CPU into the session, then let it feed them in time order */
static int read_all(struct watch *w)
{
	uint64_t now = mono_ns();
	int c, n, ret;

	for (c = 0; c < w->ncpus; c++) {
		if (!w->cpus[c].tc)
			continue;
		while ((n = tracefs_cpu_read(w->cpus[c].tc, w->buf, true)) > 0) {
			ret = gpulat_session_push_page(w->s, c, w->buf, (size_t)n);
			if (ret < 0)
				return ret;
			ret = keep_page(w, &w->cpus[c], now);
			if (ret < 0)
				return ret;
		}
	}
	return gpulat_session_live_flush(w->s);
}

/* ------------------------------------------------------------------------ */
/* saving the last seconds                                                    */

static int write_cpu_file(const char *path, const struct w_cpu *c, int page_size)
{
	FILE *f = fopen(path, "w");
	size_t i;
	int ret = 0;

	if (!f)
		return -errno;
	for (i = 0; i < c->n && c->pages; i++)
		if (fwrite(c->pages[(c->head + i) % W_PAGES_MAX].data, (size_t)page_size, 1, f) != 1)
			ret = -EIO;
	if (fclose(f))
		ret = -EIO;
	return ret;
}

/* formats of the systems we record (not all ~2000 of the kernel: slow to copy) */
static struct tracecmd_event_list *event_globs(struct tracecmd_event_list *v, char (*glob)[64],
					       size_t n)
{
	const char *sys[W_SYSTEMS_MAX];
	size_t i;

	gpulat_session_live_systems(sys, W_SYSTEMS_MAX);
	for (i = 0; sys[i] && i < n; i++) {
		snprintf(glob[i], sizeof(glob[i]), "%s/*", sys[i]);
		v[i].glob = glob[i];
		v[i].next = i + 1 < n && sys[i + 1] ? &v[i + 1] : NULL;
	}
	return v;
}

static int save_trace(struct watch *w, char *out, size_t outlen)
{
	struct tracecmd_event_list globs[W_SYSTEMS_MAX];
	char glob[W_SYSTEMS_MAX][64];
	char tmpdir[] = "/tmp/gpu-latency-watch-XXXXXX";
	struct tracecmd_output *h;
	char **files;
	int c, ret = 0;

	if (mkdir(w->o->save_dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "%s: --save-dir %s: %s\n", GL_NAME, w->o->save_dir, strerror(errno));
		return -1;
	}
	if (!mkdtemp(tmpdir))
		return -1;
	files = calloc((size_t)w->ncpus, sizeof(*files));
	if (!files)
		return -1;
	for (c = 0; !ret && c < w->ncpus; c++) {
		if (asprintf(&files[c], "%s/cpu%d.raw", tmpdir, c) < 0) {
			files[c] = NULL;
			ret = -ENOMEM;
			break;
		}
		ret = write_cpu_file(files[c], &w->cpus[c], w->page_size);
	}
	snprintf(out, outlen, "%s/alert-%u.dat", w->o->save_dir, w->saved + 1);
	if (!ret) {
		tracecmd_set_loglevel(TEP_LOG_ERROR);
		h = tracecmd_output_create(out);
		if (!h) {
			ret = -EIO;
		} else {
			tracecmd_set_quiet(h, 1);
			if (tracecmd_output_set_version(h, 7) ||
			    tracecmd_output_set_compression(h, "zstd"))
				tracecmd_output_set_version(h, 6);
			/* no kallsyms: GPU events need none, and it is most of the file */
			if (tracecmd_output_set_trace_dir(h, w->dir) ||
			    tracecmd_output_set_kallsyms(h, "/dev/null") ||
			    tracecmd_output_write_headers(h, event_globs(globs, glob,
									 W_SYSTEMS_MAX)) ||
			    tracecmd_write_cmdlines(h) ||
			    tracecmd_append_cpu_data(h, w->ncpus, files))
				ret = -EIO;
			tracecmd_output_close(h);
		}
	}
	for (c = 0; c < w->ncpus; c++) {
		if (files[c])
			unlink(files[c]);
		free(files[c]);
	}
	free(files);
	rmdir(tmpdir);
	if (ret) {
		fprintf(stderr, "%s: could not write %s: %s\n", GL_NAME, out, strerror(-ret));
		return -1;
	}
	w->saved++;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* the rolling summary                                                        */

static void print_interval(struct watch *w, double elapsed, FILE *out)
{
	size_t i, n = gpulat_stats_ngroups(w->stats, GPULAT_G_RING);
	char a[32], b[32], c[32], d[32], ring[128];

	if (!n) {
		fprintf(out, "[%7.1fs] no GPU jobs completed\n", elapsed);
		return;
	}
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(w->stats, GPULAT_G_RING, i);

		fprintf(out, "[%7.1fs] %-12s jobs %5llu  total p50 %8s p99 %8s max %8s  "
			"wait p99 %8s  busy %5.1f%%  depth %u%s\n", elapsed,
			gpulat_ring_label(ring, sizeof(ring), g->dev, g->ring),
			(unsigned long long)g->jobs,
			gl_fmt_dur(a, sizeof(a), g->m[GPULAT_M_TOTAL].p50),
			gl_fmt_dur(b, sizeof(b), g->m[GPULAT_M_TOTAL].p99),
			gl_fmt_dur(c, sizeof(c), g->m[GPULAT_M_TOTAL].max),
			gl_fmt_dur(d, sizeof(d), g->m[GPULAT_M_WAIT].p99), g->busy_pct, g->max_depth,
			g->incomplete ? "  (incomplete jobs)" : "");
	}
	if (w->iv.lost_events || w->iv.lost_gaps)
		fprintf(out, "[%7.1fs] events lost: %llu (ring buffer overrun)\n", elapsed,
			(unsigned long long)w->iv.lost_events);
}

static void print_hints(const struct gpulat_explain *x, double elapsed)
{
	unsigned int i;
	char d[32];

	if (!x || !x->n) {
		printf("[%7.1fs]     no CPU-side hint (irq, frequency, scheduling, fence waits)\n",
		       elapsed);
		return;
	}
	for (i = 0; i < x->n && i < 3; i++)
		printf("[%7.1fs]     %u. %-10s %8s  %s\n", elapsed, i + 1,
		       gpulat_cause_name(x->h[i].cause), gl_fmt_dur(d, sizeof(d), x->h[i].score),
		       x->h[i].text);
}

/* --explain: why, for the interval's worst job and its longest stall */
static void print_why(struct watch *w, double elapsed)
{
	const struct gpulat_stall *st = NULL;
	size_t i, n = gpulat_stats_nstalls(w->stats);
	char d[32];

	if (w->ibest != GPULAT_NONE) {
		printf("[%7.1fs]   why: worst %s\n", elapsed, w->ibest_what);
		print_hints(&w->ibest_x, elapsed);
	}
	for (i = 0; i < n; i++) {
		const struct gpulat_stall *s = gpulat_stats_stall(w->stats, i);

		if (!st || s->end_ts - s->start_ts > st->end_ts - st->start_ts)
			st = s;
	}
	if (!st)
		return;
	if (st->kind == GPULAT_STALL_SUBMIT_GAP)
		printf("[%7.1fs]   why: stall submit gap %s-%d %s\n", elapsed,
		       st->comm ? st->comm : "<...>", st->pid,
		       gl_fmt_dur(d, sizeof(d), st->end_ts - st->start_ts));
	else
		printf("[%7.1fs]   why: stall ring idle %s %s\n", elapsed, st->ring ? st->ring : "?",
		       gl_fmt_dur(d, sizeof(d), st->end_ts - st->start_ts));
	print_hints(gpulat_diag_stall_explain(gpulat_session_diag(w->s), st), elapsed);
}

static int check_gates(struct watch *w, double elapsed)
{
	struct gl_run run = { 0 };
	char *msg = NULL, *line, *save = NULL;
	size_t len = 0, i;
	int failed = 0, ret;
	FILE *f;

	if (!w->o->ngates || !w->iv.jobs)
		return 0;
	run.opts = w->o;
	run.stats = w->stats;
	run.c.lost_events = w->iv.lost_events;
	run.c.lost_gaps = w->iv.lost_gaps;
	f = open_memstream(&msg, &len);
	if (!f)
		return -1;
	for (i = 0; i < w->o->ngates; i++) {
		ret = gl_gate_check(w->o->gates[i], &run, NULL, f);
		if (ret > 0)
			failed += ret;
	}
	fclose(f);
	for (line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("[%7.1fs] ALERT %s\n", elapsed,
		       !strncmp(line, GL_NAME ": ", strlen(GL_NAME ": ")) ?
		       line + strlen(GL_NAME ": ") : line);
	free(msg);
	if (failed && gpulat_session_diag(w->s))
		print_why(w, elapsed);
	if (failed) {
		char out[4096];

		w->alerts++;
		/* one trace per --save-seconds: the next one would hold the same events */
		if (w->o->save_dir && w->last_save &&
		    mono_ns() - w->last_save < w->o->save_ns) {
			printf("[%7.1fs] (alert-%u.dat already holds these seconds)\n", elapsed,
			       w->saved);
		} else if (w->o->save_dir && save_trace(w, out, sizeof(out)) == 0) {
			w->last_save = mono_ns();
			printf("[%7.1fs] saved the last %.0f s: %s (kernelshark %s)\n", elapsed,
			       (double)w->o->save_ns / 1e9, out, out);
		}
	}
	fflush(stdout);
	return failed;
}

static void interval_begin(struct watch *w)
{
	/* names of the tasks that appeared since (saved_cmdlines) */
	if (w->tep)
		tracefs_load_cmdlines(w->dir, w->tep);
	w->ibest = GPULAT_NONE;
}

static int interval_end(struct watch *w, double elapsed)
{
	memset(&w->iv, 0, sizeof(w->iv));
	w->iv.sz = sizeof(w->iv);
	w->stats = gpulat_session_live_cut(w->s, &w->iv);
	if (!w->stats)
		return -errno;
	w->intervals++;
	print_interval(w, elapsed, stdout);
	check_gates(w, elapsed);
	fflush(stdout);
	return 0;
}

/* ------------------------------------------------------------------------ */

/* the pipeline as for a trace file: filters, statistics, diagnosis (gl-input.c) */
static int new_session(struct watch *w)
{
	struct gpulat_listener l = { .sz = sizeof(l), .job = w_job };
	struct gpulat_session_opts so;

	gl_session_opts(w->o, &so);
	so.msg = w_msg;
	so.msg_data = w;
	w->s = gpulat_session_new(&so);
	if (!w->s) {
		fprintf(stderr, "%s: %s\n", GL_NAME, strerror(errno));
		return -1;
	}
	return gpulat_session_add_listener(w->s, &l, w) < 0 ? -1 : 0;
}

static int setup_reading(struct watch *w)
{
	const char *systems[W_SYSTEMS_MAX];
	struct gpulat_live_opts lo = { .sz = sizeof(lo) };
	int c;

	/* the formats of every system the pipeline reads (xe, i915, drm too) */
	gpulat_session_live_systems(systems, W_SYSTEMS_MAX);
	w->tep = tracefs_local_events_system(w->dir, systems);
	if (!w->tep) {
		fprintf(stderr, "%s: cannot read the event formats in %s/events: %s\n", GL_NAME,
			w->dir, strerror(errno));
		return -1;
	}
	tracefs_load_cmdlines(w->dir, w->tep);
	w->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (w->ncpus < 1)
		w->ncpus = 1;
	w->cpus = calloc((size_t)w->ncpus, sizeof(*w->cpus));
	if (!w->cpus)
		return -1;
	for (c = 0; c < w->ncpus; c++) {
		w->cpus[c].tc = tracefs_cpu_open(w->inst, c, true);
		if (w->cpus[c].tc && !w->page_size)
			w->page_size = tracefs_cpu_read_size(w->cpus[c].tc);
	}
	if (w->page_size <= 0)
		w->page_size = getpagesize();
	w->buf = malloc((size_t)w->page_size);
	if (!w->buf || new_session(w) < 0)
		return -1;
	lo.cpus = w->ncpus;
	lo.page_size = w->page_size;
	if (gpulat_session_live_pages(w->s, w->tep, &lo) < 0) {
		fprintf(stderr, "%s: %s\n", GL_NAME, strerror(ENOMEM));
		return -1;
	}
	return 0;
}

static void teardown(struct watch *w)
{
	int c;
	size_t i;

	/* the per-CPU readers keep the instance busy: close them first */
	for (c = 0; w->cpus && c < w->ncpus; c++) {
		if (w->cpus[c].tc)
			tracefs_cpu_close(w->cpus[c].tc);
		w->cpus[c].tc = NULL;
	}
	instance_stop(w);
	for (c = 0; w->cpus && c < w->ncpus; c++) {
		for (i = 0; w->cpus[c].pages && i < W_PAGES_MAX; i++)
			free(w->cpus[c].pages[i].data);
		free(w->cpus[c].pages);
	}
	free(w->cpus);
	/* the session reads the tep's formats and names: free it first */
	gpulat_session_free(w->s);
	if (w->tep)
		tep_free(w->tep);
	free(w->buf);
}

/*
 * Wait for the next read: a tick (pages), or until stdin is readable but at
 * most until @deadline (text). Return: 1 something to read, 0 not (yet).
 */
static int wait_input(struct watch *w, uint64_t deadline)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	uint64_t now = mono_ns();
	int ms;

	if (!w->text) {
		struct timespec ts = { 0, (long)W_TICK_NS };

		nanosleep(&ts, NULL);
		return 1;
	}
	ms = deadline > now ? (int)((deadline - now + 999999) / 1000000) : 0;
	return poll(&p, 1, ms) > 0;
}

/**
 * gl_watch_main - the whole --watch run
 * @o: parsed options (interval, gates, save dir, filters)
 *
 * Return: the exit code (0, 1, or 3 when a gate was crossed).
 */
int gl_watch_main(const struct gl_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct watch w = { .o = o, .text = o->watch_text };
	uint64_t start, next, now;
	bool ended = false;
	int ret = GL_EXIT_ERROR;

	tracefs_set_loglevel(TEP_LOG_NONE);
	if (!w.text && check_tracefs(&w) < 0)
		return GL_EXIT_ERROR;

	/*
	 * Text: opening blocks until the first lines tell it is an ftrace log;
	 * Ctrl-C meanwhile just ends the program (nothing to clean up yet), so
	 * the handlers come after it.
	 */
	if (w.text && (new_session(&w) < 0 ||
		       gpulat_session_live_text(w.s, STDIN_FILENO, "(stdin)", NULL) < 0))
		goto out;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (w.text) {
		printf("watching GPU jobs (text log on stdin); summary every %.3g s%s\n",
		       (double)o->interval_ns / 1e9,
		       o->duration_ns ? "" : ", until its end or Ctrl-C");
	} else {
		if (instance_start(&w) < 0 || setup_reading(&w) < 0)
			goto out;
		if (tracefs_trace_on(w.inst) < 0) {
			fprintf(stderr, "%s: cannot turn tracing on in the instance %s: %s\n",
				GL_NAME, w.name, strerror(errno));
			goto out;
		}
		printf("watching GPU jobs (tracefs instance %s, %s era events); summary every "
		       "%.3g s%s\n",
		       w.name, gpulat_era_name(gpulat_session_era(w.s)),
		       (double)o->interval_ns / 1e9, o->duration_ns ? "" : ", Ctrl-C to stop");
	}
	fflush(stdout);
	interval_begin(&w);

	start = mono_ns();
	next = start + o->interval_ns;
	while (!w_stop) {
		int n = wait_input(&w, next);

		if (w.text && n) {
			n = gpulat_session_live_read(w.s);
			if (n < 0)
				goto out;
			ended = n == 0;
		} else if (!w.text && (n = read_all(&w)) < 0) {
			if (!w.failed)
				fprintf(stderr, "%s: %s\n", GL_NAME, strerror(-n));
			goto out;
		}
		now = mono_ns();
		if (now >= next || w_stop || ended ||
		    (o->duration_ns && now - start >= o->duration_ns)) {
			if (interval_end(&w, (double)(now - start) / 1e9) < 0) {
				fprintf(stderr, "%s: %s\n", GL_NAME, strerror(ENOMEM));
				goto out;
			}
			interval_begin(&w);
			next += o->interval_ns;
			if (next < now)
				next = now + o->interval_ns;
		}
		if (ended || (o->duration_ns && now - start >= o->duration_ns))
			break;
	}
	{
		struct gpulat_session_counts c = { .sz = sizeof(c) };

		gpulat_session_counts(w.s, &c);
		printf("stopped %safter %u intervals: %llu jobs, %u alert%s%s\n",
		       ended ? "at the end of the log " : "", w.intervals,
		       (unsigned long long)c.jobs, w.alerts, w.alerts == 1 ? "" : "s",
		       w.saved ? " (traces saved)" : "");
	}
	ret = w.alerts ? GL_EXIT_GATE : GL_EXIT_OK;
 out:
	fflush(stdout);
	teardown(&w);
	return ret;
}
