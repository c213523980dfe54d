/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat - the gpu-sched-trace core: event binding, job tracking, statistics.
 *
 * Every front end (libtraceevent plugins, trace-cmd gpu-latency, the KernelShark
 * plugin) turns records into GPU jobs through this library only.
 *
 *   record --gpulat_binding_decode()--> struct gpulat_event
 *          --gpulat_tracker_feed()-----> struct gpulat_job (callback, streaming)
 *          --gpulat_stats_add()--------> per ring / process / client / device aggregates
 *
 * Metric definitions: ../shared/DESIGN.md and docs/truth-format.md.
 * Every exported symbol starts with gpulat_ / GPULAT_.
 */
#ifndef _GPULAT_H
#define _GPULAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulat-ring.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tep_handle;
struct tep_event;
struct tep_record;

/* A stage timestamp or duration that does not exist. */
#define GPULAT_NONE	UINT64_MAX

/* ------------------------------------------------------------------------ */
/* Eras                                                                       */

/*
 * Detected from the events present in the trace, never from a version string.
 * The name strings are those of docs/truth-format.md ("era").
 */
enum gpulat_era {
	GPULAT_ERA_NONE = 0,	/* no gpu_scheduler events at all */
	GPULAT_ERA_PRE57,	/* 4.16-5.6: drm_sched_job, drm_sched_process_job; no run */
	GPULAT_ERA_V57,		/* 5.7-5.18: + drm_run_job; name is a const char * */
	GPULAT_ERA_V519,	/* 5.19-6.16: name is __data_loc char[] */
	GPULAT_ERA_V617,	/* 6.17+: drm_sched_job_queue/run/done, fence=ctx:seqno */
	GPULAT_ERA_AMDGPU,	/* only amdgpu_cs_ioctl / amdgpu_sched_run_job events */
	GPULAT_ERA_I915,	/* no gpu_scheduler events, i915 requests (lib/track-i915.c) */
};

const char *gpulat_era_name(enum gpulat_era era);

/* rec->size if the payload fits its ring-buffer page, else 0 (damaged): lib/bounds.c */
size_t gpulat_record_bytes(const struct tep_record *rec, int page_size);

/* ------------------------------------------------------------------------ */
/* Normalized events                                                          */

enum gpulat_kind {
	GPULAT_EV_NONE = 0,
	GPULAT_EV_QUEUE,	/* drm_sched_job (<=6.16) / drm_sched_job_queue (6.17+) */
	GPULAT_EV_RUN,		/* drm_run_job (5.7-6.16) / drm_sched_job_run (6.17+) */
	GPULAT_EV_DONE,		/* drm_sched_process_job (<=6.16) / drm_sched_job_done */
	GPULAT_EV_DEP,		/* drm_sched_job_wait_dep (<=6.16) / drm_sched_job_add_dep */
	GPULAT_EV_UNSCHED,	/* drm_sched_job_unschedulable (6.17+) */
	GPULAT_EV_FENCE_INIT,	/* dma_fence_* (fence_* before 4.10) */
	GPULAT_EV_FENCE_EMIT,
	GPULAT_EV_FENCE_ENABLE,
	GPULAT_EV_FENCE_SIGNALED,
	GPULAT_EV_FENCE_DESTROY,
	GPULAT_EV_FENCE_WAIT_START,
	GPULAT_EV_FENCE_WAIT_END,
	GPULAT_EV_AMD_CS,	/* amdgpu_cs_ioctl */
	GPULAT_EV_AMD_RUN,	/* amdgpu_sched_run_job */
	GPULAT_EV_AMD_IV,	/* amdgpu_iv */
	/* i915 requests (no drm_sched; lib/track-i915.c). LOW_LEVEL: only with
	 * CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS (off in Debian and most distros) */
	GPULAT_EV_I915_QUEUE,	/* i915_request_queue (execbuf) */
	GPULAT_EV_I915_ADD,	/* i915_request_add: queue stage */
	GPULAT_EV_I915_SUBMIT,	/* i915_request_submit (LOW_LEVEL): run stage */
	GPULAT_EV_I915_EXECUTE,	/* i915_request_execute (LOW_LEVEL) */
	GPULAT_EV_I915_IN,	/* i915_request_in (LOW_LEVEL): on the hardware */
	GPULAT_EV_I915_OUT,	/* i915_request_out (LOW_LEVEL): off it (value: completed) */
	GPULAT_EV_I915_RETIRE,	/* i915_request_retire */
	GPULAT_EV_I915_WAIT_BEGIN,	/* i915_request_wait_begin */
	GPULAT_EV_I915_WAIT_END,	/* i915_request_wait_end */
	/* xe (drm_sched driver; 6.8+) */
	GPULAT_EV_XE_JOB_CREATE,	/* xe_sched_job_create (exec ioctl) */
	GPULAT_EV_XE_JOB_EXEC,		/* xe_sched_job_exec (drm_sched run_job) */
	GPULAT_EV_XE_JOB_RUN,		/* xe_sched_job_run (to the GuC) */
	GPULAT_EV_XE_JOB_FREE,
	GPULAT_EV_XE_JOB_TIMEDOUT,	/* the job hung */
	GPULAT_EV_XE_JOB_SET_ERROR,
	GPULAT_EV_XE_JOB_BAN,
	GPULAT_EV_XE_HW_FENCE_CREATE,
	GPULAT_EV_XE_HW_FENCE_SIGNAL,
	GPULAT_EV_XE_HW_FENCE_TRY_SIGNAL,
	GPULAT_EV_XE_EXEC_QUEUE,	/* xe_exec_queue_* (value: which, GPULAT_XEQ_*) */
	/* true hardware times (lib/track-hw.c) */
	GPULAT_EV_MSM_FLUSH,	/* msm_gpu_submit_flush: id = ringid, ticks at flush */
	GPULAT_EV_MSM_RETIRED,	/* msm_gpu_submit_retired: ticks, ticks_end */
	GPULAT_EV_V3D_SUBMIT,	/* v3d_submit_cl/_tfu/_csd: the job goes on the hardware */
	GPULAT_EV_V3D_IRQ,	/* v3d_{bcl,rcl,tfu,csd}_irq: it ended */
	GPULAT_EV__GPU_LAST = GPULAT_EV_V3D_IRQ,	/* QUEUE..here: GPU events */
	GPULAT_EV_IRQ_ENTRY,	/* irq:irq_handler_entry */
	GPULAT_EV_IRQ_EXIT,
	GPULAT_EV_SOFTIRQ_ENTRY,
	GPULAT_EV_SOFTIRQ_EXIT,
	GPULAT_EV_SCHED_SWITCH,
	GPULAT_EV_SCHED_WAKING,
	GPULAT_EV_CPU_FREQ,	/* power:cpu_frequency */
	/* display (drm core, drivers/gpu/drm/drm_trace.h); not context events:
	 * decoded even when gpulat_binding_set_context(b, false) */
	GPULAT_EV_VBLANK,		/* drm:drm_vblank_event */
	GPULAT_EV_VBLANK_QUEUED,	/* drm:drm_vblank_event_queued */
	GPULAT_EV_VBLANK_DELIVERED,	/* drm:drm_vblank_event_delivered */
	GPULAT_EV__COUNT,
};

const char *gpulat_kind_name(enum gpulat_kind kind);
/* events of this kind open or complete jobs (drm_sched, amdgpu, i915 requests) */
bool gpulat_kind_makes_jobs(enum gpulat_kind kind);
/* the tracker links jobs from events of this kind (the others it ignores) */
bool gpulat_kind_linked(enum gpulat_kind kind);
/* GPU events (GPULAT_EV_QUEUE .. GPULAT_EV__GPU_LAST): not context, not display */
bool gpulat_kind_is_gpu(enum gpulat_kind kind);
/*
 * The @i-th event of every era and driver the binding knows (lib/bind.c's one
 * table): its system, name and kind. Walk i = 0, 1, ... until it returns
 * -ENOENT; a front end that hooks events by name reads them here.
 */
int gpulat_event_def(unsigned int i, const char **sys, const char **name, enum gpulat_kind *kind);

/* Which optional members of struct gpulat_event are valid. */
enum {
	GPULAT_EVF_ID		= 1 << 0,	/* id */
	GPULAT_EVF_FENCE_PTR	= 1 << 1,	/* fence_ptr */
	GPULAT_EVF_FENCE	= 1 << 2,	/* ctx, seqno */
	GPULAT_EVF_DEP_PTR	= 1 << 3,	/* dep_ptr */
	GPULAT_EVF_DEP		= 1 << 4,	/* dep_ctx, dep_seqno */
	GPULAT_EVF_CLIENT	= 1 << 5,	/* client_id */
	GPULAT_EVF_COUNTS	= 1 << 6,	/* job_count, hw_job_count */
	GPULAT_EVF_FENCE32	= 1 << 7,	/* ctx/seqno are u32-truncated (dma_fence) */
	GPULAT_EVF_HARDIRQ	= 1 << 8,	/* common_flags: in hard IRQ */
	GPULAT_EVF_SOFTIRQ	= 1 << 9,
	GPULAT_EVF_RING_PTR	= 1 << 10,	/* ring is "0x..." of a const char * */
	GPULAT_EVF_GUC		= 1 << 11,	/* guc_id (xe) */
	GPULAT_EVF_TICKS	= 1 << 12,	/* ticks, ticks_end (msm) */
};

/* gpulat_event.value of GPULAT_EV_XE_EXEC_QUEUE: the xe_exec_queue_* event */
enum gpulat_xe_queue_ev {
	GPULAT_XEQ_OTHER = 0,
	GPULAT_XEQ_CREATE,
	GPULAT_XEQ_SUBMIT,
	GPULAT_XEQ_KILL,
	GPULAT_XEQ_RESET,
	GPULAT_XEQ_DESTROY,
	/* display events (bits kept apart from the GPU ones above) */
	GPULAT_EVF_VBL_TIME	= 1 << 20,	/* vbl_time: drm_vblank_event `time` */
	GPULAT_EVF_VBL_HIGH_PREC = 1 << 21,	/* high_prec was true */
	GPULAT_EVF_VBL_FILE	= 1 << 22,	/* vbl_file: the client (struct drm_file *;
						 * the oldest kernels' `pid` field) */
};

/**
 * struct gpulat_event - one record, era-independent
 *
 * Strings are interned by the binding and stay valid until gpulat_binding_free().
 * @dev is "" when the event carries no device (before 6.17). @ring is NULL when the
 * event carries no ring (done events, dependencies); it is "0x%llx" of the name
 * pointer in the const char * eras (<= 5.18), see GPULAT_EVF_RING_PTR.
 */
struct gpulat_event {
	uint64_t	ts;
	int		cpu;
	int		pid;
	enum gpulat_kind kind;
	unsigned int	flags;		/* GPULAT_EVF_* */
	const char	*dev;
	const char	*ring;
	const char	*comm;		/* of pid, resolved for QUEUE/AMD_CS/wait events */
	const char	*driver;	/* dma_fence driver */
	const char	*timeline;	/* dma_fence / amdgpu timeline */
	uint64_t	id;		/* drm_sched job id (<= 6.16), amdgpu sched_job id */
	uint64_t	fence_ptr;	/* finished fence pointer (<= 6.16) */
	uint64_t	ctx;		/* fence context: the job's finished fence, or the */
	uint64_t	seqno;		/* dma_fence event's fence */
	uint64_t	dep_ptr;
	uint64_t	dep_ctx;
	uint64_t	dep_seqno;
	uint64_t	client_id;
	uint32_t	job_count;
	int32_t		hw_job_count;
	/* irq / sched / power events (GPULAT_EV_IRQ_ENTRY ... GPULAT_EV_CPU_FREQ) */
	int		irq;		/* irq number or softirq vector */
	int		prev_pid;	/* sched_switch */
	int		next_pid;	/* sched_switch, sched_waking target */
	long		prev_state;
	uint64_t	value;		/* cpu_frequency state (kHz); its cpu_id in @irq;
					 * i915: flags / prio / completed; xe: fence error;
					 * xe exec queue: GPULAT_XEQ_* */
	uint32_t	guc_id;		/* xe: exec queue (GPULAT_EVF_GUC) */
	uint32_t	lrc_seqno;	/* xe: per-LRC hardware seqno */
	/* several traces merged (gpulat_reader): index of the file, 0 otherwise.
	 * Jobs never link across files (keys include it). */
	int		file;
	/*
	 * display events (GPULAT_EV_VBLANK*): @crtc is the pipe index, @vbl_seq
	 * the 32-bit vblank count (the requested one for _queued, the one sent
	 * for _delivered), @vbl_time the hardware vblank time in ns of
	 * CLOCK_MONOTONIC (drm_vblank_event `time`, 4.15+; GPULAT_EVF_VBL_TIME),
	 * @vbl_file the struct drm_file pointer of the client.
	 */
	int		crtc;
	uint32_t	vbl_seq;
	int64_t		vbl_time;
	uint64_t	vbl_file;
	/* a host's reference to the record (gpulat_session_push()); the
	 * tracker copies it into gpulat_job.ref[stage]. NULL if unused. */
	void		*ref;
	/* msm: the GPU's always-on counter (19.2 MHz) at the flush, or at the
	 * start and end of the submit (GPULAT_EVF_TICKS; ticks_end 0 at flush) */
	uint64_t	ticks;
	uint64_t	ticks_end;
};

/* ------------------------------------------------------------------------ */
/* Binding: tep formats -> normalized events                                  */

struct gpulat_binding;

/* Called once per problem (unknown layout, missing field), with a one-line message. */
typedef void (*gpulat_warn_fn)(const char *msg, void *data);

/**
 * gpulat_binding_new - find every supported event of every era in @tep
 * @tep: the trace's handle; must outlive the binding
 *
 * Fields are found by name in the trace's own format sections and cached; nothing
 * depends on fixed offsets. An event whose layout lacks a required field is not
 * bound, and one warning names the event and the field. Warnings raised here are
 * kept and delivered when gpulat_binding_set_warn() installs a callback.
 *
 * Return: a binding, or NULL with errno set.
 */
struct gpulat_binding *gpulat_binding_new(struct tep_handle *tep);
void gpulat_binding_free(struct gpulat_binding *b);

void gpulat_binding_set_warn(struct gpulat_binding *b, gpulat_warn_fn fn, void *data);
enum gpulat_era gpulat_binding_era(const struct gpulat_binding *b);
/* true when @kind has at least one bound event in this trace */
bool gpulat_binding_has(const struct gpulat_binding *b, enum gpulat_kind kind);
/* kind of the event with this id, GPULAT_EV_NONE if not ours (for KernelShark) */
enum gpulat_kind gpulat_binding_kind_of(const struct gpulat_binding *b, int event_id);
/* number of layout problems warned about */
unsigned int gpulat_binding_problems(const struct gpulat_binding *b);

/**
 * gpulat_binding_decode - turn one record into a normalized event
 * @b: binding
 * @rec: the record (rec->ts, rec->cpu, rec->data are used)
 * @ev: filled on success
 *
 * Return: 1 when @rec is a bound event and @ev was filled, 0 when the record is
 * not one of ours, -1 when it is ours but damaged (string out of the record,
 * short record); a damaged record is counted and warned about once per event.
 */
int gpulat_binding_decode(struct gpulat_binding *b, struct tep_record *rec,
			  struct gpulat_event *ev);

/* Decode the irq/sched/power context kinds (default) or skip them (faster). */
void gpulat_binding_set_context(struct gpulat_binding *b, bool on);

/* Intern a string in the binding's table (same pointer for equal strings). */
const char *gpulat_binding_intern(struct gpulat_binding *b, const char *s);

/* "system" and "event" of a bound event id (0), -ENOENT if not ours */
int gpulat_binding_event_name(const struct gpulat_binding *b, int event_id,
			      const char **sys, const char **name);

/* ------------------------------------------------------------------------ */
/* Jobs and the tracker                                                      */

enum gpulat_stage {
	GPULAT_ST_QUEUE = 0,
	GPULAT_ST_RUN,
	GPULAT_ST_DONE,
	GPULAT_ST_SIGNAL,	/* dma_fence_signaled of the finished fence */
	GPULAT_ST__COUNT,
};

enum gpulat_job_status {
	GPULAT_JOB_COMPLETE = 0,
	GPULAT_JOB_INCOMPLETE,	/* no done event by the end of the trace */
	GPULAT_JOB_LOST,	/* a stage is missing and events were lost on a CPU */
	GPULAT_JOB_ORPHAN,	/* a stage is missing without lost events (e.g. done
				 * without queue: the job started before the trace) */
};

struct gpulat_dep {
	uint64_t	ctx;		/* fence waited for */
	uint64_t	seqno;
	uint64_t	ptr;		/* fence pointer (<= 6.16), 0 if unknown */
	const char	*dev;		/* producer's ring when the fence is a traced job */
	const char	*ring;
	uint64_t	job_seq;	/* producer's gpulat_job.seq, GPULAT_NONE if unknown */
	uint64_t	signal_ts;	/* producer's done_ts, GPULAT_NONE if unknown */
	bool		unschedulable;	/* the job was blocked on it (6.17+ event; not
					 * when its signal was traced before the event) */
	/* the producer's scheduled fence (6.17+: its finished context - 1),
	 * signalled when the producer runs: @signal_ts is its run */
	bool		scheduled;
};

/**
 * struct gpulat_job - one GPU job, passed to the job callback
 *
 * Stage timestamps are GPULAT_NONE when the stage was not seen (cpu -1). Derived
 * metrics follow docs/truth-format.md and are GPULAT_NONE when not computable.
 * Without a queue event @pid is -1 and @comm is ""; a job whose ring is unknown
 * (a done event only, before 6.17) has @ring "?". Before 5.19 the trace names a
 * ring by an address (@ring_ptr); @ring is then the real name the drm_sched
 * dma_fence timelines of the ring's jobs give, or the address without them. On <= 6.16 @ctx/@seqno come
 * from the dma_fence events (fence init before the queue, scheduled-fence signal
 * after the run, or the finished-fence signal after the done on the same CPU) and
 * stay GPULAT_NONE without them.
 * The structure, its strings and @deps are only valid during the callback (the
 * strings until gpulat_tracker_free()).
 */
struct gpulat_job {
	uint64_t	seq;		/* order of first sight, 0-based */
	const char	*dev;		/* "" before 6.17 */
	const char	*ring;
	const char	*comm;		/* submitter (queue event) */
	int		pid;
	uint64_t	id;		/* GPULAT_NONE on 6.17+ */
	uint64_t	fence_ptr;	/* 0 on 6.17+ */
	uint64_t	ctx;		/* finished fence, GPULAT_NONE if unknown */
	uint64_t	seqno;
	uint64_t	client_id;	/* GPULAT_NONE before 6.17 */
	uint64_t	ts[GPULAT_ST__COUNT];
	int		cpu[GPULAT_ST__COUNT];
	uint32_t	job_count;	/* at queue */
	int32_t		hw_job_count;	/* at run */
	uint64_t	start_ts;
	uint64_t	wait;
	uint64_t	hw_queue;
	uint64_t	exec;
	uint64_t	total;
	uint64_t	dep_wait;
	enum gpulat_job_status status;
	unsigned int	lost_stages;	/* 1 << enum gpulat_stage */
	unsigned int	n_deps;
	const struct gpulat_dep *deps;
	int		file;		/* gpulat_event.file of its events */
	/* the same as @ring (kept for older callers) */
	const char	*ring_name;
	/* gpulat_event.ref of the event of each stage (NULL: none or not seen) */
	void		*ref[GPULAT_ST__COUNT];
	/* <= 5.18: the "0x..." address label the trace holds for the ring,
	 * NULL otherwise (gpulat-ring.h) */
	const char	*ring_ptr;
	unsigned int	timing;		/* GPULAT_TIMING_*: how the stage times were got */
	unsigned int	hang;		/* GPULAT_HANG_*: driver hang reports (xe) */
	/* amdgpu kernel work (gpulat_kernel_job_name() of the queue event's
	 * client_id): "VM_UPDATE", "TTM_COPY_BUFFER", ...; NULL for a client's job */
	const char	*kernel_job;
	/*
	 * <= 6.16: which job of its trace file with this fence handle
	 * (gpulat_ptr_handle() of @fence_ptr) it is, 1-based in order of first
	 * sight; 0 when not counted. Kernels reuse a freed fence's slab
	 * address for the next job, and 16-bit handles of different pointers
	 * collide: the pair names one job (gpulat_job_identity(), issue 16).
	 */
	uint32_t ptr_gen;
};

/*
 * gpulat_job.timing. Without a flag a stage time is the CPU-side event of
 * that stage, and start_ts is inferred from the ring FIFO (max(run, previous
 * done)), as gpuvis and Perfetto do.
 */
#define GPULAT_TIMING_START_HW	(1u << 0)	/* start_ts measured: i915_request_in */
#define GPULAT_TIMING_DONE_LATE	(1u << 1)	/* done_ts from i915_request_retire:
						 * an upper bound, not the completion */
#define GPULAT_TIMING_NO_RUN	(1u << 2)	/* the driver traces no run stage
						 * (i915 without LOW_LEVEL): wait unknown */
/* stages from driver events, not drm_sched: i915 requests, amdgpu-only traces */
#define GPULAT_TIMING_DRIVER	(1u << 3)
/* exec measured by the GPU's own clock (msm start/end ticks), not done - start */
#define GPULAT_TIMING_EXEC_HW	(1u << 4)

/* "measured" or "inferred" (start_ts), "exact", "late" (done_ts) */
const char *gpulat_timing_start(const struct gpulat_job *job);
/* "measured" (GPULAT_TIMING_EXEC_HW) or "derived" (done_ts - start_ts) */
const char *gpulat_timing_exec(const struct gpulat_job *job);
const char *gpulat_timing_done(const struct gpulat_job *job);

/* gpulat_job.hang: what the driver reported about the job (xe, 6.8+) */
#define GPULAT_HANG_TIMEDOUT	(1u << 0)	/* xe_sched_job_timedout */
#define GPULAT_HANG_ERROR	(1u << 1)	/* xe_sched_job_set_error */
#define GPULAT_HANG_BANNED	(1u << 2)	/* xe_sched_job_ban */
#define GPULAT_HANG__COUNT	3

/*
 * amdgpu's kernel-internal jobs (6.17+: AMDGPU_KERNEL_JOB_ID_* of amdgpu_job.h,
 * client_id values counting down from U64_MAX): the kind of kernel work, e.g.
 * "VM_UPDATE" for U64_MAX; "kernel" for an id near U64_MAX this table does
 * not name; NULL for a DRM client's id.
 */
const char *gpulat_kernel_job_name(uint64_t client_id);

/* "timedout", "error", "banned" for bit i of gpulat_job.hang, NULL beyond */
const char *gpulat_hang_name(unsigned int i);

struct gpulat_tracker;

struct gpulat_tracker_ops {
	/* a job is final: complete, or flushed at the end / on overflow */
	void (*job)(const struct gpulat_job *job, void *data);
	/* optional: one-line warnings (cap hit, inconsistent input) */
	gpulat_warn_fn warn;
};

struct gpulat_tracker_counters {
	uint64_t	jobs;		/* emitted through ops->job */
	uint64_t	open;		/* currently in flight */
	uint64_t	open_peak;
	uint64_t	orphan_done;	/* done events matching no open job */
	uint64_t	orphan_run;	/* run events matching no queued job */
	uint64_t	lost_events;	/* sum of missed-event counts */
	uint64_t	dropped_open;	/* open jobs evicted because max_open was hit */
	uint64_t	disordered;	/* jobs whose stages went back in time (ORPHAN) */
};

struct gpulat_tracker *gpulat_tracker_new(const struct gpulat_tracker_ops *ops, void *data);
void gpulat_tracker_free(struct gpulat_tracker *t);

/* cap on jobs in flight (default 1 << 20); evictions are counted and warned */
void gpulat_tracker_set_max_open(struct gpulat_tracker *t, size_t max_open);

/* whether finished-fence dma_fence_signaled is in the trace (waits for it if so) */
void gpulat_tracker_set_signal_expected(struct gpulat_tracker *t, bool expected);

/**
 * gpulat_tracker_feed - feed one event, in time order across all CPUs
 *
 * The event's strings must stay valid and unchanged while @t lives, as the
 * binding's interned strings (and the text reader's) do: the tracker knows a
 * driver, device or ring string it has seen before by its address, not by
 * comparing it again. A host that builds events itself interns its strings.
 *
 * Return: 0, or a negative errno on allocation failure.
 */
int gpulat_tracker_feed(struct gpulat_tracker *t, const struct gpulat_event *ev);

/* events were lost on @cpu just before @ts (ring-buffer overrun); @count may be 0 = unknown */
void gpulat_tracker_lost(struct gpulat_tracker *t, int cpu, uint64_t ts, uint64_t count);

/* end of trace at @end_ts: every open job is emitted (incomplete / orphan / lost) */
void gpulat_tracker_flush(struct gpulat_tracker *t, uint64_t end_ts);

void gpulat_tracker_counters(const struct gpulat_tracker *t,
			     struct gpulat_tracker_counters *c);

/*
 * The job the last gpulat_tracker_feed() belonged to: after a queue or run
 * event the open job so far, after a done event the job as emitted (or, while
 * it waits for its finished-fence signal, with its done stage set). A copy
 * valid until the next call into the tracker (deps == NULL); NULL when the
 * event belonged to no job. For front ends that print event by event.
 */
#define GPULAT_HAVE_TRACKER_LAST_JOB 1
const struct gpulat_job *gpulat_tracker_last_job(const struct gpulat_tracker *t);

/*
 * The era of the events to come (gpulat_binding_era()). It decides whether a
 * run stage is expected (pre-5.7 has none). Default GPULAT_ERA_NONE: infer it,
 * a run stage is expected once any run event was fed.
 */
void gpulat_tracker_set_era(struct gpulat_tracker *t, enum gpulat_era era);

/*
 * Events were lost on @cpu between @from_ts (last record seen on that cpu, 0 if
 * none) and @to_ts (first record after the gap). More precise than
 * gpulat_tracker_lost(), which takes the window start from the last event fed
 * on @cpu.
 */
void gpulat_tracker_lost_range(struct gpulat_tracker *t, int cpu, uint64_t from_ts,
			       uint64_t to_ts, uint64_t count);

/*
 * How long (trace time) a done job waits for its finished-fence signal when
 * signals are expected; default 10 ms. 0 = emit at done, signal attaches only
 * when it arrived earlier.
 */
void gpulat_tracker_set_linger(struct gpulat_tracker *t, uint64_t linger_ns);

/*
 * The name of ring (@dev, @ring) of the current file as known so far: a "0x..."
 * address label (<= 5.18) gets its real name once a drm_sched dma_fence of one
 * of its jobs was fed (usually the fence init just before the first queue).
 * Returns @ring itself otherwise. For front ends that print event by event.
 */
const char *gpulat_tracker_ring_name(struct gpulat_tracker *t, const char *dev,
				     const char *ring);

/* "queue", "run", "done", "signal" (truth lost_stages spelling) */
const char *gpulat_stage_name(enum gpulat_stage st);
/* "complete", "incomplete", "lost", "orphan" */
const char *gpulat_status_name(enum gpulat_job_status s);

/* ------------------------------------------------------------------------ */
/* Statistics                                                                 */

enum gpulat_metric {
	GPULAT_M_WAIT = 0,
	GPULAT_M_HW_QUEUE,
	GPULAT_M_EXEC,
	GPULAT_M_TOTAL,
	GPULAT_M_DEP_WAIT,
	GPULAT_M__COUNT,
};

const char *gpulat_metric_name(enum gpulat_metric m);	/* "wait", "hw_queue", ... */
/* a job's value of @m (ns), GPULAT_NONE when it has none */
uint64_t gpulat_job_metric(const struct gpulat_job *job, enum gpulat_metric m);

/*
 * Quantiles are nearest-rank (docs/truth-format.md). They are exact while a group
 * holds at most GPULAT_EXACT_MAX values of a metric and the stats set's budget of
 * GPULAT_EXACT_BUDGET exact values lasts; above that the values go into a
 * log-linear histogram and each quantile is within GPULAT_REL_ERROR of the
 * exact one (relative). @exact says which. Past the budget, a metric that
 * needs room for more goes to a histogram: with GPULAT_FINE_FROM values or
 * more to that one, with fewer to a coarse one of GPULAT_COARSE_ERROR (16
 * buckets per power of two, 2-4 bytes per bucket used), for the rest of the
 * trace, if it is a process's or client's (a ring's or device's stays exact
 * below GPULAT_FINE_FROM: they are few); one with fewer than
 * GPULAT_EXACT_KEEP values always stays exact, and so does one whose values
 * are all the same. So
 * the values of many small groups (10^4 processes) take memory bounded by
 * the buckets their values fill, not by the length of the trace. @exact is
 * false for either histogram: an approximate quantile is within
 * GPULAT_COARSE_ERROR of the exact one, within GPULAT_REL_ERROR where the
 * budget was not spent or the metric had GPULAT_FINE_FROM values by then.
 */
/*
 * 8192 u64 = 64 KiB, about the 58 KiB of the histogram a group switches to
 * (7424 u64 buckets): an exact group and metric never costs much more than
 * a histogram one, with 5 metrics in every ring, process, client and device.
 */
#define GPULAT_EXACT_MAX	8192
#define GPULAT_REL_ERROR	(1.0 / 128)
/*
 * Exact-value slots of one stats set, all groups and metrics (2 MiB of 32-bit
 * values): with many groups (32 rings x processes x 5 metrics) the exact
 * values, not the jobs in flight, made memory grow with the trace.
 */
#define GPULAT_EXACT_BUDGET	(1u << 19)
/* the first 16 values are a group's rows (stats.c): exact whatever the budget */
#define GPULAT_EXACT_KEEP	16
/*
 * 1024 exact values (4-8 KiB) cost about what the fine histogram does
 * (1 KiB a power of two seen): from there a metric past the budget keeps
 * 1/128, below it the coarse histogram bounds 10^4 small groups
 */
#define GPULAT_FINE_FROM	1024
#define GPULAT_COARSE_ERROR	(1.0 / 16)

struct gpulat_summary {
	uint64_t	n;
	uint64_t	min;
	uint64_t	max;
	uint64_t	mean;
	double		stddev;
	uint64_t	p50;
	uint64_t	p90;
	uint64_t	p99;
	uint64_t	p999;
	bool		exact;
	/* where the max happened: the job's done (or last seen) ts and cpu */
	uint64_t	max_ts;
	int		max_cpu;
	uint64_t	max_job_seq;
};

#define GPULAT_HIST_BUCKETS	64
/* bucket i counts values v with 2^(i-1) <= v < 2^i ns (bucket 0: v == 0) */
struct gpulat_hist {
	uint64_t	bucket[GPULAT_HIST_BUCKETS];
};

/* smallest value counted in log2 bucket @i (0 for bucket 0, else 2^(i-1)) */
uint64_t gpulat_hist_bucket_low(unsigned int i);

enum gpulat_group_kind {
	GPULAT_G_RING = 0,	/* (dev, ring) */
	GPULAT_G_PROCESS,	/* (pid, comm) of the queue event */
	GPULAT_G_CLIENT,	/* client_id (6.17+) */
	GPULAT_G_DEVICE,	/* dev */
	GPULAT_G__COUNT,
};

struct gpulat_group {
	enum gpulat_group_kind kind;
	const char	*dev;
	const char	*ring;
	int		pid;
	const char	*comm;
	uint64_t	client_id;
	uint64_t	jobs;
	uint64_t	complete;
	uint64_t	incomplete;
	uint64_t	lost;		/* LOST + ORPHAN */
	/*
	 * busy and depth: in a session's statistics (gpulat_session_stats())
	 * for rings and devices only, as its report shows them; 0 for processes
	 * and clients (10^4 of each: a busy entry and two depth keys per job in
	 * 2 x 10^4 groups). A set of one's own (gpulat_stats_new()) has them
	 * for every group.
	 */
	uint64_t	busy_ns;	/* union of [start_ts, done_ts] */
	double		busy_pct;	/* of the trace span */
	unsigned int	max_depth;	/* queued but not done at once */
	double		avg_depth;	/* time-weighted over the span */
	/*
	 * The log2 histograms are not here (gpulat_group_hist()): 2.5 KB per
	 * group, 10^4 processes and clients (libgpulat.so.1; .so.0 had them
	 * inline as h[GPULAT_M__COUNT]).
	 */
	struct gpulat_summary m[GPULAT_M__COUNT];
	int		file;		/* rings: gpulat_job.file (several traces) */
	const char	*ring_name;	/* rings: the same as @ring (after finish) */
	const char	*ring_ptr;	/* rings: gpulat_job.ring_ptr (<= 5.18), or NULL */
	uint64_t	idle_gaps;	/* processes: gaps that were idleness, not stalls */
	/* jobs the driver reported hung (gpulat_job.hang != 0: xe timedout,
	 * error, ban) */
	uint64_t hangs;
	/* jobs whose start_ts was measured (GPULAT_TIMING_START_HW), the
	 * others' is inferred; jobs whose done_ts is late (an upper bound) */
	uint64_t start_measured;
	uint64_t done_late;
	uint64_t exec_measured; /* GPULAT_TIMING_EXEC_HW: the GPU's clock */
	/* rings: the newest done_ts of its jobs, GPULAT_NONE when none was done */
	uint64_t last_done_ts;
	/*
	 * rings that stopped completing (a hang, issue 16): jobs still pending
	 * at the end of the span and nothing done for longer than the stall
	 * threshold; this long (from the last done, or the span's start when
	 * none was), else 0
	 */
	uint64_t stopped_ns;
};

/* A job kept for the worst-jobs list (a copy that outlives the callback). */
struct gpulat_worst {
	struct gpulat_job job;		/* deps == NULL, n_deps kept */
	const char	*dep_ring;	/* first dependency's ring, if any */
	uint64_t	dep_wait;
};

enum gpulat_stall_kind {
	GPULAT_STALL_SUBMIT_GAP = 0,	/* a process submitted nothing for > threshold */
	GPULAT_STALL_RING_IDLE,		/* a ring idle between two jobs: previous done ->
					 * next start (union of busy intervals) */
};

struct gpulat_stall {
	enum gpulat_stall_kind kind;
	const char	*dev;
	const char	*ring;
	int		pid;
	const char	*comm;
	uint64_t	start_ts;	/* previous submission / previous done */
	uint64_t	end_ts;		/* next submission / next start */
	int		start_cpu;
	int		end_cpu;
	/*
	 * The job that ended the gap (submit gap: the submission at end_ts;
	 * ring idle: the job that started at end_ts), what
	 * gpulat_job_identity() reads of it: gpulat_stall_identity() names it.
	 */
	const char	*job_ring;	/* before 6.17: its ring */
	uint64_t	job_ctx;	/* finished fence, GPULAT_NONE: unknown */
	uint64_t	job_seqno;
	uint64_t	job_id;		/* before 6.17, GPULAT_NONE: unknown */
	int		job_handle;	/* gpulat_ptr_handle() of its fence, -1: none */
	uint32_t job_ptr_gen; /* its gpulat_job.ptr_gen (0: not counted) */
};

/* waiting ring -> producing ring */
struct gpulat_depwait {
	const char	*dev;
	const char	*ring;
	const char	*dep_dev;
	const char	*dep_ring;	/* NULL: fence of no traced job */
	uint64_t	count;
	uint64_t	total_ns;
	uint64_t	max_ns;
	uint64_t	max_ts;		/* queue ts of the job that waited longest */
};

struct gpulat_stats_opts {
	uint64_t	stall_threshold_ns;	/* default 16666667 (one 60 Hz frame) */
	unsigned int	top_n;			/* worst jobs kept, default 10 */
	enum gpulat_metric worst_by;		/* default GPULAT_M_TOTAL */
};

struct gpulat_stats;

void gpulat_stats_opts_init(struct gpulat_stats_opts *o);
struct gpulat_stats *gpulat_stats_new(const struct gpulat_stats_opts *o);
void gpulat_stats_free(struct gpulat_stats *s);

/* every job from the tracker callback; jobs may arrive in any order */
int gpulat_stats_add(struct gpulat_stats *s, const struct gpulat_job *job);

/* the threshold learnt while reading (display refresh); -EBUSY once stalls were looked for */
int gpulat_stats_set_stall_threshold(struct gpulat_stats *s, uint64_t ns);

/* first and last timestamp of ANY event in the trace (for busy % and depth) */
void gpulat_stats_set_span(struct gpulat_stats *s, uint64_t first_ts, uint64_t last_ts);

/* computes quantiles, busy %, sorts groups; call once after the last add */
int gpulat_stats_finish(struct gpulat_stats *s);

size_t gpulat_stats_ngroups(const struct gpulat_stats *s, enum gpulat_group_kind kind);
/* jobs in the "(others)" group of @kind: more than *@max groups (a hostile trace) */
uint64_t gpulat_stats_groups_dropped(const struct gpulat_stats *s, enum gpulat_group_kind kind,
				     size_t *max);
const struct gpulat_group *gpulat_stats_group(const struct gpulat_stats *s,
					      enum gpulat_group_kind kind, size_t i);
/*
 * the log2 histogram of metric @m of @g (from gpulat_stats_group(), after
 * gpulat_stats_finish()) into @h; 0, or -EINVAL for a bad @m
 */
int gpulat_group_hist(const struct gpulat_group *g, enum gpulat_metric m, struct gpulat_hist *h);
size_t gpulat_stats_nworst(const struct gpulat_stats *s);
const struct gpulat_worst *gpulat_stats_worst(const struct gpulat_stats *s, size_t i);
size_t gpulat_stats_nstalls(const struct gpulat_stats *s);
/* stalls found, including those beyond the 4096 longest kept */
uint64_t gpulat_stats_stalls_total(const struct gpulat_stats *s);
/* submit gaps > threshold of processes without a steady pace before (not stalls) */
uint64_t gpulat_stats_idle_gaps(const struct gpulat_stats *s);
const struct gpulat_stall *gpulat_stats_stall(const struct gpulat_stats *s, size_t i);
size_t gpulat_stats_ndepwaits(const struct gpulat_stats *s);
const struct gpulat_depwait *gpulat_stats_depwait(const struct gpulat_stats *s, size_t i);

/* Format a duration for humans: "812ns", "12.4us", "3.21ms", "1.500s". */
char *gpulat_fmt_duration(char *buf, size_t len, uint64_t ns);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_H */
