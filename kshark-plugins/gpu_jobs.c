// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin, data side: collect at load time, link lazily.
 *
 * Load time (per record, must stay cheap): append the entry and a copy of the record's
 * payload (memcpy into big blocks) for our events, and the entry of lost-event entries
 * (KS_EVENT_OVERFLOW). Nothing is decoded.
 *
 * Second pass (first draw or accessor call), plugin_gpujob_link():
 *   1. decode the copies through the core binding and sort them by time (KernelShark
 *      hands the records over CPU by CPU);
 *   2. feed them to the core tracker, which links queue -> run -> done -> signal with
 *      the era's keys (device, ring, fence context:seqno / fence pointer / id);
 *   3. keep every emitted job (complete or not), map stage timestamps back to entries;
 *   4. build the ring table (synthetic ids, gpu_rings.h), stack overlapping jobs of a
 *      ring into sub-rows, and build range indexes per ring, per CPU, per task.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

#include "gpulat-tracecmd.h"

#include "gpu_jobs.h"
#include "gpu_rings.h"

/* Payload copies are kept in blocks of this size. */
#define GPUJOB_BLOCK_SIZE	(256 * 1024)

/* Most sub-rows a ring row is split into; deeper stacks share the last one. */
#define GPUJOB_MAX_SUBROWS	64

static void gpujob_free_results(struct plugin_gpujob_ctx *ctx);
static void gpujob_free_blocks(struct plugin_gpujob_ctx *ctx);

static void gpujob_index_free(struct gpujob_index *idx)
{
	free(idx->it);
	free(idx->end_max);
	idx->it = NULL;
	idx->end_max = NULL;
	idx->n = idx->cap = 0;
}

static void gpujob_free_context(struct plugin_gpujob_ctx *ctx)
{
	if (!ctx)
		return;

	gpujob_free_results(ctx);
	plugin_gpujob_draw_free(ctx->draw);
	free(ctx->ents);
	gpujob_free_blocks(ctx);
	free(ctx->event_ids);
	gpulat_binding_free(ctx->binding);
	free(ctx);
}

/*
 * Careful: KS_DEFINE_PLUGIN_CONTEXT's __close() calls the free function and only then
 * forgets the pointer; gpujob_free_context() frees the struct itself.
 */
KS_DEFINE_PLUGIN_CONTEXT(struct plugin_gpujob_ctx, gpujob_free_context);

/* The table of contexts goes when the last stream lets the plugin go. */
static void gpujob_release_context_table(void)
{
	ssize_t sd;

	if (__n_streams < 0 || !__context_handler)
		return;
	for (sd = 0; sd < __n_streams; sd++)
		if (__context_handler[sd])
			return;
	__close(KS_PLUGIN_CONTEXT_FREE);
	__context_handler = NULL;
}

static void gpujob_free_results(struct plugin_gpujob_ctx *ctx)
{
	size_t i;
	int c;

	for (i = 0; i < ctx->n_rings; i++) {
		free(ctx->rings[i].label);
		gpujob_index_free(&ctx->ring_idx[i]);
	}
	free(ctx->rings);
	free(ctx->ring_idx);
	ctx->rings = NULL;
	ctx->ring_idx = NULL;
	ctx->n_rings = 0;

	for (c = 0; c < ctx->n_cpus; c++)
		gpujob_index_free(&ctx->cpu_idx[c]);
	free(ctx->cpu_idx);
	ctx->cpu_idx = NULL;
	ctx->n_cpus = 0;

	for (i = 0; i < ctx->n_pids; i++)
		gpujob_index_free(&ctx->pid_idx[i]);
	free(ctx->pid_idx);
	ctx->pid_idx = NULL;
	ctx->n_pids = 0;

	free(ctx->jobs);
	ctx->jobs = NULL;
	ctx->n_jobs = ctx->cap_jobs = 0;
	free(ctx->deps);
	ctx->deps = NULL;
	ctx->n_deps = ctx->cap_deps = 0;
	free(ctx->evs);
	free(ctx->order);
	ctx->evs = NULL;
	ctx->order = NULL;
	ctx->n_evs = 0;

	memset(&ctx->counters, 0, sizeof(ctx->counters));
	ctx->linked = false;
	ctx->link_failed = false;
}

/* ------------------------------------------------------------------------ */
/* Load time: one pointer per record, nothing else                            */

static void gpujob_free_blocks(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_block *b;

	while ((b = ctx->blocks)) {
		ctx->blocks = b->next;
		free(b);
	}
}

/* A stable copy of @size bytes of payload (the block space is rounded up, the copy not). */
static void *gpujob_copy(struct plugin_gpujob_ctx *ctx, const void *data, size_t size)
{
	struct gpujob_block *b = ctx->blocks;
	size_t cap, room = (size + 7) & ~(size_t)7;
	void *p;

	if (!b || b->cap - b->used < room) {
		cap = room > GPUJOB_BLOCK_SIZE ? room : GPUJOB_BLOCK_SIZE;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = ctx->blocks;
		ctx->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, data, size);
	b->used += room;
	return p;
}

static void gpujob_collect(struct plugin_gpujob_ctx *ctx, struct kshark_entry *entry,
			   const struct tep_record *rec)
{
	struct gpujob_raw *tmp, *r;
	size_t cap, size;

	/*
	 * Records arriving after the second pass mean KernelShark reloads the data without
	 * re-initializing the plugin: start over, the old entries are gone.
	 */
	if (ctx->linked || ctx->link_failed) {
		gpujob_free_results(ctx);
		gpujob_free_blocks(ctx);
		ctx->n_ents = 0;
		ctx->n_damaged = 0;
		ctx->collect_failed = false;
	}
	if (ctx->collect_failed)
		return;

	if (ctx->n_ents == ctx->cap_ents) {
		cap = ctx->cap_ents ? ctx->cap_ents * 2 : 4096;
		tmp = realloc(ctx->ents, cap * sizeof(*tmp));
		if (!tmp)
			goto fail;
		ctx->ents = tmp;
		ctx->cap_ents = cap;
	}
	r = &ctx->ents[ctx->n_ents];
	r->entry = entry;
	r->data = NULL;
	r->size = 0;
	if (rec && rec->data && rec->size != 0) {
		size = gpulat_record_bytes(rec, ctx->page_size);
		if (!size) {
			/* longer than its page: damaged, kept as an entry without payload */
			ctx->n_damaged++;
		} else {
			r->data = gpujob_copy(ctx, rec->data, size);
			if (!r->data)
				goto fail;
			r->size = (int)size;
		}
	}
	ctx->n_ents++;
	return;

fail:
	/* out of memory: stop collecting, the second pass reports it */
	ctx->collect_failed = true;
}

static void gpujob_event_action(struct kshark_data_stream *stream, void *rec,
				struct kshark_entry *entry)
{
	struct plugin_gpujob_ctx *ctx = __get_context(stream->stream_id);

	if (ctx)
		gpujob_collect(ctx, entry, rec);
}

/*
 * tepdata's "missed events" entry: event_id KS_EVENT_OVERFLOW, the count in its offset;
 * @rec is the record after the gap, not ours.
 */
static void gpujob_overflow_action(struct kshark_data_stream *stream, void *rec,
				   struct kshark_entry *entry)
{
	struct plugin_gpujob_ctx *ctx = __get_context(stream->stream_id);

	(void)rec;
	if (ctx)
		gpujob_collect(ctx, entry, NULL);
}

/* ------------------------------------------------------------------------ */
/* Second pass                                                                */

static int gpujob_order_cmp(const void *a, const void *b)
{
	const struct gpujob_order *oa = a, *ob = b;

	if (oa->ts != ob->ts)
		return oa->ts < ob->ts ? -1 : 1;
	return oa->seq < ob->seq ? -1 : oa->seq > ob->seq;
}

/*
 * Decode the collected records (copies of their payloads) and sort them by stream time;
 * lost-event entries become notes (kind GPULAT_EV_NONE). KernelShark hands the records
 * over CPU by CPU, so the time order is rebuilt here.
 */
static int gpujob_decode_all(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_order *order = NULL;
	struct gpujob_ev *evs = NULL;
	struct tep_record rec;
	size_t i, n = 0;

	if (!ctx->n_ents)
		return 0;

	evs = malloc(ctx->n_ents * sizeof(*evs));
	order = malloc(ctx->n_ents * sizeof(*order));
	if (!evs || !order)
		goto nomem;

	for (i = 0; i < ctx->n_ents; i++) {
		struct kshark_entry *entry = ctx->ents[i].entry;
		struct gpujob_ev *e = &evs[n];

		if (entry->event_id == KS_EVENT_OVERFLOW) {
			memset(&e->ev, 0, sizeof(e->ev));
			e->ev.kind = GPULAT_EV_NONE;
			e->entry = NULL;
			/* the number of missed events (-1 when unknown) */
			e->lost = entry->offset > 0 ? (uint64_t)entry->offset : 0;
		} else {
			memset(&rec, 0, sizeof(rec));
			rec.ts = entry->ts;
			rec.cpu = entry->cpu;
			rec.data = ctx->ents[i].data;
			rec.size = ctx->ents[i].size;
			if (!rec.data || gpulat_binding_decode(ctx->binding, &rec, &e->ev) != 1)
				continue;
			e->entry = entry;
			e->lost = 0;
		}
		/* stream time: KernelShark may have calibrated (shifted) the entry */
		e->ev.ts = entry->ts;
		e->ev.cpu = entry->cpu;
		e->seq = n;
		if (e->entry && e->ev.ts > ctx->last_ts)
			ctx->last_ts = e->ev.ts;
		order[n].ts = e->ev.ts;
		order[n].seq = n;
		n++;
	}

	/* sort 16-byte keys, not the records */
	qsort(order, n, sizeof(*order), gpujob_order_cmp);
	ctx->evs = evs;
	ctx->order = order;
	ctx->n_evs = n;
	return 0;

nomem:
	free(evs);
	free(order);
	return -ENOMEM;
}

static bool gpujob_kind_is_stage(enum gpulat_kind kind, int stage)
{
	switch (stage) {
	case GPULAT_ST_QUEUE:
		return kind == GPULAT_EV_QUEUE || kind == GPULAT_EV_AMD_CS;
	case GPULAT_ST_RUN:
		return kind == GPULAT_EV_RUN || kind == GPULAT_EV_AMD_RUN;
	case GPULAT_ST_DONE:
		return kind == GPULAT_EV_DONE;
	case GPULAT_ST_SIGNAL:
		return kind == GPULAT_EV_FENCE_SIGNALED;
	default:
		return false;
	}
}

/* The entry of the record of @stage at (@ts, @cpu) in the sorted records. */
static struct kshark_entry *gpujob_find_entry(struct plugin_gpujob_ctx *ctx, int stage,
					      uint64_t ts, int cpu)
{
	struct kshark_entry *fallback = NULL;
	size_t lo = 0, hi = ctx->n_evs, mid;
	struct gpujob_ev *e;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ctx->order[mid].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}

	for (; lo < ctx->n_evs && ctx->order[lo].ts == ts; lo++) {
		e = &ctx->evs[ctx->order[lo].seq];
		if (!e->entry || (cpu >= 0 && e->ev.cpu != cpu))
			continue;
		if (gpujob_kind_is_stage(e->ev.kind, stage))
			return e->entry;
		if (!fallback)
			fallback = e->entry;
	}

	return fallback;
}

static void gpujob_on_job(const struct gpulat_job *j, void *data)
{
	struct plugin_gpujob_ctx *ctx = data;
	struct plugin_gpujob_dep *dtmp;
	struct plugin_gpujob *job, *jtmp;
	size_t cap;
	unsigned int i;
	int s;

	if (ctx->link_failed)
		return;

	if (ctx->n_jobs == ctx->cap_jobs) {
		cap = ctx->cap_jobs ? ctx->cap_jobs * 2 : 1024;
		jtmp = realloc(ctx->jobs, cap * sizeof(*jtmp));
		if (!jtmp)
			goto fail;
		ctx->jobs = jtmp;
		ctx->cap_jobs = cap;
	}

	if (ctx->n_deps + j->n_deps > ctx->cap_deps) {
		cap = ctx->cap_deps ? ctx->cap_deps : 256;
		while (cap < ctx->n_deps + j->n_deps)
			cap *= 2;
		dtmp = realloc(ctx->deps, cap * sizeof(*dtmp));
		if (!dtmp)
			goto fail;
		ctx->deps = dtmp;
		ctx->cap_deps = cap;
	}

	job = &ctx->jobs[ctx->n_jobs++];
	memset(job, 0, sizeof(*job));
	job->begin = GPULAT_NONE;
	job->end = 0;
	for (s = 0; s < GPUJOB_NSTAGES; s++) {
		job->ts[s] = j->ts[s];
		job->cpu[s] = j->ts[s] == GPULAT_NONE ? -1 : j->cpu[s];
		if (j->ts[s] == GPULAT_NONE)
			continue;
		if (j->ts[s] < job->begin)
			job->begin = j->ts[s];
		if (j->ts[s] > job->end)
			job->end = j->ts[s];
	}
	if (job->begin == GPULAT_NONE)
		job->begin = job->end = ctx->last_ts;
	/* never completed: the job lives until the end of the trace */
	if (j->ts[GPULAT_ST_DONE] == GPULAT_NONE && j->ts[GPULAT_ST_SIGNAL] == GPULAT_NONE &&
	    ctx->last_ts > job->end)
		job->end = ctx->last_ts;

	job->start_ts = j->start_ts;
	job->ctx = j->ctx;
	job->seqno = j->seqno;
	job->id = j->id;
	job->seq = j->seq;
	/* the tracker's strings die with it: keep the binding's copies */
	job->dev = gpulat_binding_intern(ctx->binding, j->dev ? j->dev : "");
	job->ring = j->ring ? gpulat_binding_intern(ctx->binding, j->ring) : NULL;
	job->ring_ptr = j->ring_ptr ? gpulat_binding_intern(ctx->binding, j->ring_ptr) : NULL;
	job->comm = j->comm ? gpulat_binding_intern(ctx->binding, j->comm) : NULL;
	if (!job->dev)
		job->dev = "";
	job->pid = j->pid;
	job->ring_idx = -1;
	job->status = j->status;
	job->lost_stages = j->lost_stages;

	/* producers are resolved from job_seq after all jobs are known */
	job->dep_first = ctx->n_deps;
	job->n_deps = j->n_deps;
	for (i = 0; i < j->n_deps; i++) {
		struct plugin_gpujob_dep *d = &ctx->deps[ctx->n_deps++];

		d->producer = j->deps[i].job_seq == GPULAT_NONE ?
			      -1 : (ssize_t)j->deps[i].job_seq;
		d->ctx = j->deps[i].ctx;
		d->seqno = j->deps[i].seqno;
	}
	return;

fail:
	ctx->link_failed = true;
}

static int gpujob_job_cmp(const void *a, const void *b)
{
	const struct plugin_gpujob *ja = a, *jb = b;

	if (ja->begin != jb->begin)
		return ja->begin < jb->begin ? -1 : 1;
	return ja->seq < jb->seq ? -1 : ja->seq > jb->seq;
}

static int gpujob_item_cmp(const void *a, const void *b)
{
	const struct gpujob_item *ia = a, *ib = b;

	if (ia->begin != ib->begin)
		return ia->begin < ib->begin ? -1 : 1;
	if (ia->job != ib->job)
		return ia->job < ib->job ? -1 : 1;
	return ia->stage < ib->stage ? -1 : ia->stage > ib->stage;
}

static int gpujob_index_add(struct gpujob_index *idx, uint64_t begin, uint64_t end,
			    size_t job, int stage)
{
	struct gpujob_item *tmp;
	size_t cap;

	if (idx->n == idx->cap) {
		cap = idx->cap ? idx->cap * 2 : 64;
		tmp = realloc(idx->it, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		idx->it = tmp;
		idx->cap = cap;
	}
	idx->it[idx->n].begin = begin;
	idx->it[idx->n].end = end < begin ? begin : end;
	idx->it[idx->n].job = job;
	idx->it[idx->n].stage = stage;
	idx->n++;
	return 0;
}

static int gpujob_index_finish(struct gpujob_index *idx)
{
	uint64_t m = 0;
	size_t i;

	if (!idx->n)
		return 0;

	qsort(idx->it, idx->n, sizeof(*idx->it), gpujob_item_cmp);
	idx->end_max = malloc(idx->n * sizeof(*idx->end_max));
	if (!idx->end_max)
		return -ENOMEM;
	for (i = 0; i < idx->n; i++) {
		if (idx->it[i].end > m)
			m = idx->it[i].end;
		idx->end_max[i] = m;
	}
	return 0;
}

/**
 * plugin_gpujob_index_first - first item of @idx that may intersect [t0, ...)
 * @idx: a finished index
 * @t0: begin of the visible range
 *
 * Items before the returned position all end before @t0. Iterate from it while
 * item.begin <= t1 and skip items with item.end < t0.
 *
 * Return: an index in [0, idx->n].
 */
ssize_t plugin_gpujob_index_first(const struct gpujob_index *idx, uint64_t t0)
{
	size_t lo = 0, hi = idx->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx->end_max[mid] < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static ssize_t gpujob_ring_find(struct plugin_gpujob_ctx *ctx, const char *dev,
				const char *ring)
{
	size_t i;

	/* strings are interned by the binding: equal strings, equal pointers */
	for (i = 0; i < ctx->n_rings; i++) {
		if (ctx->rings[i].name == ring && ctx->rings[i].dev == dev)
			return i;
	}
	for (i = 0; i < ctx->n_rings; i++) {
		if (!strcmp(ctx->rings[i].name, ring) && !strcmp(ctx->rings[i].dev, dev))
			return i;
	}
	return -1;
}

static ssize_t gpujob_ring_add(struct plugin_gpujob_ctx *ctx, const char *dev,
			       const char *ring)
{
	struct plugin_gpujob_ring *tmp;
	ssize_t r;

	r = gpujob_ring_find(ctx, dev, ring);
	if (r >= 0)
		return r;

	tmp = realloc(ctx->rings, (ctx->n_rings + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	ctx->rings = tmp;
	memset(&ctx->rings[ctx->n_rings], 0, sizeof(*tmp));
	ctx->rings[ctx->n_rings].dev = dev;
	ctx->rings[ctx->n_rings].name = ring;
	return ctx->n_rings++;
}

static int gpujob_build_rings(struct plugin_gpujob_ctx *ctx)
{
	struct tep_handle *tep = kshark_get_tep(ctx->stream);
	struct gpujob_ring_key *keys;
	char label[256];
	size_t i;
	ssize_t r;

	/* The ring set is defined by the events, exactly as gpu-kshark-rings does. */
	for (i = 0; i < ctx->n_evs; i++) {
		const struct gpulat_event *ev = &ctx->evs[i].ev;

		if (!gpujob_event_names_ring(ev))
			continue;
		if (gpujob_ring_add(ctx, ev->dev ? ev->dev : "", ev->ring) < 0)
			return -ENOMEM;
	}
	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		if (!job->ring || !job->ring[0])
			continue;
		/* the row is the ring as traced (its id), named as the core names it */
		r = gpujob_ring_add(ctx, job->dev, job->ring_ptr ? job->ring_ptr : job->ring);
		if (r < 0)
			return -ENOMEM;
		job->ring_idx = r;
		ctx->rings[r].n_jobs++;
		if (!ctx->rings[r].shown || ctx->rings[r].shown == ctx->rings[r].name)
			ctx->rings[r].shown = job->ring;
	}

	if (!ctx->n_rings)
		return 0;

	keys = calloc(ctx->n_rings, sizeof(*keys));
	ctx->ring_idx = calloc(ctx->n_rings, sizeof(*ctx->ring_idx));
	if (!keys || !ctx->ring_idx) {
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < ctx->n_rings; i++) {
		keys[i].dev = ctx->rings[i].dev;
		keys[i].ring = ctx->rings[i].name;
		keys[i].user = i;
	}
	gpujob_ring_ids_assign(keys, ctx->n_rings);
	for (i = 0; i < ctx->n_rings; i++) {
		struct plugin_gpujob_ring *ring = &ctx->rings[keys[i].user];

		ring->id = keys[i].id;
		gpulat_ring_label(label, sizeof(label), ring->dev,
				  ring->shown ? ring->shown : ring->name);
		ring->label = strdup(label);
		if (!ring->label) {
			free(keys);
			return -ENOMEM;
		}
		ctx->ring_idx[keys[i].user].key = keys[i].user;
	}
	free(keys);

	for (i = 0; i < ctx->n_rings; i++) {
		/*
		 * Name the synthetic task after the ring, so that KernelShark's task
		 * lists and the row label read "gfx-1234567890" rather than "<...>".
		 */
		if (tep && !tep_is_pid_registered(tep, ctx->rings[i].id))
			tep_register_comm(tep, ctx->rings[i].label, ctx->rings[i].id);
	}
	return 0;
}

/* Greedy stacking: each job takes the lowest sub-row that is free at its begin. */
static void gpujob_stack(struct plugin_gpujob_ctx *ctx, struct gpujob_index *idx,
			 struct plugin_gpujob_ring *ring)
{
	uint64_t row_end[GPUJOB_MAX_SUBROWS];
	int n_rows = 0, r, best;
	size_t i;

	for (i = 0; i < idx->n; i++) {
		struct plugin_gpujob *job = &ctx->jobs[idx->it[i].job];

		for (r = 0; r < n_rows; r++) {
			if (row_end[r] < job->begin)
				break;
		}
		if (r == n_rows && n_rows < GPUJOB_MAX_SUBROWS) {
			n_rows++;
		} else if (r == n_rows) {
			/* full: share the sub-row that frees first */
			best = 0;
			for (r = 1; r < n_rows; r++)
				if (row_end[r] < row_end[best])
					best = r;
			r = best;
		}
		row_end[r] = job->end;
		job->subrow = r;
	}
	ring->n_subrows = n_rows ? n_rows : 1;
}

static struct gpujob_index *gpujob_pid_slot(struct plugin_gpujob_ctx *ctx, int pid)
{
	struct gpujob_index *tmp;
	size_t i;

	for (i = 0; i < ctx->n_pids; i++)
		if (ctx->pid_idx[i].key == pid)
			return &ctx->pid_idx[i];

	tmp = realloc(ctx->pid_idx, (ctx->n_pids + 1) * sizeof(*tmp));
	if (!tmp)
		return NULL;
	ctx->pid_idx = tmp;
	memset(&ctx->pid_idx[ctx->n_pids], 0, sizeof(*tmp));
	ctx->pid_idx[ctx->n_pids].key = pid;
	return &ctx->pid_idx[ctx->n_pids++];
}

static int gpujob_index_key_cmp(const void *a, const void *b)
{
	const struct gpujob_index *ia = a, *ib = b;

	return ia->key < ib->key ? -1 : ia->key > ib->key;
}

static int gpujob_build_indexes(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_index *pidx;
	size_t i;
	int s, c, max_cpu = -1;

	for (i = 0; i < ctx->n_jobs; i++)
		for (s = 0; s < GPUJOB_NSTAGES; s++)
			if (ctx->jobs[i].cpu[s] > max_cpu)
				max_cpu = ctx->jobs[i].cpu[s];
	if (ctx->stream && ctx->stream->n_cpus - 1 > max_cpu)
		max_cpu = ctx->stream->n_cpus - 1;

	if (max_cpu >= 0) {
		ctx->cpu_idx = calloc(max_cpu + 1, sizeof(*ctx->cpu_idx));
		if (!ctx->cpu_idx)
			return -ENOMEM;
		ctx->n_cpus = max_cpu + 1;
		for (c = 0; c <= max_cpu; c++)
			ctx->cpu_idx[c].key = c;
	}

	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		if (job->ring_idx >= 0 &&
		    gpujob_index_add(&ctx->ring_idx[job->ring_idx], job->begin, job->end,
				     i, 0))
			return -ENOMEM;

		/*
		 * CPU items: a stage is drawn on the CPU whose event began it, from that
		 * event to the next stage (queue: wait; run: hardware; done: until the
		 * fence signal, or a tick).
		 */
		for (s = 0; s < GPUJOB_NSTAGES; s++) {
			uint64_t end = job->ts[s];
			int n;

			if (job->cpu[s] < 0 || job->ts[s] == GPULAT_NONE)
				continue;
			for (n = s + 1; n < GPUJOB_NSTAGES; n++) {
				if (job->ts[n] != GPULAT_NONE) {
					end = job->ts[n];
					break;
				}
			}
			if (gpujob_index_add(&ctx->cpu_idx[job->cpu[s]], job->ts[s], end, i, s))
				return -ENOMEM;

			/* arrival from the previous stage's CPU (connector only) */
			for (n = s - 1; n >= 0; n--)
				if (job->ts[n] != GPULAT_NONE && job->cpu[n] >= 0)
					break;
			if (n >= 0 && job->cpu[n] != job->cpu[s] &&
			    gpujob_index_add(&ctx->cpu_idx[job->cpu[s]], job->ts[n], job->ts[s],
					     i, s | GPUJOB_ARRIVAL))
				return -ENOMEM;
		}

		if (job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE) {
			pidx = gpujob_pid_slot(ctx, job->pid);
			if (!pidx || gpujob_index_add(pidx, job->begin, job->end, i, 0))
				return -ENOMEM;
		}
	}

	for (i = 0; i < ctx->n_rings; i++) {
		if (gpujob_index_finish(&ctx->ring_idx[i]))
			return -ENOMEM;
		gpujob_stack(ctx, &ctx->ring_idx[i], &ctx->rings[i]);
	}
	for (c = 0; c < ctx->n_cpus; c++)
		if (gpujob_index_finish(&ctx->cpu_idx[c]))
			return -ENOMEM;
	for (i = 0; i < ctx->n_pids; i++)
		if (gpujob_index_finish(&ctx->pid_idx[i]))
			return -ENOMEM;
	if (ctx->n_pids)
		qsort(ctx->pid_idx, ctx->n_pids, sizeof(*ctx->pid_idx), gpujob_index_key_cmp);
	return 0;
}

struct gpujob_seq_map {
	uint64_t	seq;
	size_t		idx;
};

static int gpujob_seq_cmp(const void *a, const void *b)
{
	const struct gpujob_seq_map *ma = a, *mb = b;

	return ma->seq < mb->seq ? -1 : ma->seq > mb->seq;
}

/* Dependencies carry the producer's tracker seq; turn it into a job table index. */
static int gpujob_resolve_deps(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_seq_map *map, key, *hit;
	size_t i;

	if (!ctx->n_deps)
		return 0;

	map = malloc(ctx->n_jobs * sizeof(*map) + 1);
	if (!map)
		return -ENOMEM;
	for (i = 0; i < ctx->n_jobs; i++) {
		map[i].seq = ctx->jobs[i].seq;
		map[i].idx = i;
	}
	qsort(map, ctx->n_jobs, sizeof(*map), gpujob_seq_cmp);

	for (i = 0; i < ctx->n_deps; i++) {
		if (ctx->deps[i].producer < 0)
			continue;
		key.seq = ctx->deps[i].producer;
		hit = bsearch(&key, map, ctx->n_jobs, sizeof(*map), gpujob_seq_cmp);
		ctx->deps[i].producer = hit ? (ssize_t)hit->idx : -1;
	}
	free(map);
	return 0;
}

static void gpujob_warn(const char *msg, void *data)
{
	struct plugin_gpujob_ctx *ctx = data;

	fprintf(stderr, "gpu_jobs: %s: %s\n", ctx->stream ? ctx->stream->file : "?", msg);
}

/**
 * plugin_gpujob_link - the lazy second pass: link the collected records into jobs
 * @ctx: the stream's context
 *
 * Context: called from the draw handler or an accessor, after the data is loaded.
 * Return: 0, or a negative errno (the plugin then draws nothing for this stream).
 */
int plugin_gpujob_link(struct plugin_gpujob_ctx *ctx)
{
	struct gpulat_tracker_ops ops = {
		.job	= gpujob_on_job,
		.warn	= gpujob_warn,
	};
	struct gpulat_tracker *t;
	size_t i;
	int s, ret = 0;

	if (ctx->link_failed)
		return -ENOMEM;
	if (ctx->linked)
		return 0;
	if (ctx->collect_failed)
		goto fail;

	ctx->last_ts = 0;
	if (ctx->n_damaged) {
		char msg[128];

		snprintf(msg, sizeof(msg), "%zu damaged records skipped (longer than their "
			 "ring-buffer page)", ctx->n_damaged);
		gpujob_warn(msg, ctx);
	}
	if (gpujob_decode_all(ctx) < 0) {
		ctx->link_failed = true;
		return -ENOMEM;
	}

	t = gpulat_tracker_new(&ops, ctx);
	if (!t) {
		ctx->link_failed = true;
		return -ENOMEM;
	}
	gpulat_tracker_set_signal_expected(t, gpulat_binding_has(ctx->binding,
								 GPULAT_EV_FENCE_SIGNALED));

	for (i = 0; i < ctx->n_evs && !ctx->link_failed; i++) {
		const struct gpujob_ev *e = &ctx->evs[ctx->order[i].seq];

		if (e->ev.kind == GPULAT_EV_NONE) {
			gpulat_tracker_lost(t, e->ev.cpu, e->ev.ts, e->lost);
			continue;
		}
		if (gpulat_tracker_feed(t, &e->ev) < 0)
			ctx->link_failed = true;
	}
	if (!ctx->link_failed)
		gpulat_tracker_flush(t, ctx->last_ts);
	gpulat_tracker_counters(t, &ctx->counters);
	gpulat_tracker_free(t);

	if (ctx->link_failed)
		goto fail;

	if (ctx->n_jobs)
		qsort(ctx->jobs, ctx->n_jobs, sizeof(*ctx->jobs), gpujob_job_cmp);

	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		for (s = 0; s < GPUJOB_NSTAGES; s++) {
			if (job->ts[s] != GPULAT_NONE)
				job->entry[s] = gpujob_find_entry(ctx, s, job->ts[s],
								  job->cpu[s]);
		}
	}

	ret = gpujob_resolve_deps(ctx);
	if (!ret)
		ret = gpujob_build_rings(ctx);
	if (!ret)
		ret = gpujob_build_indexes(ctx);
	if (ret)
		goto fail;

	/* the decoded records served linking only */
	free(ctx->evs);
	free(ctx->order);
	ctx->evs = NULL;
	ctx->order = NULL;
	ctx->n_evs = 0;
	ctx->linked = true;
	return 0;

fail:
	fprintf(stderr, "gpu_jobs: %s: out of memory while linking jobs\n",
		ctx->stream ? ctx->stream->file : "?");
	gpujob_free_results(ctx);
	ctx->link_failed = true;
	return -ENOMEM;
}

const struct gpujob_index *plugin_gpujob_cpu_index(struct plugin_gpujob_ctx *ctx, int cpu)
{
	if (cpu < 0 || cpu >= ctx->n_cpus || !ctx->cpu_idx[cpu].n)
		return NULL;
	return &ctx->cpu_idx[cpu];
}

const struct gpujob_index *plugin_gpujob_pid_index(struct plugin_gpujob_ctx *ctx, int pid)
{
	struct gpujob_index key = { .key = pid };

	if (!ctx->n_pids)
		return NULL;
	return bsearch(&key, ctx->pid_idx, ctx->n_pids, sizeof(*ctx->pid_idx),
		       gpujob_index_key_cmp);
}

ssize_t plugin_gpujob_ring_by_id(struct plugin_gpujob_ctx *ctx, int id)
{
	size_t i;

	for (i = 0; i < ctx->n_rings; i++)
		if (ctx->rings[i].id == id)
			return i;
	return -1;
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                  */

static struct plugin_gpujob_ctx *gpujob_linked_ctx(int sd)
{
	struct plugin_gpujob_ctx *ctx = __get_context(sd);

	if (!ctx)
		return NULL;
	if (plugin_gpujob_link(ctx) < 0)
		return NULL;
	return ctx;
}

GPUJOB_EXPORT ssize_t plugin_gpujob_get_jobs(int sd, const struct plugin_gpujob **jobs)
{
	struct plugin_gpujob_ctx *ctx = gpujob_linked_ctx(sd);

	if (!ctx)
		return -ENODEV;
	*jobs = ctx->jobs;
	return ctx->n_jobs;
}

GPUJOB_EXPORT ssize_t plugin_gpujob_get_rings(int sd, const struct plugin_gpujob_ring **rings)
{
	struct plugin_gpujob_ctx *ctx = gpujob_linked_ctx(sd);

	if (!ctx)
		return -ENODEV;
	*rings = ctx->rings;
	return ctx->n_rings;
}

GPUJOB_EXPORT ssize_t plugin_gpujob_get_deps(int sd, const struct plugin_gpujob_dep **deps)
{
	struct plugin_gpujob_ctx *ctx = gpujob_linked_ctx(sd);

	if (!ctx)
		return -ENODEV;
	*deps = ctx->deps;
	return ctx->n_deps;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                               */

/*
 * The kinds the core tracker links jobs from. Other dma_fence events (emit, enable,
 * destroy, waits), irq, sched and power events are not collected: every registered
 * handler costs on every record of a big trace.
 */
static bool gpujob_kind_linked(enum gpulat_kind kind)
{
	return gpulat_kind_linked(kind);
}

static int gpujob_register_events(struct plugin_gpujob_ctx *ctx,
				  struct kshark_data_stream *stream)
{
	struct tep_handle *tep = kshark_get_tep(stream);
	struct tep_event **events;
	enum gpulat_kind kind;
	int i, n = 0, total;

	total = tep_get_events_count(tep);
	events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	if (!events || total <= 0)
		return 0;

	ctx->event_ids = calloc(total, sizeof(*ctx->event_ids));
	if (!ctx->event_ids)
		return -ENOMEM;

	for (i = 0; i < total && events[i]; i++) {
		kind = gpulat_binding_kind_of(ctx->binding, events[i]->id);
		if (!gpujob_kind_linked(kind))
			continue;
		kshark_register_event_handler(stream, events[i]->id, gpujob_event_action);
		ctx->event_ids[n++] = events[i]->id;
	}
	ctx->n_event_ids = n;
	return n;
}

static bool gpujob_has_jobs(const struct gpulat_binding *b)
{
	int k;

	for (k = 0; k < GPULAT_EV__COUNT; k++)
		if (gpulat_kind_makes_jobs(k) && gpulat_binding_has(b, k))
			return true;
	return false;
}

/** Load the plugin for @stream. Return: the number of handlers (> 0), 0 on failure. */
GPUJOB_EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_gpujob_ctx *ctx;
	int n;

	if (!kshark_is_tep(stream) || !kshark_get_tep(stream))
		return 0;

	ctx = __init(stream->stream_id);
	if (!ctx)
		return 0;
	ctx->stream = stream;

	ctx->binding = gpulat_binding_new(kshark_get_tep(stream));
	if (!ctx->binding)
		goto fail;
	/* records are bounded by the page they come from (gpujob_record_bytes) */
	if (kshark_get_tep_input(stream))
		ctx->page_size = tracecmd_page_size(kshark_get_tep_input(stream));
	gpulat_binding_set_warn(ctx->binding, gpujob_warn, ctx);

	/* A trace without GPU scheduler events: nothing to do, like upstream plugins. */
	if (!gpujob_has_jobs(ctx->binding))
		goto fail;

	n = gpujob_register_events(ctx, stream);
	if (n <= 0)
		goto fail;
	kshark_register_event_handler(stream, KS_EVENT_OVERFLOW, gpujob_overflow_action);
	kshark_register_draw_handler(stream, plugin_gpujob_draw);
	return n + 2;

fail:
	__close(stream->stream_id);
	gpujob_release_context_table();
	return 0;
}

/** Unload the plugin for @stream: undo every registration, free the context. */
GPUJOB_EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_gpujob_ctx *ctx = __get_context(stream->stream_id);
	size_t i;
	int ret = 0;

	if (ctx) {
		for (i = 0; i < ctx->n_event_ids; i++)
			kshark_unregister_event_handler(stream, ctx->event_ids[i],
							gpujob_event_action);
		kshark_unregister_event_handler(stream, KS_EVENT_OVERFLOW,
						gpujob_overflow_action);
		kshark_unregister_draw_handler(stream, plugin_gpujob_draw);
		ret = ctx->n_event_ids + 2;
	}

	__close(stream->stream_id);
	gpujob_release_context_table();
	return ret;
}
