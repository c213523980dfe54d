/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat internal helpers: string interning and an intrusive hash table.
 * Nothing here is exported; every symbol is hidden in the static library's
 * users by the gpulat__ prefix (internal, not part of the API).
 */
#ifndef _GPULAT_INT_H
#define _GPULAT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulat.h"

#define GPULAT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define gpulat_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* gpu_scheduler, dma_fence and driver (amdgpu, i915, xe) kinds (not the context) */
/*
 * Widen the span [*@first, *@last] (GPULAT_NONE: empty) to @ts. A record of
 * 2^64 - 1 ns is no time of a span: that value means "none" (lib/bind.c
 * skips such a record as damaged, hostile trace H3).
 */
static inline void gpulat__span_see(uint64_t *first, uint64_t *last, uint64_t ts)
{
	if (ts == GPULAT_NONE)
		return;
	if (*first == GPULAT_NONE || ts < *first)
		*first = ts;
	if (*last == GPULAT_NONE || ts > *last)
		*last = ts;
}

static inline bool gpulat__is_gpu_kind(enum gpulat_kind k)
{
	return k >= GPULAT_EV_QUEUE && k <= GPULAT_EV__GPU_LAST;
}

/* i915 names (names.c): "rcs0" from the uabi class:instance, "card1" from dev */
void gpulat__i915_engine(char *buf, size_t len, uint64_t cls, uint64_t inst);
void gpulat__i915_dev(char *buf, size_t len, uint64_t dev);

/* ---- string table: equal strings share one pointer until the table is freed */

struct gpulat__strtab;

struct gpulat__strtab *gpulat__strtab_new(void);
void gpulat__strtab_free(struct gpulat__strtab *st);
/* intern @len bytes of @s (need not be NUL terminated); NULL on ENOMEM */
const char *gpulat__strtab_intern_len(struct gpulat__strtab *st, const char *s, size_t len);
const char *gpulat__strtab_intern(struct gpulat__strtab *st, const char *s);
/* a 32-bit name of an interned string, and back (compact records) */
uint32_t gpulat__strtab_id(const char *s);
const char *gpulat__strtab_str(const struct gpulat__strtab *st, uint32_t id);

/* hint.c: a GPU driver's own events in a trace that has no job events */
struct tep_handle;
const char *gpulat__unmodelled_driver(struct tep_handle *tep, char *ev, size_t len);
/* a trace's name in its escaped display form (gpulat-escape.h) */
const char *gpulat__strtab_intern_name(struct gpulat__strtab *st, const char *raw, size_t len);

/* ---- intrusive chained hash table keyed by two u64 ------------------------ */

/* the mix of two u64 keys every table of the library slots by (htab.c, track-index.c) */
static inline uint64_t gpulat__hash2(uint64_t k1, uint64_t k2)
{
	uint64_t x = k1 * 0x9e3779b97f4a7c15ULL ^
		     (k2 + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;

	x ^= x >> 31;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 29;
	return x;
}

struct gpulat__hnode {
	struct gpulat__hnode	*next;
	uint64_t		k1;
	uint64_t		k2;
};

struct gpulat__htab {
	struct gpulat__hnode	**b;
	size_t			nb;	/* power of two */
	size_t			n;
};

int gpulat__htab_init(struct gpulat__htab *h, size_t nb);
void gpulat__htab_fini(struct gpulat__htab *h);
/* inserts at the head of its chain: gpulat__htab_find returns the newest first */
int gpulat__htab_insert(struct gpulat__htab *h, struct gpulat__hnode *n,
			uint64_t k1, uint64_t k2);
struct gpulat__hnode *gpulat__htab_find(const struct gpulat__htab *h, uint64_t k1, uint64_t k2);
/* next node after @n with the same keys */
struct gpulat__hnode *gpulat__htab_next(const struct gpulat__hnode *n);
void gpulat__htab_remove(struct gpulat__htab *h, struct gpulat__hnode *n);
/* cache hints for a later find / insert / remove of these keys */
void gpulat__htab_prefetch_slot(const struct gpulat__htab *h, uint64_t k1, uint64_t k2);
void gpulat__htab_prefetch_chain(const struct gpulat__htab *h, uint64_t k1, uint64_t k2,
				 unsigned int skip);

/*
 * Every node, in no particular order; the node returned may be freed before
 * the next call (teardown), nothing else may change the table meanwhile:
 *	struct gpulat__hiter it = { 0 };
 *	while ((n = gpulat__htab_iter(&h, &it)))
 * The walkers go through this, never through the buckets: the layout is
 * htab.c's alone.
 */
struct gpulat__hiter {
	size_t			i;	/* next bucket */
	struct gpulat__hnode	*next;	/* next node of the current bucket */
};

struct gpulat__hnode *gpulat__htab_iter(const struct gpulat__htab *h, struct gpulat__hiter *it);

uint64_t gpulat__hash_str(const char *s);

/* ---- open-addressing u64 -> u64 map (htab.c) ------------------------------ */

/*
 * For the small, hot maps of scalars (the tracker's fence contexts): the
 * key and value sit in the probed slot, so a hit costs one cache line
 * where a chained gpulat__htab costs a bucket and a node. Linear probing,
 * at most half full, grown by doubling. UINT64_MAX marks an empty slot, so
 * that key is kept apart (has_max, max_val). No removal.
 */
struct gpulat__oslot {
	uint64_t		key;
	uint64_t		val;
};

struct gpulat__omap {
	struct gpulat__oslot	*s;
	size_t			cap;	/* power of two, 0 before init */
	size_t			n;	/* keys in s[], not counting UINT64_MAX */
	uint64_t		max_val;
	bool			has_max;
};

int gpulat__omap_init(struct gpulat__omap *m, size_t cap);
void gpulat__omap_fini(struct gpulat__omap *m);
/* the value stored under @key, writable in place; NULL if absent */
uint64_t *gpulat__omap_find(struct gpulat__omap *m, uint64_t key);
/* inserts or overwrites; -ENOMEM leaves the map as it was */
int gpulat__omap_put(struct gpulat__omap *m, uint64_t key, uint64_t val);
/* keys held, UINT64_MAX included */
static inline size_t gpulat__omap_count(const struct gpulat__omap *m)
{
	return m->n + m->has_max;
}

/* ---- ring names (ringname.c) ----------------------------------------------- */

char *gpulat__ring_alias(char *buf, size_t len, const char *ptr, const char *timeline,
			 bool taken);

/* ---- quantile accumulator (quantile.c) ------------------------------------ */

/*
 * Exact values up to GPULAT_EXACT_MAX, then a log-linear histogram: values
 * below 2 * QSUB are exact, above that each power of two [2^e, 2^(e+1)) is
 * split into QSUB buckets of width 2^e / QSUB, so a reported value (the
 * bucket's lower bound, clamped to [min, max]) is within 1/QSUB relative.
 */
/* stalls kept for the report, the longest (lib/stats.c); all are counted */
#define GPULAT_STALLS_KEPT	4096
/*
 * Stall explanations kept by --explain, the longest candidates
 * (lib/diag-explain.c, ~2.2 KB each: at most ~36 MB). The diagnosis sees
 * every gap over the threshold, a superset of the stalls the statistics
 * list (they drop jitter and idle gaps at the end of input), so it keeps
 * four times as many as are listed: a listed stall loses its explanation
 * only when 16384 longer candidates exist (then a warning says so).
 */
#define GPULAT_DIAG_STALLS_KEPT	(4 * GPULAT_STALLS_KEPT)

/*
 * Memory caps against hostile traces (lib/caps.c; the environment can change
 * them). Jobs in flight: ~600 bytes each. Groups per kind (rings, processes,
 * clients, devices): ~4.3 KB each before their values, so 16384 processes
 * cost ~70 MB where 10^6 distinct ones took ~5 GB; the jobs of groups beyond
 * the cap are accounted in one "(others)" group of that kind. The diagnosis
 * follows at most as many rings, and GPULAT_MAX_TASKS_DEFAULT tasks (up to
 * ~12 KB of intervals each).
 */
#define GPULAT_MAX_OPEN_DEFAULT		(1u << 20)
#define GPULAT_MAX_GROUPS_DEFAULT	16384
#define GPULAT_MAX_TASKS_DEFAULT	16384
/* the name of the group that takes the jobs beyond the cap */
#define GPULAT_GROUP_OTHERS		"(others)"

enum gpulat__cap_kind {
	GPULAT_CAP_OPEN,
	GPULAT_CAP_GROUPS,
	GPULAT_CAP_TASKS,
};

size_t gpulat__cap(enum gpulat__cap_kind k);

#define GPULAT_QSUB		128	/* == 1 / GPULAT_REL_ERROR */
#define GPULAT_CSUB		16 /* == 1 / GPULAT_COARSE_ERROR */

/* what struct gpulat__qacc's one array holds */
enum gpulat__qmode {
	GPULAT_QM_V32 = 0,	/* exact values, all fitting in 32 bits (4.29 s) */
	GPULAT_QM_V64,		/* exact values once one does not */
	GPULAT_QM_HIST,		/* the log-linear histogram */
	GPULAT_QM_COARSE, /* the coarse one (stats.c: small groups past the budget) */
};

/* either histogram: no exact values (nv == cap == 0) */
static inline bool gpulat__qmode_hist(unsigned int mode)
{
	return mode >= GPULAT_QM_HIST;
}

/*
 * 96 bytes (was 128 with three pointers and size_t counts): five in every
 * group, 2 x 10^4 groups on shape-procs10k.
 */
struct gpulat__qacc {
	unsigned __int128 sum;
	uint64_t	n;
	uint64_t	min, max;
	uint64_t	max_ts;
	uint64_t	max_seq;
	double		wmean, wm2;	/* Welford, for the histogram mode */
	union {
		uint32_t *v32;		/* GPULAT_QM_V32 */
		uint64_t *v;		/* GPULAT_QM_V64 */
		uint64_t **hb;		/* GPULAT_QM_HIST: QSUB buckets per block */
		uint16_t *c16; /* GPULAT_QM_COARSE: quantile.c */
		uint32_t *c32; /* ... once wide */
	};
	int		max_cpu;
	/* exact values; 0 in the fine histogram; the coarse one's entries */
	uint32_t nv, cap;
	uint8_t		mode;		/* enum gpulat__qmode */
	uint8_t wide; /* coarse: 32-bit entries (c32) */
};

void gpulat__qacc_init(struct gpulat__qacc *q);
void gpulat__qacc_fini(struct gpulat__qacc *q);
int gpulat__qacc_add_slow(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu, uint64_t seq);
int gpulat__qacc_add_hist(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu, uint64_t seq);
/* exact values into the histogram now (stats.c: the set's budget is spent) */
int gpulat__qacc_to_hist(struct gpulat__qacc *q);
/* ... or into the coarse histogram (GPULAT_COARSE_ERROR), for good */
int gpulat__qacc_to_coarse(struct gpulat__qacc *q);
/* the bytes @q's array (or histogram) takes, not counting @q itself (tests) */
size_t gpulat__qacc_bytes(const struct gpulat__qacc *q);

/* n, sum, min and max (and where the max happened) of one more value */
static inline void gpulat__qacc_account(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu,
					uint64_t seq)
{
	q->n++;
	q->sum += v;
	if (v < q->min)
		q->min = v;
	if (q->n == 1 || v > q->max) {
		q->max = v;
		q->max_ts = ts;
		q->max_cpu = cpu;
		q->max_seq = seq;
	}
}

/*
 * One value (GPULAT_NONE: none). The common case inline: an exact 32-bit
 * value with room. callgrind -j1, 200 k events, gpulat_stats_add with its
 * callees (and the metrics computed once per job): shape-dense 104.3 ->
 * 90.9 M instructions, shape-procs10k 50.9 -> 46.5 M.
 */
static inline int gpulat__qacc_add(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu,
				   uint64_t seq)
{
	if (q->mode == GPULAT_QM_V32 && q->nv < q->cap && v <= UINT32_MAX) {
		q->v32[q->nv++] = (uint32_t)v;
		gpulat__qacc_account(q, v, ts, cpu, seq);
		return 0;
	}
	/* past GPULAT_EXACT_MAX values: every value of a busy ring or device */
	if (gpulat__qmode_hist(q->mode))
		return gpulat__qacc_add_hist(q, v, ts, cpu, seq);
	return gpulat__qacc_add_slow(q, v, ts, cpu, seq);
}
/* fill @s (from a sorted copy of the exact values); may be called more than once */
void gpulat__qacc_summary(struct gpulat__qacc *q, struct gpulat_summary *s);
/* nearest-rank p-quantile of sorted @v[0..n-1]: v[ceil(p * n) - 1] */
uint64_t gpulat__nearest_rank(const uint64_t *v, uint64_t n, double p);
/* the bucket of @v and the lower bound of a bucket */
size_t gpulat__qbucket(uint64_t v);
uint64_t gpulat__qbucket_low(size_t b);
size_t gpulat__qbuckets(void);

/* bind.c: false when the record surely does not decode (thread safe: read-par.c) */
bool gpulat__binding_wants(const struct gpulat_binding *b, const struct tep_record *rec);
/* per-thread decoding (read-par.c): a clone decodes, its strings are mapped back */
struct gpulat_binding *gpulat__binding_clone(struct gpulat_binding *b);
int gpulat__binding_adopt(struct gpulat_binding *c, struct gpulat_event *ev);

/* ---- the event list of bind.c (GPULAT_EVENTS), by index ------------------ */

int gpulat__event_def(unsigned int i, const char **sys, const char **name,
		      enum gpulat_kind *kind);

/* ---- log2 histogram (quantile.c) ---------------------------------------- */

unsigned int gpulat__hist_bucket(uint64_t v);
/* the log2 histogram of the values @q holds */
void gpulat__qacc_hist(const struct gpulat__qacc *q, struct gpulat_hist *h);

/* ---- a job's metric (one definition: stats, diagnosis, gpulat_job_metric()) */

static inline uint64_t gpulat__job_metric(const struct gpulat_job *j, enum gpulat_metric m)
{
	switch (m) {
	case GPULAT_M_WAIT:
		return j->wait;
	case GPULAT_M_HW_QUEUE:
		return j->hw_queue;
	case GPULAT_M_EXEC:
		return j->exec;
	case GPULAT_M_TOTAL:
		return j->total;
	case GPULAT_M_DEP_WAIT:
		return j->dep_wait;
	default:
		return GPULAT_NONE;
	}
}

/* ---- bounded top-K (topk.c) ---------------------------------------------- */

struct gpulat__topk {
	void		*v;		/* v[0 .. n - 1]; a min-heap under @less once n == max */
	size_t		esz, n, cap, max;
	bool		(*less)(const void *a, const void *b);	/* a goes before b */
	void		*tmp;		/* one element */
};

int gpulat__topk_init(struct gpulat__topk *k, size_t esz, size_t max,
		      bool (*less)(const void *a, const void *b));
void gpulat__topk_fini(struct gpulat__topk *k);
/* 1 kept, 0 not (full, @e not above the top), -ENOMEM */
int gpulat__topk_add(struct gpulat__topk *k, const void *e);

/* ---- statistics (stats.c) ------------------------------------------------ */

/* @fn sees every stall when found (the session's stall listeners) */
void gpulat__stats_on_stall(struct gpulat_stats *s,
			    void (*fn)(const struct gpulat_stall *st, void *data), void *data);
/* @fn sees every job when it enters the worst list (the session's diagnosis) */
void gpulat__stats_on_worst(struct gpulat_stats *s,
			    void (*fn)(const struct gpulat_job *job, void *data), void *data);

/*
 * A gap over the stall threshold in force when it ended, said by the
 * statistics at its end (time order), before they judge it: the stall
 * verdict comes at their sweep, when the threshold is final and the pace of
 * the process known, but what the trace shows around the gap (the context
 * the diagnosis explains it from) is only there now.
 *  - submit gap: two queue events of (@file, @pid), the second on @cpu
 *  - ring idle: @job (complete) started @to after the ring's last done @from
 */
struct gpulat__gap {
	enum gpulat_stall_kind kind;
	int file, pid, cpu;
	uint64_t from, to;
	const struct gpulat_job *job; /* ring idle only */
};

/* @fn sees every gap over the threshold when it ends (the session's diagnosis) */
void gpulat__stats_on_gap(struct gpulat_stats *s,
			  void (*fn)(const struct gpulat__gap *g, void *data), void *data);
/* no job still to come carries a time before what @fn says (0: unknown) */
void gpulat__stats_on_horizon(struct gpulat_stats *s, uint64_t (*fn)(void *data), void *data);
/* a queue event of a job, in time order (the tracker's queued hook) */
int gpulat__stats_queued(struct gpulat_stats *s, const struct gpulat_event *ev);
/* the submitters' last queue events of @from go to the new @to (live cuts) */
void gpulat__stats_move_submitters(struct gpulat_stats *to, struct gpulat_stats *from);
/*
 * tests: @s's exact-value slots as counted against GPULAT_EXACT_BUDGET, as its
 * groups' arrays hold them (@held), and in arrays past GPULAT_EXACT_KEEP (@big)
 */
void gpulat__stats_exact_slots(const struct gpulat_stats *s, size_t *counted, size_t *held,
			       size_t *big);
/*
 * tests: the bytes @s's groups keep their metrics' values in (rows, the
 * accumulators, their arrays and histograms), and what @g's accumulator of
 * @m holds (enum gpulat__qmode; GPULAT_QM_V64 while the group has rows) in
 * how many bytes (gpulat__qacc_bytes(), 0 for rows)
 */
size_t gpulat__stats_value_bytes(const struct gpulat_stats *s);
int gpulat__group_qmode(const struct gpulat_group *g, enum gpulat_metric m, size_t *bytes);
/*
 * tests: sweep every group once more than @max reorder-queue entries are
 * queued in all (0: the default, QUEUED_MAX); the most that were queued at
 * once, and the entries queued now as the groups hold them (@held)
 */
void gpulat__stats_set_queued_max(struct gpulat_stats *s, size_t max);
/*
 * busy union and depth for the groups of these kinds only (1 << kind; default
 * all); the session keeps them for rings and devices, as its report shows them
 */
void gpulat__stats_busy_kinds(struct gpulat_stats *s, unsigned int kinds);
void gpulat__stats_queue_len(const struct gpulat_stats *s, size_t *peak, size_t *now, size_t *held);

/* ---- tracker (tracker.c) ------------------------------------------------- */

struct gpulat_tracker;

/* @fn sees the queue event of every job, when the tracker took it (time order) */
void gpulat__tracker_on_queued(struct gpulat_tracker *t,
			       void (*fn)(const struct gpulat_event *ev, void *data), void *data);
/* no job not handed out yet has or gets a timestamp before this (0: unknown) */
uint64_t gpulat__tracker_horizon(struct gpulat_tracker *t);

/* ---- diagnosis (diag-*.c) ------------------------------------------------ */

struct gpulat_diag;

/*
 * The session's diagnosis detects nothing itself: it explains the jobs
 * gpulat_stats ranks among the worst (gpulat__diag_worst()) and the gaps the
 * statistics say ended (gpulat__diag_gap(), kept for their stall verdict).
 */
int gpulat__diag_worst(struct gpulat_diag *d, const struct gpulat_job *job);
int gpulat__diag_gap(struct gpulat_diag *d, const struct gpulat__gap *g);

/* false: the reader's hook never reads a record's data (-j N copies none, read-par.c) */
struct gpulat_reader;
void gpulat__reader_set_records(struct gpulat_reader *r, bool records);

#endif /* _GPULAT_INT_H */
