// SPDX-License-Identifier: LGPL-2.1
/*
 * plugin_gpu_sched - libtraceevent plugin for GPU scheduler traces
 *
 * Makes plain `trace-cmd report` print gpu_scheduler, dma_fence and amdgpu
 * events of every kernel era in one vocabulary:
 *
 *   dev=<device> ring=<ring> <job identity> depth=<n> hw=<n> client=<id>
 *
 * The job identity is the same on every event of one job:
 *   6.17+:  fence=<context>:<seqno>          (the scheduler's finished fence)
 *   older:  job=<ring>#<id> fence=<handle>   (<handle>: 4 hex digits hashed
 *           from the finished-fence pointer; `-O gpu_sched:raw=1` adds the
 *           pointer itself)
 * drm_sched_process_job (<= 6.16) carries only the fence pointer; its job is
 * found by the core library's tracker, which pairs it with the open job that
 * holds the pointer.
 *
 * Decoding, linking and statistics are done by the gpulat core library: each
 * record is pushed into a gpulat session (lib/include/gpulat-session.h) that
 * decodes it, links it into its job and, for the summary, keeps the
 * statistics. This file only prints.
 *
 * State: one struct gs_ctx (and one session) per tep handle, created on the
 * first GPU event printed (the event formats are read after the plugins are
 * loaded, so the binding cannot be made in the loader) and passed to
 * libtraceevent as the handler context. The unloader finds it again through the handler context
 * of the events, so no file-scope state is needed apart from the option
 * table, which libtraceevent's option registry keeps a pointer to.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <event-utils.h>
#include <trace-seq.h>

#include "gpulat.h"
#include "gpulat-report.h"
#include "gpulat-session.h"

#define GS_ALIAS	"gpu_sched"

/*
 * The plugin is built with -fvisibility=hidden and a version script
 * (plugin.map): the entry points are the only symbols it exports.
 */
#define GS_EXPORT	__attribute__((visibility("default")))
/* a job identity: "job=" + a ring name + "#" + 20 digits + " fence=HHHH" */
#define GS_IDENT_LEN	320

/*
 * The plugin options. This table is the only file-scope state of the plugin:
 * tep_plugin_add_options() keeps a pointer to it in libtraceevent's
 * process-wide option registry, and the values it holds are process-wide by
 * design (`trace-cmd report -O gpu_sched:NAME=VALUE` sets them for every
 * input file). It is static: the plugin does not export it under
 * TEP_PLUGIN_OPTIONS, because load_plugin() would then apply the -O settings
 * once more and a bare `-O gpu_sched:NAME` (a toggle) would cancel out.
 */
enum {
	GS_OPT_ANNOTATE = 0,
	GS_OPT_RAW,
	GS_OPT_SUMMARY,
};

static struct tep_plugin_option gs_options[] = {
	[GS_OPT_ANNOTATE] = {
		.name = "annotate",
		.plugin_alias = GS_ALIAS,
		.description =
		"Annotate job latencies inline: wait on run, wait, exec and total on done",
	},
	[GS_OPT_RAW] = {
		.name = "raw",
		.plugin_alias = GS_ALIAS,
		.description = "Also print raw kernel pointers (fence, entity, dependency)",
	},
	[GS_OPT_SUMMARY] = {
		.name = "summary",
		.plugin_alias = GS_ALIAS,
		.description = "Print a per-ring job latency summary at the end of the report",
	},
	{ .name = NULL },
};

/*
 * Every event the plugin prints: the GPU events of every kernel era and
 * driver, as the core library's binding lists them (gpulat_event_def(), the
 * one table of lib/bind.c; context and display events are left to
 * libtraceevent). msm and v3d carry the hardware's own times: they are fed
 * to the session for the measured start and exec and printed by their own
 * format. Walk with i = 0 until it returns false.
 */
static bool gs_event(unsigned int *i, const char **sys, const char **name)
{
	enum gpulat_kind kind;

	while (gpulat_event_def((*i)++, sys, name, &kind) == 0) {
		if (gpulat_kind_is_gpu(kind))
			return true;
	}
	return false;
}

/* amdgpu_iv fields, printed as they are (the core library does not model them) */
enum {
	GS_IV_IH = 0,
	GS_IV_CLIENT,
	GS_IV_SRC,
	GS_IV_RING,
	GS_IV_VMID,
	GS_IV_PASID,
	GS_IV__COUNT,
};

static const char * const gs_iv_fields[GS_IV__COUNT] = {
	[GS_IV_IH]	= "ih",
	[GS_IV_CLIENT]	= "client_id",
	[GS_IV_SRC]	= "src_id",
	[GS_IV_RING]	= "ring_id",
	[GS_IV_VMID]	= "vmid",
	[GS_IV_PASID]	= "pasid",
};

static const char * const gs_iv_labels[GS_IV__COUNT] = {
	[GS_IV_IH]	= "ih",
	[GS_IV_CLIENT]	= "ih_client",	/* the IH client, not a DRM client (client=) */
	[GS_IV_SRC]	= "src",
	[GS_IV_RING]	= "ring_id",
	[GS_IV_VMID]	= "vmid",
	[GS_IV_PASID]	= "pasid",
};

struct gs_ctx {
	struct tep_handle	*tep;
	struct gpulat_session *ses; /* NULL: nothing bound, default print */
	/* the record pushed last, as decoded, and its job (a copy) */
	struct gpulat_event ev;
	struct gpulat_job	job;
	bool			have_job;
	uint64_t damaged; /* the session's count at the last refusal */
	/* pointers the binding does not model, for the raw option */
	int			entity_ids[2];
	struct tep_format_field	*entity_f[2];
	/* amdgpu_cs_ioctl, amdgpu_sched_run_job: num_ibs */
	int			amd_ids[2];
	struct tep_format_field	*amd_ibs_f[2];
	/* amdgpu_iv */
	int			iv_id;
	struct tep_format_field	*iv_f[GS_IV__COUNT];
	/* the record fed last, so a record formatted twice is fed once */
	unsigned long long	fed_ts;
	unsigned long long	fed_offset;
	int			fed_cpu;
	int fed_ret; /* gs_push() of that record */
	/*
	 * The summary's time span: of our records only, as before other
	 * records were pushed (those printed before the first GPU event are
	 * never seen, so a span of every record would start mid-way).
	 */
	unsigned long long gpu_first, gpu_last;
	bool have_span;
	/*
	 * Every other event of the trace, by id, once the first GPU event is
	 * printed: gs_other_handler() pushes its records too (ring-buffer
	 * gaps are flagged on whatever record follows them, as for the CLI;
	 * kernels from 2.6.37 mark the record after an overrun, whatever its
	 * event), then calls the handler it had (another plugin's) or lets
	 * libtraceevent print it.
	 */
	struct gs_other *others;
	int nothers;
};

struct gs_other {
	tep_event_handler_func func;
	void *context;
	bool wrapped;
};

static int gs_handler(struct trace_seq *s, struct tep_record *rec,
		      struct tep_event *event, void *context);
static int gs_other_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			    void *context);

static bool gs_opt(int opt)
{
	return gs_options[opt].set != 0;
}

/* ------------------------------------------------------------------------ */
/* Per-handle context                                                         */

static void gs_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	if (level != GPULAT_MSG_HINT)
		tep_warning("gpu_sched: %s", text);
}

static void gs_ctx_free(struct gs_ctx *ctx)
{
	if (!ctx)
		return;
	gpulat_session_free(ctx->ses);
	free(ctx->others);
	free(ctx);
}

/*
 * The session of @tep: a job is final at its done event, so the done line
 * prints it (signals of the finished fence are printed, not waited for);
 * statistics only for the summary. NULL: nothing bound, default printing.
 */
static struct gpulat_session *gs_session_new(struct tep_handle *tep)
{
	struct gpulat_session_opts o;
	struct gpulat_session *ses;

	gpulat_session_opts_init(&o);
	o.features = GPULAT_FEAT_EMIT_AT_DONE;
	if (!gs_opt(GS_OPT_SUMMARY))
		o.features |= GPULAT_FEAT_NO_STATS;
	o.msg = gs_msg;
	ses = gpulat_session_new(&o);
	if (ses && gpulat_session_attach_tep(ses, tep) < 0) {
		gpulat_session_free(ses);
		ses = NULL;
	}
	return ses;
}

static void gs_cache_fields(struct gs_ctx *ctx)
{
	static const char * const entity_events[2] = { "drm_sched_job", "drm_run_job" };
	static const char * const amd_events[2] = { "amdgpu_cs_ioctl", "amdgpu_sched_run_job" };
	struct tep_event *ev;
	int i;

	for (i = 0; i < 2; i++) {
		ctx->amd_ids[i] = -1;
		ev = tep_find_event_by_name(ctx->tep, "amdgpu", amd_events[i]);
		if (!ev)
			continue;
		ctx->amd_ids[i] = ev->id;
		ctx->amd_ibs_f[i] = tep_find_field(ev, "num_ibs");
	}

	for (i = 0; i < 2; i++) {
		ctx->entity_ids[i] = -1;
		ev = tep_find_event_by_name(ctx->tep, "gpu_scheduler", entity_events[i]);
		if (!ev)
			continue;
		ctx->entity_ids[i] = ev->id;
		ctx->entity_f[i] = tep_find_field(ev, "entity");
	}

	ctx->iv_id = -1;
	ev = tep_find_event_by_name(ctx->tep, "amdgpu", "amdgpu_iv");
	if (ev) {
		ctx->iv_id = ev->id;
		for (i = 0; i < GS_IV__COUNT; i++)
			ctx->iv_f[i] = tep_find_field(ev, gs_iv_fields[i]);
	}
}

/*
 * Put gs_other_handler() on every event that is not ours, keeping the
 * handler it had. Records printed before the first GPU event were not seen:
 * a gap flagged on one of them is missed (plugins/README.md, Limits).
 */
static void gs_wrap_others(struct gs_ctx *ctx)
{
	int i, n = tep_get_events_count(ctx->tep), max_id = -1;
	struct tep_event *ev;

	for (i = 0; i < n; i++) {
		ev = tep_get_event(ctx->tep, i);
		if (ev && ev->id > max_id)
			max_id = ev->id;
	}
	if (max_id < 0)
		return;
	ctx->others = calloc((size_t)max_id + 1, sizeof(*ctx->others));
	if (!ctx->others)
		return;
	ctx->nothers = max_id + 1;
	for (i = 0; i < n; i++) {
		struct gs_other *o;

		ev = tep_get_event(ctx->tep, i);
		if (!ev || ev->id < 0 || ev->handler == gs_handler)
			continue;
		o = &ctx->others[ev->id];
		o->func = ev->handler;
		o->context = ev->context;
		o->wrapped = tep_register_event_handler(ctx->tep, ev->id, ev->system, ev->name,
							gs_other_handler, ctx) >= 0;
	}
}

/* take gs_other_handler() off again (the handlers it kept are unloaded too) */
static void gs_unwrap_others(struct gs_ctx *ctx)
{
	struct tep_event *ev;
	int i;

	for (i = 0; i < ctx->nothers; i++) {
		if (!ctx->others[i].wrapped)
			continue;
		ev = tep_find_event(ctx->tep, i);
		if (ev)
			tep_unregister_event_handler(ctx->tep, i, ev->system, ev->name,
						     gs_other_handler, ctx);
	}
	ctx->nothers = 0;
}

/*
 * Create the context of @tep on its first GPU event and make it the handler
 * context of every event of ours present in the trace.
 */
static struct gs_ctx *gs_ctx_attach(struct tep_handle *tep)
{
	struct tep_event *ev;
	struct gs_ctx *ctx;
	const char *sys, *name;
	unsigned int i = 0;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->tep = tep;
	ctx->fed_cpu = -1;
	ctx->ses = gs_session_new(tep);
	gs_cache_fields(ctx);

	while (gs_event(&i, &sys, &name)) {
		ev = tep_find_event_by_name(tep, sys, name);
		if (!ev || ev->handler != gs_handler)
			continue;
		tep_register_event_handler(tep, ev->id, sys, name, gs_handler, ctx);
	}
	if (ctx->ses)
		gs_wrap_others(ctx);
	return ctx;
}

/* The context of @tep, or NULL when no GPU event was printed. */
static struct gs_ctx *gs_ctx_find(struct tep_handle *tep)
{
	struct tep_event *ev;
	const char *sys, *name;
	unsigned int i = 0;

	while (gs_event(&i, &sys, &name)) {
		ev = tep_find_event_by_name(tep, sys, name);
		if (ev && ev->handler == gs_handler && ev->context)
			return ev->context;
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Printing helpers                                                           */

/* durations as microseconds with all nanosecond digits: greppable and exact */
static void gs_put_dur(struct trace_seq *s, const char *name, uint64_t ns)
{
	if (ns == GPULAT_NONE)
		trace_seq_printf(s, " %s=?", name);
	else
		trace_seq_printf(s, " %s=%llu.%03lluus", name,
				 (unsigned long long)(ns / 1000),
				 (unsigned long long)(ns % 1000));
}

static void gs_put_str(struct trace_seq *s, const char *name, const char *v)
{
	trace_seq_printf(s, " %s=%s", name, v && *v ? v : "!");
}

static void gs_put_fence(struct trace_seq *s, const char *name, uint64_t ctx, uint64_t seqno)
{
	trace_seq_printf(s, " %s=%llu:%llu", name, (unsigned long long)ctx,
			 (unsigned long long)seqno);
}

/*
 * The job identity of the pointer eras, job=<ring>#<id> fence=<handle>.<n>,
 * as gpulat_job_identity() spells it for the other front ends (@gen: the
 * job's gpulat_job.ptr_gen, which makes the handle name one job of the
 * trace); job=! when the event lacks its id (a field the event should carry).
 */
static void gs_put_ptr_job(struct trace_seq *s, const char *ring, uint64_t id, uint64_t fence_ptr,
			   uint32_t gen)
{
	char buf[GS_IDENT_LEN];

	/* lib names "fence=HHHH.N" alone when the id is missing: the plugin marks it */
	if (id == GPULAT_NONE)
		trace_seq_puts(s, " job=!");
	trace_seq_printf(s, " %s",
			 gpulat_ptr_job_identity(buf, sizeof(buf), ring, id, fence_ptr, gen));
}

/* the fence handle's generation of the fed job, when it holds @fence_ptr */
static uint32_t gs_ptr_gen(const struct gpulat_job *job, uint64_t fence_ptr)
{
	return job && job->fence_ptr == fence_ptr ? job->ptr_gen : 0;
}

/* the job the event being printed belongs to (gpulat_session_last_job()) */
static const struct gpulat_job *gs_fed_job(struct gs_ctx *ctx)
{
	return ctx->have_job ? &ctx->job : NULL;
}

static void gs_put_entity(struct trace_seq *s, struct gs_ctx *ctx,
			  struct tep_record *rec, int id)
{
	unsigned long long v;
	int i;

	for (i = 0; i < 2; i++) {
		if (ctx->entity_ids[i] != id || !ctx->entity_f[i])
			continue;
		if (tep_read_number_field(ctx->entity_f[i], rec->data, &v) == 0)
			trace_seq_printf(s, " entity=0x%llx", v);
	}
}

static void gs_put_counts(struct trace_seq *s, const struct gpulat_event *e)
{
	if (e->flags & GPULAT_EVF_COUNTS)
		trace_seq_printf(s, " depth=%u hw=%d", e->job_count, e->hw_job_count);
	if (e->flags & GPULAT_EVF_CLIENT)
		trace_seq_printf(s, " client=%llu", (unsigned long long)e->client_id);
}

/*
 * dev= and ring= of an event that carries them. Before 5.19 the event holds
 * the address of the ring's name; the core library names it from the
 * drm_sched fence timelines (gpulat_tracker_ring_name()), and `raw` adds
 * the address as ring_ptr=.
 */
static void gs_put_where(struct trace_seq *s, const char *dev, const char *ring,
			 const char *ring_ptr)
{
	if (dev && *dev)
		gs_put_str(s, "dev", dev);
	gs_put_str(s, "ring", ring);
	if (gs_opt(GS_OPT_RAW) && ring_ptr && (!ring || strcmp(ring, ring_ptr)))
		gs_put_str(s, "ring_ptr", ring_ptr);
}

/* the name of the event's ring, as far as the session knows it */
static const char *gs_ring(struct gs_ctx *ctx, const struct gpulat_event *e)
{
	return gpulat_session_ring_name(ctx->ses, e->dev, e->ring);
}

static void gs_put_event_where(struct trace_seq *s, struct gs_ctx *ctx,
			       const struct gpulat_event *e)
{
	gs_put_where(s, e->dev, gs_ring(ctx, e), e->ring);
}

/*
 * Every item is printed as " name=value". The handler writes after trace-cmd's
 * line prefix in the same trace_seq, so the leading blank of the first item is
 * dropped here, once.
 */
static void gs_trim(struct trace_seq *s, unsigned int start)
{
	if (s->len > start && s->buffer[start] == ' ') {
		memmove(s->buffer + start, s->buffer + start + 1, s->len - start - 1);
		s->len--;
		s->buffer[s->len] = '\0';
	}
}

/* ------------------------------------------------------------------------ */
/* Event printers                                                             */

static void gs_print_sched_job(struct trace_seq *s, struct gs_ctx *ctx,
			       struct tep_record *rec, struct tep_event *event,
			       const struct gpulat_event *e)
{
	gs_put_event_where(s, ctx, e);
	if (e->flags & GPULAT_EVF_FENCE)
		gs_put_fence(s, "fence", e->ctx, e->seqno);
	else
		gs_put_ptr_job(s, gs_ring(ctx, e), e->flags & GPULAT_EVF_ID ? e->id : GPULAT_NONE,
			       e->fence_ptr, gs_ptr_gen(gs_fed_job(ctx), e->fence_ptr));
	gs_put_counts(s, e);
	if (e->kind == GPULAT_EV_RUN && gs_opt(GS_OPT_ANNOTATE)) {
		const struct gpulat_job *job = gs_fed_job(ctx);

		/* time since queue, when the tracker can name the open job */
		if (job && job->ts[GPULAT_ST_RUN] == e->ts &&
		    job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE)
			gs_put_dur(s, "wait", e->ts - job->ts[GPULAT_ST_QUEUE]);
	}
	if (gs_opt(GS_OPT_RAW)) {
		if (e->flags & GPULAT_EVF_FENCE_PTR)
			trace_seq_printf(s, " fence_ptr=0x%llx",
					 (unsigned long long)e->fence_ptr);
		gs_put_entity(s, ctx, rec, event->id);
	}
}

/*
 * A done line whose job has no queue or run event (<= 6.16: the event holds
 * only the fence pointer): after its handle, in parentheses (a comment to
 * the text reader), why the ring and id are missing. When no queue or run
 * event was printed at all (`-F drm_sched_process_job`) name the events of
 * this trace that carry them.
 */
static void gs_put_no_job(struct trace_seq *s, struct gs_ctx *ctx)
{
	static const char * const carriers[][2] = {
		{ "gpu_scheduler", "drm_sched_job" },
		{ "gpu_scheduler", "drm_run_job" },
		{ "gpu_sched", "amd_sched_job" }, /* 4.4-4.15 */
	};
	bool named = false;
	size_t i;

	if (gpulat_session_kind_count(ctx->ses, GPULAT_EV_QUEUE) ||
	    gpulat_session_kind_count(ctx->ses, GPULAT_EV_RUN)) {
		trace_seq_puts(s, " (queued before the trace)");
		return;
	}
	for (i = 0; i < sizeof(carriers) / sizeof(carriers[0]); i++) {
		if (!tep_find_event_by_name(ctx->tep, carriers[i][0], carriers[i][1]))
			continue;
		trace_seq_printf(s, "%s%s", named ? " or " : " (ring, job: need ", carriers[i][1]);
		named = true;
	}
	trace_seq_puts(s, named ? " too)" : " (ring, job: no queue or run event traced)");
}

/* the done event: its job comes from the tracker */
static void gs_print_done(struct trace_seq *s, struct gs_ctx *ctx,
			  const struct gpulat_event *e)
{
	const struct gpulat_job *job = gs_fed_job(ctx);
	const struct gpulat_job *fed = job;
	char h[32];

	if (job && job->ts[GPULAT_ST_DONE] != e->ts)
		job = NULL;

	if (job && (job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE ||
		    job->ts[GPULAT_ST_RUN] != GPULAT_NONE))
		gs_put_where(s, job->dev, job->ring, job->ring_ptr);
	else
		job = NULL;	/* done without queue or run: started before the trace */
	if (e->flags & GPULAT_EVF_FENCE) {
		gs_put_fence(s, "fence", e->ctx, e->seqno);
	} else if (job && job->id != GPULAT_NONE) {
		gs_put_ptr_job(s, job->ring, job->id, e->fence_ptr, gs_ptr_gen(job, e->fence_ptr));
	} else {
		/* no open job holds the pointer: the handle the tracker gave the done's job */
		struct gpulat_job j = {
			.fence_ptr = e->fence_ptr,
			.ptr_gen = gs_ptr_gen(fed, e->fence_ptr),
		};

		trace_seq_printf(s, " fence=%s", gpulat_fence_handle(h, sizeof(h), &j));
		gs_put_no_job(s, ctx);
	}
	/* pointer eras: the finished fence as dma_fence events print it, when linked */
	if (job && !(e->flags & GPULAT_EVF_FENCE) && job->ctx != GPULAT_NONE)
		gs_put_fence(s, "finished", job->ctx, job->seqno);
	if (job && job->pid > 0)
		trace_seq_printf(s, " pid=%d", job->pid);
	if (gs_opt(GS_OPT_RAW) && (e->flags & GPULAT_EVF_FENCE_PTR))
		trace_seq_printf(s, " fence_ptr=0x%llx", (unsigned long long)e->fence_ptr);
	if (gs_opt(GS_OPT_ANNOTATE) && job) {
		if (job->wait != GPULAT_NONE)
			gs_put_dur(s, "wait", job->wait);
		gs_put_dur(s, "exec", job->exec);
		gs_put_dur(s, "total", job->total);
	}
}

static void gs_print_dep(struct trace_seq *s, struct gs_ctx *ctx, const struct gpulat_event *e)
{
	const char *ring = gs_ring(ctx, e);

	if (e->ring)
		gs_put_event_where(s, ctx, e);
	if (e->flags & GPULAT_EVF_FENCE)
		gs_put_fence(s, "fence", e->ctx, e->seqno);
	else if (e->flags & GPULAT_EVF_ID)
		trace_seq_printf(s, " job=%s#%llu", ring && *ring ? ring : "!",
				 (unsigned long long)e->id);
	if (e->flags & GPULAT_EVF_DEP)
		gs_put_fence(s, e->kind == GPULAT_EV_UNSCHED ? "blocked_on" : "dep",
			     e->dep_ctx, e->dep_seqno);
	else
		trace_seq_puts(s, " dep=!");
	if (gs_opt(GS_OPT_RAW) && (e->flags & GPULAT_EVF_DEP_PTR))
		trace_seq_printf(s, " dep_ptr=0x%llx", (unsigned long long)e->dep_ptr);
}

/* wait= exec= total= of a job at its done stage (annotate option) */
static void gs_put_done_metrics(struct trace_seq *s, const struct gpulat_job *job)
{
	if (job->wait != GPULAT_NONE)
		gs_put_dur(s, "wait", job->wait);
	gs_put_dur(s, "exec", job->exec);
	gs_put_dur(s, "total", job->total);
	trace_seq_printf(s, " start=%s", gpulat_timing_start(job));
}

/*
 * A job of driver events (i915 requests, amdgpu-only traces) whose done
 * stage is this event, else NULL.
 */
static const struct gpulat_job *gs_driver_done(struct gs_ctx *ctx, const struct gpulat_event *e)
{
	const struct gpulat_job *job = gs_fed_job(ctx);

	if (!job || !(job->timing & GPULAT_TIMING_DRIVER) ||
	    job->ts[GPULAT_ST_DONE] != e->ts || job->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		return NULL;
	return job;
}

static void gs_print_fence(struct trace_seq *s, struct gs_ctx *ctx,
			   const struct gpulat_event *e)
{
	const struct gpulat_job *job;

	gs_put_str(s, "driver", e->driver);
	gs_put_str(s, "timeline", e->timeline);
	if (e->flags & GPULAT_EVF_FENCE)
		gs_put_fence(s, "fence", e->ctx, e->seqno);
	else
		trace_seq_puts(s, " fence=!");
	/*
	 * The fence's signal is the done of i915 requests without
	 * i915_request_out and of amdgpu-only traces (no drm_sched events):
	 * name the job as the i915 / amdgpu lines do.
	 */
	job = e->kind == GPULAT_EV_FENCE_SIGNALED ? gs_driver_done(ctx, e) : NULL;
	if (job) {
		gs_put_where(s, job->dev, job->ring, NULL);
		if (gpulat_session_era(ctx->ses) == GPULAT_ERA_AMDGPU && job->id != GPULAT_NONE)
			trace_seq_printf(s, " job=%s#%llu",
					 job->ring && *job->ring ? job->ring : "!",
					 (unsigned long long)job->id);
		else
			gs_put_fence(s, "request", job->ctx, job->seqno);
		if (gs_opt(GS_OPT_ANNOTATE))
			gs_put_done_metrics(s, job);
	}
}

/* i915_request_*: the request as ring + fence; the done stage annotated */
static void gs_print_i915(struct trace_seq *s, struct gs_ctx *ctx, const struct gpulat_event *e)
{
	const struct gpulat_job *job = gs_driver_done(ctx, e);

	gs_put_where(s, e->dev, e->ring, NULL);
	gs_put_fence(s, "fence", e->ctx, e->seqno);
	if (e->kind == GPULAT_EV_I915_OUT)
		trace_seq_printf(s, " completed=%llu", (unsigned long long)e->value);
	if (e->kind == GPULAT_EV_I915_QUEUE || e->kind == GPULAT_EV_I915_WAIT_BEGIN)
		trace_seq_printf(s, " flags=0x%llx", (unsigned long long)e->value);
	if (job && e->kind == GPULAT_EV_I915_RETIRE)
		trace_seq_puts(s, " done=late");
	if (job && gs_opt(GS_OPT_ANNOTATE))
		gs_put_done_metrics(s, job);
}

/* xe: the job by its hardware fence; hangs spelled out */
static void gs_print_xe(struct trace_seq *s, const struct gpulat_event *e)
{
	static const char *const qev[] = {
		[GPULAT_XEQ_OTHER] = NULL, [GPULAT_XEQ_CREATE] = "create",
		[GPULAT_XEQ_SUBMIT] = "submit", [GPULAT_XEQ_KILL] = "kill",
		[GPULAT_XEQ_RESET] = "reset", [GPULAT_XEQ_DESTROY] = "destroy",
	};

	if (e->dev && *e->dev)
		gs_put_str(s, "dev", e->dev);
	if (e->flags & GPULAT_EVF_GUC)
		trace_seq_printf(s, " queue=guc%u", e->guc_id);
	if (e->kind == GPULAT_EV_XE_EXEC_QUEUE) {
		if (e->value < sizeof(qev) / sizeof(qev[0]) && qev[e->value])
			gs_put_str(s, "what", qev[e->value]);
		return;
	}
	if (e->flags & GPULAT_EVF_FENCE)
		gs_put_fence(s, "fence", e->ctx, e->seqno);
	else
		trace_seq_printf(s, " seqno=%llu lrc_seqno=%u", (unsigned long long)e->seqno,
				 e->lrc_seqno);
	trace_seq_printf(s, " hw_fence=%04x", gpulat_ptr_handle(e->fence_ptr));
	switch (e->kind) {
	case GPULAT_EV_XE_JOB_TIMEDOUT:
		trace_seq_puts(s, " HANG=timedout");
		break;
	case GPULAT_EV_XE_JOB_BAN:
		trace_seq_puts(s, " HANG=banned");
		break;
	case GPULAT_EV_XE_JOB_SET_ERROR:
		trace_seq_printf(s, " HANG=error(%lld)", (long long)(int64_t)e->value);
		break;
	default:
		if ((int64_t)e->value)
			trace_seq_printf(s, " error=%lld", (long long)(int64_t)e->value);
	}
}

/*
 * amdgpu_cs_ioctl / amdgpu_sched_run_job carry the scheduler job id (<= 6.16)
 * and the finished fence as context:seqno. Where the scheduler events name
 * the job by job=<ring>#<id> and a pointer handle in fence=, the fence numbers
 * are printed as finished= (as on the done line); on 6.17+ they are the job's
 * fence= itself.
 */
static void gs_print_amd_job(struct trace_seq *s, struct gs_ctx *ctx,
			     struct tep_record *rec, struct tep_event *event,
			     const struct gpulat_event *e)
{
	const char *ring = gs_ring(ctx, e);
	const struct gpulat_job *job;
	unsigned long long ibs;
	int i;

	gs_put_event_where(s, ctx, e);
	if (e->flags & GPULAT_EVF_ID)
		trace_seq_printf(s, " job=%s#%llu", ring && *ring ? ring : "!",
				 (unsigned long long)e->id);
	if (e->flags & GPULAT_EVF_FENCE)
		gs_put_fence(s, e->flags & GPULAT_EVF_ID ? "finished" : "fence",
			     e->ctx, e->seqno);
	else
		trace_seq_puts(s, " fence=!");
	if (e->timeline && *e->timeline && (!e->ring || strcmp(e->timeline, e->ring)))
		gs_put_str(s, "timeline", e->timeline);
	for (i = 0; i < 2; i++) {
		if (ctx->amd_ids[i] == event->id && ctx->amd_ibs_f[i] &&
		    !tep_read_number_field(ctx->amd_ibs_f[i], rec->data, &ibs))
			trace_seq_printf(s, " ibs=%llu", ibs);
	}
	/* amdgpu-only traces: this is the job's run stage (as drm_run_job's wait=) */
	job = gs_fed_job(ctx);
	if (e->kind == GPULAT_EV_AMD_RUN && gs_opt(GS_OPT_ANNOTATE) && job &&
	    job->ts[GPULAT_ST_RUN] == e->ts && job->ts[GPULAT_ST_QUEUE] != GPULAT_NONE)
		gs_put_dur(s, "wait", e->ts - job->ts[GPULAT_ST_QUEUE]);
}

static void gs_print_iv(struct trace_seq *s, struct gs_ctx *ctx, struct tep_record *rec)
{
	unsigned long long v;
	int i;

	for (i = 0; i < GS_IV__COUNT; i++) {
		if (!ctx->iv_f[i]) {
			/* ih arrived in 5.1; the others are required */
			if (i != GS_IV_IH)
				trace_seq_printf(s, " %s=!", gs_iv_labels[i]);
			continue;
		}
		if (tep_read_number_field(ctx->iv_f[i], rec->data, &v))
			v = 0;
		trace_seq_printf(s, " %s=%llu", gs_iv_labels[i], v);
	}
}

/*
 * Push @rec into the session (its file offset is the host reference of its
 * stage). Return 1: one of ours, decoded into ctx->ev, its job in ctx->job;
 * 0: ours, but its format lacks a required field; -1: damaged.
 */
static int gs_push(struct gs_ctx *ctx, struct tep_record *rec)
{
	struct gpulat_session_counts c = { .sz = sizeof(c) };
	const struct gpulat_job *job;
	int ret;

	ctx->have_job = false;
	ret = gpulat_session_push(ctx->ses, rec, (void *)(uintptr_t)rec->offset);
	if (ret > 0) {
		ctx->ev = *gpulat_session_last_event(ctx->ses);
		job = gpulat_session_last_job(ctx->ses);
		if (job) {
			ctx->job = *job;
			ctx->have_job = true;
		}
		return 1;
	}
	/* damaged records are counted; the others lack a field */
	gpulat_session_counts(ctx->ses, &c);
	ret = ret < 0 || c.damaged > ctx->damaged ? -1 : 0;
	ctx->damaged = c.damaged;
	return ret;
}

/* @rec was pushed last; else remember it as the one pushed last */
static bool gs_same_record(struct gs_ctx *ctx, const struct tep_record *rec)
{
	if (rec->ts == ctx->fed_ts && rec->offset == ctx->fed_offset && rec->cpu == ctx->fed_cpu)
		return true;
	ctx->fed_ts = rec->ts;
	ctx->fed_offset = rec->offset;
	ctx->fed_cpu = rec->cpu;
	return false;
}

/*
 * The handler of every other event once a GPU event was printed: push the
 * record (not one of ours: only its gap, time and count matter), then print
 * it as before.
 */
static int gs_other_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			    void *context)
{
	struct gs_ctx *ctx = context;
	const struct gs_other *o;

	if (!gs_same_record(ctx, rec)) {
		/* ours never come here: nothing to decode, no job, no '!' */
		ctx->have_job = false;
		ctx->fed_ret = 1;
		gpulat_session_push(ctx->ses, rec, NULL);
	}
	o = event->id >= 0 && event->id < ctx->nothers ? &ctx->others[event->id] : NULL;
	if (o && o->func)
		return o->func(s, rec, event, o->context);
	return 1;
}

/*
 * The one print handler of every event of ours. Return 0 when the line is
 * printed, 1 to let libtraceevent print the event from its format (no
 * context could be made, or the binding failed for the whole trace).
 */
static int gs_handler(struct trace_seq *s, struct tep_record *rec,
		      struct tep_event *event, void *context)
{
	struct gs_ctx *ctx = context;
	struct gpulat_event e;
	unsigned int start = s->len;

	if (!ctx) {
		ctx = gs_ctx_attach(event->tep);
		if (!ctx)
			return 1;
	}

	if (event->id == ctx->iv_id) {
		gs_print_iv(s, ctx, rec);
		gs_trim(s, start);
		return 0;
	}
	if (!ctx->ses)
		return 1;

	/*
	 * trace-cmd report formats each record once, in time order; another
	 * host program may format one record twice: push it once. The ring
	 * buffer overrun before a record (rec->missed_events) is the session's
	 * to see, on our records and (gs_other_handler()) everyone else's.
	 */
	if (!gs_same_record(ctx, rec)) {
		ctx->fed_ret = gs_push(ctx, rec);
		/* 2^64 - 1 ns is "no time" (the session skips it as damaged, H3) */
		if (rec->ts != (unsigned long long)GPULAT_NONE) {
			if (!ctx->have_span || rec->ts < ctx->gpu_first)
				ctx->gpu_first = rec->ts;
			if (!ctx->have_span || rec->ts > ctx->gpu_last)
				ctx->gpu_last = rec->ts;
			ctx->have_span = true;
		}
	}
	if (ctx->fed_ret == 0) {
		/*
		 * One of our events whose layout lacks a field the binding
		 * requires (it warned once, naming the field). The event's own
		 * print format would show the missing field as (nil) or an
		 * empty string: mark the line with '!' and dump what is there.
		 */
		trace_seq_putc(s, '!');
		tep_print_fields(s, rec->data, rec->size, event);
		return 0;
	}
	if (ctx->fed_ret < 0) {
		/* ours, but damaged (string outside the record, short record) */
		trace_seq_putc(s, '!');
		return 0;
	}
	e = ctx->ev;

	switch (e.kind) {
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_RUN:
		gs_print_sched_job(s, ctx, rec, event, &e);
		break;
	case GPULAT_EV_DONE:
		gs_print_done(s, ctx, &e);
		break;
	case GPULAT_EV_DEP:
	case GPULAT_EV_UNSCHED:
		gs_print_dep(s, ctx, &e);
		break;
	case GPULAT_EV_FENCE_INIT:
	case GPULAT_EV_FENCE_EMIT:
	case GPULAT_EV_FENCE_ENABLE:
	case GPULAT_EV_FENCE_SIGNALED:
	case GPULAT_EV_FENCE_DESTROY:
	case GPULAT_EV_FENCE_WAIT_START:
	case GPULAT_EV_FENCE_WAIT_END:
		gs_print_fence(s, ctx, &e);
		break;
	case GPULAT_EV_I915_QUEUE:
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_SUBMIT:
	case GPULAT_EV_I915_EXECUTE:
	case GPULAT_EV_I915_IN:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
	case GPULAT_EV_I915_WAIT_BEGIN:
	case GPULAT_EV_I915_WAIT_END:
		gs_print_i915(s, ctx, &e);
		break;
	case GPULAT_EV_XE_JOB_CREATE:
	case GPULAT_EV_XE_JOB_EXEC:
	case GPULAT_EV_XE_JOB_RUN:
	case GPULAT_EV_XE_JOB_FREE:
	case GPULAT_EV_XE_JOB_TIMEDOUT:
	case GPULAT_EV_XE_JOB_SET_ERROR:
	case GPULAT_EV_XE_JOB_BAN:
	case GPULAT_EV_XE_HW_FENCE_CREATE:
	case GPULAT_EV_XE_HW_FENCE_SIGNAL:
	case GPULAT_EV_XE_HW_FENCE_TRY_SIGNAL:
	case GPULAT_EV_XE_EXEC_QUEUE:
		gs_print_xe(s, &e);
		break;
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_AMD_RUN:
		gs_print_amd_job(s, ctx, rec, event, &e);
		break;
	default:
		return 1;
	}
	gs_trim(s, start);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Summary                                                                    */

/*
 * A duration of the summary in microseconds with all nanosecond digits;
 * @mark: the quantile's gpulat_quantile_mark() ("~": a histogram estimate,
 * as the CLI's text report marks it), "" for max.
 */
static void gs_fmt_us(char *buf, size_t len, const struct gpulat_summary *m, uint64_t v,
		      const char *mark)
{
	if (!m->n || v == GPULAT_NONE)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%llu.%03llu", mark, (unsigned long long)(v / 1000),
			 (unsigned long long)(v % 1000));
}

/* the metrics of the summary, those of the CLI's ring latency table */
static const enum gpulat_metric gs_metrics[] = {
	GPULAT_M_WAIT,
	GPULAT_M_HW_QUEUE,
	GPULAT_M_EXEC,
	GPULAT_M_TOTAL,
};

#define GS_NR_METRICS (sizeof(gs_metrics) / sizeof(gs_metrics[0]))

static void gs_print_summary(struct gs_ctx *ctx)
{
	const struct gpulat_stats *st = gpulat_session_stats(ctx->ses);
	struct gpulat_session_counts sc = { .sz = sizeof(sc) };
	const struct gpulat_group *g;
	struct gpulat_tracker_counters c;
	char q[4][32], label[256];
	bool approx = false;
	size_t i, n, k;

	gpulat_session_counts(ctx->ses, &sc);
	gpulat_session_tracker_counters(ctx->ses, &c);

	n = gpulat_stats_ngroups(st, GPULAT_G_RING);
	printf("\ngpu_sched: job latency summary, %s era, %llu.%06llu - %llu.%06llu\n",
	       gpulat_era_name(gpulat_session_era(ctx->ses)), ctx->gpu_first / 1000000000,
	       ctx->gpu_first % 1000000000 / 1000, ctx->gpu_last / 1000000000,
	       ctx->gpu_last % 1000000000 / 1000);
	printf("  %-35s %7s %7s %7s %7s  %-8s %12s %12s %12s %12s\n", "ring", "jobs", "done",
	       "open", "lost", "metric", "p50(us)", "p90(us)", "p99(us)", "max(us)");
	for (i = 0; i < n; i++) {
		g = gpulat_stats_group(st, GPULAT_G_RING, i);
		for (k = 0; k < GS_NR_METRICS; k++) {
			const struct gpulat_summary *m = &g->m[gs_metrics[k]];
			const char *mark = gpulat_quantile_mark(m);

			if (*mark)
				approx = true;
			gs_fmt_us(q[0], sizeof(q[0]), m, m->p50, mark);
			gs_fmt_us(q[1], sizeof(q[1]), m, m->p90, mark);
			gs_fmt_us(q[2], sizeof(q[2]), m, m->p99, mark);
			gs_fmt_us(q[3], sizeof(q[3]), m, m->max, "");
			if (k == 0)
				printf("  %-35s %7llu %7llu %7llu %7llu",
				       gpulat_ring_label(label, sizeof(label), g->dev, g->ring),
				       (unsigned long long)g->jobs,
				       (unsigned long long)g->complete,
				       (unsigned long long)g->incomplete,
				       (unsigned long long)g->lost);
			else
				printf("  %-35s %7s %7s %7s %7s", "", "", "", "", "");
			printf("  %-8s %12s %12s %12s %12s\n", gpulat_metric_name(gs_metrics[k]),
			       q[0], q[1], q[2], q[3]);
		}
	}
	if (approx)
		printf("  %s\n", gpulat_quantile_legend(label, sizeof(label)));
	/* gaps seen on any record printed from the first GPU event on */
	if (sc.lost_gaps)
		printf("  lost: %llu events in %llu ring-buffer overruns; jobs with a stage in one are lost\n",
		       (unsigned long long)sc.lost_events, (unsigned long long)sc.lost_gaps);
	/*
	 * The ring rows' lost column is LOST + ORPHAN (struct gpulat_group):
	 * say how many of those are orphans (a run or done without its queue
	 * event outside any overrun, or stages out of time order), as the
	 * CLI's job line does, and the jobs evicted at the in-flight cap. A
	 * run or done whose queue event fell into an overrun is a lost job:
	 * the tracker's unmatched-event counters would name it twice.
	 */
	if (sc.orphan || c.dropped_open)
		printf("  orphan: %llu of the lost jobs miss a stage outside any overrun; %llu evicted at the in-flight cap\n",
		       (unsigned long long)sc.orphan, (unsigned long long)c.dropped_open);
	fflush(stdout);
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                               */

GS_EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	const char *sys, *name;
	unsigned int i = 0;

	/* the context is made on the first event: see gs_ctx_attach() */
	while (gs_event(&i, &sys, &name))
		tep_register_event_handler(tep, -1, sys, name, gs_handler, NULL);
	tep_plugin_add_options(GS_ALIAS, gs_options);
	return 0;
}

GS_EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct gs_ctx *ctx = gs_ctx_find(tep);
	const char *sys, *name;
	unsigned int i = 0;

	if (ctx && ctx->ses) {
		struct gpulat_session_counts c = { .sz = sizeof(c) };

		gpulat_session_finish(ctx->ses);
		gpulat_session_counts(ctx->ses, &c);
		/* silent when no GPU event was printed (and for `trace-cmd list -O`) */
		if (gpulat_session_stats(ctx->ses) && c.events)
			gs_print_summary(ctx);
	}

	if (ctx)
		gs_unwrap_others(ctx);
	while (gs_event(&i, &sys, &name)) {
		if (ctx)
			tep_unregister_event_handler(tep, -1, sys, name, gs_handler, ctx);
		/* events absent from the trace keep the loader's pending handler */
		tep_unregister_event_handler(tep, -1, sys, name, gs_handler, NULL);
	}
	tep_plugin_remove_options(gs_options);
	gs_ctx_free(ctx);
}
