// SPDX-License-Identifier: LGPL-2.1
/*
 * The one field table of the report (gpulat-report.h): every value the text,
 * JSON and CSV writers print, --fail-if gates and --compare compares, with its
 * name, unit, text label, one-line doc and getter. The order of a row type's
 * fields is the order of its JSON members and CSV columns (lists last in CSV):
 * both are stable interfaces, so add new fields at the end of a row type.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gpulat-diag.h"
#include "gpulat-int.h"
#include "report-int.h"

#define R(x)   (1u << GPULAT_ROW_##x)
#define GROUPS (R(RING) | R(PROCESS) | R(CLIENT) | R(DEVICE))

typedef void (*getter_fn)(const void *obj, struct gpulat_value *v);

struct gpulat_field {
	const char *name;
	const char *alias; /* gate spelling ("busy"), or NULL */
	const char *label; /* text column header */
	enum gpulat_unit unit;
	unsigned int rows; /* 1 << enum gpulat_row */
	unsigned int flags; /* GPULAT_FIELD_* */
	getter_fn get;
	const char *doc;
};

/* ------------------------------------------------------------------------ */
/* values                                                                     */

static void v_u64(struct gpulat_value *v, uint64_t x)
{
	v->type = x == GPULAT_NONE ? GPULAT_V_NULL : GPULAT_V_U64;
	v->u = x;
}

static void v_int(struct gpulat_value *v, int64_t x)
{
	v->type = GPULAT_V_I64;
	v->i = x;
}

static void v_dbl(struct gpulat_value *v, double x)
{
	v->type = GPULAT_V_DOUBLE;
	v->d = x;
}

/* a string the row owns (lives as long as the row) */
static void v_str(struct gpulat_value *v, const char *s)
{
	v->type = s ? GPULAT_V_STR : GPULAT_V_NULL;
	v->sref_ = s;
}

/* a string built in the value's own buffer: gpulat_value_str() finds it */
static void v_built(struct gpulat_value *v, enum gpulat_vtype type, const char *s)
{
	v->type = type;
	v->sref_ = s == v->buf ? NULL : s;
}

/* @name appended to the '|'-separated list in the value's buffer */
static void v_list_add(struct gpulat_value *v, size_t *off, const char *name)
{
	int n;

	if (*off >= sizeof(v->buf))
		return;
	n = snprintf(v->buf + *off, sizeof(v->buf) - *off, "%s%s", *off ? "|" : "", name);
	if (n > 0)
		*off += (size_t)n;
}

static void v_bool(struct gpulat_value *v, bool b)
{
	v->type = GPULAT_V_BOOL;
	v->b = b;
}

static void v_addr(struct gpulat_value *v, uint64_t p)
{
	if (!p || p == GPULAT_NONE) {
		v->type = GPULAT_V_NULL;
		return;
	}
	snprintf(v->buf, sizeof(v->buf), "0x%llx", (unsigned long long)p);
	v_built(v, GPULAT_V_STR, v->buf);
}

static void v_null(struct gpulat_value *v)
{
	v->type = GPULAT_V_NULL;
}

/* ------------------------------------------------------------------------ */
/* the trace row: a struct gpulat_report                                      */

#define TR(obj) ((const struct gpulat_report *)(obj))
#define U64_GET(fn, expr)                                     \
	static void fn(const void *o, struct gpulat_value *v) \
	{                                                     \
		v_u64(v, (expr));                             \
	}

/* the span (gpulat_report_span()): the records' first..last, clipped to the window */
U64_GET(t_first, TR(o)->c.span_first)
U64_GET(t_last, TR(o)->c.span_last)
U64_GET(t_span, TR(o)->c.span_last - TR(o)->c.span_first)
U64_GET(t_events, TR(o)->c.events)
U64_GET(t_gpu_events, TR(o)->c.gpu_events)
U64_GET(t_lost_events, TR(o)->c.lost_events)
U64_GET(t_lost_gaps, TR(o)->c.lost_gaps)
U64_GET(t_damaged, TR(o)->c.damaged)
U64_GET(t_jobs, TR(o)->c.jobs)
U64_GET(t_jobs_seen, TR(o)->c.jobs_seen)
U64_GET(t_complete, TR(o)->c.jobs - TR(o)->c.incomplete - TR(o)->c.lost - TR(o)->c.orphan)
U64_GET(t_incomplete, TR(o)->c.incomplete)
U64_GET(t_lost, TR(o)->c.lost)
U64_GET(t_orphan, TR(o)->c.orphan)
U64_GET(t_orphan_done, TR(o)->tc.orphan_done)
U64_GET(t_orphan_run, TR(o)->tc.orphan_run)
U64_GET(t_open_peak, TR(o)->tc.open_peak)
U64_GET(t_stalls, gpulat_stats_stalls_total(TR(o)->stats))
U64_GET(t_idle_gaps, gpulat_stats_idle_gaps(TR(o)->stats))

static void t_headlines(const void *o, struct gpulat_value *v)
{
	v->type = GPULAT_V_LIST;
	v->sref_ = gpulat__report_headline_list(TR(o));
}
U64_GET(t_threshold, TR(o)->stall_threshold_ns)

static void t_cpus(const void *o, struct gpulat_value *v)
{
	v_int(v, TR(o)->c.cpus);
}

static void t_era(const void *o, struct gpulat_value *v)
{
	v_str(v, gpulat_era_name(TR(o)->c.era));
}

/*
 * The diagnosis' counts (--explain, --fence-path: lib/diag-*.c); null, and
 * left out of the JSON, when the session runs no diagnosis. One getter
 * reads them all (DIAG_GET below names each field's).
 */
enum t_diag_item {
	TD_IRQ_SOURCE,		/* how the GPU interrupt was found */
	TD_IRQ,			/* its number; null when none was found */
	TD_IRQ_NAME,		/* its handler's name; null when unknown */
	TD_DONE_IN_IRQ,
	TD_DONE_EVENTS,
	TD_EXPL_DROPPED,	/* --explain: gaps beyond the kept ones */
};

static void t_diag_get(const void *o, struct gpulat_value *v, enum t_diag_item item)
{
	const struct gpulat_diag *d = gpulat_session_diag(TR(o)->s);
	struct gpulat_gpu_irq gi;

	v_null(v);
	if (!d)
		return;
	gpulat_diag_gpu_irq(d, &gi);
	switch (item) {
	case TD_IRQ_SOURCE:
		v_str(v, gpulat_irq_source_name(gi.source));
		break;
	case TD_IRQ:
		if (gi.irq >= 0)
			v_int(v, gi.irq);
		break;
	case TD_IRQ_NAME:
		if (gi.name && gi.name[0])
			v_str(v, gi.name);
		break;
	case TD_DONE_IN_IRQ:
		v_u64(v, gi.done_inside);
		break;
	case TD_DONE_EVENTS:
		v_u64(v, gi.done_events);
		break;
	case TD_EXPL_DROPPED:
		v_u64(v, gpulat_diag_stalls_dropped(d));
		break;
	}
}

#define DIAG_GET(fn, item)                                    \
	static void fn(const void *o, struct gpulat_value *v) \
	{                                                     \
		t_diag_get(o, v, (item));                     \
	}

DIAG_GET(t_irq_source, TD_IRQ_SOURCE)
DIAG_GET(t_gpu_irq, TD_IRQ)
DIAG_GET(t_gpu_irq_name, TD_IRQ_NAME)
DIAG_GET(t_done_in_irq, TD_DONE_IN_IRQ)
DIAG_GET(t_done_events, TD_DONE_EVENTS)
DIAG_GET(t_expl_dropped, TD_EXPL_DROPPED)

/* ------------------------------------------------------------------------ */
/* group rows: struct gpulat_group                                            */

#define GR(obj) ((const struct gpulat_group *)(obj))

static void g_dev(const void *o, struct gpulat_value *v)
{
	/* "" without a device (before 6.17), never null */
	v_str(v, GR(o)->dev ? GR(o)->dev : "");
}

static void g_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, GR(o)->ring);
}

static void g_ring_ptr(const void *o, struct gpulat_value *v)
{
	v_str(v, GR(o)->ring_ptr);
}

static void g_file(const void *o, struct gpulat_value *v)
{
	v_int(v, GR(o)->file);
}

static void g_pid(const void *o, struct gpulat_value *v)
{
	v_int(v, GR(o)->pid);
}

static void g_idle_gaps(const void *o, struct gpulat_value *v)
{
	v_u64(v, GR(o)->idle_gaps);
}

static void g_comm(const void *o, struct gpulat_value *v)
{
	v_str(v, GR(o)->comm);
}

static void g_client(const void *o, struct gpulat_value *v)
{
	v_u64(v, GR(o)->client_id);
}

U64_GET(g_jobs, GR(o)->jobs)
U64_GET(g_complete, GR(o)->complete)
U64_GET(g_incomplete, GR(o)->incomplete)
U64_GET(g_lost, GR(o)->lost)

U64_GET(g_hangs, GR(o)->hangs)
U64_GET(g_start_measured, GR(o)->start_measured)
U64_GET(g_done_late, GR(o)->done_late)
U64_GET(g_exec_measured, GR(o)->exec_measured)
U64_GET(g_last_done, GR(o)->last_done_ts)
U64_GET(g_stopped, GR(o)->stopped_ns)

static void g_busy_ns(const void *o, struct gpulat_value *v)
{
	v_u64(v, GR(o)->busy_ns);
}

static void g_busy_pct(const void *o, struct gpulat_value *v)
{
	v_dbl(v, GR(o)->busy_pct);
}

static void g_max_depth(const void *o, struct gpulat_value *v)
{
	v_u64(v, GR(o)->max_depth);
}

static void g_avg_depth(const void *o, struct gpulat_value *v)
{
	v_dbl(v, GR(o)->avg_depth);
}

/* ------------------------------------------------------------------------ */
/* one metric of a group: struct gpulat_summary (null without values)         */

#define SU(obj) ((const struct gpulat_summary *)(obj))
#define SUM_U64(fn, m)                                        \
	static void fn(const void *o, struct gpulat_value *v) \
	{                                                     \
		if (SU(o)->n)                                 \
			v_u64(v, SU(o)->m);                   \
		else                                          \
			v_null(v);                            \
	}

SUM_U64(s_min, min)
SUM_U64(s_max, max)
SUM_U64(s_mean, mean)
SUM_U64(s_p50, p50)
SUM_U64(s_p90, p90)
SUM_U64(s_p99, p99)
SUM_U64(s_p999, p999)
SUM_U64(s_max_ts, max_ts)
SUM_U64(s_max_job, max_job_seq)

static void s_n(const void *o, struct gpulat_value *v)
{
	v_u64(v, SU(o)->n);
}

static void s_stddev(const void *o, struct gpulat_value *v)
{
	if (SU(o)->n)
		v_dbl(v, SU(o)->stddev);
	else
		v_null(v);
}

static void s_exact(const void *o, struct gpulat_value *v)
{
	v_bool(v, SU(o)->exact);
}

static void s_max_cpu(const void *o, struct gpulat_value *v)
{
	if (SU(o)->n)
		v_int(v, SU(o)->max_cpu);
	else
		v_null(v);
}

/* ------------------------------------------------------------------------ */
/* jobs: struct gpulat_job                                                    */

#define JB(obj) ((const struct gpulat_job *)(obj))

static void j_index(const void *o, struct gpulat_value *v)
{
	v_u64(v, JB(o)->seq);
}

static void j_dev(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->dev ? JB(o)->dev : "");
}

static void j_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->ring);
}

static void j_ring_ptr(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->ring_ptr);
}

static void j_file(const void *o, struct gpulat_value *v)
{
	v_int(v, JB(o)->file);
}

static void j_pid(const void *o, struct gpulat_value *v)
{
	v_int(v, JB(o)->pid);
}

static void j_comm(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->comm);
}

U64_GET(j_client, JB(o)->client_id)
U64_GET(j_id, JB(o)->id)
U64_GET(j_ctx, JB(o)->ctx)
U64_GET(j_seqno, JB(o)->ctx == GPULAT_NONE ? GPULAT_NONE : JB(o)->seqno)
U64_GET(j_start, JB(o)->start_ts)
U64_GET(j_wait, JB(o)->wait)
U64_GET(j_hw_queue, JB(o)->hw_queue)
U64_GET(j_exec, JB(o)->exec)
U64_GET(j_total, JB(o)->total)
U64_GET(j_dep_wait, JB(o)->dep_wait)

static void j_fence_ptr(const void *o, struct gpulat_value *v)
{
	v_addr(v, JB(o)->fence_ptr);
}

static void j_status(const void *o, struct gpulat_value *v)
{
	v_str(v, gpulat_status_name(JB(o)->status));
}

#define STAGE(fn_ts, fn_cpu, st)                                  \
	static void fn_ts(const void *o, struct gpulat_value *v)  \
	{                                                         \
		v_u64(v, JB(o)->ts[st]);                          \
	}                                                         \
	static void fn_cpu(const void *o, struct gpulat_value *v) \
	{                                                         \
		if (JB(o)->ts[st] == GPULAT_NONE)                 \
			v_null(v);                                \
		else                                              \
			v_int(v, JB(o)->cpu[st]);                 \
	}

STAGE(j_queue_ts, j_queue_cpu, GPULAT_ST_QUEUE)
STAGE(j_run_ts, j_run_cpu, GPULAT_ST_RUN)
STAGE(j_done_ts, j_done_cpu, GPULAT_ST_DONE)
STAGE(j_signal_ts, j_signal_cpu, GPULAT_ST_SIGNAL)

static void j_start_timing(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->start_ts == GPULAT_NONE ? NULL : gpulat_timing_start(JB(o)));
}

static void j_exec_timing(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->exec == GPULAT_NONE ? NULL : gpulat_timing_exec(JB(o)));
}

static void j_kernel_job(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->kernel_job);
}

static void j_done_timing(const void *o, struct gpulat_value *v)
{
	v_str(v, JB(o)->ts[GPULAT_ST_DONE] == GPULAT_NONE ? NULL : gpulat_timing_done(JB(o)));
}

/* gpulat_job_identity(), the one definition of how a job is named */
static void j_identity(const void *o, struct gpulat_value *v)
{
	v_built(v, GPULAT_V_STR, gpulat_job_identity(v->buf, sizeof(v->buf), JB(o)));
}

static void j_hang(const void *o, struct gpulat_value *v)
{
	size_t off = 0;
	unsigned int i;

	v->buf[0] = '\0';
	for (i = 0; gpulat_hang_name(i); i++) {
		if (!(JB(o)->hang & (1u << i)))
			continue;
		v_list_add(v, &off, gpulat_hang_name(i));
	}
	v_built(v, GPULAT_V_LIST, v->buf);
}

static void j_job_count(const void *o, struct gpulat_value *v)
{
	v_u64(v, JB(o)->job_count);
}

static void j_hw_job_count(const void *o, struct gpulat_value *v)
{
	v_int(v, JB(o)->hw_job_count);
}

static void j_lost_stages(const void *o, struct gpulat_value *v)
{
	size_t off = 0;
	int st;

	v->buf[0] = '\0';
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (!(JB(o)->lost_stages & (1u << st)))
			continue;
		v_list_add(v, &off, gpulat_stage_name(st));
	}
	v_built(v, GPULAT_V_LIST, v->buf);
}

static void j_n_deps(const void *o, struct gpulat_value *v)
{
	v_u64(v, JB(o)->n_deps);
}

static void j_deps(const void *o, struct gpulat_value *v)
{
	v->type = GPULAT_V_ROWS;
	v->rows = GPULAT_ROW_DEP;
	v->n = JB(o)->deps ? JB(o)->n_deps : 0;
	v->p = JB(o)->deps;
	v->stride = sizeof(struct gpulat_dep);
}

/* ------------------------------------------------------------------------ */
/* a job's dependency: struct gpulat_dep                                      */

#define DP(obj) ((const struct gpulat_dep *)(obj))

U64_GET(d_ctx, DP(o)->ctx)
U64_GET(d_seqno, DP(o)->seqno)
U64_GET(d_job, DP(o)->job_seq)
U64_GET(d_signal, DP(o)->signal_ts)

static void d_ptr(const void *o, struct gpulat_value *v)
{
	v_addr(v, DP(o)->ptr);
}

static void d_dev(const void *o, struct gpulat_value *v)
{
	v_str(v, DP(o)->dev);
}

static void d_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, DP(o)->ring);
}

static void d_scheduled(const void *o, struct gpulat_value *v)
{
	v_bool(v, DP(o)->scheduled);
}

static void d_unsched(const void *o, struct gpulat_value *v)
{
	v_bool(v, DP(o)->unschedulable);
}

/* ------------------------------------------------------------------------ */
/* stalls: struct gpulat_stall                                                */

#define ST(obj)	 ((const struct gpulat_stall *)(obj))
#define GAP(obj) (ST(obj)->kind == GPULAT_STALL_SUBMIT_GAP)

static void st_kind(const void *o, struct gpulat_value *v)
{
	v_str(v, GAP(o) ? "submit_gap" : "ring_idle");
}

static void st_dev(const void *o, struct gpulat_value *v)
{
	v_str(v, GAP(o) ? NULL : ST(o)->dev ? ST(o)->dev : "");
}

static void st_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, GAP(o) ? NULL : ST(o)->ring);
}

static void st_pid(const void *o, struct gpulat_value *v)
{
	if (GAP(o))
		v_int(v, ST(o)->pid);
	else
		v_null(v);
}

static void st_comm(const void *o, struct gpulat_value *v)
{
	v_str(v, GAP(o) ? ST(o)->comm : NULL);
}

U64_GET(st_start, ST(o)->start_ts)
U64_GET(st_end, ST(o)->end_ts)
U64_GET(st_gap, ST(o)->end_ts - ST(o)->start_ts)

static void st_start_cpu(const void *o, struct gpulat_value *v)
{
	v_int(v, ST(o)->start_cpu);
}

static void st_end_cpu(const void *o, struct gpulat_value *v)
{
	v_int(v, ST(o)->end_cpu);
}

/* the job that ended the gap, named as gpulat_job_identity() names jobs */
static void st_identity(const void *o, struct gpulat_value *v)
{
	v_built(v, GPULAT_V_STR, gpulat_stall_identity(v->buf, sizeof(v->buf), ST(o)));
}

/* ------------------------------------------------------------------------ */
/* dependency waits: struct gpulat_depwait                                    */

#define DW(obj) ((const struct gpulat_depwait *)(obj))

static void dw_dev(const void *o, struct gpulat_value *v)
{
	v_str(v, DW(o)->dev ? DW(o)->dev : "");
}

static void dw_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, DW(o)->ring);
}

static void dw_dep_dev(const void *o, struct gpulat_value *v)
{
	/* null with the producer: "" is "a traced ring without a device" */
	v_str(v, DW(o)->dep_ring ? (DW(o)->dep_dev ? DW(o)->dep_dev : "") : NULL);
}

static void dw_dep_ring(const void *o, struct gpulat_value *v)
{
	v_str(v, DW(o)->dep_ring);
}

U64_GET(dw_count, DW(o)->count)
U64_GET(dw_total, DW(o)->total_ns)
U64_GET(dw_max, DW(o)->max_ns)
U64_GET(dw_max_ts, DW(o)->max_ts)

/* ------------------------------------------------------------------------ */
/* the table                                                                  */

#define NO_CSV GPULAT_FIELD_NO_CSV
#define OPT    GPULAT_FIELD_OPTIONAL
#define GATE   GPULAT_FIELD_GATE
#define TOP    GPULAT_FIELD_TOP

static const struct gpulat_field fields[] = {
	/* the trace */
	{ "era", NULL, "kernel era", GPULAT_UNIT_NONE, R(TRACE), TOP, t_era,
	  "kernel event era detected from the formats in the trace" },
	{ "first_ts", NULL, "from", GPULAT_UNIT_TS, R(TRACE), TOP, t_first,
	  "start of the span: first record of the trace, or --start when later" },
	{ "last_ts", NULL, "to", GPULAT_UNIT_TS, R(TRACE), TOP, t_last,
	  "end of the span: last record of the trace, or --end when earlier" },
	{ "span_ns", NULL, "span", GPULAT_UNIT_NS, R(TRACE), TOP, t_span,
	  "last_ts - first_ts; busy % and depth are over this span" },
	{ "cpus", NULL, "CPUs", GPULAT_UNIT_COUNT, R(TRACE), TOP, t_cpus,
	  "CPUs recorded, summed over the input files" },
	{ "events", NULL, "events", GPULAT_UNIT_COUNT, R(TRACE), 0, t_events, "records read" },
	{ "gpu_events", NULL, "GPU events", GPULAT_UNIT_COUNT, R(TRACE), 0, t_gpu_events,
	  "gpu_scheduler, dma_fence and driver records among them" },
	{ "lost_events", NULL, "lost events", GPULAT_UNIT_COUNT, R(TRACE), GATE, t_lost_events,
	  "events the ring buffer lost (sum of the overrun counts; as a gate an overrun of "
	  "unknown size counts as one)" },
	{ "lost_gaps", NULL, "overruns", GPULAT_UNIT_COUNT, R(TRACE), 0, t_lost_gaps,
	  "records preceded by a ring-buffer overrun" },
	{ "damaged_events", NULL, "damaged", GPULAT_UNIT_COUNT, R(TRACE), 0, t_damaged,
	  "GPU records that could not be decoded" },
	{ "jobs", NULL, "jobs", GPULAT_UNIT_COUNT, R(TRACE), 0, t_jobs,
	  "jobs that passed the filters" },
	{ "jobs_before_filter", NULL, "jobs seen", GPULAT_UNIT_COUNT, R(TRACE), 0, t_jobs_seen,
	  "jobs linked from the trace before the filters" },
	{ "complete", NULL, "complete", GPULAT_UNIT_COUNT, R(TRACE), 0, t_complete,
	  "jobs with every stage seen" },
	{ "incomplete", NULL, "incomplete", GPULAT_UNIT_COUNT, R(TRACE), 0, t_incomplete,
	  "jobs without a done event by the end of the trace" },
	{ "lost", NULL, "lost", GPULAT_UNIT_COUNT, R(TRACE), 0, t_lost,
	  "jobs with a stage in a lost-events window" },
	{ "orphan", NULL, "orphan", GPULAT_UNIT_COUNT, R(TRACE), 0, t_orphan,
	  "jobs missing a stage without lost events (e.g. queued before the recording)" },
	{ "orphan_done", NULL, "orphan done", GPULAT_UNIT_COUNT, R(TRACE), 0, t_orphan_done,
	  "done events that matched no open job" },
	{ "orphan_run", NULL, "orphan run", GPULAT_UNIT_COUNT, R(TRACE), 0, t_orphan_run,
	  "run events that matched no queued job" },
	{ "open_peak", NULL, "open peak", GPULAT_UNIT_COUNT, R(TRACE), 0, t_open_peak,
	  "most jobs in flight at once (what the memory grows with)" },
	{ "stall_threshold_ns", NULL, "threshold", GPULAT_UNIT_NS, R(TRACE), TOP, t_threshold,
	  "stall threshold in use (--threshold, the display refresh, or 16.667 ms)" },
	{ "stalls_total", "stalls", "stalls", GPULAT_UNIT_COUNT, R(TRACE), TOP | GATE, t_stalls,
	  "every stall found; \"stalls\" lists the 4096 longest" },
	{ "idle_gaps_total", NULL, "idle gaps", GPULAT_UNIT_COUNT, R(TRACE), TOP, t_idle_gaps,
	  "submit gaps of processes without a steady pace (idleness, not stalls)" },
	{ "headlines", NULL, "stopped", GPULAT_UNIT_NONE, R(TRACE),
	  TOP | NO_CSV | GPULAT_FIELD_LIST, t_headlines,
	  "one line per ring that stopped completing: \"gfx: 18 jobs pending after 124.252075, "
	  "nothing completed for 224ms\" (its stopped_ns)" },
	/* the diagnosis (--explain, --fence-path); left out without it */
	{ "gpu_irq_source", NULL, "GPU irq from", GPULAT_UNIT_NONE, R(TRACE), OPT | NO_CSV,
	  t_irq_source,
	  "how the GPU interrupt was found: auto (the irq around most done events), option "
	  "(--gpu-irq), amdgpu_iv, none" },
	{ "gpu_irq", NULL, "GPU irq", GPULAT_UNIT_NONE, R(TRACE), OPT | NO_CSV, t_gpu_irq,
	  "the GPU interrupt's number (irq_handler_entry)" },
	{ "gpu_irq_name", NULL, "GPU irq name", GPULAT_UNIT_NONE, R(TRACE), OPT | NO_CSV,
	  t_gpu_irq_name, "its handler's name" },
	{ "done_in_gpu_irq", NULL, "done in GPU irq", GPULAT_UNIT_COUNT, R(TRACE), OPT | NO_CSV,
	  t_done_in_irq, "done events inside the GPU interrupt (or after an amdgpu_iv)" },
	{ "done_events", NULL, "done events", GPULAT_UNIT_COUNT, R(TRACE), OPT | NO_CSV,
	  t_done_events, "job done events the diagnosis saw" },
	{ "stall_explanations_dropped", NULL, "explanations dropped", GPULAT_UNIT_COUNT, R(TRACE),
	  OPT | NO_CSV, t_expl_dropped,
	  "--explain: gaps over the threshold beyond the 16384 longest, not explained" },

	/* rings, processes, clients, devices */
	{ "dev", NULL, "dev", GPULAT_UNIT_NONE, R(RING) | R(DEVICE), 0, g_dev,
	  "PCI device (6.17+; \"\" before)" },
	{ "ring", NULL, "ring", GPULAT_UNIT_NONE, R(RING), 0, g_ring,
	  "ring name (pre-5.19 address rings: named after their drm_sched fence timeline)" },
	{ "ring_ptr", NULL, "ring address", GPULAT_UNIT_ADDR, R(RING), OPT | NO_CSV, g_ring_ptr,
	  "5.7-5.18: the address the trace holds for the ring's name" },
	{ "file", NULL, "file", GPULAT_UNIT_NONE, R(RING), NO_CSV, g_file,
	  "index of the input file of the ring (several files)" },
	{ "pid", NULL, "pid", GPULAT_UNIT_NONE, R(PROCESS), 0, g_pid,
	  "submitting process (of the queue event)" },
	{ "idle_gaps", NULL, "idle gaps", GPULAT_UNIT_COUNT, R(PROCESS), NO_CSV, g_idle_gaps,
	  "submit gaps longer than the threshold that were idleness, not stalls" },
	{ "comm", NULL, "comm", GPULAT_UNIT_NONE, R(PROCESS), 0, g_comm, "its command name" },
	{ "client_id", NULL, "client", GPULAT_UNIT_NONE, R(CLIENT), 0, g_client,
	  "DRM client id of the queue event (6.17+)" },
	{ "jobs", NULL, "jobs", GPULAT_UNIT_COUNT, GROUPS, GATE, g_jobs, "jobs of the group" },
	{ "complete", NULL, "complete", GPULAT_UNIT_COUNT, GROUPS, GATE, g_complete,
	  "of them complete" },
	{ "incomplete", NULL, "incomplete", GPULAT_UNIT_COUNT, GROUPS, GATE, g_incomplete,
	  "no done event by the end of the trace" },
	{ "lost", NULL, "lost", GPULAT_UNIT_COUNT, GROUPS, GATE, g_lost,
	  "lost or orphan (a stage missing)" },
	{ "busy_ns", NULL, "busy", GPULAT_UNIT_NS, R(RING) | R(DEVICE), 0, g_busy_ns,
	  "union of the jobs' [start, done] intervals" },
	{ "busy_pct", "busy", "busy%", GPULAT_UNIT_PCT, R(RING) | R(DEVICE), GATE, g_busy_pct,
	  "busy_ns in % of the span" },
	{ "max_depth", NULL, "max depth", GPULAT_UNIT_COUNT, R(RING) | R(DEVICE), GATE, g_max_depth,
	  "most jobs queued and not done at once" },
	{ "avg_depth", NULL, "avg depth", GPULAT_UNIT_RATIO, R(RING) | R(DEVICE), GATE, g_avg_depth,
	  "jobs queued and not done, time-weighted over the span" },
	/*
	 * What the driver measured or reported (lib/track-{i915,xe,hw}.c), at
	 * the end of the group row so the CSV columns before them stay put.
	 */
	{ "hangs", NULL, "hung", GPULAT_UNIT_COUNT, GROUPS, 0, g_hangs,
	  "jobs the driver reported hung (xe: timed out, error, banned)" },
	{ "start_measured", NULL, "start measured", GPULAT_UNIT_COUNT, GROUPS, 0, g_start_measured,
	  "jobs whose start on the hardware was traced (i915_request_in, msm, v3d)" },
	{ "done_late", NULL, "done late", GPULAT_UNIT_COUNT, GROUPS, 0, g_done_late,
	  "jobs whose done is an upper bound (i915_request_retire)" },
	{ "exec_measured", NULL, "exec measured", GPULAT_UNIT_COUNT, GROUPS, 0, g_exec_measured,
	  "jobs whose exec the GPU's own clock measured (msm_gpu_submit_retired)" },
	/* a ring that stopped completing (lib/stats.c stopped_for(), issue 16) */
	{ "last_done_ts", NULL, "last done", GPULAT_UNIT_TS, R(RING), NO_CSV, g_last_done,
	  "the newest done event of the ring's jobs (null: none)" },
	{ "stopped_ns", "stopped", "stopped", GPULAT_UNIT_NS, R(RING), GATE | NO_CSV, g_stopped,
	  "jobs pending at the end and nothing done for this long, over the stall threshold "
	  "(a hang; the trace's headlines say it); 0 otherwise" },

	/* one metric (wait hw_queue exec total dep_wait) of a group: STAT.METRIC */
	{ "n", NULL, "n", GPULAT_UNIT_COUNT, R(SUMMARY), GATE, s_n, "jobs with a value" },
	{ "min", NULL, "min", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_min, "smallest value" },
	{ "max", NULL, "max", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_max, "largest value" },
	{ "mean", NULL, "mean", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_mean, "mean" },
	{ "stddev", NULL, "stddev", GPULAT_UNIT_NS, R(SUMMARY), 0, s_stddev, "standard deviation" },
	{ "p50", NULL, "p50", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_p50, "median (nearest rank)" },
	{ "p90", NULL, "p90", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_p90, "90th percentile" },
	{ "p99", NULL, "p99", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_p99, "99th percentile" },
	{ "p999", NULL, "p999", GPULAT_UNIT_NS, R(SUMMARY), GATE, s_p999, "99.9th percentile" },
	{ "exact", NULL, "exact", GPULAT_UNIT_BOOL, R(SUMMARY), 0, s_exact,
	  "false: quantiles from a histogram, within 0.8 %, or 6.25 % from the coarse one "
	  "past the memory budget (text marks them ~)" },
	{ "max_ts", NULL, "max at", GPULAT_UNIT_TS, R(SUMMARY), 0, s_max_ts,
	  "done (or last seen) timestamp of the job with the largest value" },
	{ "max_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(SUMMARY), 0, s_max_cpu, "its CPU" },
	{ "max_job_index", NULL, "job", GPULAT_UNIT_NONE, R(SUMMARY), NO_CSV, s_max_job,
	  "its job index" },

	/* jobs */
	{ "index", NULL, "#", GPULAT_UNIT_NONE, R(JOB), 0, j_index,
	  "order of first sight, from 0" },
	{ "dev", NULL, "dev", GPULAT_UNIT_NONE, R(JOB), 0, j_dev,
	  "PCI device (6.17+; \"\" before)" },
	{ "ring", NULL, "ring", GPULAT_UNIT_NONE, R(JOB), 0, j_ring, "ring name" },
	{ "ring_ptr", NULL, "ring address", GPULAT_UNIT_ADDR, R(JOB), OPT | NO_CSV, j_ring_ptr,
	  "5.7-5.18: the address the trace holds for the ring's name" },
	{ "file", NULL, "file", GPULAT_UNIT_NONE, R(JOB), NO_CSV, j_file,
	  "index of the input file" },
	{ "pid", NULL, "pid", GPULAT_UNIT_NONE, R(JOB), 0, j_pid,
	  "submitting process, -1 without a queue event" },
	{ "comm", NULL, "comm", GPULAT_UNIT_NONE, R(JOB), 0, j_comm,
	  "its command name, \"\" without a queue event" },
	{ "client_id", NULL, "client", GPULAT_UNIT_NONE, R(JOB), 0, j_client,
	  "DRM client id (6.17+)" },
	{ "id", NULL, "id", GPULAT_UNIT_NONE, R(JOB), 0, j_id, "drm_sched job id (before 6.17)" },
	{ "fence_ptr", NULL, "fence", GPULAT_UNIT_ADDR, R(JOB), 0, j_fence_ptr,
	  "finished fence address (before 6.17)" },
	{ "fence_ctx", NULL, "ctx", GPULAT_UNIT_NONE, R(JOB), 0, j_ctx, "finished fence context" },
	{ "fence_seqno", NULL, "seqno", GPULAT_UNIT_NONE, R(JOB), 0, j_seqno,
	  "finished fence seqno" },
	{ "status", NULL, "status", GPULAT_UNIT_NONE, R(JOB), 0, j_status,
	  "complete, incomplete, lost or orphan" },
	{ "queue_ts", NULL, "queue", GPULAT_UNIT_TS, R(JOB), 0, j_queue_ts, "queue event" },
	{ "queue_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(JOB), 0, j_queue_cpu, "its CPU" },
	{ "run_ts", NULL, "run", GPULAT_UNIT_TS, R(JOB), 0, j_run_ts,
	  "run event (handed to the hardware ring)" },
	{ "run_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(JOB), 0, j_run_cpu, "its CPU" },
	{ "done_ts", NULL, "done", GPULAT_UNIT_TS, R(JOB), 0, j_done_ts,
	  "done event (hardware fence signalled)" },
	{ "done_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(JOB), 0, j_done_cpu, "its CPU" },
	{ "signal_ts", NULL, "signal", GPULAT_UNIT_TS, R(JOB), 0, j_signal_ts,
	  "dma_fence_signaled of the finished fence" },
	{ "signal_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(JOB), 0, j_signal_cpu, "its CPU" },
	{ "start_ts", NULL, "start", GPULAT_UNIT_TS, R(JOB), 0, j_start,
	  "max(run, done of the previous job on the ring)" },
	{ "wait", NULL, "wait", GPULAT_UNIT_NS, R(JOB), 0, j_wait,
	  "queue -> run (includes dependency waits)" },
	{ "hw_queue", NULL, "hw_queue", GPULAT_UNIT_NS, R(JOB), 0, j_hw_queue,
	  "run -> start on the ring" },
	{ "exec", NULL, "exec", GPULAT_UNIT_NS, R(JOB), 0, j_exec, "start -> done" },
	{ "total", NULL, "total", GPULAT_UNIT_NS, R(JOB), 0, j_total, "queue -> done" },
	{ "dep_wait", NULL, "dep_wait", GPULAT_UNIT_NS, R(JOB), 0, j_dep_wait,
	  "time blocked on dependencies" },
	{ "job_count", NULL, "job count", GPULAT_UNIT_COUNT, R(JOB), 0, j_job_count,
	  "jobs queued on the entity at queue" },
	{ "hw_job_count", NULL, "hw job count", GPULAT_UNIT_COUNT, R(JOB), 0, j_hw_job_count,
	  "jobs on the hardware ring at run" },
	{ "lost_stages", NULL, "lost stages", GPULAT_UNIT_NONE, R(JOB), GPULAT_FIELD_LIST,
	  j_lost_stages, "stages that fell into lost-events windows (CSV: '|'-separated)" },
	{ "n_deps", NULL, "deps", GPULAT_UNIT_COUNT, R(JOB), 0, j_n_deps, "dependencies" },
	{ "deps", NULL, "deps", GPULAT_UNIT_NONE, R(JOB), NO_CSV, j_deps,
	  "the dependencies (dep rows)" },
	/* how the driver's events timed the job, at the end of the job row (CSV) */
	{ "start_timing", NULL, "start timing", GPULAT_UNIT_NONE, R(JOB), 0, j_start_timing,
	  "measured (traced on the hardware) or inferred (ring FIFO)" },
	{ "exec_timing", NULL, "exec timing", GPULAT_UNIT_NONE, R(JOB), 0, j_exec_timing,
	  "measured (the GPU's clock, msm) or derived (done - start)" },
	{ "done_timing", NULL, "done timing", GPULAT_UNIT_NONE, R(JOB), 0, j_done_timing,
	  "exact, or late (an upper bound)" },
	{ "hang", NULL, "hang", GPULAT_UNIT_NONE, R(JOB), GPULAT_FIELD_LIST, j_hang,
	  "what the driver reported: timedout, error, banned (CSV: '|'-separated)" },
	{ "kernel_job", NULL, "kernel job", GPULAT_UNIT_NONE, R(JOB), 0, j_kernel_job,
	  "amdgpu kernel work (VM_UPDATE, TTM_COPY_BUFFER, ...: its client_id is no client)" },
	{ "identity", NULL, "job", GPULAT_UNIT_NONE, R(JOB), NO_CSV, j_identity,
	  "the job as `trace-cmd report` (the gpu_sched plugin) prints it and KernelShark labels "
	  "it: fence=CTX:SEQNO, or before 6.17 job=RING#ID fence=HHHH (one grep finds it)" },

	/* a job's dependency */
	{ "fence_ctx", NULL, "ctx", GPULAT_UNIT_NONE, R(DEP), 0, d_ctx,
	  "fence waited for: context" },
	{ "fence_seqno", NULL, "seqno", GPULAT_UNIT_NONE, R(DEP), 0, d_seqno, "its seqno" },
	{ "fence_ptr", NULL, "fence", GPULAT_UNIT_ADDR, R(DEP), 0, d_ptr,
	  "its address (before 6.17)" },
	{ "job_index", NULL, "job", GPULAT_UNIT_NONE, R(DEP), 0, d_job,
	  "index of the job that produced it, when traced" },
	{ "dev", NULL, "dev", GPULAT_UNIT_NONE, R(DEP), 0, d_dev, "producer's device" },
	{ "ring", NULL, "ring", GPULAT_UNIT_NONE, R(DEP), 0, d_ring, "producer's ring" },
	{ "signal_ts", NULL, "signal", GPULAT_UNIT_TS, R(DEP), 0, d_signal, "producer's done" },
	{ "unschedulable", NULL, "unschedulable", GPULAT_UNIT_BOOL, R(DEP), 0, d_unsched,
	  "the job was blocked on it (6.17+ event)" },
	{ "scheduled", NULL, "scheduled", GPULAT_UNIT_BOOL, R(DEP), 0, d_scheduled,
	  "6.17+: the producer's scheduled fence (context - 1), signalled at its run" },

	/* stalls */
	{ "kind", NULL, "kind", GPULAT_UNIT_NONE, R(STALL), 0, st_kind,
	  "submit_gap (a process submitted nothing) or ring_idle" },
	{ "dev", NULL, "dev", GPULAT_UNIT_NONE, R(STALL), 0, st_dev, "ring_idle: device" },
	{ "ring", NULL, "ring", GPULAT_UNIT_NONE, R(STALL), 0, st_ring, "ring_idle: ring" },
	{ "pid", NULL, "pid", GPULAT_UNIT_NONE, R(STALL), 0, st_pid, "submit_gap: process" },
	{ "comm", NULL, "comm", GPULAT_UNIT_NONE, R(STALL), 0, st_comm,
	  "submit_gap: command name" },
	{ "start_ts", NULL, "from", GPULAT_UNIT_TS, R(STALL), 0, st_start,
	  "previous submission / previous done" },
	{ "start_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(STALL), 0, st_start_cpu, "its CPU" },
	{ "end_ts", NULL, "to", GPULAT_UNIT_TS, R(STALL), 0, st_end,
	  "next submission / next start" },
	{ "end_cpu", NULL, "cpu", GPULAT_UNIT_CPU, R(STALL), 0, st_end_cpu, "its CPU" },
	{ "gap_ns", NULL, "gap", GPULAT_UNIT_NS, R(STALL), 0, st_gap, "end_ts - start_ts" },
	{ "identity", NULL, "job", GPULAT_UNIT_NONE, R(STALL), 0, st_identity,
	  "the job that ended the gap (submit_gap: the submission at end_ts; ring_idle: the "
	  "job that started at end_ts), named as `trace-cmd report` prints it (see the job row)" },

	/* dependency waits */
	{ "dev", NULL, "dev", GPULAT_UNIT_NONE, R(DEPWAIT), 0, dw_dev, "waiting ring: device" },
	{ "ring", NULL, "ring", GPULAT_UNIT_NONE, R(DEPWAIT), 0, dw_ring, "waiting ring" },
	{ "dep_dev", NULL, "waited on dev", GPULAT_UNIT_NONE, R(DEPWAIT), 0, dw_dep_dev,
	  "producing ring: device" },
	{ "dep_ring", NULL, "waited on", GPULAT_UNIT_NONE, R(DEPWAIT), 0, dw_dep_ring,
	  "producing ring, null for a fence of no traced job" },
	{ "count", NULL, "jobs", GPULAT_UNIT_COUNT, R(DEPWAIT), 0, dw_count, "jobs that waited" },
	{ "total_ns", NULL, "total", GPULAT_UNIT_NS, R(DEPWAIT), 0, dw_total,
	  "their dependency wait, summed" },
	{ "max_ns", NULL, "max", GPULAT_UNIT_NS, R(DEPWAIT), 0, dw_max, "the longest" },
	{ "max_ts", NULL, "max at (queue)", GPULAT_UNIT_TS, R(DEPWAIT), 0, dw_max_ts,
	  "queue timestamp of the job that waited longest" },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

const struct gpulat_field *gpulat_field_at(enum gpulat_row row, size_t i)
{
	size_t k;

	if ((unsigned int)row >= GPULAT_ROW__COUNT)
		return NULL;
	for (k = 0; k < NFIELDS; k++) {
		if (!(fields[k].rows & (1u << row)))
			continue;
		if (!i--)
			return &fields[k];
	}
	return NULL;
}

const struct gpulat_field *gpulat_field_find(enum gpulat_row row, const char *name)
{
	const struct gpulat_field *f;
	size_t i;

	for (i = 0; (f = gpulat_field_at(row, i)); i++) {
		if (!strcmp(f->name, name) || (f->alias && !strcmp(f->alias, name)))
			return f;
	}
	return NULL;
}

/*
 * The group kinds (1 << enum gpulat_group_kind) with a field that reads a
 * group's busy union or depth: the only ones a session's statistics keep
 * them for (gpulat__stats_busy_kinds(); 10^4 processes and clients made
 * them a sixth of the run's cache misses, bench/HISTORY.md). Read from the
 * table, so a field shown for another kind is never a silent 0.
 */
unsigned int gpulat__report_busy_kinds(void)
{
	static const struct {
		enum gpulat_row row;
		enum gpulat_group_kind kind;
	} map[] = {
		{ GPULAT_ROW_RING, GPULAT_G_RING },
		{ GPULAT_ROW_PROCESS, GPULAT_G_PROCESS },
		{ GPULAT_ROW_CLIENT, GPULAT_G_CLIENT },
		{ GPULAT_ROW_DEVICE, GPULAT_G_DEVICE },
	};
	unsigned int rows = 0, kinds = 0;
	size_t k;

	for (k = 0; k < NFIELDS; k++) {
		if (fields[k].get == g_busy_ns || fields[k].get == g_busy_pct ||
		    fields[k].get == g_max_depth || fields[k].get == g_avg_depth)
			rows |= fields[k].rows;
	}
	for (k = 0; k < sizeof(map) / sizeof(map[0]); k++) {
		if (rows & (1u << map[k].row))
			kinds |= 1u << map[k].kind;
	}
	return kinds;
}

/* the n-th field of the table whose rows intersect @mask (CSV of the groups) */
const struct gpulat_field *gpulat__field_any(unsigned int mask, size_t i)
{
	size_t k;

	for (k = 0; k < NFIELDS; k++) {
		if (!(fields[k].rows & mask))
			continue;
		if (!i--)
			return &fields[k];
	}
	return NULL;
}

const char *gpulat_field_name(const struct gpulat_field *f)
{
	return f->name;
}

const char *gpulat_field_alias(const struct gpulat_field *f)
{
	return f->alias;
}

const char *gpulat_field_label(const struct gpulat_field *f)
{
	return f->label;
}

const char *gpulat_field_doc(const struct gpulat_field *f)
{
	return f->doc;
}

enum gpulat_unit gpulat_field_unit(const struct gpulat_field *f)
{
	return f->unit;
}

unsigned int gpulat_field_flags(const struct gpulat_field *f)
{
	return f->flags;
}

bool gpulat_field_in(const struct gpulat_field *f, enum gpulat_row row)
{
	return (unsigned int)row < GPULAT_ROW__COUNT && (f->rows & (1u << row));
}

/* the first layout of struct gpulat_value: what every caller has */
#define VALUE_SZ_V1 (offsetof(struct gpulat_value, buf) + sizeof(((struct gpulat_value *)0)->buf))

void gpulat_field_get(const struct gpulat_field *f, const void *obj, struct gpulat_value *v)
{
	struct gpulat_value t;
	size_t sz = v->sz;

	/* built in full here, then as much as the caller's struct holds */
	memset(&t, 0, sizeof(t));
	t.type = GPULAT_V_NULL;
	if (sz >= VALUE_SZ_V1)
		f->get(obj, &t);
	t.sz = sz;
	if (sz >= offsetof(struct gpulat_value, type) + sizeof(t.type))
		memcpy(v, &t, sz < sizeof(t) ? sz : sizeof(t));
}

const char *gpulat_value_str(const struct gpulat_value *v)
{
	if (v->type != GPULAT_V_STR && v->type != GPULAT_V_LIST)
		return NULL;
	return v->sref_ ? v->sref_ : v->buf;
}

bool gpulat_value_number(const struct gpulat_value *v, double *d)
{
	switch (v->type) {
	case GPULAT_V_U64:
		*d = (double)v->u;
		return true;
	case GPULAT_V_I64:
		*d = (double)v->i;
		return true;
	case GPULAT_V_DOUBLE:
		*d = v->d;
		return true;
	case GPULAT_V_BOOL:
		*d = v->b;
		return true;
	default:
		return false;
	}
}

const void *gpulat_value_row(const struct gpulat_value *v, size_t i)
{
	if (v->type != GPULAT_V_ROWS || i >= v->n)
		return NULL;
	return (const char *)v->p + i * v->stride;
}

const char *gpulat_row_name(enum gpulat_row row)
{
	static const char * const names[GPULAT_ROW__COUNT] = {
		[GPULAT_ROW_TRACE] = "trace",	  [GPULAT_ROW_RING] = "ring",
		[GPULAT_ROW_PROCESS] = "process", [GPULAT_ROW_CLIENT] = "client",
		[GPULAT_ROW_DEVICE] = "device",	  [GPULAT_ROW_SUMMARY] = "summary",
		[GPULAT_ROW_JOB] = "job",	  [GPULAT_ROW_DEP] = "dep",
		[GPULAT_ROW_STALL] = "stall",	  [GPULAT_ROW_DEPWAIT] = "depwait",
	};

	return (unsigned int)row < GPULAT_ROW__COUNT ? names[row] : "?";
}

const char *gpulat_unit_name(enum gpulat_unit unit)
{
	static const char * const names[] = {
		[GPULAT_UNIT_NONE] = "",	[GPULAT_UNIT_COUNT] = "count",
		[GPULAT_UNIT_NS] = "ns",	[GPULAT_UNIT_TS] = "ts",
		[GPULAT_UNIT_CPU] = "cpu",	[GPULAT_UNIT_PCT] = "%",
		[GPULAT_UNIT_RATIO] = "number", [GPULAT_UNIT_ADDR] = "address",
		[GPULAT_UNIT_BOOL] = "bool",
	};

	return (unsigned int)unit < sizeof(names) / sizeof(names[0]) ? names[unit] : "?";
}
