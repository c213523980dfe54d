/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Session internals shared by session.c (the pipeline, host push) and
 * session-file.c (trace.dat input through gpulat_reader). The split keeps
 * the core library (libtraceevent only, what the plugins link) free of
 * libtracecmd: only session-file.c needs the reader.
 */
#ifndef _GPULAT_SESSION_INT_H
#define _GPULAT_SESSION_INT_H

#include "gpulat-int.h"
#include "gpulat-session.h"

struct gpulat_reader;
struct gpulat_text;
struct gpulat__live;

struct slistener {
	struct gpulat_listener	l;	/* zero-extended to our size */
	void			*data;
};

/* one input file (or the attached tep) */
struct sfile {
	const char		*path;		/* interned; NULL for a tep */
	int			cpus;
	int			cpu_base;
	struct tep_handle	*tep;
	struct gpulat_binding	*b;		/* owned by the reader or the session */
	const char		*clock;		/* trace_clock as recorded, NULL unknown */
	int			page_size;	/* a tep's, read once (push bounds records) */
};

struct gpulat_session {
	struct gpulat_session_opts o;		/* our size, strings interned */
	struct gpulat__strtab	*str;
	struct gpulat_filter	*filter;
	struct gpulat_tracker	*tracker;
	struct gpulat_stats	*stats;
	struct gpulat_diag	*diag;
	bool			worst_entered;	/* the job being added entered the worst list */
	/* a submit gap the queue event being fed ended, to explain after it (s_gap) */
	struct gpulat__gap gap;
	bool gap_pending;
	struct slistener	*ls;
	size_t			nls;
	/* the kinds some listener's event() wants (GPULAT_LISTEN_KIND bits; 0 kinds = all) */
	uint64_t		ls_kinds;
	bool ls_records; /* some listener's event() reads records (no GPULAT_LISTEN_NO_RECORD) */
	/* incomplete / lost / orphan jobs kept for the report (first top_n) */
	struct gpulat_worst	*kept;
	size_t			nkept;
	/* inputs */
	struct sfile		*files;
	int			nfiles;
	struct gpulat_reader	*reader;	/* session-file.c */
	struct gpulat_text	*text;		/* session-text.c: a text log */
	void			(*close_input)(struct gpulat_session *s);
	struct gpulat__live *live; /* session-live.c: --watch input */
	struct gpulat_binding	*own_bind;	/* attached tep */
	uint64_t		*cpu_last;	/* push: last ts per cpu (lost windows) */
	int			ncpu_last;
	/*
	 * gpulat_session_last_event(): the event being fed to the listeners
	 * (file, text, live input: a pointer to the reader's, no copy per event),
	 * or &last_ev, the last pushed one (gpulat_session_push() decodes the
	 * record into it in place; gpulat_session_push_event() copies the event)
	 */
	const struct gpulat_event *cur_ev;
	struct gpulat_event	last_ev;
	bool			have_last_ev;
	/* state */
	bool			started;
	bool			finished;
	int			err;		/* first failure of a callback */
	enum gpulat_era		era;
	struct gpulat_session_counts c;
	uint64_t		kind[GPULAT_EV__COUNT];
	struct gpulat_tracker_counters tc;
	/* before the filters: the rings jobs were on (the first SEEN_MAX) and the
	 * jobs' time range, so a filter that matched nothing can say what was there */
	struct {
		const char *dev;
		const char *ring;
		const char *ring_ptr;
	} seen[64];
	size_t nseen;
	uint64_t seen_first;
	uint64_t seen_last;
};

void gpulat__session_msg(struct gpulat_session *s, enum gpulat_msg_level level,
			 const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* the configuration found in the input: tracker era and signals, context decoding */
void gpulat__session_configure(struct gpulat_session *s, enum gpulat_era era, bool signals);
/* whether context kinds must be decoded (features) */
bool gpulat__session_wants_context(const struct gpulat_session *s);
/* after the input ended and the tracker was flushed: span, stats, diag, listeners */
int gpulat__session_end(struct gpulat_session *s);

/* session.c: the statistics of the opts; one record's time; one decoded event */
struct gpulat_stats *gpulat__session_new_stats(struct gpulat_session *s);
/* every decoded event, after the tracker: diagnosis, listeners (session.c) */
int gpulat__session_event_slow(struct gpulat_session *s, const struct gpulat_event *ev,
			       struct tep_record *rec, int file);

/*
 * Most events go to no one (no diagnosis, a kind no listener wants: 237 k of
 * dense-1M's 333 k pushed records in KernelShark): said before the call, whose
 * register saves were 5 M of those records' 14 M in it.
 */
static inline int gpulat__session_event(struct gpulat_session *s, const struct gpulat_event *ev,
					struct tep_record *rec, int file)
{
	if (!s->err && !s->diag && (unsigned int)ev->kind < 64 &&
	    !(s->ls_kinds & GPULAT_LISTEN_KIND(ev->kind)))
		return 0;
	return gpulat__session_event_slow(s, ev, rec, file);
}

/* inline: once a record on the push path (a call was 5 M of dense-1M's 2449 M in KernelShark) */
static inline void gpulat__session_see_ts(struct gpulat_session *s, uint64_t ts)
{
	s->c.events++;
	gpulat__span_see(&s->c.first_ts, &s->c.last_ts, ts);
}
int gpulat__session_feed(struct gpulat_session *s, const struct gpulat_event *ev,
			 struct tep_record *rec);

/* session-live.c: feed what is pending, end a text log (before the last flush) */
int gpulat__live_end(struct gpulat_session *s);
/* the span of the current interval into @st */
void gpulat__live_span(struct gpulat_session *s, struct gpulat_stats *st);

/* session-text.c: 1 when the inputs are no text log, else gpulat_session_run()'s */
int gpulat__session_text_run(struct gpulat_session *s);

/* filter.c */
void gpulat__filter_window(const struct gpulat_filter *f, uint64_t *start, uint64_t *end);

#endif /* _GPULAT_SESSION_INT_H */
