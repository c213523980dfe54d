// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader: trace.dat files -> binding -> tracker, with clear one-line errors.
 *
 * read-merge.c merges the CPUs (and several files) in time order; each record
 * is decoded through the file's own binding and fed to the tracker. Nothing is
 * kept per record: memory is O(jobs in flight) plus a bounded window of the
 * file that libtracecmd holds (read-merge.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gpulat-session.h"
#include "bounds-int.h"
#include "read-int.h"

static const char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

static void seterr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static void rwarn(struct gpulat_reader *r, const char *msg)
{
	if (r->warn)
		r->warn(msg, r->warn_data);
}

/* binding warnings, prefixed with the file name; kept until a callback is set */
static void bind_warn(const char *msg, void *data)
{
	struct rfile *f = data;
	char line[512];

	if (!f->first_warn[0])
		snprintf(f->first_warn, sizeof(f->first_warn), "%s", msg);
	snprintf(line, sizeof(line), "%s: %s", f->path, msg);
	if (f->r->warn)
		rwarn(f->r, line);
	else if (f->nkept < (int)GPULAT_ARRAY_SIZE(f->kept) && (f->kept[f->nkept] = strdup(line)))
		f->nkept++;
}

/* Is @path readable and a trace-cmd data file? 0 or -errno with @err set. */
static int check_file(struct rfile *f, char *err, size_t errlen)
{
	const char *path = f->path;
	char magic[sizeof(trace_magic)];
	struct stat st;
	FILE *fp;
	size_t got;

	if (stat(path, &st)) {
		int e = errno;

		seterr(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		seterr(err, errlen, "%s: is a directory, not a trace-cmd data file", path);
		return -EISDIR;
	}
	f->size = (uint64_t)st.st_size;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	fp = fopen(path, "rb");
	if (!fp) {
		int e = errno;

		seterr(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	got = fread(magic, 1, sizeof(magic), fp);
	fclose(fp);
	if (got == 0) {
		seterr(err, errlen, "%s: empty file, not a trace-cmd data file", path);
		return -EINVAL;
	}
	if (got < sizeof(magic) || memcmp(magic, trace_magic, sizeof(magic))) {
		seterr(err, errlen, "%s: not a trace-cmd data file", path);
		return -EINVAL;
	}
	return 0;
}

double gpulat__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void close_file(struct rfile *f)
{
	gpulat_binding_free(f->b);
	f->b = NULL;
	/* tracecmd_close() and the unmapping of what it leaves (read-unmap.c) */
	if (f->dh && f->dh != f->h)
		gpulat__maps_close(f->dmaps, f, f->dh);
	f->dh = NULL;
	gpulat__zfile_close(f->z);
	f->z = NULL;
	/* a handle of headers only has no records to peek (tracecmd_peek_data()) */
	if (f->h_data)
		gpulat__maps_close(f->hmaps, f, f->h);
	else if (f->h)
		tracecmd_close(f->h);
	f->h = NULL;
	f->h_data = false;
	gpulat__maps_free(f->hmaps);
	gpulat__maps_free(f->dmaps);
	f->hmaps = f->dmaps = NULL;
	free(f->span);
	f->span = NULL;
	free(f->zwhy);
	f->zwhy = NULL;
	free(f->cpu_last);
	f->cpu_last = NULL;
	while (f->nkept > 0)
		free(f->kept[--f->nkept]);
}

/**
 * open_trace - open a trace.dat with libtracecmd: headers, then CPU data
 * @path: the file
 * @flags: TRACECMD_FL_*
 * @stage: if not NULL, set on failure: 1 headers, 2 CPU data
 *
 * libtracecmd 1.3 crashes when it closes a handle whose data failed to load
 * (truncated file), so such a handle is deliberately leaked rather than
 * closed.
 *
 * Return: the handle, or NULL.
 */
static struct tracecmd_input *open_trace(const char *path, int flags, int *stage)
{
	struct tracecmd_input *h;

	h = tracecmd_open_head(path, flags);
	if (!h) {
		if (stage)
			*stage = 1;
		return NULL;
	}
	if (tracecmd_init_data(h) < 0) {
		if (stage)
			*stage = 2;
		return NULL;
	}
	return h;
}

/* the data handles of read-merge.c's reopens: headers and CPU data, no plugins */
struct tracecmd_input *gpulat__open_trace(const char *path)
{
	return open_trace(path, TRACECMD_FL_LOAD_NO_PLUGINS, NULL);
}

/**
 * gpulat_trace_open - open a trace.dat with libtracecmd, safely
 * @path: the file
 * @flags: TRACECMD_FL_* for tracecmd_open_head()
 * @err: one-line error naming the file
 * @errlen: its size
 *
 * What gpulat_reader_open() does before it trusts a file: the magic, the
 * structure checks of read-check.c, then headers and CPU data, never closing
 * a handle whose data failed to load (libtracecmd 1.3 crashes doing so).
 *
 * Return: the handle (close it with tracecmd_close()), or NULL.
 */
struct tracecmd_input *gpulat_trace_open(const char *path, int flags, char *err, size_t errlen)
{
	struct tracecmd_input *h;
	struct rfile f = { .path = path };
	char why[160];
	int stage;

	if (check_file(&f, err, errlen))
		return NULL;
	if (gpulat__check_trace(path, why, sizeof(why), NULL, NULL, NULL)) {
		seterr(err, errlen, "%s: truncated or damaged trace-cmd data file (%s)", path, why);
		return NULL;
	}
	h = open_trace(path, flags, &stage);
	if (!h)
		seterr(err, errlen, "%s: truncated or damaged trace-cmd data file (%s)", path,
		       stage == 1 ? "cannot read its headers" : "CPU data missing or cut short");
	return h;
}

/*
 * libtracecmd's CPU data of @f (tracecmd_init_data()), set up only when
 * libtracecmd reads the records: read-zstd.c declined the file. It grows
 * with the trace, 8 bytes a ring-buffer page and for a zstd file 24 bytes a
 * chunk (libtracecmd 1.3.1 init_cpu(), init_cpu_zpage()): 6.5 of the 16.6 MB
 * of heap on the cpus64 shape at 50 M events, the whole of its growth from
 * 5 M (bench/HISTORY.md, issue 20 thirteenth session).
 * Return: 0, or -1 with f->h leaked (a handle whose data failed to load
 * cannot be closed, open_trace()) and what it mapped unmapped (F3).
 */
static int open_data(struct rfile *f)
{
	/* v6: the file's mappings before libtracecmd maps its first pages (F12) */
	struct gpulat__snap *snap = gpulat__maps_snap(f);

	if (tracecmd_init_data(f->h) < 0) {
		gpulat__maps_drop_new(f, snap);
		f->h = NULL;
		return -1;
	}
	f->dh = f->h;
	f->h_data = true;
	gpulat__maps_adopt(f->hmaps, f, snap);	/* takes @snap */
	return 0;
}

/*
 * v6: libtracecmd parses the TRACECLOCK option's text at open, then (in
 * tracecmd_init_data(), init_data_v6()) the "[clock]" saved after the CPU
 * table. An option without text (trace-cmd record could not read tracefs'
 * trace_clock) leaves the clock to the second: libtracecmd loads the data.
 */
static bool v6_clock_in_data(struct rfile *f)
{
	return f->span && tracecmd_get_use_trace_clock(f->h) && !tracecmd_get_trace_clock(f->h);
}

static int open_file(struct rfile *f, char *err, size_t errlen)
{
	char why[160];
	double t0;
	int ret;

	ret = check_file(f, err, errlen);
	if (ret)
		return ret;
	/* counts, sizes, formats and pages before libtracecmd trusts them (read-check.c) */
	if (gpulat__check_trace(f->path, why, sizeof(why), &f->span, &f->nspan, &f->shifts)) {
		seterr(err, errlen, "%s: truncated or damaged trace-cmd data file (%s)", f->path, why);
		return -EINVAL;
	}
	t0 = gpulat__now();
	f->h = tracecmd_open_head(f->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!f->h) {
		seterr(err, errlen,
		       "%s: truncated or damaged trace-cmd data file (cannot read its headers)",
		       f->path);
		return -EINVAL;
	}
	f->page_size = tracecmd_page_size(f->h);
	f->tep = tracecmd_get_tep(f->h);
	f->cpus = tracecmd_cpus(f->h);
	/* v6: libtracecmd's page maps, unmapped at close (read-unmap.c, F12) */
	f->hmaps = gpulat__maps_new(f);
	f->dmaps = gpulat__maps_new(f);
	/* the headers are enough for read-zstd.c; libtracecmd's data only without it */
	if (f->tep && f->cpus > 0 && !v6_clock_in_data(f))
		gpulat__reader_try_zstd(f);
	if (!f->z && open_data(f)) {
		seterr(err, errlen,
		       "%s: truncated or damaged trace-cmd data file (CPU data missing or cut short)",
		       f->path);
		return -EINVAL;
	}
	f->opened_at = gpulat__now();
	f->open_cost = f->opened_at - t0;
	if (!f->tep || f->cpus <= 0) {
		seterr(err, errlen, "%s: truncated or damaged trace-cmd data file (no CPU data)",
		       f->path);
		return -EINVAL;
	}
	f->cpu_last = calloc(f->cpus, sizeof(*f->cpu_last));
	f->b = gpulat_binding_new(f->tep);
	if (!f->cpu_last || !f->b) {
		seterr(err, errlen, "%s: out of memory", f->path);
		return -ENOMEM;
	}
	gpulat_binding_set_warn(f->b, bind_warn, f);
	f->era = gpulat_binding_era(f->b);
	if (f->era != GPULAT_ERA_NONE &&
	    !gpulat_binding_has(f->b, GPULAT_EV_QUEUE) && !gpulat_binding_has(f->b, GPULAT_EV_DONE) &&
	    !gpulat_binding_has(f->b, GPULAT_EV_AMD_CS) && !gpulat_binding_has(f->b, GPULAT_EV_AMD_RUN) &&
	    !gpulat_binding_has(f->b, GPULAT_EV_I915_ADD)) {
		seterr(err, errlen, "%s: GPU scheduler events present but their layout is unknown (%s)",
		       f->path, f->first_warn[0] ? f->first_warn : "no usable field");
		return -EPROTO;
	}
	return 0;
}

/**
 * gpulat_reader_open - open and validate trace.dat files
 * @paths: file names
 * @n: how many (>= 1)
 * @err: one-line error naming the file and the problem
 * @errlen: size of @err
 *
 * Return: the reader, or NULL with errno set and @err filled.
 */
struct gpulat_reader *gpulat_reader_open(const char **paths, int n, char *err, size_t errlen)
{
	struct gpulat_reader *r;
	int i, ret, base = 0;
	const char *env;

	if (!paths || n < 1) {
		seterr(err, errlen, "no trace file given");
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		goto nomem;
	r->f = calloc(n, sizeof(*r->f));
	if (!r->f)
		goto nomem;
	r->n = n;
	r->first_ts = r->last_ts = GPULAT_NONE;
	r->reopen_bytes = GPULAT_REOPEN_BYTES;
	env = getenv("GPULAT_REOPEN_BYTES");
	if (env && *env) {
		r->reopen_bytes = strtoull(env, NULL, 0);
		r->reopen_forced = true;
	}
	for (i = 0; i < n; i++) {
		struct rfile *f = &r->f[i];

		f->r = r;
		f->idx = i;
		f->path = paths[i];
		ret = open_file(f, err, errlen);
		if (ret) {
			gpulat_reader_close(r);
			errno = -ret;
			return NULL;
		}
		f->cpu_base = base;
		base += f->cpus;
		if (f->era != GPULAT_ERA_NONE && r->era == GPULAT_ERA_NONE)
			r->era = f->era;
		if (gpulat_binding_has(f->b, GPULAT_EV_FENCE_SIGNALED))
			r->signals = true;
	}
	if (r->era == GPULAT_ERA_NONE) {
		char ev[128];
		const char *drv = NULL;

		for (i = 0; i < n && !drv; i++)
			drv = gpulat__unmodelled_driver(r->f[i].tep, ev, sizeof(ev));
		if (drv) {
			/* one line: which driver, what is supported, what to record */
			seterr(err, errlen,
			       "%s: only %s driver events (%s ...), no GPU scheduler job events; "
			       "jobs come from gpu_scheduler events (every drm_sched driver: amdgpu, "
			       "msm, v3d, xe, nouveau, panfrost, panthor, lima, etnaviv), amdgpu "
			       "cs_ioctl/sched_run_job or i915 requests; record them with: "
			       "(Linux %s) %s ; (Linux %s) %s",
			       n == 1 ? paths[0] : "(all files)", drv, ev,
			       gpulat_era_kernels(GPULAT_ERA_V617),
			       gpulat_record_line(GPULAT_ERA_V617),
			       gpulat_era_kernels(GPULAT_ERA_V519),
			       gpulat_record_line(GPULAT_ERA_V519));
			gpulat_reader_close(r);
			errno = ENODATA;
			return NULL;
		}
		seterr(err, errlen,
		       "%s: no GPU scheduler events in this trace; record them with: "
		       "(Linux %s) %s ; (Linux %s) %s", n == 1 ? paths[0] : "(all files)",
		       gpulat_era_kernels(GPULAT_ERA_V617), gpulat_record_line(GPULAT_ERA_V617),
		       gpulat_era_kernels(GPULAT_ERA_V519), gpulat_record_line(GPULAT_ERA_V519));
		gpulat_reader_close(r);
		errno = ENODATA;
		return NULL;
	}
	return r;
nomem:
	if (r)
		free(r->f);
	free(r);
	seterr(err, errlen, "out of memory");
	errno = ENOMEM;
	return NULL;
}

/**
 * gpulat_reader_close - close every file and free the reader
 * @r: reader, may be NULL
 */
void gpulat_reader_close(struct gpulat_reader *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		close_file(&r->f[i]);
	free(r->f);
	free(r);
}

/**
 * gpulat_reader_set_warn - where warnings go during gpulat_reader_run()
 * @r: reader
 * @fn: callback (one line, names the file)
 * @data: its argument
 */
void gpulat_reader_set_warn(struct gpulat_reader *r, gpulat_warn_fn fn, void *data)
{
	int i, k;

	r->warn = fn;
	r->warn_data = data;
	for (i = 0; fn && i < r->n; i++) {
		for (k = 0; k < r->f[i].nkept; k++) {
			fn(r->f[i].kept[k], data);
			free(r->f[i].kept[k]);
		}
		r->f[i].nkept = 0;
	}
}

/* a lost-events window on tracker cpu @tcpu from @from to @rec */
void gpulat__reader_lost(struct gpulat_reader *r, int tcpu, uint64_t from,
			 const struct tep_record *rec)
{
	uint64_t count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;

	r->c.lost_events += count;
	r->c.lost_gaps++;
	if (r->t)
		gpulat_tracker_lost_range(r->t, tcpu, from, rec->ts, count);
}

/* @ev of @rec, decoded: counts, tracker, hook (read-par.c: decoded on its threads) */
static inline int reader_fed(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec,
			     struct gpulat_event *ev, int tcpu)
{
	int ret;

	ev->cpu = tcpu;
	ev->file = f->idx;
	r->c.kind[ev->kind]++;
	if (gpulat__is_gpu_kind(ev->kind))
		r->c.gpu_events++;
	if (r->t) {
		ret = gpulat_tracker_feed(r->t, ev);
		if (ret < 0) {
			r->stop = ret;
			return ret;
		}
	}
	if (r->hook) {
		ret = r->hook(ev, rec, f->idx, r->hook_data);
		if (ret < 0) {
			r->stop = ret;
			return ret;
		}
	}
	return 0;
}

/*
 * inlined into gpulat__reader_record(), the per-record path of every file
 * (a call, 17 instructions of a record: shape-dense 200k events, callgrind)
 */
static inline int reader_event(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec,
			       int tcpu)
{
	struct gpulat_event ev;
	int ret;

	/* a length beyond the record's page is damage: never decoded (bounds.c) */
	ret = gpulat__record_bytes(rec, f->page_size) ? gpulat_binding_decode(f->b, rec, &ev) : -1;
	if (ret < 0) {
		r->c.damaged++;
		return 0;
	}
	if (ret == 0)
		return 0;
	return reader_fed(r, f, rec, &ev, tcpu);
}

int gpulat__reader_event(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec, int tcpu)
{
	return reader_event(r, f, rec, tcpu);
}

int gpulat__reader_decoded(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec,
			   struct gpulat_event *ev, int tcpu)
{
	return reader_fed(r, f, rec, ev, tcpu);
}

int gpulat__reader_record(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec)
{
	uint64_t from;
	int tcpu;

	r->c.events++;
	gpulat__span_see(&r->first_ts, &r->last_ts, rec->ts);
	tcpu = f->cpu_base + rec->cpu;

	if (rec->missed_events) {
		from = (rec->cpu >= 0 && rec->cpu < f->cpus) ? f->cpu_last[rec->cpu] : 0;
		gpulat__reader_lost(r, tcpu, from, rec);
	}
	if (rec->cpu >= 0 && rec->cpu < f->cpus)
		f->cpu_last[rec->cpu] = rec->ts;
	return reader_event(r, f, rec, tcpu);
}

/**
 * gpulat_reader_run - iterate every record of every file, merged in time order
 * @r: reader
 * @t: tracker fed with every event (may be NULL); flushed at the end
 * @hook: optional per-event hook
 * @data: its argument
 * @err: one-line error on failure (may be NULL)
 * @errlen: its size
 *
 * Return: 0, a negative errno, or the hook's negative return.
 */
int gpulat_reader_run(struct gpulat_reader *r, struct gpulat_tracker *t,
		      gpulat_reader_hook_fn hook, void *data, char *err, size_t errlen)
{
	char line[256];
	int i, ret;

	if (r->ran) {
		seterr(err, errlen, "%s: the reader was already run", r->f[0].path);
		return -EALREADY;
	}
	r->ran = true;
	r->t = t;
	r->hook = hook;
	r->hook_data = data;
	if (t) {
		gpulat_tracker_set_era(t, r->era);
		gpulat_tracker_set_signal_expected(t, r->signals);
	}
	for (i = 1; i < r->n; i++) {
		if (r->f[i].era != GPULAT_ERA_NONE && r->f[i].era != r->era) {
			snprintf(line, sizeof(line), "%s: GPU events of era %s, %s has %s; linking as %s",
				 r->f[i].path, gpulat_era_name(r->f[i].era), r->f[0].path,
				 gpulat_era_name(r->era), gpulat_era_name(r->era));
			rwarn(r, line);
		}
	}

	ret = gpulat__reader_merge(r);
	if (r->stop < 0) {
		seterr(err, errlen, "%s: stopped: %s", r->f[0].path, strerror(-r->stop));
		return r->stop;
	}
	if (ret == -ELOOP && r->looped) {
		seterr(err, errlen,
		       "%s: truncated or damaged trace-cmd data file (a CPU's records run back on their page)",
		       r->looped);
		return ret;
	}
	for (i = 0; ret == -EIO && i < r->n; i++) {
		if (r->f[i].zwhy) {
			seterr(err, errlen, "%s: truncated or damaged trace-cmd data file (%s)",
			       r->f[i].path, r->f[i].zwhy);
			return ret;
		}
	}
	if (ret == -EIO) {
		seterr(err, errlen,
		       "%s: truncated or damaged trace-cmd data file (compressed CPU data damaged or cut short)",
		       r->zfailed ? r->zfailed : r->f[0].path);
		return ret;
	}
	if (ret < 0) {
		seterr(err, errlen, "%s: %s", r->f[0].path, strerror(-ret));
		return ret;
	}
	if (t)
		gpulat_tracker_flush(t, r->last_ts == GPULAT_NONE ? 0 : r->last_ts);
	if (r->c.damaged) {
		snprintf(line, sizeof(line), "%s: %llu damaged GPU records skipped", r->f[0].path,
			 (unsigned long long)r->c.damaged);
		rwarn(r, line);
	}
	return 0;
}

/**
 * gpulat_reader_set_threads - read with @n threads (-j N for one report)
 * @r: reader, before gpulat_reader_run()
 * @n: threads decoding; 0 or 1: the calling thread alone
 *
 * Only files read-zstd.c reads (zstd-compressed, trace-cmd's default) are
 * shared among threads (lib/read-par.c); when a file is not, every file is
 * read on the calling thread. Events reach the tracker and the hook on the
 * calling thread, in the same order as with one thread.
 */
void gpulat_reader_set_threads(struct gpulat_reader *r, unsigned int n)
{
	r->threads = n;
}

/*
 * whether the hook reads the records' data (default: yes); without, -j N
 * hands it the decoded events with records that have no data (read-par.c)
 */
void gpulat__reader_set_records(struct gpulat_reader *r, bool records)
{
	r->no_records = !records;
}

/**
 * gpulat_reader_threads - threads the run decoded with
 * @r: reader
 *
 * Return: 1 for the calling thread alone, 0 before gpulat_reader_run().
 */
unsigned int gpulat_reader_threads(const struct gpulat_reader *r)
{
	return r->threads_used;
}

/**
 * gpulat_reader_counts - event counts of the run
 * @r: reader
 * @c: filled
 */
void gpulat_reader_counts(const struct gpulat_reader *r, struct gpulat_reader_counts *c)
{
	*c = r->c;
}

/**
 * gpulat_reader_span - first and last timestamp of any record
 * @r: reader
 * @first_ts: filled (GPULAT_NONE if no record)
 * @last_ts: filled (GPULAT_NONE if no record)
 */
void gpulat_reader_span(const struct gpulat_reader *r, uint64_t *first_ts, uint64_t *last_ts)
{
	if (first_ts)
		*first_ts = r->first_ts;
	if (last_ts)
		*last_ts = r->last_ts;
}

/**
 * gpulat_reader_era - era of the first file with GPU events
 * @r: reader
 *
 * Return: the era.
 */
enum gpulat_era gpulat_reader_era(const struct gpulat_reader *r)
{
	return r->era;
}

/**
 * gpulat_reader_has_signals - whether dma_fence_signaled is in the trace
 * @r: reader
 *
 * Return: true if some file has a bound (dma_)fence_signaled event.
 */
bool gpulat_reader_has_signals(const struct gpulat_reader *r)
{
	return r->signals;
}

/**
 * gpulat_reader_nfiles - number of files
 * @r: reader
 *
 * Return: the count.
 */
int gpulat_reader_nfiles(const struct gpulat_reader *r)
{
	return r->n;
}

/**
 * gpulat_reader_cpus - CPUs of one file, or of all files
 * @r: reader
 * @file: index, or < 0 for the sum
 *
 * Return: the count, -EINVAL for a bad index.
 */
int gpulat_reader_cpus(const struct gpulat_reader *r, int file)
{
	int i, n = 0;

	if (file >= r->n)
		return -EINVAL;
	if (file >= 0)
		return r->f[file].cpus;
	for (i = 0; i < r->n; i++)
		n += r->f[i].cpus;
	return n;
}

/**
 * gpulat_reader_cpu_base - tracker cpu number of cpu 0 of @file
 * @r: reader
 * @file: index
 *
 * Return: the base (0 for the first file), -EINVAL for a bad index.
 */
int gpulat_reader_cpu_base(const struct gpulat_reader *r, int file)
{
	if (file < 0 || file >= r->n)
		return -EINVAL;
	return r->f[file].cpu_base;
}

/**
 * gpulat_reader_tep - the tep handle of a file
 * @r: reader
 * @file: index
 *
 * Return: the handle (owned by the reader), NULL for a bad index.
 */
struct tep_handle *gpulat_reader_tep(const struct gpulat_reader *r, int file)
{
	if (file < 0 || file >= r->n)
		return NULL;
	return r->f[file].tep;
}

/**
 * gpulat_reader_binding - the binding of a file
 * @r: reader
 * @file: index
 *
 * Return: the binding (owned by the reader), NULL for a bad index.
 */
struct gpulat_binding *gpulat_reader_binding(const struct gpulat_reader *r, int file)
{
	if (file < 0 || file >= r->n)
		return NULL;
	return r->f[file].b;
}

/**
 * gpulat_reader_path - the path of a file as given to gpulat_reader_open()
 * @r: reader
 * @file: index
 *
 * Return: the path, NULL for a bad index.
 */
/*
 * The clock the records' timestamps come from ("local", "global", "mono",
 * "boot", ...), as trace-cmd recorded it; NULL when the file does not say.
 * Frames analysis: drm_vblank_event `time` is CLOCK_MONOTONIC, comparable
 * with the record timestamps only when this is "mono".
 */
const char *gpulat_reader_trace_clock(const struct gpulat_reader *r, int file)
{
	if (file < 0 || file >= r->n || !r->f[file].h)
		return NULL;
	return tracecmd_get_trace_clock(r->f[file].h);
}

const char *gpulat_reader_path(const struct gpulat_reader *r, int file)
{
	if (file < 0 || file >= r->n)
		return NULL;
	return r->f[file].path;
}
