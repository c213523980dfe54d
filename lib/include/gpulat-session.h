/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat session: the whole pipeline (binding, tracker, filter, statistics,
 * diagnosis) configured once from the trace itself and fed by one input.
 *
 *   struct gpulat_session_opts o;
 *   gpulat_session_opts_init(&o);              defaults, o.sz set
 *   o.top_n = 5; o.features = GPULAT_FEAT_EXPLAIN; o.msg = my_msg;
 *   s = gpulat_session_new(&o);
 *   gpulat_session_add_listener(s, &my_listener, my_data);
 *
 *   trace.dat files:     gpulat_session_add_file(s, path); gpulat_session_run(s);
 *   a host's records:    gpulat_session_attach_tep(s, tep);
 *                        for each record, in time order:
 *                            gpulat_session_push(s, rec, host_ref);
 *                            job = gpulat_session_last_job(s);
 *                        gpulat_session_finish(s);
 *
 *   results:             gpulat_session_stats(s), gpulat_session_diag(s),
 *                        gpulat_session_counts(s, &c), gpulat_session_kept(s, i)
 *   gpulat_session_free(s);
 *
 * Nobody sets the era, whether finished-fence signals link, or whether the
 * irq/sched/power context is decoded: the session reads the era from the
 * event formats present, expects signals when dma_fence_signaled is there and
 * decodes context events only when a feature (or a listener) asks for them.
 *
 * Errors: every function returns a negative errno (or NULL with errno set);
 * the text goes to ONE callback, opts.msg, as a one-line message naming the
 * file and the problem (GPULAT_MSG_ERROR), possibly followed by a hint
 * (GPULAT_MSG_HINT, e.g. the `trace-cmd record` lines). Warnings are
 * GPULAT_MSG_WARN. Without a callback, messages are dropped.
 *
 * Strings: every string a session hands out (job and group names, paths,
 * messages during the callback) stays valid until gpulat_session_free();
 * strings in the opts are copied by gpulat_session_new().
 *
 * ABI: the opts and counts structures are sized (libbpf style): a caller
 * built against an older, shorter structure keeps working, fields it does not
 * know take their defaults.
 */
#ifndef _GPULAT_SESSION_H
#define _GPULAT_SESSION_H

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpulat_session;
struct gpulat_diag;

/* ------------------------------------------------------------------------ */
/* Messages and the recommended recording                                     */

enum gpulat_msg_level {
	GPULAT_MSG_ERROR = 0,	/* one line: FILE: problem; the call fails */
	GPULAT_MSG_WARN,	/* one line: the report is still produced */
	GPULAT_MSG_HINT,	/* lines (indented, '\n'-terminated) after an error: the fix */
};

typedef void (*gpulat_msg_fn)(enum gpulat_msg_level level, const char *text, void *data);

/*
 * The `trace-cmd record` line that records what gpulat needs on kernels of
 * @era, ending in " COMMAND"; GPULAT_ERA_NONE: a line for any era. The one
 * place these lines exist (errors, --help, README and man page use it).
 */
const char *gpulat_record_line(enum gpulat_era era);
/* the options to add to a record line for --frames (drm vblank events, -C mono) */
const char *gpulat_record_frames(void);
/* "6.17+", "5.7-6.16", "4.16-5.6", "any era": the kernels @era stands for */
const char *gpulat_era_kernels(enum gpulat_era era);
/*
 * The hint printed when a trace has no GPU events: a header line, one line
 * per era and the additions for amdgpu, --explain and --frames, each
 * indented and '\n'-terminated. snprintf() semantics. --help, the README
 * and the man page show this text (tests/tools/check_record_hint.py).
 */
size_t gpulat_record_hint(char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Options                                                                    */

/* opts.features */
enum {
	GPULAT_FEAT_EXPLAIN	= 1 << 0,	/* diagnosis: hints for worst jobs and stalls */
	GPULAT_FEAT_FENCE_PATH	= 1 << 1,	/* diagnosis: irq -> done -> signal -> wait_end */
	GPULAT_FEAT_CONTEXT	= 1 << 2,	/* decode irq/sched/power events for listeners */
	/*
	 * A job is final at its done event: the finished-fence signal is not
	 * waited for (hosts that print record by record, e.g. the libtraceevent
	 * plugin, need the job at the done line).
	 */
	GPULAT_FEAT_EMIT_AT_DONE = 1 << 3,
	GPULAT_FEAT_NO_STATS	= 1 << 4,	/* no statistics (a host that only links jobs) */
};

/**
 * struct gpulat_session_opts - everything a session is configured with
 * @sz: sizeof(struct gpulat_session_opts) as the caller knows it
 *	(gpulat_session_opts_init() sets it)
 *
 * Filters (@devs ... @end_ns) apply to finished jobs, after linking: a job
 * filtered out still counts in the ring FIFO (start_ts) of the others. Each
 * list matches when empty or when one entry equals the job's value. A job is
 * placed in time at its first seen stage for @start_ns / @end_ns (0 and
 * UINT64_MAX mean no limit for @end_ns).
 */
struct gpulat_session_opts {
	size_t		sz;
	/* filters */
	const char * const *devs;
	size_t		n_devs;
	const char * const *rings;
	size_t		n_rings;
	const char * const *comms;
	size_t		n_comms;
	const int	*pids;
	size_t		n_pids;
	uint64_t	start_ns;
	uint64_t	end_ns;
	/* statistics */
	uint64_t	stall_threshold_ns;	/* default 16666667 (one 60 Hz frame) */
	unsigned int	top_n;			/* worst jobs, kept incomplete jobs; default 10 */
	enum gpulat_metric worst_by;		/* default GPULAT_M_TOTAL */
	/* features */
	unsigned int	features;		/* GPULAT_FEAT_* */
	int		gpu_irq;		/* diagnosis: GPU irq number, -1 = choose */
	const char	*gpu_irq_name;		/* or its irq_handler_entry name */
	/* the error channel */
	gpulat_msg_fn	msg;
	void		*msg_data;
	/* trace.dat input: threads decoding zstd files (lib/read-par.c); 0, 1: one */
	unsigned int	threads;
};

void gpulat_session_opts_init_sz(struct gpulat_session_opts *o, size_t sz);
/* defaults for every field, o->sz = sizeof(*o) as compiled by the caller */
#define gpulat_session_opts_init(o)	gpulat_session_opts_init_sz((o), sizeof(*(o)))

/* ------------------------------------------------------------------------ */
/* Listeners                                                                  */

/**
 * struct gpulat_listener - what a front end or exporter receives
 * @sz: sizeof(struct gpulat_listener) as the caller knows it
 * @event: every decoded event of ours, in time order, after the tracker saw
 *	it; @rec is NULL for input that is not binary (text logs), @file the
 *	index of the input (0 for pushed records). Context kinds (irq, sched,
 *	power) only with GPULAT_FEAT_CONTEXT or a diagnosis feature.
 * @job: every finished job that passes the filters (the structure and its
 *	deps are valid during the call only; its strings until the session is freed)
 * @stall: every stall the statistics detect (submit gap, ring idle), when
 *	detected (not necessarily in time order)
 * @finish: end of input, after statistics and diagnosis are final
 * @kinds: the event kinds @event is called for, a mask of 1ULL << kind
 *	(GPULAT_LISTEN_KIND()); 0 = every kind. A listener that wants a few
 *	kinds saves a call per event (the frames listener: 5 of 52 kinds)
 * @flags: GPULAT_LISTEN_NO_RECORD: @event never reads @rec's data (@rec may
 *	then be NULL, or have no data); when no listener reads records (and no
 *	diagnosis runs), -j N does not copy them between threads
 *
 * Every callback may be NULL. A negative return stops the input: the
 * run/push/finish call returns it.
 */
struct gpulat_listener {
	size_t	sz;
	int	(*event)(const struct gpulat_event *ev, struct tep_record *rec, int file,
			 void *data);
	int	(*job)(const struct gpulat_job *job, void *data);
	int	(*stall)(const struct gpulat_stall *st, void *data);
	int	(*finish)(struct gpulat_session *s, void *data);
	uint64_t kinds;
	uint64_t flags;
};

#define GPULAT_LISTEN_KIND(k)	(1ULL << (k))
#define GPULAT_LISTEN_NO_RECORD	(1ULL << 0)

/* ------------------------------------------------------------------------ */
/* Life cycle                                                                 */

/* Return: a session, or NULL with errno set (EINVAL: bad opts, ENOMEM) */
struct gpulat_session *gpulat_session_new(const struct gpulat_session_opts *o);
void gpulat_session_free(struct gpulat_session *s);

/* @l is copied; listeners are called in the order added. 0 or -errno. */
int gpulat_session_add_listener(struct gpulat_session *s, const struct gpulat_listener *l,
				void *data);

/* ------------------------------------------------------------------------ */
/* Input 1: trace.dat files                                                   */

/*
 * Several files are merged in time order; their jobs never link across
 * files. Return: 0 or -errno (-EBUSY once a run or push began).
 */
int gpulat_session_add_file(struct gpulat_session *s, const char *path);

/**
 * gpulat_session_run - open, check and read every file, then finish
 *
 * Errors (one line naming the file through opts.msg, then hints): missing or
 * damaged file, not a trace-cmd data file, empty trace, no GPU events (with
 * the record lines of gpulat_record_hint()), files of incompatible eras.
 *
 * Return: 0, a negative errno, or a listener's negative return.
 */
int gpulat_session_run(struct gpulat_session *s);

/* ------------------------------------------------------------------------ */
/* Input 2: records pushed by a host (libtraceevent plugin, KernelShark)      */

/*
 * The host's tep handle (must outlive the session): binds the events, finds
 * the era and whether signals link. Return: 0 or -errno.
 */
int gpulat_session_attach_tep(struct gpulat_session *s, struct tep_handle *tep);

/**
 * gpulat_session_push - one record of the attached tep, in time order
 * @host_ref: opaque, copied into gpulat_job.ref[stage] of the stage this
 *	record is (e.g. the host's entry of the record), NULL if unused
 *
 * rec->missed_events marks lost events before the record on its CPU.
 *
 * Return: 1 when the record was one of ours and was fed (the job it belongs
 * to is gpulat_session_last_job()), 0 when it is not one of ours (or
 * damaged: counted and warned once), a negative errno or a listener's return.
 */
int gpulat_session_push(struct gpulat_session *s, struct tep_record *rec, void *host_ref);

/**
 * struct gpulat_host_rec - a record of a batch (gpulat_session_push_many())
 *
 * An array element: the size is passed with the array, so that members added
 * at the end keep old hosts working.
 */
struct gpulat_host_rec {
	/** Copied into gpulat_job.ref[stage] (as gpulat_session_push()'s host_ref). */
	void		*ref;
	/** The payload (tep_record.data); NULL: not a record, skipped. */
	const void	*data;
	/** Its time (tep_record.ts). */
	uint64_t	ts;
	/** Payload bytes (tep_record.size), checked against the file's page size. */
	int		size;
	/** Its CPU. */
	int		cpu;
};

/**
 * gpulat_session_push_many - records of the attached tep, in time order
 * @recs: @n records, each @rec_sz bytes apart (sizeof(struct gpulat_host_rec))
 *
 * What gpulat_session_push() does for each record, without lost events
 * (gpulat_session_lost() says them, between two batches). For hosts that
 * keep records to link later (KernelShark): one call for a run of them.
 * gpulat_session_last_job() / _last_event() are the last record's.
 *
 * Return: the number of records that were ours and fed, a negative errno or
 * a listener's return.
 */
int gpulat_session_push_many(struct gpulat_session *s, const struct gpulat_host_rec *recs, size_t n,
			     size_t rec_sz);

/*
 * An already decoded event (a text log, a host that decodes itself):
 * ev->ref is the host_ref; its strings stay valid and unchanged while the
 * session lives (gpulat_tracker_feed() says why). Same return as
 * gpulat_session_push().
 */
int gpulat_session_push_event(struct gpulat_session *s, const struct gpulat_event *ev);

/*
 * events were lost on @cpu between @from_ts and @to_ts (@count 0: unknown);
 * @from_ts GPULAT_NONE: the time of the last record pushed on @cpu (0 before one)
 */
void gpulat_session_lost(struct gpulat_session *s, int cpu, uint64_t from_ts, uint64_t to_ts,
			 uint64_t count);

/*
 * The job the last pushed record belonged to (after a queue or run the open
 * job so far, after a done the job as finished; before the filters), a copy
 * valid until the next push; NULL when it belonged to no job. Inside a
 * listener's event() the job of that event, for file input too.
 */
const struct gpulat_job *gpulat_session_last_job(const struct gpulat_session *s);
/* the last pushed record as decoded (valid until the next push), or NULL */
const struct gpulat_event *gpulat_session_last_event(const struct gpulat_session *s);
/* the name of an event's ring so far: a 4.16-5.18 "0x..." ring named once learnt */
const char *gpulat_session_ring_name(struct gpulat_session *s, const char *dev, const char *ring);

/*
 * End of pushed input: open jobs are flushed (incomplete/lost/orphan),
 * statistics and diagnosis finish, listeners' finish runs. Idempotent.
 * Return: 0 or -errno.
 */
int gpulat_session_finish(struct gpulat_session *s);

/* ------------------------------------------------------------------------ */
/* Input 3: live data (--watch), fed as it comes, reported per interval       */

/*
 *   raw ring-buffer pages (tracefs trace_pipe_raw of the formats of @tep):
 *       gpulat_session_live_pages(s, tep, &lo);
 *       every tick: gpulat_session_push_page(s, cpu, page, len) for each page
 *                   read on each cpu, then gpulat_session_live_flush(s)
 *   a text log (trace_pipe, `trace-cmd stream`, on a pipe):
 *       gpulat_session_live_text(s, fd, "(stdin)", &lo);
 *       whenever @fd is readable: gpulat_session_live_read(s)  (0: it ended)
 *   every interval: st = gpulat_session_live_cut(s, &iv);
 *   at the end:     gpulat_session_finish(s) reports the jobs still open
 *                   (incomplete), or just gpulat_session_free(s).
 *
 * The statistics are those of one interval (memory does not grow with the
 * run): gpulat_session_stats() is the current interval's, after
 * gpulat_session_finish() the last one's. Jobs link across intervals; counts,
 * the diagnosis and listeners cover the whole run.
 */

/**
 * struct gpulat_live_opts - live input
 * @sz: sizeof(struct gpulat_live_opts) as the caller knows it
 * @cpus: pages: how many per-CPU streams (0: the tep's CPU count, at least 1)
 * @page_size: pages: bytes of one ring-buffer page (0: the tep's header_page)
 */
struct gpulat_live_opts {
	size_t sz;
	int cpus;
	int page_size;
};

/**
 * struct gpulat_live_interval - what one interval held
 * @sz: set by the caller to sizeof(struct gpulat_live_interval)
 */
struct gpulat_live_interval {
	size_t sz;
	uint64_t jobs; /* finished jobs that passed the filters */
	uint64_t events; /* records (text: event lines) */
	uint64_t lost_events; /* missed-event counts */
	uint64_t lost_gaps; /* overruns (a count may be unknown) */
	uint64_t first_ts; /* of any record, GPULAT_NONE: none */
	uint64_t last_ts;
};

/*
 * The event systems the pipeline reads, for a live reader to load the formats
 * of (tracefs_local_events_system()): up to @n - 1 names into @v (caller's
 * storage, static strings), NULL-terminated when @n > 0.
 * Return: how many there are (as snprintf: >= @n means @v was too short).
 */
size_t gpulat_session_live_systems(const char **v, size_t n);

/* Return: 0 or -errno (-EBUSY: other input given). @lo may be NULL. */
int gpulat_session_live_pages(struct gpulat_session *s, struct tep_handle *tep,
			      const struct gpulat_live_opts *lo);
/*
 * One raw page of @cpu as trace_pipe_raw gives it (@len bytes, at most the
 * page size; header, commit, missed-events flag): decoded at once, fed in
 * time order across CPUs at the next gpulat_session_live_flush().
 * Return: 0 or -errno (-EINVAL: no live pages input, bad cpu or length).
 */
int gpulat_session_push_page(struct gpulat_session *s, int cpu, const void *page, size_t len);
/* feed the events of the pages pushed since the last flush. 0 or -errno. */
int gpulat_session_live_flush(struct gpulat_session *s);

/*
 * A text log on @fd (not closed by the session), @label names it in
 * messages. Blocks until its first lines tell it is an ftrace log.
 * Return: 0 or -errno after one error line (not an ftrace log, ...).
 */
int gpulat_session_live_text(struct gpulat_session *s, int fd, const char *label,
			     const struct gpulat_live_opts *lo);
/*
 * One read(2) of @fd and the complete lines it holds (poll @fd first when
 * it must not block). At the end of the log its last jobs are flushed.
 * Return: 1 more may come, 0 the log ended, -errno after an error line.
 */
int gpulat_session_live_read(struct gpulat_session *s);

/*
 * End the interval: its statistics (finished; valid until the next cut or
 * gpulat_session_free()), NULL with GPULAT_FEAT_NO_STATS or out of memory;
 * @iv (may be NULL) what it held. The next interval begins.
 */
const struct gpulat_stats *gpulat_session_live_cut(struct gpulat_session *s,
						   struct gpulat_live_interval *iv);

/* ------------------------------------------------------------------------ */
/* Results (after run / finish)                                               */

/**
 * struct gpulat_session_counts - what the input held and what became of it
 * @sz: set by the caller to sizeof(struct gpulat_session_counts)
 */
struct gpulat_session_counts {
	size_t		sz;
	uint64_t	events;		/* every record */
	uint64_t	gpu_events;	/* gpu_scheduler, dma_fence, amdgpu records */
	uint64_t	damaged;	/* records never decoded (not in gpu_events) */
	uint64_t	lost_events;	/* sum of the missed-event counts */
	uint64_t	lost_gaps;	/* records preceded by an overrun */
	uint64_t	jobs_seen;	/* jobs before the filters */
	uint64_t	jobs;		/* after the filters */
	uint64_t	incomplete;	/* of @jobs, by status */
	uint64_t	lost;
	uint64_t	orphan;
	uint64_t	first_ts;	/* of ANY record, GPULAT_NONE if none */
	uint64_t	last_ts;
	uint64_t	span_first;	/* first_ts..last_ts clipped to start_ns/end_ns */
	uint64_t	span_last;
	int		cpus;		/* summed over the files */
	enum gpulat_era	era;
};

void gpulat_session_counts(const struct gpulat_session *s, struct gpulat_session_counts *c);
/* decoded events of one kind */
uint64_t gpulat_session_kind_count(const struct gpulat_session *s, enum gpulat_kind kind);
void gpulat_session_tracker_counters(const struct gpulat_session *s,
				     struct gpulat_tracker_counters *c);
enum gpulat_era gpulat_session_era(const struct gpulat_session *s);

/* NULL with GPULAT_FEAT_NO_STATS */
const struct gpulat_stats *gpulat_session_stats(const struct gpulat_session *s);
/* NULL without GPULAT_FEAT_EXPLAIN / GPULAT_FEAT_FENCE_PATH */
struct gpulat_diag *gpulat_session_diag(const struct gpulat_session *s);

/* incomplete / lost / orphan jobs that passed the filters: the first top_n */
size_t gpulat_session_nkept(const struct gpulat_session *s);
const struct gpulat_worst *gpulat_session_kept(const struct gpulat_session *s, size_t i);

/* inputs: files (or 1 attached tep) */
int gpulat_session_nfiles(const struct gpulat_session *s);
const char *gpulat_session_path(const struct gpulat_session *s, int file);	/* NULL for a tep */
/* "local", "mono", ... as recorded; NULL when unknown */
const char *gpulat_session_trace_clock(const struct gpulat_session *s, int file);
/* a threshold learnt while reading (display refresh): 0, -EBUSY once stalls were looked for */
int gpulat_session_set_stall_threshold(struct gpulat_session *s, uint64_t ns);
uint64_t gpulat_session_stall_threshold(const struct gpulat_session *s);
int gpulat_session_cpus(const struct gpulat_session *s, int file);
/* the job cpu number of cpu 0 of @file (files are numbered one after the other) */
int gpulat_session_cpu_base(const struct gpulat_session *s, int file);
struct tep_handle *gpulat_session_tep(const struct gpulat_session *s, int file);
struct gpulat_binding *gpulat_session_binding(const struct gpulat_session *s, int file);

/* a copy of @str that lives as long as the session (equal strings: one copy) */
const char *gpulat_session_intern(struct gpulat_session *s, const char *str);

/*
 * Before the filters (so that a filter that matched no job can say what the
 * trace has): the distinct rings of the jobs (at most 64) and the time range
 * of their stages (GPULAT_NONE without jobs).
 */
size_t gpulat_session_nseen_rings(const struct gpulat_session *s);
int gpulat_session_seen_ring(const struct gpulat_session *s, size_t i, const char **dev,
			     const char **ring, const char **ring_ptr);
void gpulat_session_seen_window(const struct gpulat_session *s, uint64_t *first, uint64_t *last);

/* Jobs filter of the opts, for hosts that keep their own pipeline. */
struct gpulat_filter;
struct gpulat_filter *gpulat_filter_new(const struct gpulat_session_opts *o);
void gpulat_filter_free(struct gpulat_filter *f);
bool gpulat_filter_job(const struct gpulat_filter *f, const struct gpulat_job *job);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_SESSION_H */
