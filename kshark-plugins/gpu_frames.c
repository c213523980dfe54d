// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin: CRTC rows (issue 18, frames against vblanks).
 *
 * The frames analysis (lib/frames.c) runs as a listener of the plugin's session, beside
 * the job linking, on the same records (the drm vblank events are collected at load
 * with the GPU events). It streams every vblank it counts and every frame it judges;
 * this file keeps them per CRTC for the CRTC rows that GpuJobs.cpp draws. Nothing is
 * judged here: the vblank instant, on time or late, missed vblanks and the cause are
 * lib/frames.c's, exactly as `trace-cmd gpu-latency --frames` reports them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libkshark-tepdata.h"

#include "gpulat-frames.h"
#include "gpulat-tracecmd.h"

#include "gpu_jobs.h"
#include "gpu_rings.h"

/* grow *@v (elements of @size) to hold one more than *@n; 0 or -ENOMEM */
static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *t;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 256;
	t = realloc(*v, c * size);
	if (!t)
		return -ENOMEM;
	*v = t;
	*cap = c;
	return 0;
}

/* the row of pipe @crtc, created on first sight; NULL: out of memory */
static struct plugin_gpujob_crtc *get_crtc(struct plugin_gpujob_ctx *ctx, int crtc)
{
	struct plugin_gpujob_crtc *t, *c;
	size_t i;

	for (i = 0; i < ctx->n_crtcs; i++)
		if (ctx->crtcs[i].crtc == crtc)
			return &ctx->crtcs[i];
	t = realloc(ctx->crtcs, (ctx->n_crtcs + 1) * sizeof(*t));
	if (!t)
		return NULL;
	ctx->crtcs = t;
	c = &t[ctx->n_crtcs++];
	memset(c, 0, sizeof(*c));
	c->crtc = crtc;
	c->id = gpujob_crtc_id(crtc);
	snprintf(c->label, sizeof(c->label), "crtc %d", crtc);
	return c;
}

static int on_vblank(const struct gpulat_vblank *v, void *data)
{
	struct plugin_gpujob_ctx *ctx = data;
	struct plugin_gpujob_crtc *c;

	/* a pipe index beyond the rows' id range (damaged): no row */
	if (gpujob_crtc_id(v->crtc) < 0)
		return 0;
	c = get_crtc(ctx, v->crtc);
	if (!c ||
	    grow((void **)&c->vblank_ts, &c->cap_vblanks, c->n_vblanks, sizeof(*c->vblank_ts)) < 0)
		return -ENOMEM;
	c->vblank_ts[c->n_vblanks++] = v->ts;
	c->vbl_time = v->vbl_time;
	return 0;
}

static int on_frame(const struct gpulat_frame_verdict *fv, void *data)
{
	struct plugin_gpujob_ctx *ctx = data;
	struct plugin_gpujob_crtc *c;
	struct plugin_gpujob_frame *f;

	if (gpujob_crtc_id(fv->crtc) < 0)
		return 0;
	c = get_crtc(ctx, fv->crtc);
	if (!c || grow((void **)&c->frames, &c->cap_frames, c->n_frames, sizeof(*c->frames)) < 0)
		return -ENOMEM;
	f = &c->frames[c->n_frames++];
	f->deadline = fv->deadline;
	f->deadline_ts = fv->deadline_ts;
	f->presented = fv->presented;
	f->presented_ts = fv->presented_ts;
	f->missed = fv->missed;
	f->pid = fv->pid;
	f->comm = fv->comm ? fv->comm : "";
	f->late = fv->late;
	f->cause = fv->cause;
	if (fv->late)
		c->n_late++;
	return 0;
}

/* trace_clock=mono: the records and drm_vblank_event `time` share one clock */
static bool stream_mono(const struct plugin_gpujob_ctx *ctx)
{
	struct tracecmd_input *in;
	const char *clock;

	if (!ctx->stream || ctx->stream->calib)
		return false; /* KernelShark shifts the records, not `time` */
	in = kshark_get_tep_input(ctx->stream);
	clock = in ? tracecmd_get_trace_clock(in) : NULL;
	return clock && !strcmp(clock, "mono");
}

/**
 * plugin_gpujob_frames_listen - the frames analysis on the plugin's session
 * @ctx: the stream's context, its session made, no record pushed yet
 *
 * Return: 0 or a negative errno.
 */
int plugin_gpujob_frames_listen(struct plugin_gpujob_ctx *ctx)
{
	/*
	 * lib/frames.c starts at the first vblank: without vblank events in the trace
	 * there is nothing to judge, and no listener is called for every record.
	 */
	if (!gpulat_binding_has(ctx->binding, GPULAT_EV_VBLANK) &&
	    !gpulat_binding_has(ctx->binding, GPULAT_EV_VBLANK_QUEUED) &&
	    !gpulat_binding_has(ctx->binding, GPULAT_EV_VBLANK_DELIVERED))
		return 0;
	ctx->frames = gpulat_frames_listen(ctx->session,
					   stream_mono(ctx) ? GPULAT_FRAMES_VBL_TIME : 0);
	if (!ctx->frames)
		return -errno;
	return gpulat_frames_listener_set_cb(ctx->frames, on_vblank, on_frame, ctx);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_crtc(const void *a, const void *b)
{
	const struct plugin_gpujob_crtc *x = a, *y = b;

	return (x->crtc > y->crtc) - (x->crtc < y->crtc);
}

static uint64_t frame_key(const struct plugin_gpujob_frame *f)
{
	return f->deadline_ts != GPULAT_NONE ? f->deadline_ts : f->presented_ts;
}

static int cmp_frame(const void *a, const void *b)
{
	uint64_t x = frame_key(a), y = frame_key(b);

	return (x > y) - (x < y);
}

/**
 * plugin_gpujob_frames_done - after the session finished: rows by pipe index, vblanks
 * and frames in time order (damaged `time` values may go backwards)
 * @ctx: the stream's context
 */
void plugin_gpujob_frames_done(struct plugin_gpujob_ctx *ctx)
{
	size_t i;

	if (ctx->n_crtcs > 1)
		qsort(ctx->crtcs, ctx->n_crtcs, sizeof(*ctx->crtcs), cmp_crtc);
	for (i = 0; i < ctx->n_crtcs; i++) {
		struct plugin_gpujob_crtc *c = &ctx->crtcs[i];

		if (c->n_vblanks > 1)
			qsort(c->vblank_ts, c->n_vblanks, sizeof(*c->vblank_ts), cmp_u64);
		if (c->n_frames > 1)
			qsort(c->frames, c->n_frames, sizeof(*c->frames), cmp_frame);
	}
}

/**
 * plugin_gpujob_frames_free - forget the CRTC rows and the frames analysis
 * @ctx: the stream's context (before its session is freed)
 */
void plugin_gpujob_frames_free(struct plugin_gpujob_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->n_crtcs; i++) {
		free(ctx->crtcs[i].vblank_ts);
		free(ctx->crtcs[i].frames);
	}
	free(ctx->crtcs);
	ctx->crtcs = NULL;
	ctx->n_crtcs = 0;
	gpulat_frames_listener_free(ctx->frames);
	ctx->frames = NULL;
}

/** plugin_gpujob_crtc_by_id - the CRTC whose row has synthetic id @id, -1 if none */
ssize_t plugin_gpujob_crtc_by_id(struct plugin_gpujob_ctx *ctx, int id)
{
	size_t i;

	for (i = 0; i < ctx->n_crtcs; i++)
		if (ctx->crtcs[i].id == id)
			return i;
	return -1;
}

/** plugin_gpujob_vblank_first - index of the first vblank at or after @t (n: none) */
size_t plugin_gpujob_vblank_first(const struct plugin_gpujob_crtc *c, uint64_t t)
{
	size_t lo = 0, hi = c->n_vblanks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->vblank_ts[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/** plugin_gpujob_frame_first - index of the first frame due at or after @t (n: none) */
size_t plugin_gpujob_frame_first(const struct plugin_gpujob_crtc *c, uint64_t t)
{
	size_t lo = 0, hi = c->n_frames;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (frame_key(&c->frames[mid]) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
