// SPDX-License-Identifier: LGPL-2.1
/*
 * Session input 3: live data, what `gpu-latency --watch` reads.
 *
 *   raw pages: the per-CPU ring-buffer pages of trace_pipe_raw, pushed as
 *	read; each page is decoded at once with the trace's formats (the
 *	session's binding), its events wait in a batch and a flush feeds the
 *	batch in time order across CPUs (a reader drains every CPU, then
 *	flushes: nothing older can come after).
 *   text: an ftrace text log on a pipe, read one read(2) at a time by the
 *	text reader (read-text.c) in its stepwise form.
 *
 * Both feed the one pipeline of session.c (tracker, filters, diagnosis,
 * listeners). Statistics are per interval: gpulat_session_live_cut() ends
 * one and starts the next, so memory grows with the jobs in flight and one
 * interval's jobs, not with the length of the run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>

#include "gpulat-text.h"
#include "session-int.h"

#define LV_MAX_CPUS 8192

struct lv_item {
	struct gpulat_event ev;
	uint64_t order; /* push order: ties keep it */
	void *data; /* a copy of the payload (diagnosis, listeners) */
	int size;
	bool lost; /* a lost-events marker, not an event */
	uint64_t lost_from, lost_count;
};

struct gpulat__live {
	/* raw pages */
	struct kbuffer *kb;
	int page_size;
	int cpus;
	unsigned char *page; /* one page, zero-padded */
	uint64_t *cpu_last; /* last record per cpu: lost windows */
	struct lv_item *batch;
	size_t n, cap;
	uint64_t order;
	bool keep_payload;
	bool warned_page;
	/* text */
	struct gpulat_text *x;
	bool ended;
	/* the interval */
	struct gpulat_stats *prev; /* the last cut's statistics */
	uint64_t jobs0, events0, lost0, gaps0;
	uint64_t first_ts, last_ts;
	uint64_t text_prev_last; /* text: last_ts at the last cut */
};

static void live_close(struct gpulat_session *s)
{
	struct gpulat__live *lv = s->live;
	size_t i;

	if (!lv)
		return;
	for (i = 0; i < lv->n; i++)
		free(lv->batch[i].data);
	free(lv->batch);
	if (lv->kb)
		kbuffer_free(lv->kb);
	free(lv->page);
	free(lv->cpu_last);
	gpulat_stats_free(lv->prev);
	gpulat_text_close(lv->x);
	s->text = NULL;
	free(lv);
	s->live = NULL;
}

static int live_new(struct gpulat_session *s, const struct gpulat_live_opts *lo,
		    struct gpulat_live_opts *o)
{
	struct gpulat__live *lv;

	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	if (lo) {
		/* sized: an older caller's shorter struct; a newer one's unknown tail is zero */
		size_t i;

		if (lo->sz < sizeof(size_t))
			return -EINVAL;
		for (i = sizeof(*o); i < lo->sz; i++)
			if (((const unsigned char *)lo)[i])
				return -EINVAL;
		memcpy(o, lo, lo->sz < sizeof(*o) ? lo->sz : sizeof(*o));
	}
	if (o->cpus < 0 || o->cpus > LV_MAX_CPUS || o->page_size < 0)
		return -EINVAL;
	lv = calloc(1, sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	lv->first_ts = lv->last_ts = GPULAT_NONE;
	lv->text_prev_last = GPULAT_NONE;
	s->live = lv;
	s->close_input = live_close;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* raw pages                                                                  */

/**
 * gpulat_session_live_pages - read raw ring-buffer pages of @tep's formats
 * @s: session without other input
 * @tep: the formats of the traced kernel (e.g. tracefs_local_events()); must
 *	outlive the session
 * @lo: cpus and page size, NULL for those of @tep
 *
 * Return: 0, -EINVAL (bad @lo), -EBUSY (other input given) or -ENOMEM.
 */
int gpulat_session_live_pages(struct gpulat_session *s, struct tep_handle *tep,
			      const struct gpulat_live_opts *lo)
{
	struct gpulat_live_opts o;
	struct gpulat__live *lv;
	struct slistener *l;
	int ret;

	if (!tep)
		return -EINVAL;
	if (s->started || s->nfiles || s->live)
		return -EBUSY;
	ret = live_new(s, lo, &o);
	if (ret < 0)
		return ret;
	lv = s->live;
	ret = gpulat_session_attach_tep(s, tep);
	if (ret < 0)
		return ret;
	lv->cpus = o.cpus ? o.cpus : s->files[0].cpus;
	if (lv->cpus < 1)
		lv->cpus = 1;
	s->files[0].cpus = s->c.cpus = lv->cpus;
	lv->page_size = o.page_size ? o.page_size : tep_get_page_size(tep);
	if (lv->page_size <= 0)
		lv->page_size = getpagesize();
	lv->kb = tep_kbuffer(tep);
	lv->page = calloc(1, (size_t)lv->page_size);
	lv->cpu_last = calloc((size_t)lv->cpus, sizeof(*lv->cpu_last));
	if (!lv->kb || !lv->page || !lv->cpu_last)
		return -ENOMEM;
	/* the record bytes are needed after the page is gone by whoever reads them */
	lv->keep_payload = s->diag != NULL;
	for (l = s->ls; l < s->ls + s->nls; l++)
		if (l->l.event)
			lv->keep_payload = true;
	return 0;
}

static struct lv_item *batch_add(struct gpulat__live *lv)
{
	struct lv_item *it;

	if (lv->n == lv->cap) {
		size_t cap = lv->cap ? lv->cap * 2 : 4096;
		struct lv_item *v = realloc(lv->batch, cap * sizeof(*v));

		if (!v)
			return NULL;
		lv->batch = v;
		lv->cap = cap;
	}
	it = &lv->batch[lv->n++];
	memset(it, 0, sizeof(*it));
	it->order = lv->order++;
	return it;
}

static void interval_ts(struct gpulat__live *lv, uint64_t ts)
{
	if (lv->first_ts == GPULAT_NONE || ts < lv->first_ts)
		lv->first_ts = ts;
	if (lv->last_ts == GPULAT_NONE || ts > lv->last_ts)
		lv->last_ts = ts;
}

/* a page whose commit field reaches past its end is not read (damaged or not a page) */
static bool page_ok(struct gpulat__live *lv)
{
	int start = kbuffer_start_of_data(lv->kb);
	int size = kbuffer_subbuffer_size(lv->kb);

	return start > 0 && size >= 0 && size <= lv->page_size - start;
}

/**
 * gpulat_session_push_page - one raw page read on @cpu
 * @s: session (gpulat_session_live_pages() done)
 * @cpu: its CPU, 0 .. cpus - 1
 * @page: the page as read from trace_pipe_raw
 * @len: its bytes (at most the page size; a short read is zero-padded)
 *
 * Return: 0, -EINVAL (no page input, bad @cpu or @len), -EALREADY (finished),
 * -ENOMEM.
 */
int gpulat_session_push_page(struct gpulat_session *s, int cpu, const void *page, size_t len)
{
	struct gpulat__live *lv = s->live;
	unsigned long long ts = 0;
	struct gpulat_event ev;
	struct tep_record rec;
	struct lv_item *it;
	void *data;
	int missed, ret;

	if (!lv || !lv->kb || !page || cpu < 0 || cpu >= lv->cpus || len > (size_t)lv->page_size)
		return -EINVAL;
	if (s->finished)
		return -EALREADY;
	if (s->err)
		return s->err;
	memcpy(lv->page, page, len);
	memset(lv->page + len, 0, (size_t)lv->page_size - len);
	if (kbuffer_load_subbuffer(lv->kb, lv->page) < 0 || !page_ok(lv)) {
		s->c.damaged++;
		if (!lv->warned_page) {
			lv->warned_page = true;
			gpulat__session_msg(s, GPULAT_MSG_WARN,
					    "cpu %d: a ring-buffer page with "
					    "a bad length was skipped (damaged pages are counted)",
					    cpu);
		}
		return 0;
	}
	missed = kbuffer_missed_events(lv->kb);
	for (data = kbuffer_read_event(lv->kb, &ts); data; data = kbuffer_next_event(lv->kb, &ts)) {
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.cpu = cpu;
		rec.data = data;
		rec.size = kbuffer_event_size(lv->kb);
		gpulat__session_see_ts(s, ts);
		interval_ts(lv, ts);
		if (missed) {
			/* an overrun before this page: the window since this cpu's last record */
			it = batch_add(lv);
			if (!it)
				return -ENOMEM;
			it->lost = true;
			it->ev.cpu = cpu;
			it->ev.ts = ts;
			it->lost_from = lv->cpu_last[cpu];
			it->lost_count = missed > 0 ? (uint64_t)missed : 0;
			missed = 0;
		}
		lv->cpu_last[cpu] = ts;
		if (!gpulat_record_bytes(&rec, lv->page_size)) {
			s->c.damaged++;
			continue;
		}
		ret = gpulat_binding_decode(s->own_bind, &rec, &ev);
		if (ret < 0)
			s->c.damaged++;
		if (ret != 1)
			continue;
		ev.cpu = cpu;
		ev.file = 0;
		ev.ref = NULL;
		it = batch_add(lv);
		if (!it)
			return -ENOMEM;
		it->ev = ev;
		if (lv->keep_payload) {
			it->data = malloc((size_t)rec.size);
			if (!it->data)
				return -ENOMEM;
			memcpy(it->data, data, (size_t)rec.size);
			it->size = rec.size;
		}
	}
	return 0;
}

/* bind.c's event list is the one place that knows them; irq, sched, ... included */
size_t gpulat_session_live_systems(const char **v, size_t n)
{
	enum gpulat_kind kind;
	const char *sys, *name;
	unsigned int i;
	size_t k = 0, stored = 0, j;

	for (i = 0; gpulat__event_def(i, &sys, &name, &kind) == 0; i++) {
		for (j = 0; j < stored; j++)
			if (!strcmp(v[j], sys))
				break;
		if (j < stored)
			continue;
		/* too short: a name not stored may be counted twice (still >= @n) */
		if (stored + 1 < n)
			v[stored++] = sys;
		k++;
	}
	if (n)
		v[stored] = NULL;
	return k;
}

static int cmp_item(const void *a, const void *b)
{
	const struct lv_item *x = a, *y = b;

	if (x->ev.ts != y->ev.ts)
		return x->ev.ts < y->ev.ts ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/**
 * gpulat_session_live_flush - feed the pushed pages' events in time order
 * @s: session with live pages
 *
 * Return: 0, -EINVAL (no live pages), or the pipeline's -errno.
 */
int gpulat_session_live_flush(struct gpulat_session *s)
{
	struct gpulat__live *lv = s->live;
	size_t i;
	int ret = 0;

	if (!lv || !lv->kb)
		return -EINVAL;
	/* a tick without pages: no batch yet (qsort of NULL is undefined, UBSan aborts) */
	if (lv->n)
		qsort(lv->batch, lv->n, sizeof(*lv->batch), cmp_item);
	for (i = 0; i < lv->n; i++) {
		struct lv_item *it = &lv->batch[i];
		struct tep_record rec = {
			.ts = it->ev.ts,
			.cpu = it->ev.cpu,
			.data = it->data,
			.size = it->size,
		};

		if (ret >= 0 && it->lost)
			gpulat_session_lost(s, it->ev.cpu, it->lost_from, it->ev.ts,
					    it->lost_count);
		else if (ret >= 0)
			ret = gpulat__session_feed(s, &it->ev, it->data ? &rec : NULL);
		free(it->data);
		it->data = NULL;
	}
	lv->n = 0;
	if (ret < 0)
		return ret;
	return s->err;
}

/* ------------------------------------------------------------------------ */
/* a text log on a pipe                                                       */

static void text_warn(const char *msg, void *data)
{
	gpulat__session_msg(data, GPULAT_MSG_WARN, "%s", msg);
}

static void text_start(enum gpulat_era era, bool signals, void *data)
{
	gpulat__session_configure(data, era, signals);
}

static int text_hook(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct gpulat_session *s = data;
	int ret;

	s->cur_ev = ev;
	s->have_last_ev = true;
	ret = gpulat__session_event(s, ev, rec, file);
	s->cur_ev = NULL;
	return ret;
}

/* the text reader's counts so far are the session's */
static void text_counts(struct gpulat_session *s)
{
	struct gpulat_text_info in;

	gpulat_text_info(s->live->x, &in);
	s->c.events = in.events;
	s->c.gpu_events = in.gpu_events;
	memcpy(s->kind, in.kind, sizeof(s->kind));
	s->c.lost_events = in.lost_events;
	s->c.lost_gaps = in.lost_gaps;
	s->c.damaged = in.bad_args;
	s->c.first_ts = in.first_ts;
	s->c.last_ts = in.last_ts;
	s->c.cpus = in.cpus;
	s->files[0].cpus = in.cpus;
	/* the interval: from where the last one ended to the last line */
	if (in.last_ts != GPULAT_NONE) {
		s->live->first_ts = s->live->text_prev_last != GPULAT_NONE ?
					    s->live->text_prev_last :
					    in.first_ts;
		s->live->last_ts = in.last_ts;
	}
}

/**
 * gpulat_session_live_text - read a text log from @fd as it comes
 * @s: session without other input
 * @fd: the log (a pipe, a FIFO, a file), left open
 * @label: its name in messages ("(stdin)")
 * @lo: unused for text (NULL)
 *
 * Return: 0, or -errno after one error line through opts.msg.
 */
int gpulat_session_live_text(struct gpulat_session *s, int fd, const char *label,
			     const struct gpulat_live_opts *lo)
{
	struct gpulat_live_opts o;
	struct gpulat__live *lv;
	char err[1024];
	int ret;

	if (fd < 0)
		return -EINVAL;
	if (s->started || s->nfiles || s->live)
		return -EBUSY;
	if (!label)
		label = "(stdin)";
	ret = live_new(s, lo, &o);
	if (ret < 0)
		return ret;
	lv = s->live;
	s->files = calloc(1, sizeof(*s->files));
	if (!s->files)
		return -ENOMEM;
	s->nfiles = 1;
	s->files[0].path = gpulat_session_intern(s, label);
	if (!s->files[0].path)
		return -ENOMEM;
	lv->x = gpulat_text_open_stream(fd, label, err, sizeof(err));
	if (!lv->x) {
		ret = -errno;
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		return ret;
	}
	/* gpulat_text_session_info() works on live text too */
	s->text = lv->x;
	gpulat_text_set_warn(lv->x, text_warn, s);
	gpulat_text_set_context(lv->x, gpulat__session_wants_context(s));
	gpulat_text_set_start(lv->x, text_start, s);
	ret = gpulat_text_begin(lv->x, s->tracker, text_hook, s, err, sizeof(err));
	if (ret < 0)
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
	return ret;
}

static void hint(struct gpulat_session *s)
{
	char buf[2048];

	gpulat_record_hint(buf, sizeof(buf));
	gpulat__session_msg(s, GPULAT_MSG_HINT, "%s", buf);
}

/* the log ended (or the watch stops): its checks, warnings and last jobs */
static int text_end(struct gpulat_session *s)
{
	struct gpulat__live *lv = s->live;
	char err[1024];
	int ret;

	if (lv->ended)
		return 0;
	lv->ended = true;
	ret = gpulat_text_end(lv->x, err, sizeof(err));
	text_counts(s);
	if (ret < 0) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		if (ret == -ENODATA && strstr(err, "no GPU scheduler events"))
			hint(s);
		return ret;
	}
	return s->err;
}

/**
 * gpulat_session_live_read - one read of the text log and its complete lines
 * @s: session with live text
 *
 * Return: 1 (more may come), 0 (the log ended; its open jobs were flushed),
 * or -errno after an error line.
 */
int gpulat_session_live_read(struct gpulat_session *s)
{
	struct gpulat__live *lv = s->live;
	char err[1024];
	int ret;

	if (!lv || !lv->x)
		return -EINVAL;
	if (lv->ended)
		return 0;
	ret = gpulat_text_pump(lv->x, err, sizeof(err));
	if (ret < 0) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		return ret;
	}
	if (s->err)
		return s->err;
	if (ret > 0) {
		text_counts(s);
		return 1;
	}
	ret = text_end(s);
	return ret < 0 ? ret : 0;
}

/* ------------------------------------------------------------------------ */
/* intervals                                                                  */

void gpulat__live_span(struct gpulat_session *s, struct gpulat_stats *st)
{
	struct gpulat__live *lv = s->live;

	if (lv->first_ts != GPULAT_NONE)
		gpulat_stats_set_span(st, lv->first_ts, lv->last_ts);
}

int gpulat__live_end(struct gpulat_session *s)
{
	struct gpulat__live *lv = s->live;

	if (lv->kb)
		return gpulat_session_live_flush(s);
	if (lv->x)
		return text_end(s);
	return 0;
}

/**
 * gpulat_session_live_cut - end the interval, begin the next
 * @s: session with live input
 * @iv: what the interval held (iv->sz set by the caller), may be NULL
 *
 * Return: the interval's finished statistics, valid until the next cut or
 * gpulat_session_free(); NULL without statistics or on failure (errno).
 */
const struct gpulat_stats *gpulat_session_live_cut(struct gpulat_session *s,
						   struct gpulat_live_interval *iv)
{
	struct gpulat__live *lv = s->live;
	struct gpulat_live_interval v;
	struct gpulat_stats *next;

	if (!lv) {
		errno = EINVAL;
		return NULL;
	}
	if (lv->x && !lv->ended) {
		int ret = gpulat_text_settle(lv->x);

		if (ret < 0) {
			errno = -ret;
			return NULL;
		}
		text_counts(s);
	}
	memset(&v, 0, sizeof(v));
	v.sz = sizeof(v);
	v.jobs = s->c.jobs - lv->jobs0;
	v.events = s->c.events - lv->events0;
	v.lost_events = s->c.lost_events - lv->lost0;
	v.lost_gaps = s->c.lost_gaps - lv->gaps0;
	v.first_ts = lv->first_ts;
	v.last_ts = lv->last_ts;
	if (iv && iv->sz >= sizeof(size_t)) {
		size_t sz = iv->sz;

		memcpy(iv, &v, sz < sizeof(v) ? sz : sizeof(v));
		iv->sz = sz;
	}
	lv->jobs0 = s->c.jobs;
	lv->events0 = s->c.events;
	lv->lost0 = s->c.lost_events;
	lv->gaps0 = s->c.lost_gaps;
	lv->text_prev_last = lv->last_ts;
	lv->first_ts = lv->last_ts = GPULAT_NONE;
	if (!s->stats) {
		errno = s->finished ? EALREADY : ENOENT;
		return NULL;
	}
	if (s->finished) /* the last interval ended at gpulat_session_finish() */
		return s->stats;
	if (v.first_ts != GPULAT_NONE)
		gpulat_stats_set_span(s->stats, v.first_ts, v.last_ts);
	if (gpulat_stats_finish(s->stats) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	next = gpulat__session_new_stats(s);
	if (!next) {
		errno = ENOMEM;
		return NULL;
	}
	/* a submission gap may span the cut: the submitters go on */
	gpulat__stats_move_submitters(next, s->stats);
	gpulat_stats_free(lv->prev);
	lv->prev = s->stats;
	s->stats = next;
	return lv->prev;
}
