// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin: the ring table and the range indexes drawing reads.
 *
 * After linking (gpu_link.c): one row per ring (synthetic task ids, gpu_rings.h, named
 * by the canonical ring label), the jobs of a ring stacked into sub-rows when they
 * overlap, and range indexes per ring, per CPU and per submitting task, each sorted by
 * begin with the running maximum of end, so a visible range is found with one binary
 * search.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"

#include "gpu_jobs.h"
#include "gpu_rings.h"
#include "gpu_sort.h"

/* Most sub-rows a ring row is split into; deeper stacks share the last one. */
#define GPUJOB_MAX_SUBROWS 64

static void gpujob_index_free(struct gpujob_index *idx)
{
	free(idx->it);
	free(idx->end_max);
	idx->it = NULL;
	idx->end_max = NULL;
	idx->n = idx->cap = 0;
}

/**
 * plugin_gpujob_free_indexes - free the ring table and every range index
 * @ctx: the stream's context
 */
void plugin_gpujob_free_indexes(struct plugin_gpujob_ctx *ctx)
{
	size_t i;
	int c;

	for (i = 0; i < ctx->n_rings; i++) {
		free(ctx->rings[i].label);
		if (ctx->ring_idx)
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
	ctx->aux_built = 0;
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

static int gpujob_index_add(struct gpujob_index *idx, uint64_t begin, uint64_t end, size_t job,
			    int stage)
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

static bool gpujob_item_less(const struct gpujob_item *a, const struct gpujob_item *b)
{
	if (a->begin != b->begin)
		return a->begin < b->begin;
	if (a->job != b->job)
		return a->job < b->job;
	return a->stage < b->stage;
}

GPUJOB_DEFINE_MERGE_SORT(gpujob_items_merge, struct gpujob_item, gpujob_item_less)

/*
 * Items in gpujob_item_cmp() order. The ring and task indexes arrive in order (jobs
 * are sorted by begin): one pass checks it. The CPU indexes are nearly in order: a
 * bottom-up merge sort with the comparison inline (gpu_sort.h).
 * Measured (callgrind, kshark-load on a 250 k-event steady trace): all indexes went
 * from 24.7 M to 13.5 M instructions, qsort()'s callbacks were most of it.
 */
static void gpujob_items_sort(struct gpujob_item *v, size_t n)
{
	struct gpujob_item *a, *tmp;
	size_t i;

	for (i = 1; i < n && !gpujob_item_less(&v[i], &v[i - 1]); i++)
		;
	if (i >= n)
		return;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		qsort(v, n, sizeof(*v), gpujob_item_cmp);
		return;
	}
	a = gpujob_items_merge(v, tmp, n);
	if (a != v)
		memcpy(v, a, n * sizeof(*v));
	free(tmp);
}

static int gpujob_index_finish(struct gpujob_index *idx)
{
	uint64_t m = 0;
	size_t i;

	if (!idx->n)
		return 0;

	gpujob_items_sort(idx->it, idx->n);
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

static ssize_t gpujob_ring_find(struct plugin_gpujob_ctx *ctx, const char *dev, const char *ring)
{
	struct plugin_gpujob_ring *r;
	size_t i;

	/*
	 * Strings are interned: equal strings, equal pointers. But the events' names are
	 * the binding's copies and the jobs' the tracker's: the first job of a ring finds
	 * it by strcmp() and leaves its pointers as the ring's second pair, so the others
	 * match by pointer (dense-1M: 122 k strcmp() calls were 2.6 M instructions).
	 */
	for (i = 0; i < ctx->n_rings; i++) {
		r = &ctx->rings[i];
		if ((r->name == ring && r->dev == dev) || (r->name2 == ring && r->dev2 == dev))
			return i;
	}
	for (i = 0; i < ctx->n_rings; i++) {
		r = &ctx->rings[i];
		if (!strcmp(r->name, ring) && !strcmp(r->dev, dev)) {
			r->name2 = ring;
			r->dev2 = dev;
			return i;
		}
	}
	return -1;
}

/* The row of (@dev, @ring), added when new. Return: its index, or -ENOMEM. */
ssize_t plugin_gpujob_ring_add(struct plugin_gpujob_ctx *ctx, const char *dev, const char *ring)
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

int plugin_gpujob_build_rings(struct plugin_gpujob_ctx *ctx)
{
	struct tep_handle *tep = kshark_get_tep(ctx->stream);
	struct gpujob_ring_key *keys;
	char label[256];
	size_t i;
	ssize_t r;

	/* rows of rings that only events named were added while linking (gpu_link.c) */
	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		if (!job->ring || !job->ring[0])
			continue;
		/* the row is the ring as traced (its id), named as the core names it */
		r = plugin_gpujob_ring_add(ctx, job->dev,
					   job->ring_ptr ? job->ring_ptr : job->ring);
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

const unsigned char plugin_gpujob_palette[GPUJOB_PALETTE_SIZE][3] = {
	{ 0, 114, 178 }, /* blue */
	{ 230, 159, 0 }, /* orange */
	{ 0, 158, 115 }, /* bluish green */
	{ 204, 121, 167 }, /* reddish purple */
	{ 86, 180, 233 }, /* sky blue */
	{ 213, 94, 0 }, /* vermillion */
	{ 240, 228, 66 }, /* yellow */
	{ 120, 60, 160 }, /* violet */
	{ 140, 86, 75 }, /* brown */
	{ 160, 170, 30 }, /* olive */
	{ 250, 140, 200 }, /* pink */
	{ 40, 60, 110 }, /* navy */
};

struct gpujob_proc {
	int pid;
	int color;
	uint64_t rings; /* ring indexes (mod 64) it submitted to */
};

/*
 * Colors by process in order of first appearance (jobs are sorted by begin): the n-th
 * process takes palette entry n, and when the palette wraps, the first entry no
 * earlier process sharing a ring with it has. (A hash of the pid gave two processes
 * of two-gpus.dat the same blue.)
 */
static int gpujob_assign_colors(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_proc *p = NULL, *tmp;
	size_t i, k, n = 0, cap = 0;
	int c, t;

	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		for (k = 0; k < n && p[k].pid != job->pid; k++)
			;
		if (k == n) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				tmp = realloc(p, cap * sizeof(*p));
				if (!tmp) {
					free(p);
					return -ENOMEM;
				}
				p = tmp;
			}
			p[n].pid = job->pid;
			p[n].rings = 0;
			n++;
		}
		if (job->ring_idx >= 0)
			p[k].rings |= 1ull << (job->ring_idx % 64);
	}
	for (k = 0; k < n; k++) {
		p[k].color = k % GPUJOB_PALETTE_SIZE;
		for (t = 0; k >= GPUJOB_PALETTE_SIZE && t < GPUJOB_PALETTE_SIZE; t++) {
			size_t o;

			c = (int)((k + t) % GPUJOB_PALETTE_SIZE);
			for (o = 0; o < k; o++)
				if ((p[o].rings & p[k].rings) && p[o].color == c)
					break;
			if (o == k) {
				p[k].color = c;
				break;
			}
		}
	}
	for (i = 0; i < ctx->n_jobs; i++) {
		for (k = 0; k < n && p[k].pid != ctx->jobs[i].pid; k++)
			;
		ctx->jobs[i].color = k < n ? p[k].color : 0;
	}
	free(p);
	return 0;
}

int plugin_gpujob_build_indexes(struct plugin_gpujob_ctx *ctx)
{
	size_t i;

	if (gpujob_assign_colors(ctx))
		return -ENOMEM;
	ctx->max_job_ns = 0;
	for (i = 0; i < ctx->n_jobs; i++) {
		struct plugin_gpujob *job = &ctx->jobs[i];

		if (job->end - job->begin > ctx->max_job_ns)
			ctx->max_job_ns = job->end - job->begin;
		if (job->ring_idx >= 0 &&
		    gpujob_index_add(&ctx->ring_idx[job->ring_idx], job->begin, job->end, i, 0))
			return -ENOMEM;
	}
	for (i = 0; i < ctx->n_rings; i++) {
		if (gpujob_index_finish(&ctx->ring_idx[i]))
			return -ENOMEM;
		gpujob_stack(ctx, &ctx->ring_idx[i], &ctx->rings[i]);
	}
	ctx->aux_built = 0;
	return 0;
}

/*
 * The CPU and task indexes, on their first use: the first picture shows ring rows and
 * CPU graphs zoomed out, where no job is wide enough for a CPU strip (GpuJobs.cpp asks
 * only then), and task graphs of submitters are not in gpu-kshark's session. Measured
 * (callgrind, kshark-load, 250 k-event steady trace): 11.6 M instructions of the 80 M
 * the linking took. Return: 0 or -ENOMEM (then they stay empty).
 */
static int gpujob_build_aux(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_index *pidx;
	size_t i;
	int s, c, max_cpu = -1;

	if (ctx->aux_built)
		return ctx->aux_built < 0 ? -ENOMEM : 0;
	ctx->aux_built = -1;
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
			    gpujob_index_add(&ctx->cpu_idx[job->cpu[s]], job->ts[n], job->ts[s], i,
					     s | GPUJOB_ARRIVAL))
				return -ENOMEM;
		}

		if (job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE) {
			pidx = gpujob_pid_slot(ctx, job->pid);
			if (!pidx || gpujob_index_add(pidx, job->begin, job->end, i, 0))
				return -ENOMEM;
		}
	}

	for (c = 0; c < ctx->n_cpus; c++)
		if (gpujob_index_finish(&ctx->cpu_idx[c]))
			return -ENOMEM;
	for (i = 0; i < ctx->n_pids; i++)
		if (gpujob_index_finish(&ctx->pid_idx[i]))
			return -ENOMEM;
	if (ctx->n_pids)
		qsort(ctx->pid_idx, ctx->n_pids, sizeof(*ctx->pid_idx), gpujob_index_key_cmp);
	ctx->aux_built = 1;
	return 0;
}

const struct gpujob_index *plugin_gpujob_cpu_index(struct plugin_gpujob_ctx *ctx, int cpu)
{
	if (gpujob_build_aux(ctx) < 0)
		return NULL;
	if (cpu < 0 || cpu >= ctx->n_cpus || !ctx->cpu_idx[cpu].n)
		return NULL;
	return &ctx->cpu_idx[cpu];
}

const struct gpujob_index *plugin_gpujob_pid_index(struct plugin_gpujob_ctx *ctx, int pid)
{
	struct gpujob_index key = { .key = pid };

	if (gpujob_build_aux(ctx) < 0 || !ctx->n_pids)
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
