// SPDX-License-Identifier: LGPL-2.1
/*
 * Parallel decode of one report (-j N, gpulat_reader_set_threads()).
 *
 * When every file is read by read-zstd.c, N threads share its CPU streams:
 * N - 1 worker threads and the calling thread fill batches of them: a
 * thread takes a whole batch of one stream at a time, decompresses it,
 * walks its pages (kbuffer), counts every record (events, span, damaged
 * lengths) and copies into the batch only the records the single-thread
 * run would act on: those the binding decodes (GPU events, and context
 * events when the session wants them) and those preceded by lost events.
 * It decodes them too, with its own clone of the file's binding
 * (gpulat__binding_clone(): its own string caches and table), and the
 * batch carries the decoded event with the record and the clone. The
 * calling thread merges the batches, maps each event's strings to the
 * binding's own (gpulat__binding_adopt(), a memo load per string) and runs
 * the events through the same code as the single-thread run
 * (gpulat__reader_decoded: counts, tracker, hook), so the tracker, the
 * statistics and every listener stay on one thread. A record the clone
 * finds damaged is decoded again there (gpulat__reader_event), so damage is
 * counted and warned about in time order as before.
 *
 * Who fills what (take(), pick()): any thread fills any stream no other
 * thread is filling; a worker the one whose batches end earliest (the
 * merge needs it first); the merge, instead of waiting for a batch, the
 * stream it needs when no worker has it, else the one a worker would take
 * next. So N threads for N cores, none idle while there is work: with two
 * workers per stream set, fixed by compressed bytes, and the merge only
 * waiting (three threads on two cores), -j2 took 1.17-1.3x the CPU of -j1
 * on dense-5M, and with one worker the merge waited for it 4 000 times
 * (wall 0.98x of -j1). GPULAT_PAR_WORKERS=N sets the workers (measurements).
 *
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
 * Memory: up to QUEUE_MAX batches per stream queued (all streams together,
 * so a stream dense in GPU records may run ahead), plus the one the merge
 * reads per stream and one per thread being filled, about BATCH_BUDGET in
 * all (4 MiB: a decoded GPU record takes ~380 bytes of a batch, ~160
 * without the event; at 2 MiB the smaller batches doubled the threads'
 * waits, 4.5 k -> 9 k voluntary context switches on dense-5M). A worker
 * waiting for room is woken when half of it is free, and the merge only
 * for the batch it waits for: each sleep is a wake-up on the other core.
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
 * queued per stream, one read per stream, one per thread), each BATCH_MIN
 * to BATCH_MAX:
 * 8 CPUs get 102 KiB batches (~270 decoded GPU records), 64 CPUs 12 KiB; a
 * lock per batch costs nothing next to decompressing it.
 */
#define BATCH_BUDGET	(4u << 20)
#define BATCH_MIN	(8u << 10)
#define BATCH_MAX	(128u << 10)
#define BATCH_SCAN	8192u		/* records scanned per batch at most */
#define QUEUE_MAX	3		/* batches queued per stream, on average */
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
	struct gpulat_binding *bc;	/* the clone its events were decoded with */
	size_t		cap, len, pos;		/* bytes: room, filled, read by the merge */
	uint64_t	end_key;		/* E of the last record scanned */
	uint64_t	events, damaged;
	uint64_t	first_ts, last_ts;
	bool		last;		/* the stream ends with this batch */
	uint64_t	buf[];		/* entries */
};

/* what a filling thread has of its own: the workers' and the merge's */
struct pfill {
	ZSTD_DCtx	*dctx;
	struct gpulat_binding **bc;	/* per file: a clone of its binding */
};

struct pstream {
	struct rfile	*f;
	int		cpu;
	int		idx;		/* merge order: file, then CPU */
	size_t		cap;
	bool		nodata;		/* records without data (gpulat__reader_set_records) */
	/* under par.lock */
	struct pbatch	*qhead, *qtail;
	int		nq;
	struct pbatch	*free;
	bool		busy;		/* a thread fills it (it alone reads the fields below) */
	bool		wdone;		/* the last batch is filled */
	/* the filling thread's; read by the others under the lock when not busy */
	uint64_t	key, prev_ts;
	/* the merge's */
	struct pbatch	*cur;
	uint64_t	head_key;
	bool		pseudo;		/* cur is read: its end_key is the head */
	bool		done;
};

struct par;

struct pworker {
	struct par	*p;
	pthread_t	th;
	bool		started;
	struct pfill	fl;
};

struct par {
	pthread_mutex_t	lock;
	pthread_cond_t	ready;		/* a batch of @want was queued (the merge waits) */
	pthread_cond_t	space;		/* a stream can be filled, or stop (workers wait) */
	bool		locks;		/* lock, ready and space were made */
	/* under lock */
	bool		go;		/* every thread was created */
	bool		stop;
	int		err;		/* -ENOMEM in a thread */
	int		idle;		/* workers waiting on space */
	int		nwdone;		/* streams filled to their end */
	int		queued;		/* batches queued, all streams */
	struct pstream	*want;		/* the stream the merge waits for */
	struct pstream	*s;
	int		ns;
	struct pworker	*w;
	int		nw;
	struct pfill	mine;		/* the merge thread's, for the streams it fills itself */
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
 * the stream ends, decoding with @fl's clone. Only the thread that set
 * s->busy runs it: the others never touch @s's zstd CPU or its scan state.
 */
static void fill(struct pstream *s, struct pbatch *b, const struct pfill *fl)
{
	struct rfile *f = s->f;
	struct gpulat_binding *bc = fl->bc[f->idx];
	unsigned char *base = (unsigned char *)b->buf;
	unsigned int scanned;

	/* the CPU's chunks are decompressed with this thread's context */
	gpulat__zfile_set_dctx(f->z, s->cpu, fl->dctx);
	b->bc = bc;
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
			d = bytes ? gpulat_binding_decode(bc, rec, ev) : -1;
			if (d == 0 && !rec->missed_events)
				goto next;
			e->flags = d > 0 ? PENT_EV : 0;
			payload = d > 0 ? (unsigned char *)(ev + 1) : (unsigned char *)ev;
			e->key = key;
			e->ts = rec->ts;
			e->offset = rec->offset;
			e->from = s->prev_ts;
			e->missed = rec->missed_events;
			e->record_size = rec->record_size;
			e->size = rec->size;
			/*
			 * the record itself too: listeners are given it
			 * (gpulat_listener.event), unless none reads it; an
			 * event not decoded here is decoded from it at the merge
			 */
			if (d > 0 && s->nodata)
				bytes = 0;
			need = (size_t)(payload - (unsigned char *)e) + PAD8(bytes);
			e->len = (uint32_t)bytes;
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

/*
 * The stream a worker fills next, NULL: none can be. The merge takes the
 * streams' records in key order, so the one whose batches end at the
 * smallest key (s->key: the E of the last record scanned) runs out first:
 * that one, while it has room. Under lock.
 */
static struct pstream *pick(struct par *p)
{
	struct pstream *s = NULL;
	int i;

	if (p->queued >= p->ns * QUEUE_MAX)
		return NULL;
	for (i = 0; i < p->ns; i++) {
		struct pstream *x = &p->s[i];

		if (x->busy || x->wdone)
			continue;
		if (!s || x->key < s->key || (x->key == s->key && x->nq < s->nq))
			s = x;
	}
	return s;
}

/*
 * Fill a batch of @s with @fl and queue it; @s was free, not at its end.
 * Called and returns under lock, which it drops while it fills. 0 or
 * -ENOMEM (then p->err is set too).
 */
static int fill_one(struct par *p, struct pstream *s, const struct pfill *fl)
{
	struct pbatch *b;

	s->busy = true;
	b = s->free;
	if (b)
		s->free = b->next;
	pthread_mutex_unlock(&p->lock);
	if (!b)
		b = batch_new(s->cap);
	if (b)
		fill(s, b, fl);
	pthread_mutex_lock(&p->lock);
	s->busy = false;
	if (!b) {
		p->err = -ENOMEM;
		pthread_cond_signal(&p->ready);
		return -ENOMEM;
	}
	b->next = NULL;
	if (s->qtail)
		s->qtail->next = b;
	else
		s->qhead = b;
	s->qtail = b;
	s->nq++;
	p->queued++;
	if (b->last) {
		s->wdone = true;
		/* the workers waiting for a stream to fill may end */
		if (++p->nwdone == p->ns && p->idle)
			pthread_cond_broadcast(&p->space);
	}
	/* one wake-up only when the merge waits for this very batch */
	if (p->want == s)
		pthread_cond_signal(&p->ready);
	/* a worker waits while every stream was busy: @s is free again */
	else if (p->idle && !s->wdone && p->queued < p->ns * QUEUE_MAX)
		pthread_cond_signal(&p->space);
	return 0;
}

static void *work(void *arg)
{
	struct pworker *w = arg;
	struct par *p = w->p;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct pstream *s = NULL;

		while (!p->stop && !p->err && p->nwdone < p->ns && !(p->go && (s = pick(p)))) {
			p->idle++;
			pthread_cond_wait(&p->space, &p->lock);
			p->idle--;
		}
		if (!s || fill_one(p, s, &w->fl))
			break;
	}
	pthread_mutex_unlock(&p->lock);
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

/*
 * Give back @s's read batch and take its next one. While it is not there
 * this thread fills batches too, rather than wait: @s itself when no
 * worker does, else the stream a worker would fill next (the workers are
 * then behind: wall -j2 / -j1 0.98x on dense-5M when the merge only waited
 * for the one worker, which it did 4 000 times). 0 or -ENOMEM.
 */
static int take(struct gpulat_reader *r, struct par *p, struct pstream *s)
{
	struct pbatch *b = NULL;
	int err;

	pthread_mutex_lock(&p->lock);
	if (s->cur) {
		s->cur->next = s->free;
		s->free = s->cur;
		s->cur = NULL;
	}
	while (!p->err) {
		struct pstream *x;

		b = s->qhead;
		if (b) {
			s->qhead = b->next;
			if (!s->qhead)
				s->qtail = NULL;
			s->nq--;
			/*
			 * A worker waiting for room is woken when half of it is
			 * free: it then fills several batches in a row.
			 */
			if (--p->queued == p->ns * QUEUE_MAX / 2 && p->idle)
				pthread_cond_signal(&p->space);
			break;
		}
		if (s->wdone && !s->busy)
			break; /* not reached: the merge stops at the last batch */
		/* @s, needed now, whatever is queued; else what comes next */
		x = s->busy ? pick(p) : s;
		if (x) {
			fill_one(p, x, &p->mine);
			continue;
		}
		p->want = s;
		pthread_cond_wait(&p->ready, &p->lock);
		p->want = NULL;
	}
	err = p->err;
	pthread_mutex_unlock(&p->lock);
	if (!b)
		return err ? err : -EIO;
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
	unsigned char *payload = ev ? (unsigned char *)(ev + 1) : (unsigned char *)(e + 1);
	struct tep_record rec;
	int tcpu, ret;

	memset(&rec, 0, sizeof(rec));
	rec.ts = e->ts;
	rec.offset = e->offset;
	rec.missed_events = e->missed;
	rec.record_size = e->record_size;
	rec.size = e->size;
	rec.cpu = s->cpu;
	/* a decoded event whose record nobody reads came without it (fill()) */
	rec.data = ev && !e->len ? NULL : payload;
	if (!rec.data)
		rec.size = 0;
	rec.ref_count = 1;
	tcpu = s->f->cpu_base + s->cpu;
	if (rec.missed_events)
		gpulat__reader_lost(r, tcpu, e->from, &rec);
	if (!ev)
		ret = gpulat__reader_event(r, s->f, &rec, tcpu);
	else if (gpulat__binding_adopt(b->bc, ev))
		ret = -ENOMEM;
	else
		ret = gpulat__reader_decoded(r, s->f, &rec, ev, tcpu);
	b->pos = (size_t)(payload - (unsigned char *)b->buf) + PAD8(e->len);
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
		ret = take(r, p, &p->s[i]);
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
			ret = s->pseudo ? take(r, p, s) : emit(r, s);
		} while (ret >= 0 && !s->done && (!b || before(s, b)));
		if (s->done)
			gpulat__act_drop(p->act, &p->nact, s);
	}
	return ret;
}

static void stop_workers(struct par *p)
{
	int i;

	if (!p->locks)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->space);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nw; i++) {
		if (p->w[i].started)
			pthread_join(p->w[i].th, NULL);
		p->w[i].started = false;
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

static void fill_free(struct pfill *fl, int nfiles)
{
	int k;

	ZSTD_freeDCtx(fl->dctx);
	for (k = 0; fl->bc && k < nfiles; k++)
		gpulat_binding_free(fl->bc[k]);
	free(fl->bc);
}

static void par_free(struct par *p)
{
	int i;

	stop_workers(p);
	for (i = 0; p->s && i < p->ns; i++) {
		struct pstream *s = &p->s[i];

		/* the file's own decompression context again (zfile_close frees it) */
		gpulat__zfile_set_dctx(s->f->z, s->cpu, NULL);
		free_batches(s->qhead);
		free_batches(s->free);
		free(s->cur);
	}
	for (i = 0; p->w && i < p->nw; i++)
		fill_free(&p->w[i].fl, p->nfiles);
	fill_free(&p->mine, p->nfiles);
	if (p->locks) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->ready);
		pthread_cond_destroy(&p->space);
	}
	free(p->s);
	free(p->w);
	free(p->act);
}

/* a decompression context and a clone of every file's binding: 0 or -ENOMEM */
static int fill_init(struct gpulat_reader *r, struct pfill *fl)
{
	int i;

	fl->dctx = ZSTD_createDCtx();
	fl->bc = calloc((size_t)r->n, sizeof(*fl->bc));
	if (!fl->dctx || !fl->bc)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		fl->bc[i] = gpulat__binding_clone(r->f[i].b);
		if (!fl->bc[i])
			return -ENOMEM;
	}
	return 0;
}

static int par_init(struct gpulat_reader *r, struct par *p, int nw)
{
	size_t cap;
	int i, cpu, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->f[i].cpus;
	cap = BATCH_BUDGET / ((size_t)n * (QUEUE_MAX + 2));
	cap = cap < BATCH_MIN ? BATCH_MIN : cap > BATCH_MAX ? BATCH_MAX : cap;
	p->nfiles = r->n;
	p->s = calloc((size_t)n, sizeof(*p->s));
	p->act = calloc((size_t)n, sizeof(*p->act));
	p->w = calloc((size_t)nw, sizeof(*p->w));
	if (!p->s || !p->act || !p->w)
		return -ENOMEM;
	if (pthread_mutex_init(&p->lock, NULL))
		return -ENOMEM;
	if (pthread_cond_init(&p->ready, NULL)) {
		pthread_mutex_destroy(&p->lock);
		return -ENOMEM;
	}
	if (pthread_cond_init(&p->space, NULL)) {
		pthread_cond_destroy(&p->ready);
		pthread_mutex_destroy(&p->lock);
		return -ENOMEM;
	}
	p->locks = true;
	for (i = 0; i < r->n; i++) {
		struct rfile *f = &r->f[i];

		for (cpu = 0; cpu < f->cpus; cpu++) {
			struct pstream *s = &p->s[p->ns];

			s->f = f;
			s->cpu = cpu;
			s->idx = p->ns;
			s->nodata = r->no_records;
			/* any one record (a page at most) fits in a batch */
			s->cap = cap;
			if (s->cap < ENTRY_MAX((size_t)f->page_size))
				s->cap = ENTRY_MAX((size_t)f->page_size);
			p->ns++;
		}
	}
	for (i = 0; i < nw; i++) {
		p->w[i].p = p;
		p->nw++;
		if (fill_init(r, &p->w[i].fl))
			return -ENOMEM;
	}
	return fill_init(r, &p->mine);
}

/* GPULAT_PAR_WORKERS=N: N threads besides the merge (measurements), else -j N minus one */
static int workers(struct gpulat_reader *r, int streams)
{
	const char *env = getenv("GPULAT_PAR_WORKERS");
	int nw = (int)r->threads - 1;

	if (env && *env)
		nw = atoi(env);
	if (nw > streams)
		nw = streams;
	return nw < 1 ? 1 : nw;
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
	if (n < 1)
		return 1;
	nw = workers(r, n);
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
	pthread_mutex_lock(&p.lock);
	p.go = true;
	pthread_cond_broadcast(&p.space);
	pthread_mutex_unlock(&p.lock);
	/* the workers and this thread, which fills a stream too when it would wait */
	r->threads_used = (unsigned int)p.nw + 1;
	ret = merge(r, &p);
	par_free(&p);
	if (ret >= 0)
		ret = gpulat__zfile_result(r);
	return ret;
single:
	par_free(&p);
	return 1;
}
