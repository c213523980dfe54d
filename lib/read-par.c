// SPDX-License-Identifier: LGPL-2.1
/*
 * Parallel decode of one report (-j N, gpulat_reader_set_threads()).
 *
 * When every file is read by read-zstd.c, N threads share its CPU streams:
 * each thread owns whole streams and decompresses them, walks their pages
 * (kbuffer), counts every record (events, span, damaged lengths) and copies
 * into batches only the records the single-thread run would act on: those
 * the binding decodes (GPU events, and context events when the session
 * wants them) and those preceded by lost events. A thread decodes them too,
 * with a clone of the file's binding (gpulat__binding_clone(): its own
 * string caches and table), and the batch carries the decoded event with
 * the record. The calling thread merges the batches, maps each event's
 * strings to the binding's own (gpulat__binding_adopt(), a memo load per
 * string) and runs the events through the same code as the single-thread
 * run (gpulat__reader_decoded: counts, tracker, hook), so the tracker, the
 * statistics and every listener stay on one thread. A record the clone
 * finds damaged is decoded again there (gpulat__reader_event), so damage is
 * counted and warned about in time order as before.
 *
 * Why the decode moved (callgrind --separate-threads, shape-dense 200 k
 * events, -j2): the merge thread was 350 M instructions of 725 M, decode 71 M
 * of it; with the decode in the threads it is 279 M (adopt 14.5 M), the
 * threads 259 M and 197 M, all three 736 M (-j1: 708 M).
 *
 * Exact order. read-merge.c takes, among the heads of all streams, the
 * smallest (timestamp, stream); a stream whose timestamps go back (damaged
 * or odd traces) gets its record emitted right after the one before it. So
 * the single-thread order is the sort by (E, stream, position) where E is
 * the running maximum of the stream's timestamps up to the record: a record
 * whose timestamp is below E becomes the smallest head the moment its
 * predecessor is taken, and every other head is a stream's E. The threads
 * see every record, so each batch entry carries its E; the merge here sorts
 * by (E, stream), which orders the copied records exactly as the
 * single-thread run did, whatever was left out between them. A batch also
 * carries the E of the last record it scanned: a stream whose batch is used
 * up waits for its next one only when that E is the smallest head.
 *
 * Memory: QUEUE_MAX batches per stream in flight, plus the one the merge
 * reads and the one a thread fills, about BATCH_BUDGET in all (4 MiB: a
 * decoded GPU record takes ~380 bytes of a batch, ~160 without the event;
 * at 2 MiB the smaller batches doubled the threads' waits, 4.5 k -> 9 k
 * voluntary context switches on dense-5M). A thread fills the stream
 * of its own with the fewest batches queued, so the merge waiting for one
 * stream never waits for a thread blocked on another.
 *
 * Other files (v6, other compressors) are read on one thread (read-merge.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "read-int.h"

/*
 * Batches of all streams together hold about BATCH_BUDGET bytes (QUEUE_MAX
 * queued, one read, one filled per stream), each BATCH_MIN to BATCH_MAX:
 * 8 CPUs get 102 KiB batches (~270 decoded GPU records), 64 CPUs 12 KiB; a
 * lock per batch costs nothing next to decompressing it.
 */
#define BATCH_BUDGET	(4u << 20)
#define BATCH_MIN	(8u << 10)
#define BATCH_MAX	(128u << 10)
#define BATCH_SCAN	8192u		/* records scanned per batch at most */
#define QUEUE_MAX	3		/* batches queued per stream */
#define PAD8(n)		(((n) + 7u) & ~(size_t)7u)

/* one copied record; its payload follows, padded to 8 bytes */
struct pent {
	uint64_t	key;		/* E: running max of the stream's timestamps */
	uint64_t	ts;
	uint64_t	offset;
	uint64_t	from;		/* the timestamp before it on its CPU (lost windows) */
	int64_t		missed;
	int32_t		record_size;
	int32_t		size;
	uint32_t	len;		/* payload bytes copied */
	uint32_t	flags;		/* PENT_EV */
};

/*
 * The thread decoded the record with its binding clone: a struct
 * gpulat_event comes between the entry and the payload; its strings are
 * the clone's (gpulat__binding_adopt() at the merge).
 */
#define PENT_EV		1u
#define ENTRY_MAX(bytes) (sizeof(struct pent) + sizeof(struct gpulat_event) + PAD8(bytes))

struct pbatch {
	struct pbatch	*next;
	size_t		cap, len, pos;		/* bytes: room, filled, read by the merge */
	uint64_t	end_key;		/* E of the last record scanned */
	uint64_t	events, damaged;
	uint64_t	first_ts, last_ts;
	bool		last;		/* the stream ends with this batch */
	uint64_t	buf[];		/* entries */
};

struct pworker;

struct pstream {
	struct rfile	*f;
	int		cpu;
	int		idx;		/* merge order: file, then CPU */
	struct pworker	*w;
	struct gpulat_binding *bc;	/* w's clone of f's binding */
	size_t		cap;
	/* under w->lock */
	struct pbatch	*qhead, *qtail;
	int		nq;
	struct pbatch	*free;
	bool		wdone;		/* the last batch is queued */
	/* the thread's */
	uint64_t	key, prev_ts;
	/* the merge's */
	struct pbatch	*cur;
	uint64_t	head_key;
	bool		pseudo;		/* cur is read: its end_key is the head */
	bool		done;
};

struct pworker {
	pthread_t	th;
	bool		started;
	pthread_mutex_t	lock;
	pthread_cond_t	ready;		/* a batch was queued (the merge waits) */
	pthread_cond_t	space;		/* a batch was taken, or stop (the thread waits) */
	struct pstream	**s;
	int		ns;
	uint64_t	load;		/* compressed bytes of its streams */
	ZSTD_DCtx	*dctx;
	struct gpulat_binding **bc;	/* per file: its binding's clone, or NULL */
	bool		go;		/* under lock: every thread was created */
	bool		stop;		/* under lock */
	int		err;		/* under lock: -ENOMEM in the thread */
};

struct par {
	struct pstream	*s;
	int		ns;
	struct pworker	*w;
	int		nw;
	int		nfiles;
	void		**act;		/* streams not done, in stream order */
	int		nact;
};

static struct pbatch *batch_new(size_t cap)
{
	struct pbatch *b = malloc(sizeof(*b) + cap);

	if (b)
		b->cap = cap;
	return b;
}

/*
 * Scan @s into @b: up to BATCH_SCAN records, until a copy would not fit or
 * the stream ends. The thread's only work: the merge never touches @s's
 * zstd CPU or its scan state.
 */
static void fill(struct pstream *s, struct pbatch *b)
{
	struct rfile *f = s->f;
	unsigned char *base = (unsigned char *)b->buf;
	unsigned int scanned;

	b->len = 0;
	b->pos = 0;
	b->events = 0;
	b->damaged = 0;
	b->first_ts = GPULAT_NONE;
	b->last_ts = GPULAT_NONE;
	b->last = false;
	for (scanned = 0; scanned < BATCH_SCAN; scanned++) {
		struct tep_record *rec = gpulat__zfile_head(f->z, s->cpu);
		size_t bytes, need;
		uint64_t key;
		bool copy;

		if (!rec) {
			b->last = true;
			break;
		}
		bytes = gpulat_record_bytes(rec, f->page_size);
		copy = rec->missed_events || (bytes && gpulat__binding_wants(f->b, rec));
		key = rec->ts > s->key ? rec->ts : s->key;
		if (copy) {
			struct pent *e = (struct pent *)(base + b->len);
			struct gpulat_event *ev = (struct gpulat_event *)(e + 1);
			unsigned char *payload;
			int d;

			if (b->len + ENTRY_MAX(bytes) > b->cap)
				break; /* the next batch; cap holds any one record */
			/*
			 * Decoded here (1); not ours (0): only its lost window is
			 * left for the merge; damaged (-1): the merge decodes it
			 * again, to count and warn in time order.
			 */
			d = bytes ? gpulat_binding_decode(s->bc, rec, ev) : -1;
			if (d == 0 && !rec->missed_events)
				goto next;
			e->flags = d > 0 ? PENT_EV : 0;
			payload = d > 0 ? (unsigned char *)(ev + 1) : (unsigned char *)ev;
			need = (size_t)(payload - (unsigned char *)e) + PAD8(bytes);
			e->key = key;
			e->ts = rec->ts;
			e->offset = rec->offset;
			e->from = s->prev_ts;
			e->missed = rec->missed_events;
			e->record_size = rec->record_size;
			e->size = rec->size;
			e->len = (uint32_t)bytes;
			/* the record itself too: listeners are given it (gpulat_listener.event) */
			if (bytes)
				memcpy(payload, rec->data, bytes);
			b->len += need;
		} else if (!bytes) {
			b->damaged++; /* as gpulat__reader_event() counts it */
		}
next:
		b->events++;
		/* as gpulat__reader_record() */
		gpulat__span_see(&b->first_ts, &b->last_ts, rec->ts);
		s->key = key;
		s->prev_ts = rec->ts;
		gpulat__zfile_next(f->z, s->cpu);
	}
	b->end_key = s->key;
}

/* the stream of @w to fill next (fewest queued), NULL: none has room; under lock */
static struct pstream *pick(struct pworker *w, bool *all_done)
{
	struct pstream *s = NULL;
	int i;

	*all_done = true;
	for (i = 0; i < w->ns; i++) {
		struct pstream *x = w->s[i];

		if (x->wdone)
			continue;
		*all_done = false;
		if (x->nq < QUEUE_MAX && (!s || x->nq < s->nq))
			s = x;
	}
	return s;
}

static void *work(void *arg)
{
	struct pworker *w = arg;

	for (;;) {
		struct pstream *s = NULL;
		struct pbatch *b;
		bool all_done = false;

		pthread_mutex_lock(&w->lock);
		while (!w->stop) {
			if (w->go) {
				s = pick(w, &all_done);
				if (s || all_done)
					break;
			}
			pthread_cond_wait(&w->space, &w->lock);
		}
		if (w->stop || all_done) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		b = s->free;
		if (b)
			s->free = b->next;
		pthread_mutex_unlock(&w->lock);
		if (!b)
			b = batch_new(s->cap);
		if (!b) {
			pthread_mutex_lock(&w->lock);
			w->err = -ENOMEM;
			pthread_cond_signal(&w->ready);
			pthread_mutex_unlock(&w->lock);
			break;
		}
		fill(s, b);
		pthread_mutex_lock(&w->lock);
		b->next = NULL;
		if (s->qtail)
			s->qtail->next = b;
		else
			s->qhead = b;
		s->qtail = b;
		s->nq++;
		if (b->last)
			s->wdone = true;
		pthread_cond_signal(&w->ready);
		pthread_mutex_unlock(&w->lock);
	}
	return NULL;
}

/* the head of @s from its batch: the next copy, the batch's end, or done */
static void set_head(struct pstream *s)
{
	struct pbatch *b = s->cur;

	if (b->pos < b->len) {
		s->head_key = ((const struct pent *)((const unsigned char *)b->buf + b->pos))->key;
		s->pseudo = false;
	} else if (b->last) {
		s->done = true;
	} else {
		s->head_key = b->end_key;
		s->pseudo = true;
	}
}

/* give back @s's read batch, wait for its next one; 0 or -ENOMEM */
static int take(struct gpulat_reader *r, struct pstream *s)
{
	struct pworker *w = s->w;
	struct pbatch *b;
	int err;

	pthread_mutex_lock(&w->lock);
	if (s->cur) {
		s->cur->next = s->free;
		s->free = s->cur;
		s->cur = NULL;
	}
	while (!s->qhead && !w->err)
		pthread_cond_wait(&w->ready, &w->lock);
	b = s->qhead;
	if (b) {
		s->qhead = b->next;
		if (!s->qhead)
			s->qtail = NULL;
		s->nq--;
		pthread_cond_signal(&w->space);
	}
	err = w->err;
	pthread_mutex_unlock(&w->lock);
	if (!b)
		return err;
	s->cur = b;
	r->c.events += b->events;
	r->c.damaged += b->damaged;
	/* the batch's span into the reader's (its first <= its last: both ends are times of it) */
	gpulat__span_see(&r->first_ts, &r->last_ts, b->first_ts);
	gpulat__span_see(&r->first_ts, &r->last_ts, b->last_ts);
	set_head(s);
	return 0;
}

/* the head copy of @s, as the single-thread run would have handled it */
static int emit(struct gpulat_reader *r, struct pstream *s)
{
	struct pbatch *b = s->cur;
	struct pent *e = (struct pent *)((unsigned char *)b->buf + b->pos);
	struct gpulat_event *ev = (e->flags & PENT_EV) ? (struct gpulat_event *)(e + 1) : NULL;
	struct tep_record rec;
	int tcpu, ret;

	memset(&rec, 0, sizeof(rec));
	rec.ts = e->ts;
	rec.offset = e->offset;
	rec.missed_events = e->missed;
	rec.record_size = e->record_size;
	rec.size = e->size;
	rec.cpu = s->cpu;
	rec.data = ev ? (void *)(ev + 1) : (void *)(e + 1);
	rec.ref_count = 1;
	tcpu = s->f->cpu_base + s->cpu;
	if (rec.missed_events)
		gpulat__reader_lost(r, tcpu, e->from, &rec);
	if (!ev)
		ret = gpulat__reader_event(r, s->f, &rec, tcpu);
	else if (gpulat__binding_adopt(s->bc, ev))
		ret = -ENOMEM;
	else
		ret = gpulat__reader_decoded(r, s->f, &rec, ev, tcpu);
	b->pos = (size_t)((unsigned char *)rec.data - (unsigned char *)b->buf) + PAD8(e->len);
	set_head(s);
	return ret;
}

/* (key, stream) of @a before @b's */
static bool before(const struct pstream *a, const struct pstream *b)
{
	return a->head_key < b->head_key || (a->head_key == b->head_key && a->idx < b->idx);
}

static int merge(struct gpulat_reader *r, struct par *p)
{
	int i, ret = 0;

	for (i = 0; i < p->ns && ret >= 0; i++) {
		ret = take(r, &p->s[i]);
		if (ret >= 0 && !p->s[i].done)
			p->act[p->nact++] = &p->s[i];
	}
	while (p->nact > 0 && ret >= 0) {
		struct pstream *s = p->act[0], *b = NULL;
		int k;

		/* the smallest head @s and the next smallest @b, as read-merge.c */
		for (k = 1; k < p->nact; k++) {
			struct pstream *x = p->act[k];

			if (before(x, s)) {
				b = s;
				s = x;
			} else if (!b || before(x, b)) {
				b = x;
			}
		}
		/* @s while it stays before @b: the other heads do not move */
		do {
			ret = s->pseudo ? take(r, s) : emit(r, s);
		} while (ret >= 0 && !s->done && (!b || before(s, b)));
		if (s->done)
			gpulat__act_drop(p->act, &p->nact, s);
	}
	return ret;
}

static void stop_workers(struct par *p)
{
	int i;

	for (i = 0; i < p->nw; i++) {
		struct pworker *w = &p->w[i];

		if (!w->started)
			continue;
		pthread_mutex_lock(&w->lock);
		w->stop = true;
		pthread_cond_broadcast(&w->space);
		pthread_mutex_unlock(&w->lock);
		pthread_join(w->th, NULL);
		w->started = false;
	}
}

static void free_batches(struct pbatch *b)
{
	while (b) {
		struct pbatch *n = b->next;

		free(b);
		b = n;
	}
}

static void par_free(struct par *p)
{
	int i, k;

	stop_workers(p);
	for (i = 0; p->s && i < p->ns; i++) {
		struct pstream *s = &p->s[i];

		/* the file's own decompression context again (zfile_close frees it) */
		gpulat__zfile_set_dctx(s->f->z, s->cpu, NULL);
		free_batches(s->qhead);
		free_batches(s->free);
		free(s->cur);
	}
	for (i = 0; p->w && i < p->nw; i++) {
		pthread_mutex_destroy(&p->w[i].lock);
		pthread_cond_destroy(&p->w[i].ready);
		pthread_cond_destroy(&p->w[i].space);
		ZSTD_freeDCtx(p->w[i].dctx);
		for (k = 0; p->w[i].bc && k < p->nfiles; k++)
			gpulat_binding_free(p->w[i].bc[k]);
		free(p->w[i].bc);
		free(p->w[i].s);
	}
	free(p->s);
	free(p->w);
	free(p->act);
}

/* biggest streams first, each to the least loaded thread */
static int cmp_bytes(const void *a, const void *b)
{
	const struct pstream *x = *(struct pstream * const *)a, *y = *(struct pstream * const *)b;
	uint64_t bx = gpulat__zfile_bytes(x->f->z, x->cpu),
		 by = gpulat__zfile_bytes(y->f->z, y->cpu);

	if (bx != by)
		return bx > by ? -1 : 1;
	return x->idx - y->idx;
}

static int par_init(struct gpulat_reader *r, struct par *p, int nw)
{
	struct pstream **order;
	size_t cap;
	int i, cpu, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->f[i].cpus;
	cap = BATCH_BUDGET / ((size_t)n * (QUEUE_MAX + 2));
	cap = cap < BATCH_MIN ? BATCH_MIN : cap > BATCH_MAX ? BATCH_MAX : cap;
	p->s = calloc((size_t)n, sizeof(*p->s));
	p->act = calloc((size_t)n, sizeof(*p->act));
	p->w = calloc((size_t)nw, sizeof(*p->w));
	order = calloc((size_t)n, sizeof(*order));
	if (!p->s || !p->act || !p->w || !order)
		goto nomem;
	for (i = 0; i < r->n; i++) {
		struct rfile *f = &r->f[i];

		for (cpu = 0; cpu < f->cpus; cpu++) {
			struct pstream *s = &p->s[p->ns];

			s->f = f;
			s->cpu = cpu;
			s->idx = p->ns;
			/* any one record (a page at most) fits in a batch */
			s->cap = cap;
			if (s->cap < ENTRY_MAX((size_t)f->page_size))
				s->cap = ENTRY_MAX((size_t)f->page_size);
			order[p->ns] = s;
			p->ns++;
		}
	}
	for (i = 0; i < nw; i++) {
		struct pworker *w = &p->w[i];

		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->ready, NULL);
		pthread_cond_init(&w->space, NULL);
		p->nw++;
		w->dctx = ZSTD_createDCtx();
		w->s = calloc((size_t)n, sizeof(*w->s));
		w->bc = calloc((size_t)r->n, sizeof(*w->bc));
		if (!w->dctx || !w->s || !w->bc)
			goto nomem;
	}
	p->nfiles = r->n;
	qsort(order, (size_t)n, sizeof(*order), cmp_bytes);
	for (i = 0; i < n; i++) {
		struct pworker *w = &p->w[0];
		int k;

		for (k = 1; k < nw; k++) {
			if (p->w[k].load < w->load)
				w = &p->w[k];
		}
		order[i]->w = w;
		/* one clone per thread and file: its string caches stay warm */
		if (!w->bc[order[i]->f->idx]) {
			w->bc[order[i]->f->idx] = gpulat__binding_clone(order[i]->f->b);
			if (!w->bc[order[i]->f->idx])
				goto nomem;
		}
		order[i]->bc = w->bc[order[i]->f->idx];
		w->s[w->ns++] = order[i];
		w->load += gpulat__zfile_bytes(order[i]->f->z, order[i]->cpu) + 1;
		gpulat__zfile_set_dctx(order[i]->f->z, order[i]->cpu, w->dctx);
	}
	free(order);
	return 0;
nomem:
	free(order);
	return -ENOMEM;
}

int gpulat__reader_par(struct gpulat_reader *r)
{
	struct par p = { 0 };
	int i, nw, n = 0, ret;

	if (r->threads <= 1)
		return 1;
	for (i = 0; i < r->n; i++) {
		gpulat__reader_try_zstd(&r->f[i]);
		if (!r->f[i].z)
			return 1; /* libtracecmd reads it: one thread */
		n += r->f[i].cpus;
	}
	nw = (int)r->threads < n ? (int)r->threads : n;
	if (nw < 1)
		return 1;
	/*
	 * Nothing is read before every thread runs: without memory or threads
	 * the file is read on this thread, from the start.
	 */
	if (par_init(r, &p, nw))
		goto single;
	for (i = 0; i < p.nw; i++) {
		if (pthread_create(&p.w[i].th, NULL, work, &p.w[i]))
			goto single;
		p.w[i].started = true;
	}
	for (i = 0; i < p.nw; i++) {
		pthread_mutex_lock(&p.w[i].lock);
		p.w[i].go = true;
		pthread_cond_broadcast(&p.w[i].space);
		pthread_mutex_unlock(&p.w[i].lock);
	}
	r->threads_used = (unsigned int)p.nw;
	ret = merge(r, &p);
	par_free(&p);
	for (i = 0; ret >= 0 && i < r->n; i++) {
		if (gpulat__zfile_failed(r->f[i].z))
			ret = -EIO;
	}
	return ret;
single:
	par_free(&p);
	return 1;
}
