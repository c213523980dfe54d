// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin, data side: entry points and load-time collection.
 *
 * Load time (per record, must stay cheap): append the entry and a copy of the record's
 * payload (into one arena of big blocks, never a malloc per record) for our events, and
 * the entry of lost-event entries (KS_EVENT_OVERFLOW). Nothing is decoded.
 *
 * The second pass (first draw or accessor call) is gpu_link.c: the records, in time
 * order, through a gpulat session; then gpu_index.c builds rows and range indexes.
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
/* gpulat_record_bytes() inline (lib/, linked in statically): 6.6 M of dense-1M's load */
#include "bounds-int.h"

#include "gpu_jobs.h"
#include "gpu_mem.h"
#include "gpu_rings.h"

static void gpujob_free_blocks(struct plugin_gpujob_ctx *ctx);

static void gpujob_free_context(struct plugin_gpujob_ctx *ctx)
{
	if (!ctx)
		return;

	plugin_gpujob_free_results(ctx);
	plugin_gpujob_draw_free(ctx->draw);
	gpujob_mem_free(ctx->ents, ctx->cap_ents * sizeof(*ctx->ents));
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

/* ------------------------------------------------------------------------ */
/* Load time: one pointer per record, nothing else                            */

static void gpujob_free_blocks(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_block *b;

	while ((b = ctx->blocks)) {
		ctx->blocks = b->next;
		gpujob_mem_free(b, sizeof(*b) + b->cap);
	}
}

/* a new block for at least @room bytes (NULL: out of memory) */
static struct gpujob_block *gpujob_new_block(struct plugin_gpujob_ctx *ctx, size_t room)
{
	/* a block with its header is one huge page, or what @room needs */
	size_t cap = GPUJOB_MEM_HUGE - sizeof(struct gpujob_block);
	struct gpujob_block *b;

	if (room > cap)
		cap = room;
	b = gpujob_mem_alloc(sizeof(*b) + cap);
	if (!b)
		return NULL;
	b->used = 0;
	b->cap = cap;
	b->next = ctx->blocks;
	ctx->blocks = b;
	return b;
}

/* A stable copy of @size bytes of payload (the block space is rounded up, the copy not). */
static inline void *gpujob_copy(struct plugin_gpujob_ctx *ctx, const void *data, size_t size)
{
	struct gpujob_block *b = ctx->blocks;
	size_t room = (size + 7) & ~(size_t)7;
	void *p;

	if (__builtin_expect(!b || b->cap - b->used < room, 0)) {
		b = gpujob_new_block(ctx, room);
		if (!b)
			return NULL;
	}
	p = b->data + b->used;
	memcpy(p, data, size);
	b->used += room;
	return p;
}

/*
 * The rare cases before a record is kept: records arriving after the second pass
 * (KernelShark reloads the data without re-initializing the plugin: start over, the
 * old entries are gone), a full table, an earlier failure.
 * Return: false when nothing can be collected (out of memory; the second pass says so).
 */
static bool gpujob_collect_slow(struct plugin_gpujob_ctx *ctx)
{
	struct gpujob_raw *tmp;
	size_t cap;

	if (ctx->linked || ctx->link_failed) {
		plugin_gpujob_free_results(ctx);
		gpujob_free_blocks(ctx);
		ctx->n_ents = 0;
		ctx->n_damaged = 0;
		ctx->last_ts = 0;
		ctx->collect_failed = false;
	}
	if (ctx->collect_failed)
		return false;
	if (ctx->n_ents < ctx->cap_ents)
		return true;
	/* the first map is one huge page (gpu_mem.c) */
	cap = ctx->cap_ents ? ctx->cap_ents * 2 : GPUJOB_MEM_HUGE / sizeof(*tmp);
	tmp = gpujob_mem_grow(ctx->ents, ctx->cap_ents * sizeof(*tmp), cap * sizeof(*tmp));
	if (!tmp) {
		ctx->collect_failed = true;
		return false;
	}
	ctx->ents = tmp;
	ctx->cap_ents = cap;
	return true;
}

/*
 * Runs for every record of ours while libkshark loads (dense-1M: 333 k of 1.02 M
 * entries): the entry, its time and CPU, a copy of the payload. The rare cases are
 * out of line (callgrind, dense-1M: 118 -> 110 instructions a record).
 */
static inline void gpujob_collect(struct plugin_gpujob_ctx *ctx, struct kshark_entry *entry,
				  const struct tep_record *rec)
{
	bool rare = ctx->linked || ctx->link_failed || ctx->collect_failed ||
		    ctx->n_ents == ctx->cap_ents;
	struct gpujob_raw *r;
	size_t size;

	if (__builtin_expect(rare, 0) && !gpujob_collect_slow(ctx))
		return;
	r = &ctx->ents[ctx->n_ents];
	r->r.ref = entry;
	r->r.data = NULL;
	r->r.size = 0;
	/* final here: libkshark calibrates an entry before it runs the handlers */
	r->r.ts = entry->ts;
	r->r.cpu = entry->cpu;
	if (rec && (uint64_t)entry->ts > ctx->last_ts)
		ctx->last_ts = entry->ts;
	if (rec && rec->data && rec->size != 0) {
		size = gpulat__record_bytes(rec, ctx->page_size);
		if (__builtin_expect(!size, 0)) {
			/* longer than its page: damaged, kept as an entry without payload */
			ctx->n_damaged++;
		} else {
			r->r.data = gpujob_copy(ctx, rec->data, size);
			if (!r->r.data) {
				/* out of memory: stop collecting, the second pass reports it */
				ctx->collect_failed = true;
				return;
			}
			r->r.size = (int)size;
		}
	}
	ctx->n_ents++;
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

/**
 * plugin_gpujob_warn - one line on stderr naming the stream's file
 * @ctx: the stream's context
 * @msg: the problem
 */
void plugin_gpujob_warn(struct plugin_gpujob_ctx *ctx, const char *msg)
{
	fprintf(stderr, "gpu_jobs: %s: %s\n", ctx->stream ? ctx->stream->file : "?", msg);
}

static void gpujob_binding_warn(const char *msg, void *data)
{
	plugin_gpujob_warn(data, msg);
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

GPUJOB_EXPORT ssize_t plugin_gpujob_get_crtcs(int sd, const struct plugin_gpujob_crtc **crtcs)
{
	struct plugin_gpujob_ctx *ctx = gpujob_linked_ctx(sd);

	if (!ctx)
		return -ENODEV;
	*crtcs = ctx->crtcs;
	return ctx->n_crtcs;
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
	/* the drm vblank events feed the CRTC rows (gpu_frames.c); a few per frame */
	if (kind == GPULAT_EV_VBLANK || kind == GPULAT_EV_VBLANK_QUEUED ||
	    kind == GPULAT_EV_VBLANK_DELIVERED)
		return true;
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
	gpulat_binding_set_warn(ctx->binding, gpujob_binding_warn, ctx);

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
