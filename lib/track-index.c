// SPDX-License-Identifier: LGPL-2.1
/*
 * Job tracker: the indexes of open jobs (fence ctx:seqno, fence pointer,
 * (ring, id)), rings and their fence contexts, per-cpu state, lost-event
 * windows, and the bounded cache of completed jobs that dependencies name
 * their producer from.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-int.h"

#define DCACHE_SIZE	 (1u << 14) /* completed jobs remembered for deps */
#define MAX_LOST_WINDOWS 4096
#define MAX_CTX_MAP	 65536

void gpulat__tk_list_add_tail(struct gpulat_tracker *t, struct joblist *l, struct job *j)
{
	j->next = 0;
	j->prev = job_ref(l->tail);
	if (l->tail)
		l->tail->next = job_ref(j);
	else
		l->head = j;
	l->tail = j;
	l->n++;
	(void)t;
}

void gpulat__tk_list_del(struct gpulat_tracker *t, struct joblist *l, struct job *j)
{
	struct job *p = job_at(t, j->prev), *n = job_at(t, j->next);

	if (p)
		p->next = j->next;
	else
		l->head = n;
	if (n)
		n->prev = j->prev;
	else
		l->tail = p;
	j->prev = j->next = 0;
	l->n--;
}

const char *gpulat__tk_tstr(struct gpulat_tracker *t, const char *s)
{
	const char *r = s ? gpulat__strtab_intern(t->strs, s) : NULL;

	return r ? r : t->empty;
}

struct ring *gpulat__tk_get_ring(struct gpulat_tracker *t, const char *dev, const char *name)
{
	struct gpulat__hnode *n;
	struct ring_hint *hint;
	const char *edev = dev;
	struct ring *r;
	uint64_t k1, k2;

	if (!name)
		return NULL;
	/*
	 * Every queue and run event asks with the binding's interned strings:
	 * the ring last found for that name pointer is the one when its name
	 * and device read the same (interning is verbatim, so equal bytes
	 * intern to the ring's own strings). The two interns and the lookup
	 * were 388 instructions a call (callgrind, KernelShark dense-1M).
	 * The same two pointers as at the last such match are the same
	 * strings (struct gpulat_event's are interned): no strcmp() then (two
	 * a call were 8 M instructions of that load's 2312 M).
	 */
	hint = &t->ring_hint[((uintptr_t)name * 0x9e3779b97f4a7c15ULL) >> 58];
	r = hint->ring;
	if (r && r->file == t->cur_file) {
		if (hint->name == name && hint->dev == edev)
			return r;
		if (!strcmp(r->name, name) && !strcmp(r->dev, dev ? dev : "")) {
			hint->name = name;
			hint->dev = edev;
			return r;
		}
	}
	dev = gpulat__tk_tstr(t, dev);
	name = gpulat__tk_tstr(t, name);
	k1 = (uintptr_t)dev ^ ((uint64_t)t->cur_file << 56);
	k2 = (uintptr_t)name;
	n = gpulat__htab_find(&t->rings, k1, k2);
	if (n) {
		r = gpulat_container_of(n, struct ring, node);
	} else {
		r = calloc(1, sizeof(*r));
		if (!r)
			return NULL;
		r->dev = dev;
		r->name = name;
		r->last_done = GPULAT_NONE;
		r->file = t->cur_file;
		r->is_ptr = gpulat_ring_is_ptr(name);
		if (gpulat__htab_insert(&t->rings, &r->node, k1, k2)) {
			free(r);
			return NULL;
		}
		r->next_all = t->all_rings;
		t->all_rings = r;
	}
	/* the event's pointers are taken at the next lookup, after its strcmp() */
	hint->ring = r;
	hint->name = NULL;
	hint->dev = NULL;
	return r;
}

/*
 * Keyed FK(t, ctx): the low 32 bits are U32(ctx), the high 32 the file's
 * index, the same pair the chained table keyed by (U32(ctx), cur_file).
 */
void gpulat__tk_ctx_learn(struct gpulat_tracker *t, uint64_t ctx, struct ring *r)
{
	uint64_t *v;

	if (!r)
		return;
	v = gpulat__omap_find(&t->ctxs, FK(t, ctx));
	if (v) {
		*v = (uintptr_t)r;
		return;
	}
	if (t->nctx >= MAX_CTX_MAP)
		return;
	if (gpulat__omap_put(&t->ctxs, FK(t, ctx), (uintptr_t)r))
		return;
	t->nctx++;
}

struct ring *gpulat__tk_ctx_ring(struct gpulat_tracker *t, uint64_t ctx)
{
	uint64_t *v = gpulat__omap_find(&t->ctxs, FK(t, ctx));

	return v ? (struct ring *)(uintptr_t)*v : NULL;
}

int gpulat__tk_grow_cpu(struct gpulat_tracker *t, int cpu)
{
	struct job **s, **rs;
	struct initslot *is;
	uint64_t *l;
	int n, i;

	if (cpu < 0)
		return -EINVAL;
	if (cpu < t->ncpus)
		return 0;
	n = cpu + 1 < 8 ? 8 : cpu + 1;
	if (n < t->ncpus * 2)
		n = t->ncpus * 2;
	s = realloc(t->cpu_slot, n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	t->cpu_slot = s;
	rs = realloc(t->run_slot, n * sizeof(*rs));
	if (!rs)
		return -ENOMEM;
	t->run_slot = rs;
	is = realloc(t->init_slot, n * sizeof(*is));
	if (!is)
		return -ENOMEM;
	t->init_slot = is;
	l = realloc(t->cpu_last, n * sizeof(*l));
	if (!l)
		return -ENOMEM;
	t->cpu_last = l;
	for (i = t->ncpus; i < n; i++) {
		t->cpu_slot[i] = NULL;
		t->run_slot[i] = NULL;
		memset(&t->init_slot[i], 0, sizeof(t->init_slot[i]));
		t->cpu_last[i] = 0;
	}
	t->ncpus = n;
	return 0;
}

void gpulat__tk_add_lost(struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to)
{
	struct lostwin *w;

	if (!t->lost) {
		t->lost = calloc(MAX_LOST_WINDOWS, sizeof(*t->lost));
		if (!t->lost)
			return;
	}
	if (t->nlost == MAX_LOST_WINDOWS) {
		/* merge the two oldest: the bound is coarser, never lost */
		w = &t->lost[0];
		w->from = w->from < t->lost[1].from ? w->from : t->lost[1].from;
		w->to = w->to > t->lost[1].to ? w->to : t->lost[1].to;
		w->cpu = -1;
		memmove(&t->lost[1], &t->lost[2], (MAX_LOST_WINDOWS - 2) * sizeof(*w));
		t->nlost--;
	}
	w = &t->lost[t->nlost++];
	w->cpu = cpu;
	w->from = from;
	w->to = to;
}

/* did events get lost (on @cpu, or any cpu if @cpu < 0) strictly between @from and @to? */
bool gpulat__tk_lost_between(const struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to)
{
	size_t i;

	for (i = 0; i < t->nlost; i++) {
		const struct lostwin *w = &t->lost[i];

		if (cpu >= 0 && w->cpu >= 0 && w->cpu != cpu)
			continue;
		if (w->from < to && w->to > from)
			return true;
	}
	return false;
}

/*
 * by_fence holds every open job, 10^5 of them in a deep backlog, so a lookup
 * costs a cache miss or two, and many miss: the queue of a new job, the
 * signal of a job's scheduled fence (context N, the job is indexed under
 * N + 1). fmax keeps, per FK(ctx), the largest U32(seqno) ever indexed; a
 * seqno above it (fence seqnos grow per context) or a context never indexed
 * cannot be in by_fence, and the small fmax table stays in cache. It is
 * never lowered (jobs leave by_fence), so it only skips lookups that would
 * miss. shape-backlog (2.9 M events, 37 k jobs in flight at the end), -j1:
 * gpulat__htab_find 10.5 % -> 2.8 % of the samples, CPU 0.590 -> 0.550 s
 * (median of 11 interleaved runs).
 */
static bool fence_may_exist(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno)
{
	uint64_t *max;

	if (t->fmax_off)
		return true;
	max = gpulat__omap_find(&t->fmax, FK(t, ctx));
	return max && U32(seqno) <= *max;
}

static void fence_indexed(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno)
{
	uint64_t *max = gpulat__omap_find(&t->fmax, FK(t, ctx));

	if (max) {
		if (U32(seqno) > *max)
			*max = U32(seqno);
		return;
	}
	if (gpulat__omap_put(&t->fmax, FK(t, ctx), U32(seqno)))
		t->fmax_off = true; /* no bound known for this context: look up everything */
}

/* by_fence's keys of @j: those gpulat__tk_set_fence() inserted it with */
static inline uint64_t fence_k1(const struct gpulat_tracker *t, const struct job *j)
{
	int file = j->ffile_x ? job_rarex(t, j)->ffile : j->file;

	return U32(j->ctx) | ((uint64_t)file << 32);
}

static inline uint32_t *ftab_bucket(const struct ftab *h, uint64_t k1, uint64_t k2)
{
	return &h->b[gpulat__hash2(k1, k2) & (h->nb - 1)];
}

/* the first job of @r's chain on (@k1, @k2), @r included */
static struct job *ftab_match(const struct gpulat_tracker *t, uint32_t r, uint64_t k1, uint64_t k2)
{
	struct job *j;

	for (; r; r = j->fnext) {
		j = job_at(t, r);
		if (U32(j->seqno) == k2 && fence_k1(t, j) == k1)
			return j;
	}
	return NULL;
}

static struct job *ftab_find(const struct gpulat_tracker *t, uint64_t k1, uint64_t k2)
{
	const struct ftab *h = &t->by_fence;

	return h->b ? ftab_match(t, *ftab_bucket(h, k1, k2), k1, k2) : NULL;
}

/* the next older job with @j's keys */
static struct job *ftab_next(const struct gpulat_tracker *t, const struct job *j, uint64_t k1,
			     uint64_t k2)
{
	return ftab_match(t, j->fnext, k1, k2);
}

/* double the buckets, keeping the order inside a chain (newest first); ENOMEM: longer chains */
static void ftab_grow(struct gpulat_tracker *t)
{
	struct ftab *h = &t->by_fence;
	uint32_t *nb, r, next, *tail;
	struct ftab nh;
	size_t i;

	nb = calloc(h->nb * 2, sizeof(*nb));
	if (!nb)
		return;
	nh.b = nb;
	nh.nb = h->nb * 2;
	for (i = 0; i < h->nb; i++) {
		for (r = h->b[i]; r; r = next) {
			struct job *j = job_at(t, r);

			next = j->fnext;
			tail = ftab_bucket(&nh, fence_k1(t, j), U32(j->seqno));
			while (*tail)
				tail = &job_at(t, *tail)->fnext;
			j->fnext = 0;
			*tail = r;
		}
	}
	free(h->b);
	h->b = nb;
	h->nb = nh.nb;
}

static int ftab_insert(struct gpulat_tracker *t, struct job *j)
{
	struct ftab *h = &t->by_fence;
	uint32_t *b;

	if (!h->b)
		return -ENOMEM;
	if (h->n >= h->nb)
		ftab_grow(t);
	b = ftab_bucket(h, fence_k1(t, j), U32(j->seqno));
	j->fnext = *b;
	*b = job_ref(j);
	h->n++;
	return 0;
}

static void ftab_remove(struct gpulat_tracker *t, struct job *j)
{
	struct ftab *h = &t->by_fence;
	uint32_t *p, r = job_ref(j);

	if (!h->b)
		return;
	for (p = ftab_bucket(h, fence_k1(t, j), U32(j->seqno)); *p; p = &job_at(t, *p)->fnext) {
		if (*p == r) {
			*p = j->fnext;
			j->fnext = 0;
			h->n--;
			return;
		}
	}
}

int gpulat__tk_fence_init(struct gpulat_tracker *t)
{
	t->by_fence.b = calloc(1024, sizeof(*t->by_fence.b));
	if (!t->by_fence.b)
		return -ENOMEM;
	t->by_fence.nb = 1024;
	t->by_fence.n = 0;
	return 0;
}

void gpulat__tk_fence_fini(struct gpulat_tracker *t)
{
	free(t->by_fence.b);
	t->by_fence.b = NULL;
	t->by_fence.nb = t->by_fence.n = 0;
}

struct job *gpulat__tk_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno, bool full)
{
	uint64_t k1 = FK(t, ctx), k2 = U32(seqno);
	struct job *j;

	if (!fence_may_exist(t, ctx, seqno))
		return NULL;
	for (j = ftab_find(t, k1, k2); j; j = ftab_next(t, j, k1, k2))
		if (!full || j->fence32 || (j->ctx == ctx && j->seqno == seqno))
			return j;
	return NULL;
}

/*
 * A u32 dma_fence signal may match several jobs whose seqno differs above bit
 * 31 (wrap): prefer one that is done and still waits for its signal.
 */
struct job *gpulat__tk_find_fence_signal(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno,
					 bool full)
{
	uint64_t k1 = FK(t, ctx), k2 = U32(seqno);
	struct job *j, *best = NULL;

	if (!fence_may_exist(t, ctx, seqno))
		return NULL;
	for (j = ftab_find(t, k1, k2); j; j = ftab_next(t, j, k1, k2)) {
		if (full && !j->fence32 && (j->ctx != ctx || j->seqno != seqno))
			continue;
		if (job_ts(t, j, GPULAT_ST_SIGNAL) != GPULAT_NONE)
			continue;
		if (j->held)
			return j;
		if (!best)
			best = j;
	}
	return best;
}

void gpulat__tk_set_fence(struct gpulat_tracker *t, struct job *j, uint64_t ctx, uint64_t seqno,
			  bool fence32)
{
	if (j->in_fence)
		return;
	j->ctx = ctx;
	j->seqno = seqno;
	j->fence32 = fence32;
	fence_indexed(t, ctx, seqno);
	j->ffile_x = false;
	if (t->cur_file != j->file) {
		/* a fence learnt from another file's event: its key is that file's */
		struct jrare *p = gpulat__tk_rarex(t, j);

		if (!p)
			return;
		p->ffile = t->cur_file;
		j->ffile_x = true;
	}
	if (!ftab_insert(t, j))
		j->in_fence = true;
}

struct job *gpulat__tk_find_ptr(struct gpulat_tracker *t, uint64_t ptr)
{
	struct gpulat__hnode *n = gpulat__htab_find(&t->by_ptr, ptr, t->cur_file);

	return n ? gpulat_container_of(n, struct jptr, by_ptr)->job : NULL;
}

void gpulat__tk_set_ptr(struct gpulat_tracker *t, struct job *j, uint64_t ptr)
{
	struct jptr *p;

	if (j->in_ptr)
		return;
	p = gpulat__tk_ptrx(t, j);
	if (!p)
		return;
	p->fence_ptr = ptr;
	gpulat__tk_ptr_gen(t, j);
	if (!gpulat__htab_insert(&t->by_ptr, &p->by_ptr, ptr, t->cur_file))
		j->in_ptr = true;
}

struct job *gpulat__tk_find_id(struct gpulat_tracker *t, struct ring *r, uint64_t id)
{
	struct gpulat__hnode *n;

	if (!r)
		return NULL;
	n = gpulat__htab_find(&t->by_id, (uintptr_t)r, id);
	return n ? gpulat_container_of(n, struct jptr, by_id)->job : NULL;
}

void gpulat__tk_set_id(struct gpulat_tracker *t, struct job *j, uint64_t id)
{
	struct jptr *p;

	if (j->in_id || !j->ring)
		return;
	p = gpulat__tk_ptrx(t, j);
	if (!p)
		return;
	p->id = id;
	if (!gpulat__htab_insert(&t->by_id, &p->by_id, (uintptr_t)j->ring, id))
		j->in_id = true;
}

void gpulat__tk_unindex(struct gpulat_tracker *t, struct job *j, bool fence_too)
{
	struct jptr *p = j->in_ptr || j->in_id ? job_ptrx(t, j) : NULL;

	if (j->in_ptr) {
		gpulat__htab_remove(&t->by_ptr, &p->by_ptr);
		j->in_ptr = false;
	}
	if (j->in_id) {
		gpulat__htab_remove(&t->by_id, &p->by_id);
		j->in_id = false;
	}
	if (fence_too && j->in_fence) {
		ftab_remove(t, j);
		j->in_fence = false;
	}
}

static void dc_index(struct gpulat_tracker *t);

/*
 * The completed-job cache is read only by dependencies (their producer, its
 * done and run times): a trace without any keeps its entries in the ring
 * unindexed, and the first lookup indexes what the ring holds then
 * (dc_index()). The three hash inserts and removes of every completed job
 * were 31 M instructions on KernelShark's dense-1M (47 k jobs; the trace has
 * the wait_dep format, so a dependency could come, and no dependency).
 */
static inline void dc_need_index(struct gpulat_tracker *t)
{
	if (__builtin_expect(!t->dc_indexed, 0))
		dc_index(t);
}

struct dent *gpulat__tk_dc_find_seq(struct gpulat_tracker *t, uint64_t seq)
{
	struct gpulat__hnode *n;

	dc_need_index(t);
	n = gpulat__htab_find(&t->dc_seq, seq, 0);
	return n ? gpulat_container_of(n, struct dent, by_seq) : NULL;
}

struct dent *gpulat__tk_dc_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno)
{
	struct gpulat__hnode *n;

	dc_need_index(t);
	n = gpulat__htab_find(&t->dc_fence, FK(t, ctx), U32(seqno));
	return n ? gpulat_container_of(n, struct dent, by_fence) : NULL;
}

struct dent *gpulat__tk_dc_find_ptr(struct gpulat_tracker *t, uint64_t ptr)
{
	struct gpulat__hnode *n;

	dc_need_index(t);
	n = gpulat__htab_find(&t->dc_ptr, ptr, t->cur_file);
	return n ? gpulat_container_of(n, struct dent, by_ptr) : NULL;
}

/* the entry of done job @j, NULL when it has none or it was evicted (what dc_find_seq finds) */
struct dent *gpulat__tk_dc_of(struct gpulat_tracker *t, const struct job *j)
{
	const struct jdone *jd = job_donex(t, j);
	struct dent *d;

	if (!jd || !jd->dc_slot || !t->dc)
		return NULL;
	d = &t->dc[jd->dc_slot - 1];
	return d->used && d->seq == j->seq ? d : NULL;
}

/* the keys of an entry are set when known (the file then), inserted when indexed */
static void dc_index_fence(struct gpulat_tracker *t, struct dent *d)
{
	if (!gpulat__htab_insert(&t->dc_fence, &d->by_fence, d->by_fence.k1, d->by_fence.k2))
		d->in_fence = true;
}

void gpulat__tk_dc_set_fence(struct gpulat_tracker *t, struct dent *d, uint64_t ctx, uint64_t seqno)
{
	if (t->dc_indexed ? d->in_fence : d->has_fence)
		return;
	d->ctx = ctx;
	d->seqno = seqno;
	d->has_fence = true;
	d->forder = t->dc_forder++;
	d->by_fence.k1 = FK(t, ctx);
	d->by_fence.k2 = U32(seqno);
	if (t->dc_indexed)
		dc_index_fence(t, d);
}

/* index @d by seq and pointer, as gpulat__tk_dc_add() does once indexed */
static void dc_index_seq_ptr(struct gpulat_tracker *t, struct dent *d)
{
	if (gpulat__htab_insert(&t->dc_seq, &d->by_seq, d->seq, 0)) {
		d->used = false;
		return;
	}
	if (d->ptr) {
		struct gpulat__hnode *n = gpulat__htab_find(&t->dc_ptr, d->by_ptr.k1, d->by_ptr.k2);

		/*
		 * A dependency on pointer P can only mean the newest job that
		 * used P (pointers are reused after free, <= 6.16): keep one
		 * entry per pointer so chains never grow with reuse.
		 */
		if (n) {
			struct dent *old = gpulat_container_of(n, struct dent, by_ptr);

			gpulat__htab_remove(&t->dc_ptr, &old->by_ptr);
			old->in_ptr = false;
		}
		if (!gpulat__htab_insert(&t->dc_ptr, &d->by_ptr, d->by_ptr.k1, d->by_ptr.k2))
			d->in_ptr = true;
	}
}

static int cmp_u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Index the ring as the incremental path would have: seq and pointer keys
 * oldest first (the newest entry of a pointer wins), fence keys in the order
 * the fences were learnt (of equal keys a lookup finds the last inserted).
 */
static void dc_index(struct gpulat_tracker *t)
{
	uint64_t *order = NULL;
	size_t k, n = 0;

	t->dc_indexed = true;
	if (!t->dc)
		return;
	order = malloc(DCACHE_SIZE * sizeof(*order));
	for (k = 0; k < DCACHE_SIZE; k++) {
		size_t i = (t->dc_next + k) % DCACHE_SIZE;
		struct dent *d = &t->dc[i];

		if (!d->used)
			continue;
		dc_index_seq_ptr(t, d);
		if (!d->used || !d->has_fence)
			continue;
		if (order)	/* oldest fence first: the largest age */
			order[n++] = (uint64_t)(uint32_t)(t->dc_forder - d->forder) << 32 | i;
		else
			dc_index_fence(t, d);
	}
	if (!order)
		return;
	qsort(order, n, sizeof(*order), cmp_u64_desc);
	for (k = 0; k < n; k++)
		dc_index_fence(t, &t->dc[order[k] & 0xffffffffu]);
	free(order);
}

static void prefetch_dent(const struct dent *d)
{
	const char *p = (const char *)d;
	size_t off;

	for (off = 0; off < sizeof(*d); off += 64)
		__builtin_prefetch(p + off, 1);
}

/* start loading the buckets of @d's keys (cache hint) */
static void dc_prefetch_slots(struct gpulat_tracker *t, const struct dent *d)
{
	if (!d->used)
		return;
	gpulat__htab_prefetch_slot(&t->dc_seq, d->by_seq.k1, d->by_seq.k2);
	if (d->in_fence)
		gpulat__htab_prefetch_slot(&t->dc_fence, d->by_fence.k1, d->by_fence.k2);
	if (d->in_ptr)
		gpulat__htab_prefetch_slot(&t->dc_ptr, d->by_ptr.k1, d->by_ptr.k2);
}

/* start loading node @skip of the chains of @d's keys (cache hint) */
static void dc_prefetch_chains(struct gpulat_tracker *t, const struct dent *d, unsigned int skip)
{
	if (!d->used)
		return;
	gpulat__htab_prefetch_chain(&t->dc_seq, d->by_seq.k1, d->by_seq.k2, skip);
	if (d->in_fence)
		gpulat__htab_prefetch_chain(&t->dc_fence, d->by_fence.k1, d->by_fence.k2, skip);
	if (d->in_ptr)
		gpulat__htab_prefetch_chain(&t->dc_ptr, d->by_ptr.k1, d->by_ptr.k2, skip);
}

/*
 * The entry the next gpulat__tk_dc_add() evicts is DCACHE_SIZE completions old: it and
 * its hash chains are out of the cpu caches, and being the oldest it sits
 * behind the newer entries of its chains (about two nodes deep at the table's
 * load). One stage per call, each reading only what the previous call asked
 * for: the entry three calls ahead, its buckets two ahead, the first node of
 * its chains one ahead, the second now. Cache hints only: nothing changes.
 */
static void dc_prefetch(struct gpulat_tracker *t)
{
	size_t k = t->dc_next;

	prefetch_dent(&t->dc[(k + 3) % DCACHE_SIZE]);
	dc_prefetch_slots(t, &t->dc[(k + 2) % DCACHE_SIZE]);
	dc_prefetch_chains(t, &t->dc[(k + 1) % DCACHE_SIZE], 0);
	dc_prefetch_chains(t, &t->dc[k], 1);
}

void gpulat__tk_dc_add(struct gpulat_tracker *t, struct job *j)
{
	struct dent *d;

	if (!t->dc) {
		t->dc = calloc(DCACHE_SIZE, sizeof(*t->dc));
		if (!t->dc)
			return;
	}
	d = &t->dc[t->dc_next];
	if (j->dn)
		job_donex(t, j)->dc_slot = (uint32_t)t->dc_next + 1;
	t->dc_next = (t->dc_next + 1) % DCACHE_SIZE;
	if (d->used && t->dc_indexed) {
		gpulat__htab_remove(&t->dc_seq, &d->by_seq);
		if (d->in_fence)
			gpulat__htab_remove(&t->dc_fence, &d->by_fence);
		if (d->in_ptr)
			gpulat__htab_remove(&t->dc_ptr, &d->by_ptr);
	}
	memset(d, 0, sizeof(*d));
	d->seq = j->seq;
	d->dev = job_dev(t, j);
	d->ring = shown_ring(t, j);
	d->done_ts = job_ts(t, j, GPULAT_ST_DONE);
	d->run_ts = j->ts_qr[GPULAT_ST_RUN];
	d->ptr = job_fence_ptr(t, j);
	d->ctx = d->seqno = GPULAT_NONE;
	d->by_ptr.k1 = d->ptr;
	d->by_ptr.k2 = (uint64_t)t->cur_file;
	d->used = true;
	if (!t->dc_indexed) {
		/* kept in the ring only, until a dependency asks (dc_index()) */
		if (j->in_fence)
			gpulat__tk_dc_set_fence(t, d, j->ctx, j->seqno);
		return;
	}
	dc_index_seq_ptr(t, d);
	if (!d->used)
		return;
	if (j->in_fence)
		gpulat__tk_dc_set_fence(t, d, j->ctx, j->seqno);
	dc_prefetch(t);
}
