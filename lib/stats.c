// SPDX-License-Identifier: LGPL-2.1
/*
 * Statistics over completed jobs: groups per ring / process / client /
 * device with quantiles (quantile.c), log2 histograms (quantile.c), busy time,
 * queue depth, worst jobs, stalls and dependency waits.
 *
 * Jobs arrive in completion order (or any order). Everything that needs time
 * order (busy union, depth, gaps) goes through per-group reorder queues
 * (struct rq: queue and done times for the depth, runs for the busy union,
 * submissions for the gaps) that are swept in time order at
 * gpulat_stats_finish(); when a group's queues hold more than REORDER_MAX
 * entries, or all groups' together more than QUEUED_MAX, the entries older
 * than a watermark (newest done seen minus twice the longest job seen minus
 * 50 ms) are swept early. That keeps memory
 * bounded on long traces; it is exact unless a job reaches the stats later
 * than that horizon (jobs flushed incomplete at the end of a long trace then
 * count in the depth only from the sweep point on).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-int.h"
#include "gpulat-report.h"

#define REORDER_MAX	2048
/*
 * All groups' busy, id and submission entries together: past this, every
 * group is swept to the watermark, not only one past REORDER_MAX. 10^4
 * processes with a few hundred jobs each never reach REORDER_MAX alone, so
 * without it their queues grew with the trace (procs10k, 5 M -> 50 M events:
 * 77 -> 271 MB peak RSS, 17.7 MB of the 5 M peak heap in rq_push, massif).
 * 2^16, not 2^18: each of 10^4 processes queues ~6 entries between two
 * sweeps of all, not ~26 (their arrays 32-64 entries, 11.4 MB of the 50 M
 * peak heap, where 5 M, never swept, had 6.2 MB); a sweep of all visits
 * every group once per 2^16 entries.
 */
#define QUEUED_MAX	(1u << 16)
#define RQ_SHIFT	64	/* an entry moves back at most this far in rq.v */
/*
 * First allocation of a reorder queue: small, because most groups are
 * processes and clients with a job or two in flight (10^4 processes: 64
 * entries each cost 123 MB, bench/RESULTS.md procs10k); busy groups double
 * up to their need in a few steps.
 */
#define RQ_CAP0		4

struct tev {
	uint64_t	t;
	int64_t		a;	/* depth: +1 / -1; busy: end time; gaps: cpu | job hi; ids: hi */
	uint64_t	b;	/* busy: cpu of the start / end pair; gaps, ids: job lo */
};

struct heap {
	struct tev	*v;
	size_t		n, cap;
};

/*
 * Reorder queue. Entries come nearly sorted (jobs reach the stats at their
 * done), so they go into a sorted array, appended or moved back at most
 * RQ_SHIFT places (stable: after equal entries); the rare entry further out
 * of order goes into a min-heap. The smallest entry is the smaller of the
 * array's head and the heap's top, the array's on ties. Popping the array is
 * O(1), where a heap of every entry cost O(log n) per pop.
 */
struct rq {
	struct tev	*v;		/* sorted, live entries v[head .. n - 1] */
	size_t		head, n, cap;
	struct heap	late;		/* entries too far out of order */
};

/*
 * Depth queue: the same sorted array + late heap as struct rq, of keys
 * t * 2 + (1 for a queue, 0 for a done): key order is time order with a
 * done before a queue at the same time, and one queue holds both. One
 * queue for all groups (struct gpulat_stats.depth), each key with the
 * groups of its job (gi: DK_BITS bits per kind, the group's index in
 * s->list[kind] at its creation, DK_NONE for none): 32 bytes per job where
 * one queue per group took 16 per group, 64 with a ring, a process, a
 * client and a device (bench/inflight-rss). A group whose index does not
 * fit (more than DK_NONE groups of a kind: GPULAT_MAX_GROUPS raised) keeps
 * its keys in a queue of its own (gi unused).
 */
struct dk {
	uint64_t k;
	uint64_t gi;
};

#define DK_BITS		16
#define DK_NONE		0xffffU
_Static_assert(64 >= DK_BITS * GPULAT_G__COUNT, "struct dk: a group index per kind");

struct kq {
	struct dk *v; /* sorted, live keys v[head .. n - 1] */
	size_t head, n, cap;
	struct dk *late; /* min-heap of keys too far out of order */
	size_t nlate, caplate;
};

/* timestamps from 2^63 ns (292 years) on share the last key (absurd input) */
#define KQ_TMAX (UINT64_MAX >> 1)

static inline uint64_t kq_key(uint64_t t, bool queue)
{
	return (t < KQ_TMAX ? t : KQ_TMAX) << 1 | (queue ? 1 : 0);
}

struct sweep_depth {
	int64_t		cur;
	int64_t		best;
	uint64_t	last_t;
	long double	area;
	bool		started;
};

struct sweep_busy {
	uint64_t	busy;
	uint64_t	start, end;	/* current merged interval */
	int		end_cpu;
	bool		any;
};

/*
 * A process's submission cadence, for telling a stall from an idle gap or
 * submit jitter (sweep_submit_one()): the last PACE_N intervals between its
 * submission bursts (submissions less than min(PACE_BURST_NS, threshold /
 * 16) apart, e.g. one frame's work on several rings, are one burst).
 */
#define PACE_N		8
#define PACE_MIN	4		/* intervals needed before a pace exists */
#define PACE_BURST_NS	1000000ULL

struct sweep_gap {
	uint64_t	last_t;
	int		last_cpu;
	bool		any;
	uint64_t	iv[PACE_N];	/* ring of burst intervals */
	unsigned int	niv;		/* valid entries (<= PACE_N) */
	unsigned int	pos;		/* next slot */
};

/*
 * A complete job's metrics as they reach a small group (struct grp.rows):
 * what gpulat__qacc_add() would get, in the order it would get it.
 */
struct vrow {
	uint64_t	v[GPULAT_M__COUNT];	/* GPULAT_NONE: none */
	uint64_t	at, seq;
	int		cpu;
};

/*
 * A group keeps its first ROWS_MAX complete jobs' metrics as rows, one
 * array, and makes its accumulators (struct grp.q) from them only when it
 * gets more, or at gpulat_stats_finish() and gpulat_group_hist(): replayed
 * in the order they came, the accumulators are the same as when fed on the
 * way (quantile.c). Most groups of a trace with 10^4 processes and clients
 * have a few jobs each: one array of rows per group where five
 * accumulators (480 B) with an array each were touched at every job
 * (shape-procs10k 2 M events: 3-8 jobs per process and client).
 */
#define ROWS_MAX	16
#define ROWS_CAP0	4

struct grp {
	struct gpulat__hnode	node;
	struct gpulat_group	g;
	struct gpulat__qacc	*q;		/* [GPULAT_M__COUNT], NULL: rows */
	struct vrow		*rows;
	uint32_t		nrows, caprows;
	struct kq depth; /* depth keys of a group beyond DK_NONE (struct dk) */
	size_t ndepth; /* its depth keys in either queue */
	/*
	 * ndepth as of its own last sweep, plus the keys added since: its early
	 * sweep comes when it did with a queue of its own, not later because
	 * the sweeps of other groups took its depth keys (its busy and
	 * submission queues then grew longer: rings32 +1 MB)
	 */
	size_t ntrig;
	uint32_t idx; /* in s->list[kind] until gpulat_stats_finish() sorts it */
	size_t nq; /* busy + submit + ids entries, as counted in s->queued */
	struct rq		busy;		/* start, a = done, b = cpus */
	struct rq		submit;		/* processes: queue time, a = cpu */
	struct rq		ids;		/* rings: the jobs of busy (id_pack()) */
	struct sweep_depth	sd;
	struct sweep_busy	sb;
	struct sweep_gap	sg;
	uint64_t		pending_since;	/* oldest queue_ts of an incomplete job */
	uint64_t gap_done; /* rings: newest done of a complete job (gaps) */
	bool			others;		/* the jobs of groups beyond the cap */
};

/* a submitter's last queue event (gpulat__stats_queued()): k1 = file, k2 = pid */
struct submitter {
	struct gpulat__hnode node;
	uint64_t last_t;
};

struct dwent {
	struct gpulat__hnode	node;
	struct gpulat_depwait	d;
};

struct vec {
	void	**v;
	size_t	n, cap;
};

/* all of them; at most @max, the others share @sink */
struct submitters {
	struct gpulat__htab	h;
	struct vec		list;
	size_t			max;		/* gpulat__cap(GPULAT_CAP_TASKS) */
	struct submitter	sink;
};

struct gpulat_stats {
	struct gpulat_stats_opts o;
	struct gpulat__strtab	*strs;
	struct grp		*last[GPULAT_G__COUNT];	/* the last group of each kind */
	struct gpulat__htab	groups[GPULAT_G__COUNT];
	struct vec		list[GPULAT_G__COUNT];
	struct gpulat__htab	dw;
	struct vec		dwlist;
	struct gpulat_worst	*worst;
	size_t			nworst;
	struct gpulat__topk	stalls;		/* struct gpulat_stall, the longest */
	struct vec		rings;		/* interned ring names, by index (id_pack()) */
	size_t			ring_last;	/* index of the last one looked up */
	uint64_t		stalls_total;
	uint64_t		idle_gaps;	/* submit gaps of idle processes */
	uint64_t		first_ts, last_ts;
	uint64_t		newest_done;
	uint64_t		longest;
	uint64_t longest_busy; /* longest done - start_ts */
	bool			finished;
	/* the session's stall listeners (gpulat__stats_on_stall) */
	void			(*on_stall)(const struct gpulat_stall *st, void *data);
	void			*on_stall_data;
	/* ... and the job entering the worst list (gpulat__stats_on_worst) */
	void			(*on_worst)(const struct gpulat_job *job, void *data);
	void			*on_worst_data;
	bool			swept;		/* stalls looked for already (early sweep) */
	/* gaps over the threshold when they end (gpulat__stats_on_gap) */
	void (*on_gap)(const struct gpulat__gap *g, void *data);
	void *on_gap_data;
	/* the jobs still to come carry no time before this (gpulat__stats_on_horizon()) */
	uint64_t (*horizon)(void *data);
	void *horizon_data;
	struct submitters subs;
	struct kq depth; /* every group's depth keys (struct dk) */
	/* groups per kind at most (gpulat__cap()); the jobs of the others go to others[k] */
	size_t			max_groups;
	struct grp		*others[GPULAT_G__COUNT];
	uint64_t		groups_dropped[GPULAT_G__COUNT];	/* keys sent there */
	/* exact-value slots of all groups' accumulators, against GPULAT_EXACT_BUDGET */
	size_t			exact_slots;
	bool exact_spent; /* once, for good (qacc_add_full()) */
	/* all groups' queued rq entries (grp.nq) and when to sweep them all */
	size_t			queued, queued_max, queued_peak;
	size_t			queued_floor;	/* QUEUED_MAX, or a test's */
	/* 1 << kind: the kinds whose busy union and depth are kept (gpulat__stats_busy_kinds()) */
	unsigned int		busy_kinds;
};

/* ---- helpers -------------------------------------------------------------- */

static int vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 16;
		void **nv = realloc(v->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->n++] = p;
	return 0;
}

static bool tev_less(const struct tev *x, const struct tev *y)
{
	if (x->t != y->t)
		return x->t < y->t;
	return x->a < y->a;	/* depth: done (-1) before queue (+1) */
}

static int heap_push(struct heap *h, const struct tev *e)
{
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : RQ_CAP0;
		struct tev *nv = realloc(h->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		h->v = nv;
		h->cap = cap;
	}
	i = h->n++;
	h->v[i] = *e;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		struct tev tmp;

		if (!tev_less(&h->v[i], &h->v[p]))
			break;
		tmp = h->v[i];
		h->v[i] = h->v[p];
		h->v[p] = tmp;
		i = p;
	}
	return 0;
}

static struct tev heap_pop(struct heap *h)
{
	struct tev top = h->v[0];
	size_t i = 0;

	h->v[0] = h->v[--h->n];
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		struct tev tmp;

		if (l < h->n && tev_less(&h->v[l], &h->v[m]))
			m = l;
		if (r < h->n && tev_less(&h->v[r], &h->v[m]))
			m = r;
		if (m == i)
			break;
		tmp = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = tmp;
		i = m;
	}
	return top;
}

/*
 * Room for one more entry at the end of a full sorted array (struct rq,
 * struct kq) of live entries v[*head .. *n - 1]: when at least half is
 * popped, move the live ones down (amortized O(1)), else double it.
 * Return: the array (moved by realloc), NULL on ENOMEM (@v unchanged).
 */
static void *arr_room(void *v, size_t *head, size_t *n, size_t *cap, size_t esz)
{
	size_t ncap;

	if (*head && *head >= *n / 2) {
		memmove(v, (unsigned char *)v + *head * esz, (*n - *head) * esz);
		*n -= *head;
		*head = 0;
		return v;
	}
	ncap = *cap ? *cap * 2 : RQ_CAP0;
	v = realloc(v, ncap * esz);
	if (v)
		*cap = ncap;
	return v;
}

static void rq_free(struct rq *q)
{
	free(q->v);
	free(q->late.v);
}

static size_t rq_len(const struct rq *q)
{
	return q->n - q->head + q->late.n;
}

/* @g's busy, submission and id entries: what grp.nq counts in s->queued */
static size_t grp_queued(const struct grp *g)
{
	return rq_len(&g->busy) + rq_len(&g->submit) + rq_len(&g->ids);
}

static int rq_push(struct rq *q, const struct tev *e)
{
	size_t i;

	if (q->n == q->cap) {
		struct tev *nv = arr_room(q->v, &q->head, &q->n, &q->cap, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		q->v = nv;
	}
	for (i = q->n; i > q->head && tev_less(e, &q->v[i - 1]); i--)
		if (q->n - i >= RQ_SHIFT)
			return heap_push(&q->late, e);
	if (i < q->n)
		memmove(&q->v[i + 1], &q->v[i], (q->n - i) * sizeof(*q->v));
	q->v[i] = *e;
	q->n++;
	return 0;
}

/* the smallest entry, NULL when empty */
static const struct tev *rq_peek(const struct rq *q)
{
	const struct tev *e = q->head < q->n ? &q->v[q->head] : NULL;

	if (q->late.n && (!e || tev_less(&q->late.v[0], e)))
		return &q->late.v[0];
	return e;
}

/* remove the smallest entry (the queue is not empty) */
static struct tev rq_pop(struct rq *q)
{
	struct tev e;

	if (q->late.n && (q->head == q->n || tev_less(&q->late.v[0], &q->v[q->head])))
		return heap_pop(&q->late);
	e = q->v[q->head++];
	if (q->head == q->n)
		q->head = q->n = 0;
	return e;
}

static void kq_free(struct kq *q)
{
	free(q->v);
	free(q->late);
}

static int kq_late_push(struct kq *q, struct dk k)
{
	size_t i;

	if (q->nlate == q->caplate) {
		size_t cap = q->caplate ? q->caplate * 2 : RQ_CAP0;
		struct dk *nv = realloc(q->late, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		q->late = nv;
		q->caplate = cap;
	}
	for (i = q->nlate++; i > 0 && k.k < q->late[(i - 1) / 2].k; i = (i - 1) / 2)
		q->late[i] = q->late[(i - 1) / 2];
	q->late[i] = k;
	return 0;
}

static struct dk kq_late_pop(struct kq *q)
{
	struct dk top = q->late[0], x = q->late[--q->nlate];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < q->nlate) {
		if (c + 1 < q->nlate && q->late[c + 1].k < q->late[c].k)
			c++;
		if (q->late[c].k >= x.k)
			break;
		q->late[i] = q->late[c];
		i = c;
	}
	if (q->nlate)
		q->late[i] = x;
	return top;
}

static int kq_push(struct kq *q, uint64_t key, uint64_t gi)
{
	struct dk k = { .k = key, .gi = gi };
	size_t i;

	if (q->n == q->cap) {
		struct dk *nv = arr_room(q->v, &q->head, &q->n, &q->cap, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		q->v = nv;
	}
	for (i = q->n; i > q->head && key < q->v[i - 1].k; i--)
		if (q->n - i >= RQ_SHIFT)
			return kq_late_push(q, k);
	if (i < q->n)
		memmove(&q->v[i + 1], &q->v[i], (q->n - i) * sizeof(*q->v));
	q->v[i] = k;
	q->n++;
	return 0;
}

/* the smallest key into @k; false when empty */
static bool kq_peek(const struct kq *q, uint64_t *k)
{
	if (q->head < q->n) {
		*k = q->v[q->head].k;
		if (q->nlate && q->late[0].k < *k)
			*k = q->late[0].k;
		return true;
	}
	if (q->nlate) {
		*k = q->late[0].k;
		return true;
	}
	return false;
}

/* remove the smallest key (the queue is not empty) */
static struct dk kq_pop(struct kq *q)
{
	struct dk k;

	if (q->nlate && (q->head == q->n || q->late[0].k < q->v[q->head].k))
		return kq_late_pop(q);
	k = q->v[q->head++];
	if (q->head == q->n)
		q->head = q->n = 0;
	return k;
}

static const char *sstr(struct gpulat_stats *s, const char *str)
{
	const char *r = gpulat__strtab_intern(s->strs, str ? str : "");

	return r ? r : "";
}

/* ---- stalls --------------------------------------------------------------- */

static uint64_t stall_gap(const struct gpulat_stall *st)
{
	return st->end_ts - st->start_ts;
}

/* shortest gap on top; on equal gaps the later stall (it goes first) */
static bool stall_less(const void *x, const void *y)
{
	const struct gpulat_stall *a = x, *b = y;

	if (stall_gap(a) != stall_gap(b))
		return stall_gap(a) < stall_gap(b);
	return a->start_ts > b->start_ts;
}

/*
 * Keep the GPULAT_STALLS_KEPT longest stalls (every report lists the longest
 * first), counting all of them: memory does not grow with the trace.
 * gpulat_stats_finish() puts the kept ones back in time order.
 */
static void add_stall(struct gpulat_stats *s, const struct gpulat_stall *st)
{
	s->stalls_total++;
	if (s->on_stall)
		s->on_stall(st, s->on_stall_data);
	/* ENOMEM: the stall is counted, not listed */
	gpulat__topk_add(&s->stalls, st);
}

/*
 * The gaps over the threshold in force when they end, said then to what
 * explains them (gpulat__stats_on_gap(): the diagnosis reads the context
 * around a gap while the trace still shows it). Which of them are stalls is
 * decided at the sweep (sweep_submit_one(), sweep_busy_one()), with the final
 * threshold and the process's pace; until then the threshold may still change
 * (gpulat_stats_set_stall_threshold()), and the gaps said before it did keep
 * the threshold of their time.
 *
 * Submit gaps: every queue event of a job (the tracker's queued hook), per
 * (file, pid) before the filters, in time order. At most subs.max
 * submitters (gpulat__cap(GPULAT_CAP_TASKS), the diagnosis' task cap); the
 * others share one entry.
 */
int gpulat__stats_queued(struct gpulat_stats *s, const struct gpulat_event *ev)
{
	uint64_t k1 = (uint64_t)(uint32_t)ev->file, k2 = (uint64_t)(uint32_t)ev->pid;
	struct gpulat__hnode *n = gpulat__htab_find(&s->subs.h, k1, k2);
	struct submitter *u;

	if (n) {
		u = gpulat_container_of(n, struct submitter, node);
	} else if (s->subs.h.n >= s->subs.max) {
		u = &s->subs.sink;
	} else {
		u = calloc(1, sizeof(*u));
		if (!u)
			return -ENOMEM;
		u->last_t = GPULAT_NONE;
		if (gpulat__htab_insert(&s->subs.h, &u->node, k1, k2)) {
			free(u);
			return -ENOMEM;
		}
		if (vec_push(&s->subs.list, u)) {
			gpulat__htab_remove(&s->subs.h, &u->node);
			free(u);
			return -ENOMEM;
		}
	}
	if (s->on_gap && u->last_t != GPULAT_NONE && ev->ts > u->last_t &&
	    ev->ts - u->last_t > s->o.stall_threshold_ns) {
		struct gpulat__gap g = {
			.kind = GPULAT_STALL_SUBMIT_GAP,
			.file = ev->file,
			.pid = ev->pid,
			.cpu = ev->cpu,
			.from = u->last_t,
			.to = ev->ts,
		};

		s->on_gap(&g, s->on_gap_data);
	}
	if (u->last_t == GPULAT_NONE || ev->ts > u->last_t)
		u->last_t = ev->ts;
	return 0;
}

void gpulat__stats_move_submitters(struct gpulat_stats *to, struct gpulat_stats *from)
{
	struct submitters t = to->subs;

	to->subs = from->subs;
	from->subs = t;
}

void gpulat__stats_set_queued_max(struct gpulat_stats *s, size_t max)
{
	s->queued_floor = s->queued_max = max ? max : QUEUED_MAX;
}

/*
 * Busy union and depth for the groups of the kinds in @kinds only (1 <<
 * enum gpulat_group_kind), before the first job; the others' busy_ns,
 * busy_pct, max_depth and avg_depth stay 0. The session's report has them
 * for rings and devices only (report-fields.c): for 10^4 processes and
 * clients they were a busy entry per complete job and two depth keys per job
 * of each, in queues swept at every sweep of all groups.
 */
void gpulat__stats_busy_kinds(struct gpulat_stats *s, unsigned int kinds)
{
	s->busy_kinds = kinds;
}

void gpulat__stats_queue_len(const struct gpulat_stats *s, size_t *peak, size_t *now, size_t *held)
{
	size_t i;
	int k;

	*peak = s->queued_peak;
	*now = s->queued;
	*held = 0;
	for (k = 0; k < GPULAT_G__COUNT; k++)
		for (i = 0; i < s->list[k].n; i++)
			*held += grp_queued(s->list[k].v[i]);
}

/* @q's exact-value slots: its cap, which in coarse mode counts entries */
static inline uint32_t qacc_exact_cap(const struct gpulat__qacc *q)
{
	return gpulat__qmode_hist(q->mode) ? 0 : q->cap;
}

void gpulat__stats_exact_slots(const struct gpulat_stats *s, size_t *counted, size_t *held,
			       size_t *big)
{
	size_t i;
	int k, m;

	*counted = s->exact_slots;
	*held = *big = 0;
	for (k = 0; k < GPULAT_G__COUNT; k++)
		for (i = 0; i < s->list[k].n; i++) {
			const struct grp *g = s->list[k].v[i];

			for (m = 0; g->q && m < GPULAT_M__COUNT; m++) {
				uint32_t cap = qacc_exact_cap(&g->q[m]);

				*held += cap;
				if (cap > GPULAT_EXACT_KEEP)
					*big += cap;
			}
		}
}

size_t gpulat__stats_value_bytes(const struct gpulat_stats *s)
{
	size_t i, n = 0;
	int k, m;

	for (k = 0; k < GPULAT_G__COUNT; k++)
		for (i = 0; i < s->list[k].n; i++) {
			const struct grp *g = s->list[k].v[i];

			n += g->caprows * sizeof(*g->rows);
			for (m = 0; g->q && m < GPULAT_M__COUNT; m++)
				n += sizeof(g->q[m]) + gpulat__qacc_bytes(&g->q[m]);
		}
	return n;
}

int gpulat__group_qmode(const struct gpulat_group *g, enum gpulat_metric m, size_t *bytes)
{
	const struct grp *gg = gpulat_container_of(g, struct grp, g);

	*bytes = gg->q ? gpulat__qacc_bytes(&gg->q[m]) : 0;
	return gg->q ? gg->q[m].mode : GPULAT_QM_V64;
}

/*
 * Ring idle: a complete job of a ring that started over the threshold after
 * the newest done of the ring's complete jobs before it (in the order they
 * reach the statistics); the rings beyond the group cap are not followed.
 */
static void ring_gap(struct gpulat_stats *s, struct grp *g, const struct gpulat_job *j)
{
	uint64_t start = j->start_ts, done = j->ts[GPULAT_ST_DONE];

	/* nobody to explain gaps to (no diagnosis): nothing to follow */
	if (!s->on_gap || g->others || j->status != GPULAT_JOB_COMPLETE || start == GPULAT_NONE ||
	    done == GPULAT_NONE || !j->ring)
		return;
	if (g->gap_done != GPULAT_NONE && start > g->gap_done &&
	    start - g->gap_done > s->o.stall_threshold_ns) {
		struct gpulat__gap gap = {
			.kind = GPULAT_STALL_RING_IDLE,
			.file = j->file,
			.pid = j->pid,
			.cpu = j->cpu[GPULAT_ST_QUEUE],
			.from = g->gap_done,
			.to = start,
			.job = j,
		};

		s->on_gap(&gap, s->on_gap_data);
	}
	if (g->gap_done == GPULAT_NONE || done > g->gap_done)
		g->gap_done = done;
}

/* ---- sweeps --------------------------------------------------------------- */

static void sweep_depth_one(struct grp *g, uint64_t key)
{
	struct sweep_depth *d = &g->sd;
	struct tev one = { .t = key >> 1, .a = key & 1 ? 1 : -1 };
	const struct tev *e = &one;

	if (d->started && e->t > d->last_t)
		d->area += (long double)d->cur * (long double)(e->t - d->last_t);
	if (!d->started || e->t > d->last_t)
		d->last_t = e->t;
	d->started = true;
	d->cur += e->a;
	if (d->cur > d->best)
		d->best = d->cur;
}

/*
 * The job of a stall-ending entry in 32 + 64 bits (issue 16: every stall row
 * names its job as `trace-cmd report` does, gpulat_job_identity()):
 *   6.17+ / dma_fence:  hi = fence ctx, lo = seqno
 *   before 6.17:        hi = ID_PTR | ring index << 16 | fence handle,
 *                       lo = id, or ID_LO_GEN | ptr_gen << 40 | id for an
 *                       id below 2^40 and a generation below 2^23 (job ids
 *                       count from 1; a larger one is named without it)
 *   unknown:            hi = ID_NONE (also a ctx or ring index too large to
 *                       pack: 2^31 fence contexts, 2^15 rings; named "-")
 * A submit entry holds it in the upper half of its cpu word and its free b
 * word (it stays 24 bytes: bench_inflight_rss); a ring's busy entries have
 * no room, their jobs go into the ring's ids queue (a = hi, b = lo).
 */
#define ID_PTR		0x80000000U
#define ID_NONE		0x7fffffffU
#define ID_LO_ID	(1ULL << 40)
#define ID_LO_GEN	(1ULL << 63)

static uint32_t ring_index(struct gpulat_stats *s, const char *ring)
{
	size_t i;

	if (s->ring_last < s->rings.n && s->rings.v[s->ring_last] == ring)
		return (uint32_t)s->ring_last;
	for (i = 0; i < s->rings.n && i < 0x8000; i++)
		if (s->rings.v[i] == ring)
			return (uint32_t)(s->ring_last = i);
	if (i == 0x8000 || vec_push(&s->rings, (void *)ring))
		return ID_NONE;
	return (uint32_t)(s->ring_last = s->rings.n - 1);
}

static uint32_t id_pack(struct gpulat_stats *s, const struct gpulat_job *j, uint64_t *lo)
{
	uint32_t r;

	*lo = 0;
	if (j->fence_ptr && j->fence_ptr != GPULAT_NONE) {
		r = ring_index(s, sstr(s, j->ring));
		if (r == ID_NONE)
			return ID_NONE;
		*lo = j->id;
		if (j->id < ID_LO_ID && j->ptr_gen && j->ptr_gen < (1U << 23))
			*lo |= ID_LO_GEN | (uint64_t)j->ptr_gen << 40;
		return ID_PTR | r << 16 | gpulat_ptr_handle(j->fence_ptr);
	}
	if (j->ctx < ID_NONE) {
		*lo = j->seqno;
		return (uint32_t)j->ctx;
	}
	return ID_NONE;
}

/* the stall names the job packed in @hi, @lo (of the entry that ended it) */
static void stall_job(struct gpulat_stats *s, struct gpulat_stall *st, uint32_t hi, uint64_t lo)
{
	st->job_ring = NULL;
	st->job_ctx = GPULAT_NONE;
	st->job_seqno = 0;
	st->job_id = GPULAT_NONE;
	st->job_handle = -1;
	st->job_ptr_gen = 0;
	if (hi == ID_NONE)
		return;
	if (hi & ID_PTR) {
		st->job_ring = s->rings.v[(hi >> 16) & 0x7fff];
		st->job_handle = (int)(hi & 0xffff);
		st->job_id = lo;
		if (lo != GPULAT_NONE && (lo & ID_LO_GEN)) {
			st->job_id = lo & (ID_LO_ID - 1);
			st->job_ptr_gen = (uint32_t)((lo & ~ID_LO_GEN) >> 40);
		}
	} else {
		st->job_ctx = hi;
		st->job_seqno = lo;
	}
}

/*
 * submit entries: a = the cpu in the upper half (submissions at the same
 * time still sort by cpu, tev_less()), the job's hi in the lower one
 */
static int64_t submit_a(int cpu, uint32_t hi)
{
	return (int64_t)((uint64_t)(int64_t)cpu << 32 | hi);
}

static int submit_cpu(const struct tev *e)
{
	return (int32_t)(uint32_t)((uint64_t)e->a >> 32);
}

static uint32_t submit_hi(const struct tev *e)
{
	return (uint32_t)((uint64_t)e->a & 0xffffffff);
}

static void sweep_busy_one(struct gpulat_stats *s, struct grp *g, const struct tev *e,
			   const struct tev *id)
{
	struct sweep_busy *b = &g->sb;
	uint64_t start = e->t, end = (uint64_t)e->a;
	int start_cpu = (int)(e->b & 0xffffffff), end_cpu = (int)(e->b >> 32);

	if (b->any && start <= b->end) {
		if (end > b->end) {
			b->end = end;
			b->end_cpu = end_cpu;
		}
		return;
	}
	if (b->any) {
		b->busy += b->end - b->start;
		if (g->g.kind == GPULAT_G_RING && start - b->end > s->o.stall_threshold_ns) {
			struct gpulat_stall st = {
				.kind = GPULAT_STALL_RING_IDLE, .dev = g->g.dev, .ring = g->g.ring,
				.pid = -1, .comm = NULL, .start_ts = b->end, .end_ts = start,
				.start_cpu = b->end_cpu, .end_cpu = start_cpu,
			};

			stall_job(s, &st, (uint32_t)id->a, id->b);
			add_stall(s, &st);
		}
	}
	b->any = true;
	b->start = start;
	b->end = end;
	b->end_cpu = end_cpu;
}

static uint64_t burst_ns(const struct gpulat_stats *s)
{
	uint64_t b = s->o.stall_threshold_ns / 16;

	return b < PACE_BURST_NS ? b : PACE_BURST_NS;
}

static void pace_add(struct sweep_gap *p, uint64_t iv)
{
	p->iv[p->pos] = iv;
	p->pos = (p->pos + 1) % PACE_N;
	if (p->niv < PACE_N)
		p->niv++;
}

/*
 * Classify a submission gap of a process longer than the threshold (issue
 * 16, docs/gpu-latency.md "Stalls"). The pace is the process's last PACE_N
 * burst intervals, lo..hi, median med:
 *  - IDLE when the process had no steady pace before the gap: fewer than
 *    PACE_MIN intervals, or irregular ones (hi > 2 lo): a background
 *    client, a compositor that draws when something changes. Counted in
 *    gpulat_stats_idle_gaps(), never listed as a stall.
 *  - JITTER when the gap is at most 1.5 med: a 60 Hz client whose frames
 *    come 16.4-17.0 ms apart does not stall at 16.9 ms, nor a steady
 *    30 Hz client at every frame. Not reported.
 *  - a STALL otherwise: the process was submitting steadily and missed at
 *    least half a period more (a 60 Hz client: a gap over 25 ms).
 * Every interval but a stall's enters the pace, so one stall does not hide
 * the next, and a sporadic client stays irregular.
 */
enum gap_kind { GAP_IDLE, GAP_JITTER, GAP_STALL };

static enum gap_kind classify_gap(const struct sweep_gap *p, uint64_t gap)
{
	uint64_t v[PACE_N], x;
	unsigned int i, k;

	if (p->niv < PACE_MIN)
		return GAP_IDLE;
	/* insertion sort of at most 8 values */
	for (i = 0; i < p->niv; i++) {
		x = p->iv[i];
		for (k = i; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
	if (v[p->niv - 1] > 2 * v[0])
		return GAP_IDLE;
	/* the lower median for an even count */
	x = v[(p->niv - 1) / 2];
	return gap <= x + x / 2 ? GAP_JITTER : GAP_STALL;
}

static void sweep_submit_one(struct gpulat_stats *s, struct grp *g, const struct tev *e)
{
	struct sweep_gap *p = &g->sg;
	uint64_t gap = p->any && e->t > p->last_t ? e->t - p->last_t : 0;

	if (gap > s->o.stall_threshold_ns) {
		struct gpulat_stall st = {
			.kind = GPULAT_STALL_SUBMIT_GAP,
			.dev = NULL,
			.ring = NULL,
			.pid = g->g.pid,
			.comm = g->g.comm,
			.start_ts = p->last_t,
			.end_ts = e->t,
			.start_cpu = p->last_cpu,
			.end_cpu = submit_cpu(e),
		};

		switch (classify_gap(p, gap)) {
		case GAP_IDLE:
			s->idle_gaps++;
			g->g.idle_gaps++;
			pace_add(p, gap);
			break;
		case GAP_JITTER:
			pace_add(p, gap);
			break;
		case GAP_STALL:
			stall_job(s, &st, submit_hi(e), e->b);
			add_stall(s, &st);
			break;
		}
	} else if (gap >= burst_ns(s)) {
		pace_add(p, gap);
	}
	if (!p->any || e->t > p->last_t) {
		p->last_t = e->t;
		p->last_cpu = submit_cpu(e);
	}
	p->any = true;
}

/*
 * every group's depth keys with t < @until: a done (-1) before a queue (+1)
 * at the same time (kq_key); each group sees its keys in the order a queue
 * of its own gave them
 */
static void sweep_depth(struct gpulat_stats *s, uint64_t until)
{
	uint64_t k;

	while (kq_peek(&s->depth, &k) && (k >> 1) < until) {
		struct dk d = kq_pop(&s->depth);
		int kind;

		for (kind = 0; kind < GPULAT_G__COUNT; kind++) {
			uint32_t x = (uint32_t)(d.gi >> (DK_BITS * kind)) & DK_NONE;
			struct grp *g;

			if (x == DK_NONE)
				continue;
			g = s->list[kind].v[x];
			g->ndepth--;
			sweep_depth_one(g, d.k);
		}
	}
}

/* @g's queue entries into s->queued (its peak kept for the tests) */
static void queued_update(struct gpulat_stats *s, struct grp *g)
{
	size_t n = grp_queued(g);

	s->queued = s->queued - g->nq + n;
	g->nq = n;
	if (s->queued > s->queued_peak)
		s->queued_peak = s->queued;
}

/*
 * sweep every queued depth and submission entry with t < @until, every busy
 * entry with t < @until_busy (all if GPULAT_NONE)
 */
static void sweep(struct gpulat_stats *s, struct grp *g, uint64_t until, uint64_t until_busy)
{
	const struct tev *p;
	struct tev e, id = { .a = ID_NONE };
	uint64_t k;

	sweep_depth(s, until);
	while (kq_peek(&g->depth, &k) && (k >> 1) < until) {
		g->ndepth--;
		sweep_depth_one(g, kq_pop(&g->depth).k);
	}
	g->ntrig = g->ndepth;
	/*
	 * a ring's ids hold the times of its busy entries in the same order:
	 * the n-th popped is the job of the n-th busy entry (of two that started
	 * at the very same time, either)
	 */
	while ((p = rq_peek(&g->busy)) && p->t < until_busy) {
		e = rq_pop(&g->busy);
		if (g->g.kind == GPULAT_G_RING && rq_len(&g->ids))
			id = rq_pop(&g->ids);
		sweep_busy_one(s, g, &e, &id);
	}
	while ((p = rq_peek(&g->submit)) && p->t < until) {
		e = rq_pop(&g->submit);
		sweep_submit_one(s, g, &e);
	}
	queued_update(s, g);
}

/*
 * Jobs come out of the tracker at their done (+ the signal linger, 10 ms by
 * default), so nothing older than the newest done minus the longest job and
 * some slack should still arrive.
 */
static uint64_t watermark(const struct gpulat_stats *s)
{
	uint64_t h = 2 * s->longest + 50000000ULL;

	return s->newest_done > h ? s->newest_done - h : 0;
}

/*
 * What the tracker knows: no job still to come has a time before its
 * horizon (gpulat__tracker_horizon(), the oldest time of its open jobs),
 * give or take per-cpu clocks that go back (the same 50 ms of slack). In a
 * growing backlog the longest job grows with the trace, and so did what
 * the watermark holds (two completed jobs' entries per job in flight,
 * bench/inflight-rss); the horizon stays at the oldest job in flight. The
 * sweep goes to the later of the two, so where the watermark swept more
 * (a job open for longer than twice the longest one, say a hang) nothing
 * changes either.
 */
static uint64_t horizon(struct gpulat_stats *s)
{
	uint64_t h = s->horizon ? s->horizon(s->horizon_data) : 0;

	return h > 50000000ULL ? h - 50000000ULL : 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

/*
 * The same for the busy entries, keyed by start_ts: a job still to come has
 * its done near the newest done at the latest, and its start no earlier than
 * its done minus the longest execution. In a growing backlog the longest job
 * (queue to done) grows with the trace and holds every depth entry since;
 * the execution does not, so the busy entries drain (backlog shape, a
 * tenth: the busy queues were 5.9 MB of the 24 MB peak heap, massif).
 */
static uint64_t watermark_busy(const struct gpulat_stats *s)
{
	uint64_t h = 2 * s->longest_busy + 50000000ULL;

	return s->newest_done > h ? s->newest_done - h : 0;
}

/* ---- groups --------------------------------------------------------------- */

static void key_of(enum gpulat_group_kind k, const struct gpulat_job *j,
		   const char *dev, const char *ring, const char *comm,
		   uint64_t *k1, uint64_t *k2)
{
	switch (k) {
	case GPULAT_G_RING:
		*k1 = (uintptr_t)dev ^ ((uint64_t)(uint32_t)j->file << 56);
		*k2 = (uintptr_t)ring;	/* the address label when there is one */
		break;
	case GPULAT_G_PROCESS:
		*k1 = (uint64_t)(uint32_t)j->pid;
		*k2 = (uintptr_t)comm;
		break;
	case GPULAT_G_CLIENT:
		*k1 = j->client_id;
		*k2 = (uintptr_t)dev;
		break;
	default:
		*k1 = (uintptr_t)dev;
		*k2 = 0;
		break;
	}
}

static struct grp *new_group(enum gpulat_group_kind k)
{
	struct grp *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->g.kind = k;
	g->g.pid = -1;
	g->g.client_id = GPULAT_NONE;
	g->g.last_done_ts = GPULAT_NONE;
	g->pending_since = GPULAT_NONE;
	g->gap_done = GPULAT_NONE;
	return g;
}

/*
 * One value into @q, whose exact array is full: the set's budget of exact
 * values (GPULAT_EXACT_BUDGET slots, counted as the arrays are allocated:
 * 4, 8, ... GPULAT_EXACT_MAX, each doubling) decides. Under GPULAT_EXACT_KEEP
 * values (a group's rows) the array always grows. From there it grows only
 * if the set stays within the budget, else the metric goes to a histogram
 * now rather than at GPULAT_EXACT_MAX (quantiles marked approximate): with
 * GPULAT_FINE_FROM values or more to the fine one (GPULAT_REL_ERROR, about
 * the memory of the array it replaces), with fewer to the coarse one
 * (GPULAT_COARSE_ERROR, 2-4 bytes a bucket filled); a ring's or device's
 * (@owner false) keeps growing up to GPULAT_FINE_FROM instead. So the exact
 * arrays past GPULAT_EXACT_KEEP, all together, never hold more than the
 * budget plus rings and devices times GPULAT_FINE_FROM, and a
 * set of 10^4 small groups keeps memory that stops growing with the trace
 * (shape-procs10k: their exact values grew ~70 MB from 5 M to 50 M events).
 * A metric stays coarse for good: its old values are binned at 1/16.
 *
 * The budget is spent for good, too: the slots a conversion gives back
 * would let the arrays still exact grow, one after the other, up to
 * GPULAT_FINE_FROM and then into a fine histogram of ~1 KiB a power of two
 * each (tests/lib/test_coarse: +30 % of the values' memory from 300 to 1200
 * jobs a process). So past it, the fine histogram takes only arrays that
 * held GPULAT_FINE_FROM values when it was spent: at most
 * GPULAT_EXACT_BUDGET / GPULAT_FINE_FROM of them.
 */
static int qacc_add_full(struct gpulat_stats *s, struct gpulat__qacc *q, bool owner, uint64_t v,
			 uint64_t at, int cpu, uint64_t seq)
{
	uint32_t cap = q->cap;
	int ret;

	/*
	 * Rings and devices are few whatever the trace's length: below
	 * GPULAT_FINE_FROM their arrays keep growing past the budget (exact), so
	 * only process and client metrics, 10^4 of them on a fleet trace, ever
	 * go coarse.
	 */
	if (q->nv >= GPULAT_EXACT_KEEP && q->nv < GPULAT_EXACT_MAX &&
	    (owner || q->nv >= GPULAT_FINE_FROM) &&
	    (s->exact_spent || s->exact_slots + q->cap > GPULAT_EXACT_BUDGET)) {
		s->exact_spent = true;
		if (q->nv >= GPULAT_FINE_FROM)
			ret = gpulat__qacc_to_hist(q);
		else
			ret = gpulat__qacc_to_coarse(q);
		if (!ret)
			ret = gpulat__qacc_add_hist(q, v, at, cpu, seq);
	} else {
		ret = gpulat__qacc_add_slow(q, v, at, cpu, seq);
	}
	/* grown, moved to a histogram (no slots) or, on -ENOMEM, either or neither */
	s->exact_slots = s->exact_slots - cap + qacc_exact_cap(q);
	return ret;
}

/*
 * one complete job's metrics @val (GPULAT_NONE: none) into @q[GPULAT_M__COUNT];
 * the budget is asked only where an exact array is full, so a value with room
 * costs what gpulat__qacc_add() does (the repeated nv < cap folds into its own)
 */
static inline int qacc_add_all(struct gpulat_stats *s, struct gpulat__qacc *q, bool owner,
			       const uint64_t *val, uint64_t at, int cpu, uint64_t seq)
{
	int m, ret = 0;

	for (m = 0; m < GPULAT_M__COUNT; m++) {
		if (val[m] == GPULAT_NONE)
			continue;
		if (q[m].nv < q[m].cap || gpulat__qmode_hist(q[m].mode))
			ret |= gpulat__qacc_add(&q[m], val[m], at, cpu, seq);
		else
			ret |= qacc_add_full(s, &q[m], owner, val[m], at, cpu, seq);
	}
	return ret;
}

/* exact-value slots of @q[GPULAT_M__COUNT] (0 in histogram mode) */
static size_t qacc_slots(const struct gpulat__qacc *q)
{
	size_t n = 0;
	int m;

	for (m = 0; m < GPULAT_M__COUNT; m++)
		n += qacc_exact_cap(&q[m]);
	return n;
}

/*
 * replay @g's rows into @q[GPULAT_M__COUNT] (initialized here); with @buf
 * (ROWS_MAX values per metric) the values go there, no allocation and no
 * gpulat__qacc_fini(): 64-bit exact values with room never reallocate
 * (quantile.c). callgrind -j1, mx7_procs10k 2 M events: the finish's
 * summaries of 2 x 10^4 small groups 146.6 -> 110.8 M instructions.
 */
static int rows_replay(const struct grp *g, struct gpulat__qacc *q, uint64_t (*buf)[ROWS_MAX])
{
	uint32_t r;
	int m, ret = 0;

	for (m = 0; m < GPULAT_M__COUNT; m++) {
		gpulat__qacc_init(&q[m]);
		if (buf) {
			q[m].mode = GPULAT_QM_V64;
			q[m].v = buf[m];
			q[m].cap = ROWS_MAX;
		}
	}
	/*
	 * ROWS_MAX values per metric, far under GPULAT_EXACT_KEEP: no budget to
	 * ask (rows_to_qacc() counts the slots)
	 */
	for (r = 0; r < g->nrows; r++) {
		const struct vrow *w = &g->rows[r];

		for (m = 0; m < GPULAT_M__COUNT; m++)
			if (w->v[m] != GPULAT_NONE)
				ret |= gpulat__qacc_add(&q[m], w->v[m], w->at, w->cpu, w->seq);
	}
	return ret;
}

static void qacc_fini_all(struct gpulat__qacc *q)
{
	int m;

	for (m = 0; m < GPULAT_M__COUNT; m++)
		gpulat__qacc_fini(&q[m]);
}

/* a group past ROWS_MAX jobs: accumulators from its rows, then no rows */
static int rows_to_qacc(struct gpulat_stats *s, struct grp *g)
{
	struct gpulat__qacc *q = malloc(GPULAT_M__COUNT * sizeof(*q));

	if (!q)
		return -ENOMEM;
	if (rows_replay(g, q, NULL)) {
		qacc_fini_all(q);
		free(q);
		return -ENOMEM;
	}
	g->q = q;
	s->exact_slots += qacc_slots(q);
	free(g->rows);
	g->rows = NULL;
	g->nrows = g->caprows = 0;
	return 0;
}

/* one complete job's metrics @val (GPULAT_NONE: none) */
static int group_values(struct gpulat_stats *s, struct grp *g, const uint64_t *val, uint64_t at,
			int at_cpu, uint64_t seq)
{
	struct vrow *w;

	if (!g->q && g->nrows == ROWS_MAX && rows_to_qacc(s, g))
		return -ENOMEM;
	if (g->q)
		return qacc_add_all(s, g->q,
				    g->g.kind == GPULAT_G_PROCESS || g->g.kind == GPULAT_G_CLIENT,
				    val, at, at_cpu, seq);
	if (g->nrows == g->caprows) {
		uint32_t cap = g->caprows ? g->caprows * 2 : ROWS_CAP0;

		w = realloc(g->rows, cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		g->rows = w;
		g->caprows = cap;
	}
	w = &g->rows[g->nrows++];
	memcpy(w->v, val, sizeof(w->v));
	w->at = at;
	w->seq = seq;
	w->cpu = at_cpu;
	return 0;
}

/*
 * Over the cap (hostile traces: 10^6 process or ring names), a new key's jobs
 * go to the one "(others)" group of the kind: every job stays counted and the
 * memory bounded; the session says it once (gpulat_stats_groups_dropped()).
 * It is never s->last[k]: its node keys are not a key of its jobs.
 */
static struct grp *others_group(struct gpulat_stats *s, enum gpulat_group_kind k)
{
	struct grp *g = s->others[k];

	s->groups_dropped[k]++;
	if (g)
		return g;
	g = new_group(k);
	if (!g)
		return NULL;
	g->others = true;
	g->g.dev = sstr(s, k == GPULAT_G_DEVICE ? GPULAT_GROUP_OTHERS : "");
	g->g.ring = k == GPULAT_G_RING ? sstr(s, GPULAT_GROUP_OTHERS) : NULL;
	g->g.comm = k == GPULAT_G_PROCESS ? sstr(s, GPULAT_GROUP_OTHERS) : NULL;
	g->g.pid = k == GPULAT_G_PROCESS ? 0 : -1;
	if (vec_push(&s->list[k], g)) {
		free(g);
		return NULL;
	}
	g->idx = (uint32_t)(s->list[k].n - 1);
	s->others[k] = g;
	return g;
}

static struct grp *get_group(struct gpulat_stats *s, enum gpulat_group_kind k,
			     const struct gpulat_job *j, const char *dev, const char *ring,
			     const char *comm)
{
	struct gpulat__hnode *n;
	struct grp *g;
	uint64_t k1, k2;

	key_of(k, j, dev, ring, comm, &k1, &k2);
	g = s->last[k];
	if (g && g->node.k1 == k1 && g->node.k2 == k2)
		return g;
	n = gpulat__htab_find(&s->groups[k], k1, k2);
	if (n) {
		g = gpulat_container_of(n, struct grp, node);
		s->last[k] = g;
		return g;
	}
	if (s->groups[k].n >= s->max_groups)
		return others_group(s, k);
	g = new_group(k);
	if (!g)
		return NULL;
	g->g.file = k == GPULAT_G_RING ? j->file : 0;
	g->g.dev = dev;
	g->g.ring = k == GPULAT_G_RING ? ring : NULL;
	g->g.pid = k == GPULAT_G_PROCESS ? j->pid : -1;
	g->g.comm = k == GPULAT_G_PROCESS ? comm : NULL;
	g->g.client_id = k == GPULAT_G_CLIENT ? j->client_id : GPULAT_NONE;
	if (gpulat__htab_insert(&s->groups[k], &g->node, k1, k2) || vec_push(&s->list[k], g)) {
		gpulat__htab_remove(&s->groups[k], &g->node);
		free(g);
		return NULL;
	}
	g->idx = (uint32_t)(s->list[k].n - 1);
	s->last[k] = g;
	return g;
}

static void free_group(struct gpulat_stats *s, struct grp *g)
{
	if (g->q) {
		/* the budget's count, given back as qacc_add_full() took it */
		s->exact_slots -= qacc_slots(g->q);
		qacc_fini_all(g->q);
	}
	free(g->q);
	free(g->rows);
	kq_free(&g->depth);
	rq_free(&g->busy);
	rq_free(&g->submit);
	rq_free(&g->ids);
	free(g);
}

#define metric_of gpulat__job_metric

/*
 * Every group swept to the watermark, as one past REORDER_MAX is (the same
 * results: a job reaches the stats before the horizon). What stays queued
 * is the jobs near the horizon; the next sweep of all comes when twice that
 * or QUEUED_MAX is queued, whichever is more, so it costs O(groups) per
 * that many entries at most.
 */
static void sweep_all(struct gpulat_stats *s)
{
	uint64_t h = horizon(s), until = max_u64(watermark(s), h);
	uint64_t until_busy = max_u64(watermark_busy(s), h);
	size_t i;
	int k;

	s->swept = true;
	for (k = 0; k < GPULAT_G__COUNT; k++)
		for (i = 0; i < s->list[k].n; i++)
			sweep(s, s->list[k].v[i], until, until_busy);
	s->queued_max = max_size(2 * s->queued, s->queued_floor);
}

/* @val: the job's metrics (metric_of()), computed once for its groups */
static int group_add(struct gpulat_stats *s, struct grp *g, const struct gpulat_job *j,
		     const uint64_t *val)
{
	uint64_t q = j->ts[GPULAT_ST_QUEUE], d = j->ts[GPULAT_ST_DONE];
	uint64_t at = d != GPULAT_NONE ? d : q;
	int at_cpu = d != GPULAT_NONE ? j->cpu[GPULAT_ST_DONE] : j->cpu[GPULAT_ST_QUEUE];
	int ret = 0;

	g->g.jobs++;
	/*
	 * <= 5.18: the group is the address label; a job handed out before the
	 * tracker learned the ring's name carries the label as its name.
	 */
	if (g->g.kind == GPULAT_G_RING && g->g.ring_ptr && j->ring && j->ring_ptr &&
	    g->g.ring == g->g.ring_ptr && strcmp(j->ring, j->ring_ptr))
		g->g.ring = sstr(s, j->ring);
	switch (j->status) {
	case GPULAT_JOB_COMPLETE:
		g->g.complete++;
		break;
	case GPULAT_JOB_INCOMPLETE:
		g->g.incomplete++;
		if (at != GPULAT_NONE && (g->pending_since == GPULAT_NONE || at < g->pending_since))
			g->pending_since = at;
		break;
	default:
		g->g.lost++;
		break;
	}
	if (j->hang)
		g->g.hangs++;
	if (d != GPULAT_NONE && (g->g.last_done_ts == GPULAT_NONE || d > g->g.last_done_ts))
		g->g.last_done_ts = d;
	if (j->start_ts != GPULAT_NONE && (j->timing & GPULAT_TIMING_START_HW))
		g->g.start_measured++;
	if (d != GPULAT_NONE && (j->timing & GPULAT_TIMING_DONE_LATE))
		g->g.done_late++;
	if (j->exec != GPULAT_NONE && (j->timing & GPULAT_TIMING_EXEC_HW))
		g->g.exec_measured++;
	if (j->status == GPULAT_JOB_COMPLETE) {
		ret |= group_values(s, g, val, at, at_cpu, j->seq);
		if (j->start_ts != GPULAT_NONE && d != GPULAT_NONE && d >= j->start_ts &&
		    (s->busy_kinds & (1U << g->g.kind))) {
			struct tev e = {
				.t = j->start_ts,
				.a = (int64_t)d,
				.b = (uint32_t)j->cpu[GPULAT_ST_RUN] |
				     ((uint64_t)(uint32_t)j->cpu[GPULAT_ST_DONE] << 32),
			};

			ret |= rq_push(&g->busy, &e);
			if (g->g.kind == GPULAT_G_RING) {
				e.a = id_pack(s, j, &e.b);
				ret |= rq_push(&g->ids, &e);
			}
		}
	}
	if (q != GPULAT_NONE) {
		/* no submission cadence for the many processes lumped into "(others)" */
		if (g->g.kind == GPULAT_G_PROCESS && !g->others) {
			struct tev e = { .t = q };

			e.a = submit_a(j->cpu[GPULAT_ST_QUEUE], id_pack(s, j, &e.b));
			ret |= rq_push(&g->submit, &e);
		}
	}
	if (g->ntrig + rq_len(&g->busy) + rq_len(&g->submit) > REORDER_MAX) {
		uint64_t h = horizon(s);

		s->swept = true;
		sweep(s, g, max_u64(watermark(s), h), max_u64(watermark_busy(s), h));
	} else {
		queued_update(s, g);
	}
	if (s->queued > s->queued_max)
		sweep_all(s);
	return ret ? -ENOMEM : 0;
}

/*
 * Depth counts every job queued, from queue_ts to done_ts (exclusive), in
 * each of its groups @gr (NULL: none of that kind): its keys go once into
 * the queue of all groups, before the groups' group_add() (whose early
 * sweep counts them, as when each group had a queue of its own).
 */
static int depth_add(struct gpulat_stats *s, struct grp * const *gr, const struct gpulat_job *j)
{
	uint64_t q = j->ts[GPULAT_ST_QUEUE], d = j->ts[GPULAT_ST_DONE];
	uint64_t gi = 0, none = 0, key[2];
	size_t n = 0, i;
	int k, ret = 0;

	if (q == GPULAT_NONE)
		return 0;
	key[n++] = kq_key(q, true);
	if (d != GPULAT_NONE && d >= q)
		key[n++] = kq_key(d, false);
	for (k = 0; k < GPULAT_G__COUNT; k++) {
		uint64_t x = DK_NONE;

		none |= (uint64_t)DK_NONE << (DK_BITS * k);
		if (gr[k] && (s->busy_kinds & (1U << k))) {
			gr[k]->ndepth += n;
			gr[k]->ntrig += n;
			if (gr[k]->idx < DK_NONE)
				x = gr[k]->idx;
			else
				for (i = 0; i < n; i++)
					ret |= kq_push(&gr[k]->depth, key[i], 0);
		}
		gi |= x << (DK_BITS * k);
	}
	for (i = 0; i < n && gi != none; i++)
		ret |= kq_push(&s->depth, key[i], gi);
	return ret;
}

/* ---- worst jobs and dependency waits -------------------------------------- */

static void add_worst(struct gpulat_stats *s, const struct gpulat_job *j)
{
	uint64_t v = metric_of(j, s->o.worst_by);
	struct gpulat_worst w;
	size_t i;

	if (!s->o.top_n || v == GPULAT_NONE || j->status != GPULAT_JOB_COMPLETE)
		return;
	if (s->nworst == s->o.top_n &&
	    metric_of(&s->worst[s->nworst - 1].job, s->o.worst_by) >= v)
		return;
	memset(&w, 0, sizeof(w));
	w.job = *j;
	w.job.deps = NULL;
	w.job.dev = sstr(s, j->dev);
	w.job.ring = sstr(s, j->ring);
	w.job.comm = sstr(s, j->comm);
	w.job.ring_name = w.job.ring;
	w.job.ring_ptr = j->ring_ptr ? sstr(s, j->ring_ptr) : NULL;
	w.dep_wait = j->dep_wait;
	for (i = 0; i < j->n_deps; i++) {
		if (j->deps[i].ring) {
			w.dep_ring = sstr(s, j->deps[i].ring);
			break;
		}
	}
	/* insertion into the sorted array (largest first, ties: earlier job first) */
	i = s->nworst < s->o.top_n ? s->nworst++ : s->nworst - 1;
	while (i > 0 && metric_of(&s->worst[i - 1].job, s->o.worst_by) < v) {
		s->worst[i] = s->worst[i - 1];
		i--;
	}
	s->worst[i] = w;
	if (s->on_worst)
		s->on_worst(j, s->on_worst_data);
}

static int add_depwaits(struct gpulat_stats *s, const struct gpulat_job *j,
			const char *dev, const char *ring)
{
	uint64_t q = j->ts[GPULAT_ST_QUEUE];
	uint64_t upper = j->wait != GPULAT_NONE ? j->wait : j->total;
	unsigned int i;

	if (j->status != GPULAT_JOB_COMPLETE || q == GPULAT_NONE)
		return 0;
	for (i = 0; i < j->n_deps; i++) {
		const struct gpulat_dep *d = &j->deps[i];
		const char *ddev = d->ring ? sstr(s, d->dev) : NULL;
		const char *dring = d->ring ? sstr(s, d->ring) : NULL;
		struct gpulat__hnode *n;
		struct dwent *e;
		uint64_t w = 0;

		n = gpulat__htab_find(&s->dw, (uintptr_t)dev ^ ((uintptr_t)ddev << 1),
				      (uintptr_t)ring ^ ((uintptr_t)dring << 1));
		for (e = NULL; n; n = gpulat__htab_next(n)) {
			e = gpulat_container_of(n, struct dwent, node);
			if (e->d.dev == dev && e->d.ring == ring && e->d.dep_dev == ddev &&
			    e->d.dep_ring == dring)
				break;
			e = NULL;
		}
		if (!e) {
			e = calloc(1, sizeof(*e));
			if (!e)
				return -ENOMEM;
			e->d.dev = dev;
			e->d.ring = ring;
			e->d.dep_dev = ddev;
			e->d.dep_ring = dring;
			e->d.max_ts = GPULAT_NONE;
			if (gpulat__htab_insert(&s->dw, &e->node,
						(uintptr_t)dev ^ ((uintptr_t)ddev << 1),
						(uintptr_t)ring ^ ((uintptr_t)dring << 1)) ||
			    vec_push(&s->dwlist, e)) {
				free(e);
				return -ENOMEM;
			}
		}
		if (d->signal_ts != GPULAT_NONE && d->signal_ts > q)
			w = d->signal_ts - q;
		if (upper != GPULAT_NONE && w > upper)
			w = upper;
		e->d.count++;
		e->d.total_ns += w;
		if (e->d.max_ts == GPULAT_NONE || w > e->d.max_ns) {
			e->d.max_ns = w;
			e->d.max_ts = q;
		}
	}
	return 0;
}

/* ---- API ------------------------------------------------------------------ */

/**
 * gpulat_stats_opts_init - default options
 * @o: filled: stall threshold one 60 Hz frame (16666667 ns), top 10 jobs by total
 */
/**
 * gpulat_stats_set_stall_threshold - change the stall threshold while adding
 * @s: statistics
 * @ns: the new threshold
 *
 * For a threshold learnt from the trace itself (the refresh interval of the
 * display, lib/frames.c): possible as long as no stall was looked for yet,
 * i.e. before the first early sweep (more than REORDER_MAX queued entries
 * in a group or QUEUED_MAX in all) and before gpulat_stats_finish().
 *
 * Return: 0, or -EBUSY when stalls were already looked for.
 */
int gpulat_stats_set_stall_threshold(struct gpulat_stats *s, uint64_t ns)
{
	if (s->swept || s->finished)
		return -EBUSY;
	s->o.stall_threshold_ns = ns;
	return 0;
}

void gpulat_stats_opts_init(struct gpulat_stats_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->stall_threshold_ns = 16666667;
	o->top_n = 10;
	o->worst_by = GPULAT_M_TOTAL;
}

/**
 * gpulat_stats_new - an empty statistics set
 * @o: options (copied), NULL for the defaults
 *
 * Return: the set, or NULL with errno set.
 */
struct gpulat_stats *gpulat_stats_new(const struct gpulat_stats_opts *o)
{
	struct gpulat_stats *s = calloc(1, sizeof(*s));
	int k;

	if (!s)
		return NULL;
	if (o)
		s->o = *o;
	else
		gpulat_stats_opts_init(&s->o);
	if ((unsigned int)s->o.worst_by >= GPULAT_M__COUNT)
		s->o.worst_by = GPULAT_M_TOTAL;
	s->first_ts = s->last_ts = GPULAT_NONE;
	s->max_groups = gpulat__cap(GPULAT_CAP_GROUPS);
	s->queued_floor = s->queued_max = QUEUED_MAX;
	s->busy_kinds = (1U << GPULAT_G__COUNT) - 1;
	s->subs.max = gpulat__cap(GPULAT_CAP_TASKS);
	s->subs.sink.last_t = GPULAT_NONE;
	s->strs = gpulat__strtab_new();
	if (!s->strs)
		goto fail;
	for (k = 0; k < GPULAT_G__COUNT; k++)
		if (gpulat__htab_init(&s->groups[k], 16))
			goto fail;
	if (gpulat__htab_init(&s->dw, 16) || gpulat__htab_init(&s->subs.h, 16))
		goto fail;
	if (gpulat__topk_init(&s->stalls, sizeof(struct gpulat_stall), GPULAT_STALLS_KEPT,
			      stall_less))
		goto fail;
	if (s->o.top_n) {
		s->worst = calloc(s->o.top_n, sizeof(*s->worst));
		if (!s->worst)
			goto fail;
	}
	return s;
fail:
	gpulat_stats_free(s);
	errno = ENOMEM;
	return NULL;
}

/**
 * gpulat_stats_free - free the set and everything it returned
 * @s: the set, may be NULL
 */
void gpulat_stats_free(struct gpulat_stats *s)
{
	size_t i;
	int k;

	if (!s)
		return;
	for (k = 0; k < GPULAT_G__COUNT; k++) {
		for (i = 0; i < s->list[k].n; i++)
			free_group(s, s->list[k].v[i]);
		free(s->list[k].v);
		gpulat__htab_fini(&s->groups[k]);
	}
	for (i = 0; i < s->dwlist.n; i++)
		free(s->dwlist.v[i]);
	free(s->dwlist.v);
	gpulat__htab_fini(&s->dw);
	for (i = 0; i < s->subs.list.n; i++)
		free(s->subs.list.v[i]);
	free(s->subs.list.v);
	gpulat__htab_fini(&s->subs.h);
	free(s->worst);
	gpulat__topk_fini(&s->stalls);
	free(s->rings.v);
	kq_free(&s->depth);
	gpulat__strtab_free(s->strs);
	free(s);
}

/**
 * gpulat_stats_add - account one job (from the tracker callback)
 * @s: the set
 * @job: the job; its strings are copied
 *
 * Jobs may arrive in any order. Metrics use COMPLETE jobs only; job counts,
 * depth and submission gaps use every job.
 *
 * Return: 0, or -ENOMEM (the job may be partly accounted).
 */
int gpulat_stats_add(struct gpulat_stats *s, const struct gpulat_job *job)
{
	const char *dev = sstr(s, job->dev);
	const char *ring = sstr(s, job->ring);
	const char *comm = sstr(s, job->comm);
	struct grp *g, *gr[GPULAT_G__COUNT] = { NULL };
	uint64_t val[GPULAT_M__COUNT];
	int k, ret = 0;

	if (job->ts[GPULAT_ST_DONE] != GPULAT_NONE && job->ts[GPULAT_ST_DONE] > s->newest_done)
		s->newest_done = job->ts[GPULAT_ST_DONE];
	if (job->total != GPULAT_NONE && job->total > s->longest)
		s->longest = job->total;
	if (job->status == GPULAT_JOB_COMPLETE && job->start_ts != GPULAT_NONE &&
	    job->ts[GPULAT_ST_DONE] != GPULAT_NONE && job->ts[GPULAT_ST_DONE] >= job->start_ts &&
	    job->ts[GPULAT_ST_DONE] - job->start_ts > s->longest_busy)
		s->longest_busy = job->ts[GPULAT_ST_DONE] - job->start_ts;

	g = get_group(s, GPULAT_G_RING, job, dev, job->ring_ptr ? sstr(s, job->ring_ptr) : ring,
		      comm);
	if (g && job->ring_ptr && !g->g.ring_ptr) {
		g->g.ring_ptr = g->g.ring;
		g->g.ring = ring;
	}
	if (g)
		ring_gap(s, g, job);
	gr[GPULAT_G_RING] = g;
	gr[GPULAT_G_PROCESS] = get_group(s, GPULAT_G_PROCESS, job, dev, ring, comm);
	/* amdgpu kernel jobs carry ids, but no client submitted them */
	if (job->client_id != GPULAT_NONE && !job->kernel_job)
		gr[GPULAT_G_CLIENT] = get_group(s, GPULAT_G_CLIENT, job, dev, ring, comm);
	gr[GPULAT_G_DEVICE] = get_group(s, GPULAT_G_DEVICE, job, dev, ring, comm);
	ret |= depth_add(s, gr, job);
	for (k = 0; k < GPULAT_M__COUNT; k++)
		val[k] = metric_of(job, k);
	for (k = 0; k < GPULAT_G__COUNT; k++) {
		if (gr[k])
			ret |= group_add(s, gr[k], job, val);
		else if (k != GPULAT_G_CLIENT ||
			 (job->client_id != GPULAT_NONE && !job->kernel_job))
			ret = -ENOMEM;
	}
	add_worst(s, job);
	ret |= add_depwaits(s, job, dev, ring);
	return ret ? -ENOMEM : 0;
}

/**
 * gpulat_stats_set_span - first and last timestamp of ANY event in the trace
 * @s: the set
 * @first_ts: first
 * @last_ts: last
 */
/* every stall found goes to @fn too, when found (internal: the session) */
void gpulat__stats_on_stall(struct gpulat_stats *s,
			    void (*fn)(const struct gpulat_stall *st, void *data), void *data)
{
	s->on_stall = fn;
	s->on_stall_data = data;
}

/* every gap over the threshold goes to @fn when it ends (internal: the session) */
void gpulat__stats_on_gap(struct gpulat_stats *s,
			  void (*fn)(const struct gpulat__gap *g, void *data), void *data)
{
	s->on_gap = fn;
	s->on_gap_data = data;
}

/*
 * every job that enters the worst list goes to @fn when it does (internal:
 * the session, whose diagnosis explains exactly these jobs)
 */
void gpulat__stats_on_worst(struct gpulat_stats *s,
			    void (*fn)(const struct gpulat_job *job, void *data), void *data)
{
	s->on_worst = fn;
	s->on_worst_data = data;
}

/* no job still to come has a time before what @fn says (internal: the session) */
void gpulat__stats_on_horizon(struct gpulat_stats *s, uint64_t (*fn)(void *data), void *data)
{
	s->horizon = fn;
	s->horizon_data = data;
}

void gpulat_stats_set_span(struct gpulat_stats *s, uint64_t first_ts, uint64_t last_ts)
{
	s->first_ts = first_ts;
	s->last_ts = last_ts;
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_group(const void *x, const void *y)
{
	const struct grp *a = *(struct grp * const *)x, *b = *(struct grp * const *)y;
	int c;

	switch (a->g.kind) {
	case GPULAT_G_RING:
		if (a->g.file != b->g.file)
			return a->g.file < b->g.file ? -1 : 1;
		c = cmp_str(a->g.dev, b->g.dev);
		return c ? c : cmp_str(a->g.ring, b->g.ring);
	case GPULAT_G_PROCESS:
		if (a->g.pid != b->g.pid)
			return a->g.pid < b->g.pid ? -1 : 1;
		return cmp_str(a->g.comm, b->g.comm);
	case GPULAT_G_CLIENT:
		if (a->g.client_id != b->g.client_id)
			return a->g.client_id < b->g.client_id ? -1 : 1;
		return cmp_str(a->g.dev, b->g.dev);
	default:
		return cmp_str(a->g.dev, b->g.dev);
	}
}

static int cmp_stall(const void *x, const void *y)
{
	const struct gpulat_stall *a = x, *b = y;

	if (a->start_ts != b->start_ts)
		return a->start_ts < b->start_ts ? -1 : 1;
	return (int)a->kind - (int)b->kind;
}

static int cmp_dw(const void *x, const void *y)
{
	const struct dwent *a = *(struct dwent * const *)x, *b = *(struct dwent * const *)y;
	int c = cmp_str(a->d.dev, b->d.dev);

	if (!c)
		c = cmp_str(a->d.ring, b->d.ring);
	if (!c)
		c = cmp_str(a->d.dep_dev, b->d.dep_dev);
	if (!c)
		c = cmp_str(a->d.dep_ring, b->d.dep_ring);
	return c;
}

/**
 * gpulat_stats_finish - compute quantiles, busy %, depth; sort groups
 * @s: the set
 *
 * Call once after the last gpulat_stats_add() (and gpulat_stats_set_span()).
 * Rings sort by (dev, ring), processes by pid, clients by id, devices by name;
 * stalls by start time.
 *
 * Return: 0.
 */
/*
 * A ring stopped completing when jobs are still pending (incomplete) at the
 * end of the span and nothing was done for longer than the stall threshold
 * before it: a job in flight when the recording stopped is not a hang, a
 * ring silent for a frame with work queued is.
 */
static uint64_t stopped_for(const struct gpulat_stats *s, const struct grp *gg)
{
	const struct gpulat_group *g = &gg->g;

	uint64_t since = g->last_done_ts != GPULAT_NONE ? g->last_done_ts : s->first_ts;
	uint64_t thr = s->o.stall_threshold_ns, end = s->last_ts;

	if (!g->incomplete || since == GPULAT_NONE || end == GPULAT_NONE || end <= since ||
	    end - since <= thr)
		return 0;
	/* the oldest pending job waited over the threshold too (not just submitted) */
	if (gg->pending_since == GPULAT_NONE || end <= gg->pending_since ||
	    end - gg->pending_since <= thr)
		return 0;
	return end - since;
}

static void group_summary(struct grp *g)
{
	struct gpulat__qacc tmp[GPULAT_M__COUNT], *q = g->q;
	uint64_t buf[GPULAT_M__COUNT][ROWS_MAX];
	int m;

	if (!q) {
		rows_replay(g, tmp, buf);
		q = tmp;
	}
	for (m = 0; m < GPULAT_M__COUNT; m++)
		gpulat__qacc_summary(&q[m], &g->g.m[m]);
}

int gpulat_stats_finish(struct gpulat_stats *s)
{
	uint64_t span = 0, end;
	size_t i;
	int k;

	if (s->first_ts != GPULAT_NONE && s->last_ts != GPULAT_NONE && s->last_ts > s->first_ts)
		span = s->last_ts - s->first_ts;
	/* every depth key, while the groups' indexes hold (before the sorts) */
	sweep_depth(s, GPULAT_NONE);
	for (k = 0; k < GPULAT_G__COUNT; k++) {
		for (i = 0; i < s->list[k].n; i++) {
			struct grp *g = s->list[k].v[i];

			sweep(s, g, GPULAT_NONE, GPULAT_NONE);
			if (g->sb.any) {
				g->sb.busy += g->sb.end - g->sb.start;
				g->sb.any = false;
			}
			if (g->g.kind == GPULAT_G_RING)
				g->g.ring_name = g->g.ring;
			g->g.busy_ns = g->sb.busy;
			g->g.busy_pct = span ? 100.0 * (double)g->g.busy_ns / (double)span : 0.0;
			g->g.max_depth = (unsigned int)g->sd.best;
			/*
			 * to the end of the span, clamped as the depth keys are
			 * (kq_key()): from a time past KQ_TMAX, the distance to
			 * the clamped last key is not in the span (F8)
			 */
			end = s->last_ts < KQ_TMAX ? s->last_ts : KQ_TMAX;
			if (g->sd.started && s->last_ts != GPULAT_NONE && end > g->sd.last_t) {
				g->sd.area += (long double)g->sd.cur *
					      (long double)(end - g->sd.last_t);
				g->sd.last_t = end;
			}
			g->g.avg_depth = span ? (double)(g->sd.area / (long double)span) : 0.0;
			if (g->g.kind == GPULAT_G_RING)
				g->g.stopped_ns = stopped_for(s, g);
			group_summary(g);
		}
		if (s->list[k].n)
			qsort(s->list[k].v, s->list[k].n, sizeof(void *), cmp_group);
	}
	if (s->stalls.n)
		qsort(s->stalls.v, s->stalls.n, sizeof(struct gpulat_stall), cmp_stall);
	if (s->dwlist.n)
		qsort(s->dwlist.v, s->dwlist.n, sizeof(void *), cmp_dw);
	s->finished = true;
	return 0;
}

/**
 * gpulat_stats_groups_dropped - jobs accounted in the "(others)" group of a kind
 * @s: the set
 * @kind: group kind
 * @max: set to the cap on groups per kind, may be NULL
 *
 * Return: how many jobs went there because more than @max groups of @kind
 * existed (0: the cap was not hit).
 */
uint64_t gpulat_stats_groups_dropped(const struct gpulat_stats *s, enum gpulat_group_kind kind,
				     size_t *max)
{
	if (max)
		*max = s ? s->max_groups : 0;
	if (!s || (unsigned int)kind >= GPULAT_G__COUNT)
		return 0;
	return s->groups_dropped[kind];
}

/**
 * gpulat_stats_ngroups - number of groups of a kind
 * @s: the set
 * @kind: group kind
 *
 * Return: the count.
 */
size_t gpulat_stats_ngroups(const struct gpulat_stats *s, enum gpulat_group_kind kind)
{
	if ((unsigned int)kind >= GPULAT_G__COUNT)
		return 0;
	return s->list[kind].n;
}

/**
 * gpulat_stats_group - one group (sorted after gpulat_stats_finish())
 * @s: the set
 * @kind: group kind
 * @i: index
 *
 * Return: the group, valid until gpulat_stats_free(); NULL out of range.
 */
const struct gpulat_group *gpulat_stats_group(const struct gpulat_stats *s,
					      enum gpulat_group_kind kind, size_t i)
{
	if ((unsigned int)kind >= GPULAT_G__COUNT || i >= s->list[kind].n)
		return NULL;
	return &((struct grp *)s->list[kind].v[i])->g;
}

/**
 * gpulat_group_hist - the log2 histogram of one metric of a group
 * @g: a group from gpulat_stats_group(), after gpulat_stats_finish()
 * @m: the metric
 * @h: filled: bucket i counts the values 2^(i-1) <= v < 2^i, bucket 0 v == 0
 *
 * Computed from the group's values (or its log-linear histogram) when asked:
 * the groups do not carry 2.5 KB of counters each (10^4 processes).
 *
 * Return: 0, or -EINVAL for a bad @m (@h zeroed).
 */
int gpulat_group_hist(const struct gpulat_group *g, enum gpulat_metric m, struct gpulat_hist *h)
{
	const struct grp *gg = gpulat_container_of(g, struct grp, g);
	struct gpulat__qacc tmp[GPULAT_M__COUNT];
	uint64_t buf[GPULAT_M__COUNT][ROWS_MAX];

	if ((unsigned int)m >= GPULAT_M__COUNT) {
		memset(h, 0, sizeof(*h));
		return -EINVAL;
	}
	if (gg->q) {
		gpulat__qacc_hist(&gg->q[m], h);
		return 0;
	}
	rows_replay(gg, tmp, buf);
	gpulat__qacc_hist(&tmp[m], h);
	return 0;
}

/**
 * gpulat_stats_nworst - number of worst jobs kept (<= top_n)
 * @s: the set
 *
 * Return: the count.
 */
size_t gpulat_stats_nworst(const struct gpulat_stats *s)
{
	return s->nworst;
}

/**
 * gpulat_stats_worst - the i-th worst job (worst first)
 * @s: the set
 * @i: index
 *
 * Return: the job copy, NULL out of range.
 */
const struct gpulat_worst *gpulat_stats_worst(const struct gpulat_stats *s, size_t i)
{
	return i < s->nworst ? &s->worst[i] : NULL;
}

/**
 * gpulat_stats_nstalls - number of stalls kept (at most GPULAT_STALLS_KEPT = 4096, the longest; see _stalls_total)
 * @s: the set
 *
 * Return: the count.
 */
size_t gpulat_stats_nstalls(const struct gpulat_stats *s)
{
	return s->stalls.n;
}

/**
 * gpulat_stats_stalls_total - number of stalls found, including those not kept
 * @s: the set
 *
 * Return: the count.
 */
uint64_t gpulat_stats_stalls_total(const struct gpulat_stats *s)
{
	return s->stalls_total;
}

/**
 * gpulat_stats_idle_gaps - submit gaps longer than the threshold of
 * processes that had no steady pace before them (not stalls)
 */
uint64_t gpulat_stats_idle_gaps(const struct gpulat_stats *s)
{
	return s->idle_gaps;
}

/**
 * gpulat_stats_stall - the i-th stall (by start time)
 * @s: the set
 * @i: index
 *
 * Return: the stall, NULL out of range.
 */
const struct gpulat_stall *gpulat_stats_stall(const struct gpulat_stats *s, size_t i)
{
	return i < s->stalls.n ? (const struct gpulat_stall *)s->stalls.v + i : NULL;
}

/**
 * gpulat_stats_ndepwaits - number of (waiting ring, producing ring) pairs
 * @s: the set
 *
 * Return: the count.
 */
size_t gpulat_stats_ndepwaits(const struct gpulat_stats *s)
{
	return s->dwlist.n;
}

/**
 * gpulat_stats_depwait - one dependency-wait aggregate
 * @s: the set
 * @i: index
 *
 * Return: the aggregate, NULL out of range.
 */
const struct gpulat_depwait *gpulat_stats_depwait(const struct gpulat_stats *s, size_t i)
{
	return i < s->dwlist.n ? &((struct dwent *)s->dwlist.v[i])->d : NULL;
}
