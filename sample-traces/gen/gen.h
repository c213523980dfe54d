/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpu-trace-gen: writes real trace.dat files from a simulated GPU scheduler
 * scenario, plus the ground-truth file (docs/truth-format.md).
 */
#ifndef GPU_TRACE_GEN_H
#define GPU_TRACE_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define GEN_VERSION	"gpu-trace-gen 0.1"
#define GEN_NONE	UINT64_MAX	/* "no timestamp" */
#define GEN_MAX_CPUS	64 /* bench shapes (shapes.c): 64 CPUs */
#define GEN_MAX_DEVS	2
#define GEN_MAX_RINGS	32 /* a ring mask is an unsigned int */
#define GEN_MAX_PROCS	8
#define GEN_MAX_DEPS	2
#define GEN_MAX_LOST	2
#define GEN_MAX_CRTCS	2
#define GEN_PAGE_SIZE	4096

#define US(x)	((uint64_t)(x) * 1000ULL)
#define MS(x)	((uint64_t)(x) * 1000000ULL)

/* ------------------------------------------------------------------ */
/* scenario model (scenarios.c)                                        */

enum gen_era {
	ERA_PRE57,		/* 4.20-5.6: no run event, const char *name */
	ERA_57,			/* 5.7-5.18: + drm_run_job, const char *name */
	ERA_519,		/* 5.19-6.16: __data_loc name */
	ERA_617,		/* 6.17+: stable uAPI events */
	ERA_I915,		/* i915 requests, no gpu_scheduler (lib/track-i915.c) */
};

struct gen_dev_cfg {
	const char	*name;		/* dev_name(), 6.17+ only */
	int		irq_cpu;	/* CPU taking the completion interrupt */
	int		irq;		/* irq number */
	int		sched_cpu;	/* CPU of the scheduler workers */
};

struct gen_ring_cfg {
	const char	*name;
	int		dev;
	int		credits;	/* max jobs on the hardware */
	uint64_t	dur_min;	/* exec duration, uniform in [min, max] */
	uint64_t	dur_max;
	int		dep_ring;	/* -1 or ring whose latest job we depend on */
	int		dep_pct;	/* probability of that dependency */
	uint64_t	hang_at;	/* 0, or the job run after it never ends */
	/* 6.17+: the dependency is on the producer's scheduled fence (context
	 * - 1, signalled when it runs), as amdgpu's scheduled dependencies */
	int		dep_sched;
};

struct gen_proc_cfg {
	int		pid;
	const char	*comm;
	int		cpu;
	uint64_t	period;		/* submission period */
	uint64_t	jitter;		/* +- uniform jitter */
	int		burst;		/* jobs per ring per submission */
	unsigned int	rings;		/* bit mask of rings submitted to */
	uint64_t	client_id;
	int		gap_every;	/* every N submissions ... */
	uint64_t	gap_min;	/* ... pause this long (stutter) */
	uint64_t	gap_max;
	int		wait_pct;	/* % of submissions waited on */
	int		max_inflight;	/* throttle: wait when more in flight */
	uint64_t	start;		/* first submission */
	/*
	 * frame loop (frames.c): crtc = 1 + CRTC index, 0 = timer loop. Woken
	 * by its vblank event, the process works cpu_work, submits its jobs
	 * and asks for the next vblank (drm_vblank_event_queued, target =
	 * count + 1, as DRM_VBLANK_RELATIVE | DRM_VBLANK_EVENT does).
	 */
	int		crtc;
	uint64_t	drm_file;	/* struct drm_file * of its vblank events */
	uint64_t	cpu_work;
	int		late_every;	/* every Nth frame the CPU work is ... */
	uint64_t	late_work;	/* ... this long (late submission) */
	int		long_every;	/* every Nth frame its first job runs ... */
	uint64_t	long_dur;	/* ... this long (long GPU job) */
	/*
	 * page-flip client (a compositor): no drm_vblank_event_queued; after
	 * its jobs it commits a flip (not traced), which the driver completes
	 * at the first vblank whose hardware instant is after the jobs' done
	 * (drm_vblank_event_delivered, the count of that vblank); the flip
	 * event wakes it for the next frame
	 */
	bool		flip;
	/*
	 * amdgpu kernel work (6.17+): no amdgpu_cs_ioctl, client_id is an
	 * AMDGPU_KERNEL_JOB_ID_* of amdgpu_job.h and this its name (truth)
	 */
	const char	*kernel_job;
};

/* a display pipe whose vblanks drm_crtc_handle_vblank() would report */
struct gen_crtc_cfg {
	uint64_t	period;		/* refresh interval (VRR: the longest) */
	uint64_t	vrr_min;	/* VRR: intervals uniform in [vrr_min, period] */
	int		irq_cpu;	/* CPU of the vblank interrupt */
	uint64_t	irq_min;	/* the handler runs this much after the */
	uint64_t	irq_max;	/* hardware vblank */
};

struct gen_lost_cfg {
	int		cpu;
	uint64_t	start;		/* relative to the trace start */
	uint64_t	len;
};

/* diagnosis scenarios (diag.c): one injected CPU-side cause */
enum gen_diag_kind { DIAG_NONE = 0, DIAG_CPU_FREQ, DIAG_IRQ_STORM, DIAG_CPU_HOG };

struct gen_diag_cfg {
	int		kind;		/* enum gen_diag_kind */
	int		cpu;		/* the CPU it happens on */
	int		proc;		/* the process it affects (cpu_freq, cpu_hog) */
	uint64_t	work;		/* cpu_freq: CPU work per submission at top speed */
	int		nwin;
	struct { uint64_t start, len; } win[4];	/* relative to the trace start */
};

struct gen_scenario {
	const char	*name;
	const char	*desc;
	enum gen_era	era;
	bool		dma_fence;
	bool		amdgpu;
	/*
	 * amdgpu only: no gpu_scheduler events or formats at all, as
	 * `trace-cmd record -e amdgpu -e dma_fence` gives. A reader sees
	 * amdgpu_cs_ioctl as the queue, amdgpu_sched_run_job as the run and the
	 * finished fence's dma_fence_signaled as the done.
	 */
	bool		no_sched;
	int		cpus;
	uint64_t	duration;	/* submissions stop here */
	uint64_t	tail;		/* simulated time after that */
	int		ndevs, nrings, nprocs;
	struct gen_dev_cfg	devs[GEN_MAX_DEVS];
	struct gen_ring_cfg	rings[GEN_MAX_RINGS];
	struct gen_proc_cfg	procs[GEN_MAX_PROCS];
	/*
	 * > 1: every process above is simulated proc_copies times (shapes.c:
	 * thousands of processes); copy k has pid + k, client_id + k, CPU
	 * (cpu + k) % cpus and starts k * period / proc_copies later. The
	 * base pids must be further apart than proc_copies.
	 */
	int proc_copies;
	int		bg_ratio_pct;	/* background events per GPU event, % */
	unsigned int	bg_cpus;	/* CPUs with background activity, 0 = all */
	uint64_t	free_min;	/* fence free delay after done */
	uint64_t	free_max;
	bool		signal_ooo;	/* signals of one ring on two CPUs */
	int		nlost;
	struct gen_lost_cfg	lost[GEN_MAX_LOST];
	uint64_t	seqno_start;	/* first entity seqno (seqno-wrap) */
	/* i915: CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS (submit, in, out); the
	 * hardware starts a request ctxsw_min..max after the engine is free */
	bool		i915_ll;
	uint64_t	ctxsw_min, ctxsw_max;
	struct gen_diag_cfg diag;
	int		ncrtcs;
	struct gen_crtc_cfg	crtcs[GEN_MAX_CRTCS];
	bool		mono_clock;	/* trace_clock=mono: drm_vblank_event `time`
					 * and record timestamps in one domain */
	/* xe (xe.c): the xe events of linux-6.12-debian beside gpu_scheduler;
	 * a hung job times out xe_timeout after it started */
	bool		xe;
	uint64_t	xe_timeout;
	/* hwdrv.c: a driver that traces the hardware's own times (msm, v3d);
	 * msm starts a job ctxsw_min..max after the ring is free */
	int		hwdrv;		/* enum gen_hwdrv */
	/* 6.17+ since 2025-09: drm_sched_job_unschedulable also fires for a
	 * dependency already signalled (a false positive; truth: not blocked) */
	bool		unsched_racy;
};

enum gen_hwdrv {
	HWDRV_NONE = 0,
	HWDRV_MSM,
	HWDRV_V3D
};

const struct gen_scenario *gen_scenario_find(const char *name);
const struct gen_scenario *gen_scenario_get(int i);
int gen_scenario_count(void);
/* bench shapes (shapes.c): found by gen_scenario_find, not in --list */
int gen_shape_count(void);
const struct gen_scenario *gen_shape_get(int i);
const char *gen_era_name(enum gen_era era);

/* ------------------------------------------------------------------ */
/* random numbers (rng.c)                                              */

struct gen_rng {
	uint64_t	s;
};

void rng_seed(struct gen_rng *r, uint64_t seed);
uint64_t rng_next(struct gen_rng *r);
uint64_t rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi);
int rng_pct(struct gen_rng *r, int pct);
uint64_t rng_exp(struct gen_rng *r, uint64_t mean);

/* ------------------------------------------------------------------ */
/* event formats (format.c)                                            */

enum gen_ev {
	EV_SCHED_JOB,		/* drm_sched_job / drm_sched_job_queue */
	EV_SCHED_RUN,		/* drm_run_job / drm_sched_job_run */
	EV_SCHED_DONE,		/* drm_sched_process_job / drm_sched_job_done */
	EV_SCHED_WAIT_DEP,	/* drm_sched_job_wait_dep (<= 6.16) */
	EV_SCHED_ADD_DEP,	/* drm_sched_job_add_dep (6.17+) */
	EV_SCHED_UNSCHED,	/* drm_sched_job_unschedulable (6.17+) */
	EV_FENCE_INIT,
	EV_FENCE_SIGNALED,
	EV_FENCE_DESTROY,
	EV_FENCE_ENABLE,
	EV_FENCE_WAIT_START,
	EV_FENCE_WAIT_END,
	EV_AMD_CS,
	EV_AMD_RUN,
	EV_AMD_IV,
	EV_I915_ADD,		/* i915_request_add */
	EV_I915_SUBMIT,		/* LOW_LEVEL */
	EV_I915_IN,		/* LOW_LEVEL */
	EV_I915_OUT,		/* LOW_LEVEL */
	EV_I915_RETIRE,
	EV_XE_EXEC,		/* xe_sched_job_exec (xe_sched_job_push) */
	EV_XE_RUN,		/* xe_sched_job_run (guc_exec_queue_run_job) */
	EV_XE_TIMEDOUT,		/* xe_sched_job_timedout */
	EV_XE_BAN,		/* xe_sched_job_ban */
	EV_XE_HW_SIGNAL,	/* xe_hw_fence_signal */
	EV_MSM_FLUSH,		/* msm_gpu_submit_flush (hwdrv.c) */
	EV_MSM_RETIRED,		/* msm_gpu_submit_retired */
	EV_V3D_SUBMIT_CL,	/* v3d_submit_cl (bin and render) */
	EV_V3D_SUBMIT_TFU,	/* v3d_submit_tfu */
	EV_V3D_BCL_IRQ,		/* v3d_bcl_irq */
	EV_V3D_RCL_IRQ,		/* v3d_rcl_irq */
	EV_V3D_TFU_IRQ,		/* v3d_tfu_irq */
	EV_SCHED_SWITCH,
	EV_SCHED_WAKING,
	EV_IRQ_ENTRY,
	EV_IRQ_EXIT,
	EV_SOFTIRQ_ENTRY,
	EV_SOFTIRQ_EXIT,
	EV_CPU_FREQ,
	EV_VBLANK,		/* drm:drm_vblank_event */
	EV_VBLANK_QUEUED,
	EV_VBLANK_DELIVERED,
	EV_COUNT
};

struct gen_field {
	char		name[48];
	char		type[48];
	int		offset;
	int		size;
	bool		data_loc;
	bool		array;
};

struct gen_format {
	char		system[32];
	char		name[48];
	int		id;
	int		fixed_size;	/* end of the last fixed field */
	int		nfields;
	struct gen_field fields[16];
	bool		gpu;		/* counted as a GPU event in the truth */
};

struct gen_formats {
	struct gen_format	*ev[EV_COUNT];	/* NULL: not in this era */
	const char		*src_dir[EV_COUNT];	/* below fmt_dir */
	char			*fmt_dir;
	bool			mono_clock;	/* trace_clock file: [mono] */
};

int gen_formats_load(struct gen_formats *f, const char *fmt_dir,
		     const struct gen_scenario *sc);
void gen_formats_free(struct gen_formats *f);
const struct gen_field *gen_format_field(const struct gen_format *fmt,
					 const char *name);
int gen_fakedir_create(const struct gen_formats *f, const char *dir,
		       const char *cmdlines);

/* ------------------------------------------------------------------ */
/* event encoding (encode.c)                                           */

enum gen_fkind { FK_NUM, FK_PTR, FK_STR, FK_U32ARR };

struct gen_fval {
	const char	*name;
	enum gen_fkind	kind;
	uint64_t	num;
	const char	*str;
	const uint32_t	*arr;
	int		n;
};

#define FV_NUM(n, v)	{ .name = (n), .kind = FK_NUM, .num = (v) }
#define FV_PTR(n, v)	{ .name = (n), .kind = FK_PTR, .num = (v) }
#define FV_STR(n, v)	{ .name = (n), .kind = FK_STR, .str = (v) }
#define FV_ARR(nm, a, c) { .name = (nm), .kind = FK_U32ARR, .arr = (a), .n = (c) }

int gen_encode(const struct gen_format *fmt, uint8_t flags, uint8_t pc, int pid,
	       const struct gen_fval *v, int nv, uint8_t *buf, int buflen);

/* ------------------------------------------------------------------ */
/* per-CPU ring-buffer pages (pages.c)                                 */

struct gen_cpu_pages {
	FILE		*out;
	uint8_t		page[GEN_PAGE_SIZE];
	int		used;		/* bytes after the 16-byte header */
	bool		open;		/* page holds events */
	uint64_t	last_ts;
	uint64_t	missed;		/* events dropped before this page */
	bool		dropping;
	uint64_t	pages;
};

struct gen_pages {
	int			cpus;
	struct gen_cpu_pages	cpu[GEN_MAX_CPUS];
	uint64_t		written;
	uint64_t		dropped;
	uint64_t		first_ts, last_ts;
	int			err;		/* -EFBIG: a CPU reached CPU_PAGES_MAX */
	int			err_cpu;
};

int gen_pages_open(struct gen_pages *p, int cpus, const char *dir);
int gen_pages_write(struct gen_pages *p, int cpu, uint64_t ts,
		    const uint8_t *payload, int len, bool drop);
int gen_pages_close(struct gen_pages *p);
uint64_t gen_pages_cpu_max(void);

/* ------------------------------------------------------------------ */
/* trace.dat writer (output.c)                                         */

int gen_write_dat(const char *out, const char *fakedir, int cpus,
		  int file_version, const char *rawdir);

/* ------------------------------------------------------------------ */
/* simulation (sim.c, emit.c, background.c, heap.c)                    */

struct gen_job {
	int		seq;		/* creation order */
	int		ring, proc, entity;
	uint64_t	id;		/* drm_sched job id, per ring */
	uint64_t	fence_ptr;	/* finished fence (pre-6.17) */
	uint64_t	ctx, seqno;	/* finished fence */
	uint64_t	dur;
	uint64_t	queue_ts, run_ts, done_ts, signal_ts;
	uint64_t	start_ts;	/* i915 LOW_LEVEL: i915_request_in */
	uint64_t	retire_ts;	/* i915_request_retire */
	uint64_t	signaled_at;	/* when signalled (traced or not) */
	uint64_t	hw_seqno;	/* amdgpu hardware fence, set at run */
	int8_t		queue_cpu, run_cpu, done_cpu, signal_cpu;
	int		ndeps;
	int		deps[GEN_MAX_DEPS];
	uint8_t		lost;		/* bit per stage: queue run done signal */
	bool		deps_traced;
	bool		signaled;	/* finished fence signalled (sim) */
	bool		enabled;	/* dma_fence_enable_signal emitted */
	bool		waiter;		/* its process waits on it */
	bool		destroyed;
	int		dep_refs;	/* dependents not yet run (hold a ref) */
	int		next;		/* entity / hw queue link */
	/* diagnosis truth (diag.c); 0 = none */
	uint64_t	irq_ts;		/* GPU irq_handler_entry around its done */
	uint64_t	amd_cs_ts, amd_run_ts;	/* amdgpu_cs_ioctl, amdgpu_sched_run_job */
	uint64_t	wstart_ts, wend_ts;	/* first dma_fence wait on it */
	int		cause;		/* enum gen_diag_kind */
	uint8_t		hang;		/* xe: HANG_* reported for it */
	/* hwdrv.c: msm flush (trace time, counter), the hardware's end */
	uint64_t	flush_ts, flush_ticks;
	uint64_t	start_ticks, end_ticks;
	uint64_t	hw_end_ts;	/* msm: end of the submit on the GPU clock */
	uint64_t	drv_seqno;	/* msm / v3d: the driver's submit seqno */
	uint8_t		dep_sched;	/* bit i: deps[i] is its scheduled fence */
	uint8_t		dep_blocked;	/* bit i: unschedulable while deps[i] was unsignalled */
};

/* gen_job.hang, the truth's "hang" names (lib: GPULAT_HANG_*) */
#define HANG_TIMEDOUT	0x1
#define HANG_BANNED	0x4

#define LOST_QUEUE	0x1
#define LOST_RUN	0x2
#define LOST_DONE	0x4
#define LOST_SIGNAL	0x8

struct gen_entity {
	int		proc, ring;
	uint64_t	ptr;		/* struct drm_sched_entity * */
	uint64_t	ctx;		/* scheduled fence context; finished = +1 */
	uint64_t	next_seqno;
	int		head, tail;	/* queued, not yet run */
	int		count;
};

struct gen_ring {
	uint64_t	name_ptr;	/* const char *name (pre-5.19) */
	uint64_t	hw_ctx;		/* amdgpu hardware fence context */
	uint64_t	hw_seqno;
	uint64_t	next_id;
	int		hw_head, hw_tail;	/* on the hardware, FIFO */
	int		hw_count;
	int		last_job;	/* latest queued, for dependencies */
	uint64_t	last_done;
	uint64_t	last_hw_end;	/* hwdrv.c msm: the GPU ended the last submit */
	bool		sched_pending;
	int		worker_pid;
	char		worker_comm[24];
	uint64_t	jobs_run, jobs_done;
};

struct gen_proc {
	uint64_t	wait_vbl;	/* frame loop: waiting for this count, 0 none */
	int		flip_frame;	/* page-flip client: 1 + frame whose flip is pending */
	int		nframes;
	bool		blocked;
	bool		stopped;
	uint64_t	next_submit;
	int		nsubmits;
	int		*inflight;	/* FIFO of job indexes */
	int		if_head, if_tail, if_cap;
	int ent[GEN_MAX_RINGS]; /* 1 + entity index, 0 none */
};

enum gen_act {
	ACT_SUBMIT, ACT_SCHED, ACT_DONE, ACT_SIGNAL, ACT_DESTROY,
	ACT_WAIT_START, ACT_WAIT_END, ACT_BG, ACT_DIAG, ACT_VBLANK, ACT_HW_IN,
	ACT_XE_TIMEOUT,
};

struct gen_action {
	uint64_t	t;
	uint64_t	seq;
	int		kind;
	int		arg;
};

struct gen_heap {
	struct gen_action	*a;
	int			n, cap;
	uint64_t		seq;
};

int heap_push(struct gen_heap *h, uint64_t t, int kind, int arg);
bool heap_pop(struct gen_heap *h, struct gen_action *out);
void heap_free(struct gen_heap *h);

struct gen_task {
	int		pid;
	char		comm[16];
	int		prio;
};

struct gen_bg_cpu {
	struct gen_task	cur;		/* running task (pid 0: idle) */
	uint32_t	freq;
};

struct gen_event_sink;			/* truth events collector */

struct gen_irq_acct {
	uint64_t	hard_open, soft_open;
	uint64_t	hard_ns, soft_ns, hard_n, soft_n;
};

struct gen_diag_state {
	uint64_t	khz;		/* frequency of the diag CPU */
	bool		working;	/* cpu_freq: the process does its frame's CPU work */
	bool		slow;		/* ... below the top frequency */
	bool		woken;		/* cpu_hog: woken, waiting for the CPU */
	int		cause_now;	/* cause of the jobs being created */
	struct gen_irq_acct acct[GEN_MAX_CPUS];
};

struct gen_sim {
	const struct gen_scenario	*sc;
	const struct gen_formats	*fmts;
	struct gen_rng			rng;
	struct gen_pages		*pages;	/* NULL: count only */
	struct gen_heap			heap;
	uint64_t			t0;	/* trace start (absolute ns) */
	uint64_t			end;	/* absolute end of simulation */
	uint64_t			cpu_last[GEN_MAX_CPUS];
	uint64_t			bg_mean;	/* mean bg interval per CPU */
	bool				bg_on;

	struct gen_job			*jobs;
	int				njobs, jobs_cap;
	struct gen_entity		*ents;
	int				nents, ents_cap;
	struct gen_ring			rings[GEN_MAX_RINGS];
	/* the processes simulated: the scenario's, times proc_copies */
	struct gen_proc_cfg *pcfg;
	struct gen_proc *procs;
	int nprocs;
	struct gen_bg_cpu		bg[GEN_MAX_CPUS];
	uint64_t			next_ctx;
	bool				sched_deps;	/* a ring has dep_sched */
	uint64_t			*pool;	/* free fence pointers (LIFO) */
	int				npool, pool_cap;
	uint64_t			pool_next;

	/* counters */
	uint64_t			events, gpu_events, lost_events;
	bool				last_dropped;	/* of the last gen_emit */

	/* frames (frames.c): vblanks per CRTC, every frame request */
	struct gen_crtc_state {
		uint64_t	seq;		/* count of the last vblank */
		uint64_t	next;		/* next hardware vblank */
		uint64_t	*hw, *rec;	/* per vblank: instant, record ts */
		int		n, cap;
	}				crtc[GEN_MAX_CRTCS];
	struct gen_frame {
		int		proc;
		uint64_t	req_ts;
		uint64_t	target;
		int		first_job, njobs;
		uint64_t	flip_seq;	/* page flip: shown at this count, 0 not yet */
	}				*frames;
	int				nframes, frames_cap;
	uint64_t			force_dur;	/* next job_create: this duration */
	uint64_t *delivered; /* per process */

	/* truth events, one JSON text line each (NULL: not collected) */
	FILE				*ev_truth;
	struct gen_diag_state		dg;
};

int gen_sim_run(struct gen_sim *s);
void gen_sim_free(struct gen_sim *s);
void gen_sim_check(const struct gen_sim *s);	/* FIFO/credit invariants */
void gen_sim_amdgpu_only(struct gen_sim *s);	/* stages as no_sched traces show them */

/* emit.c: one call per trace event, returns true when written */
bool gen_emit(struct gen_sim *s, enum gen_ev ev, int cpu, uint64_t want,
	      int pid, uint8_t flags, const struct gen_fval *v, int nv,
	      uint64_t *ts);

/* gpu.c: GPU-side events of one job stage; *t is the wanted time, advanced */
void gpu_emit_init(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
bool gpu_emit_queue(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		    uint64_t *t, uint64_t *ts);
void gpu_emit_add_deps(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
void gpu_emit_wait_deps(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
bool gpu_emit_run(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		  uint64_t *t, uint64_t *ts);
bool gpu_emit_done(struct gen_sim *s, struct gen_job *j, int cpu, int pid,
		   uint64_t *t, uint64_t *ts);
bool gpu_emit_fence(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		    bool finished, int cpu, int pid, uint8_t flags, uint64_t *t,
		    uint64_t *ts);
void gpu_emit_amd_job(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		      int cpu, int pid, uint64_t *t);
void gpu_emit_hw_fence(struct gen_sim *s, enum gen_ev ev, struct gen_job *j,
		       int cpu, int pid, uint8_t flags, uint64_t *t);
void gpu_emit_iv(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
/* i915: i915_request_in / _out / _retire (add and submit are the queue and run) */
bool gpu_emit_i915(struct gen_sim *s, enum gen_ev ev, struct gen_job *j, int cpu, int pid,
		   uint8_t flags, uint64_t *t, uint64_t *ts);
/* xe.c: xe_sched_job_* / xe_hw_fence_* of a job (nothing without sc->xe) */
void xe_emit_job(struct gen_sim *s, enum gen_ev ev, struct gen_job *j, int cpu, int pid,
		 uint8_t flags, uint64_t *t);
void xe_emit_hw_fence(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint8_t flags,
		      uint64_t *t);
/* the drm_sched timeout of a hung job: timedout, then the queue is banned */
void xe_timeout(struct gen_sim *s, int j, uint64_t now);
/* hwdrv.c: msm / v3d events (nothing without sc->hwdrv) */
void hwdrv_emit_run(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
/* the hardware starts job @j (ring free at @free): when it is done (ACT_DONE) */
uint64_t hwdrv_start(struct gen_sim *s, struct gen_job *j, uint64_t free);
void hwdrv_emit_irq(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
void hwdrv_emit_retired(struct gen_sim *s, struct gen_job *j, int cpu, int pid, uint64_t *t);
/* deps[i] of @j is signalled (its scheduled fence: the producer ran) */
bool gen_dep_signaled(const struct gen_sim *s, const struct gen_job *j, int i);
/* the context of the fence deps[i] of @j names (scheduled: finished - 1) */
uint64_t gen_dep_ctx(const struct gen_sim *s, const struct gen_job *j, int i);
/* the era traces a run stage (not pre-5.7, not i915 without LOW_LEVEL) */
bool gen_has_run(const struct gen_scenario *sc);

/* background.c */
void bg_init(struct gen_sim *s);
void bg_step(struct gen_sim *s, int cpu, uint64_t t);
void bg_switch(struct gen_sim *s, int cpu, const struct gen_task *next,
	       bool sleep, uint64_t *t);
void bg_switch_idle(struct gen_sim *s, int cpu, uint64_t *t);
void bg_wake(struct gen_sim *s, int cpu, const struct gen_task *task,
	     int target_cpu, uint64_t *t);
void bg_irq_entry(struct gen_sim *s, int cpu, int irq, const char *name, uint64_t *t);
void bg_irq_exit(struct gen_sim *s, int cpu, int irq, uint64_t *t);
int bg_current_pid(struct gen_sim *s, int cpu);
char *bg_cmdlines(const struct gen_sim *s);

/* diag.c */
struct json_object;
void diag_init(struct gen_sim *s);
void diag_act(struct gen_sim *s, int arg, uint64_t now);
bool diag_submit(struct gen_sim *s, int p, uint64_t now, uint64_t *t);
bool diag_done_delay(struct gen_sim *s, int j, uint64_t now);
void diag_account(struct gen_sim *s, enum gen_ev ev, int cpu, uint64_t ts);
void diag_cmdlines(const struct gen_sim *s, FILE *fp);
const char *diag_cause_name(int kind);
void diag_job_json(const struct gen_sim *s, const struct gen_job *J, struct json_object *o);
void diag_truth_write(FILE *fp, const struct gen_sim *s);

/* frames.c */
void frames_init(struct gen_sim *s);
void frames_vblank(struct gen_sim *s, int c, uint64_t now);
bool frames_submit(struct gen_sim *s, int p, uint64_t *t);
void frames_request(struct gen_sim *s, int p, uint64_t *t);
void frames_free(struct gen_sim *s);
/* @start: the truth's start_ts per job (truth.c) */
void frames_truth_write(FILE *fp, const struct gen_sim *s, const uint64_t *start);

/* ------------------------------------------------------------------ */
/* truth file (truth.c)                                                */

struct gen_run_info {
	const char	*scenario;
	uint64_t	seed;
	int		file_version;
	bool		event_truth;
	const char	*events_path;	/* temp file with the event lines */
};

int gen_truth_write(const char *path, const struct gen_sim *s,
		    const struct gen_run_info *ri);

#endif
