// SPDX-License-Identifier: LGPL-2.1
/*
 * Event binding: the trace's own format sections -> struct gpulat_event.
 *
 * Every supported event of every kernel era is listed once in GPULAT_EVENTS.
 * At bind time each present event's fields are looked up by name and cached;
 * per record only bounds-checked reads of those cached fields happen.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "gpulat-int.h"

/* Field layouts ("families"); each lists the fields it reads below. */
enum fam {
	FAM_SCHED_JOB,		/* drm_sched_job, drm_run_job, amd_sched_job (<= 6.16) */
	FAM_SCHED_DONE,		/* drm_sched_process_job: fence pointer only */
	FAM_SCHED_WAITDEP,	/* drm_sched_job_wait_dep */
	FAM_617_JOB,		/* drm_sched_job_queue / _run */
	FAM_617_DONE,		/* drm_sched_job_done */
	FAM_617_DEP,		/* drm_sched_job_add_dep / _unschedulable */
	FAM_FENCE,		/* dma_fence_*, fence_* */
	FAM_AMD_JOB,		/* amdgpu_cs_ioctl, amdgpu_sched_run_job */
	FAM_AMD_IV,
	FAM_IRQ,		/* irq_handler_entry / exit */
	FAM_SOFTIRQ,
	FAM_SWITCH,
	FAM_WAKING,
	FAM_CPUFREQ,
	FAM_I915_REQ,		/* i915_request_* (5.x+: dev, ctx, class:instance, seqno) */
	FAM_XE_JOB,		/* xe_sched_job_* */
	FAM_XE_FENCE,		/* xe_hw_fence_* */
	FAM_XE_QUEUE,		/* xe_exec_queue_* */
	FAM_MSM_SUBMIT,		/* msm_gpu_submit_flush / _retired (ringid:seqno) */
	FAM_V3D,		/* v3d_submit_* and v3d_*_irq (dev, seqno) */
	FAM_VBLANK,		/* drm_vblank_event */
	FAM_VBLANK_FILE,	/* drm_vblank_event_queued / _delivered */
};

/*
 * X(system, event, kind, family): every name of every era. Absent events cost
 * nothing; an event present with a foreign layout is reported once.
 */
#define GPULAT_EVENTS(X)							\
	/* 6.17+ stable uAPI */							\
	X("gpu_scheduler", "drm_sched_job_queue",	 GPULAT_EV_QUEUE,   FAM_617_JOB)	\
	X("gpu_scheduler", "drm_sched_job_run",		 GPULAT_EV_RUN,     FAM_617_JOB)	\
	X("gpu_scheduler", "drm_sched_job_done",	 GPULAT_EV_DONE,    FAM_617_DONE)	\
	X("gpu_scheduler", "drm_sched_job_add_dep",	 GPULAT_EV_DEP,     FAM_617_DEP)	\
	X("gpu_scheduler", "drm_sched_job_unschedulable", GPULAT_EV_UNSCHED, FAM_617_DEP)	\
	/* 4.16-6.16 */								\
	X("gpu_scheduler", "drm_sched_job",		 GPULAT_EV_QUEUE,   FAM_SCHED_JOB)	\
	X("gpu_scheduler", "drm_run_job",		 GPULAT_EV_RUN,     FAM_SCHED_JOB)	\
	X("gpu_scheduler", "drm_sched_process_job",	 GPULAT_EV_DONE,    FAM_SCHED_DONE)	\
	X("gpu_scheduler", "drm_sched_job_wait_dep",	 GPULAT_EV_DEP,     FAM_SCHED_WAITDEP)	\
	/* 4.4-4.15 amdgpu scheduler */						\
	X("gpu_sched",	   "amd_sched_job",		 GPULAT_EV_QUEUE,   FAM_SCHED_JOB)	\
	X("gpu_sched",	   "amd_sched_process_job",	 GPULAT_EV_DONE,    FAM_SCHED_DONE)	\
	/* dma-fence (4.10+) and fence (3.17-4.9) */				\
	X("dma_fence",	   "dma_fence_init",		 GPULAT_EV_FENCE_INIT,	     FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_emit",		 GPULAT_EV_FENCE_EMIT,	     FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_enable_signal",	 GPULAT_EV_FENCE_ENABLE,     FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_signaled",	 GPULAT_EV_FENCE_SIGNALED,   FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_destroy",		 GPULAT_EV_FENCE_DESTROY,    FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_wait_start",	 GPULAT_EV_FENCE_WAIT_START, FAM_FENCE)	\
	X("dma_fence",	   "dma_fence_wait_end",	 GPULAT_EV_FENCE_WAIT_END,   FAM_FENCE)	\
	X("fence",	   "fence_init",		 GPULAT_EV_FENCE_INIT,	     FAM_FENCE)	\
	X("fence",	   "fence_emit",		 GPULAT_EV_FENCE_EMIT,	     FAM_FENCE)	\
	X("fence",	   "fence_enable_signal",	 GPULAT_EV_FENCE_ENABLE,     FAM_FENCE)	\
	X("fence",	   "fence_signaled",		 GPULAT_EV_FENCE_SIGNALED,   FAM_FENCE)	\
	X("fence",	   "fence_destroy",		 GPULAT_EV_FENCE_DESTROY,    FAM_FENCE)	\
	X("fence",	   "fence_wait_start",		 GPULAT_EV_FENCE_WAIT_START, FAM_FENCE)	\
	X("fence",	   "fence_wait_end",		 GPULAT_EV_FENCE_WAIT_END,   FAM_FENCE)	\
	/* amdgpu driver */							\
	X("amdgpu",	   "amdgpu_cs_ioctl",		 GPULAT_EV_AMD_CS,  FAM_AMD_JOB)	\
	X("amdgpu",	   "amdgpu_sched_run_job",	 GPULAT_EV_AMD_RUN, FAM_AMD_JOB)	\
	X("amdgpu",	   "amdgpu_iv",			 GPULAT_EV_AMD_IV,  FAM_AMD_IV)	\
	/* i915 requests (no drm_sched); submit/execute/in/out only with	\
	 * CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS */				\
	X("i915",	   "i915_request_queue",	 GPULAT_EV_I915_QUEUE,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_add",		 GPULAT_EV_I915_ADD,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_submit",	 GPULAT_EV_I915_SUBMIT,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_execute",	 GPULAT_EV_I915_EXECUTE,     FAM_I915_REQ) \
	X("i915",	   "i915_request_in",		 GPULAT_EV_I915_IN,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_out",		 GPULAT_EV_I915_OUT,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_retire",	 GPULAT_EV_I915_RETIRE,	     FAM_I915_REQ) \
	X("i915",	   "i915_request_wait_begin",	 GPULAT_EV_I915_WAIT_BEGIN,  FAM_I915_REQ) \
	X("i915",	   "i915_request_wait_end",	 GPULAT_EV_I915_WAIT_END,    FAM_I915_REQ) \
	/* xe (6.8+; uses drm_sched, so gpu_scheduler events fire too) */	\
	X("xe",		   "xe_sched_job_create",	 GPULAT_EV_XE_JOB_CREATE,    FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_exec",		 GPULAT_EV_XE_JOB_EXEC,	     FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_run",		 GPULAT_EV_XE_JOB_RUN,	     FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_free",		 GPULAT_EV_XE_JOB_FREE,	     FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_timedout",	 GPULAT_EV_XE_JOB_TIMEDOUT,  FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_set_error",	 GPULAT_EV_XE_JOB_SET_ERROR, FAM_XE_JOB)	\
	X("xe",		   "xe_sched_job_ban",		 GPULAT_EV_XE_JOB_BAN,	     FAM_XE_JOB)	\
	X("xe",		   "xe_hw_fence_create",	 GPULAT_EV_XE_HW_FENCE_CREATE, FAM_XE_FENCE) \
	X("xe",		   "xe_hw_fence_signal",	 GPULAT_EV_XE_HW_FENCE_SIGNAL, FAM_XE_FENCE) \
	X("xe",		   "xe_hw_fence_try_signal",	 GPULAT_EV_XE_HW_FENCE_TRY_SIGNAL, FAM_XE_FENCE) \
	X("xe",		   "xe_exec_queue_create",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_submit",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_kill",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_reset",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_destroy",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_stop",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	X("xe",		   "xe_exec_queue_resubmit",	 GPULAT_EV_XE_EXEC_QUEUE,    FAM_XE_QUEUE) \
	/* hardware timestamps: msm (Adreno, drm_sched since 5.x), v3d (RPi) */	\
	X("drm_msm_gpu",   "msm_gpu_submit_flush",	 GPULAT_EV_MSM_FLUSH,	     FAM_MSM_SUBMIT) \
	X("drm_msm_gpu",   "msm_gpu_submit_retired",	 GPULAT_EV_MSM_RETIRED,	     FAM_MSM_SUBMIT) \
	X("v3d",	   "v3d_submit_cl",		 GPULAT_EV_V3D_SUBMIT,	     FAM_V3D)	\
	X("v3d",	   "v3d_submit_tfu",		 GPULAT_EV_V3D_SUBMIT,	     FAM_V3D)	\
	X("v3d",	   "v3d_submit_csd",		 GPULAT_EV_V3D_SUBMIT,	     FAM_V3D)	\
	X("v3d",	   "v3d_bcl_irq",		 GPULAT_EV_V3D_IRQ,	     FAM_V3D)	\
	X("v3d",	   "v3d_rcl_irq",		 GPULAT_EV_V3D_IRQ,	     FAM_V3D)	\
	X("v3d",	   "v3d_tfu_irq",		 GPULAT_EV_V3D_IRQ,	     FAM_V3D)	\
	X("v3d",	   "v3d_csd_irq",		 GPULAT_EV_V3D_IRQ,	     FAM_V3D)	\
	/* context for the tools */						\
	X("irq",	   "irq_handler_entry",		 GPULAT_EV_IRQ_ENTRY,	  FAM_IRQ)	\
	X("irq",	   "irq_handler_exit",		 GPULAT_EV_IRQ_EXIT,	  FAM_IRQ)	\
	X("irq",	   "softirq_entry",		 GPULAT_EV_SOFTIRQ_ENTRY, FAM_SOFTIRQ)	\
	X("irq",	   "softirq_exit",		 GPULAT_EV_SOFTIRQ_EXIT,  FAM_SOFTIRQ)	\
	X("sched",	   "sched_switch",		 GPULAT_EV_SCHED_SWITCH,  FAM_SWITCH)	\
	X("sched",	   "sched_waking",		 GPULAT_EV_SCHED_WAKING,  FAM_WAKING)	\
	X("power",	   "cpu_frequency",		 GPULAT_EV_CPU_FREQ,	  FAM_CPUFREQ)	\
	/* display: the drm core's vblank events */				\
	X("drm",	   "drm_vblank_event",		 GPULAT_EV_VBLANK,	     FAM_VBLANK)	\
	X("drm",	   "drm_vblank_event_queued",	 GPULAT_EV_VBLANK_QUEUED,    FAM_VBLANK_FILE) \
	X("drm",	   "drm_vblank_event_delivered", GPULAT_EV_VBLANK_DELIVERED, FAM_VBLANK_FILE)

struct evdef {
	const char	*system;
	const char	*name;
	enum gpulat_kind kind;
	enum fam	fam;
};

#define GPULAT_EVDEF(sys, nm, k, f)	{ sys, nm, k, f },
static const struct evdef evdefs[] = { GPULAT_EVENTS(GPULAT_EVDEF) };
#undef GPULAT_EVDEF

/* Slots: what a field means to us, independent of its name in a given era. */
enum slot {
	S_FENCE,	/* finished fence pointer (<= 6.16) */
	S_NAME,		/* ring: __data_loc string, char array or const char * */
	S_DEV,
	S_ID,
	S_JOBCNT,
	S_HWCNT,
	S_CTX,		/* the job's finished fence / the dma_fence event's fence */
	S_SEQNO,
	S_CLIENT,
	S_DEPPTR,
	S_DEPCTX,
	S_DEPSEQNO,
	S_DRIVER,
	S_TIMELINE,
	S_IRQ,
	S_PREV_PID,
	S_NEXT_PID,
	S_PREV_STATE,
	S_VALUE,
	S_CPUID,
	S_CLASS,	/* i915 engine class (uabi) */
	S_INSTANCE,
	S_GUC,		/* xe guc_id */
	S_LRC,		/* xe lrc_seqno */
	S_TICKS,	/* msm: always-on counter at flush / start of the submit */
	S_TICKS_END,	/* msm: at its end */
	S_CRTC,
	S_VBL_SEQ,
	S_VBL_TIME,
	S_VBL_HIGH_PREC,
	S_VBL_FILE,
	S__COUNT,
};

struct fieldspec {
	enum slot	slot;
	const char	*name;
	const char	*alt;		/* older spelling, NULL if none */
	bool		required;
};

struct famspec {
	const struct fieldspec	*f;
	unsigned int		n;
};

#define FS(...)	{ (const struct fieldspec[]){ __VA_ARGS__ }, \
		  sizeof((const struct fieldspec[]){ __VA_ARGS__ }) / sizeof(struct fieldspec) }

/* clang-format off */
static const struct famspec famspecs[] = {
	[FAM_SCHED_JOB] = FS({ S_FENCE, "fence", NULL, true },
			     { S_NAME, "name", NULL, true },
			     { S_ID, "id", "sched_job", false },
			     { S_JOBCNT, "job_count", NULL, false },
			     { S_HWCNT, "hw_job_count", NULL, false }),
	[FAM_SCHED_DONE] = FS({ S_FENCE, "fence", NULL, true }),
	[FAM_SCHED_WAITDEP] = FS({ S_NAME, "name", NULL, true },
				 { S_ID, "id", NULL, true },
				 { S_DEPPTR, "fence", NULL, true },
				 { S_DEPCTX, "ctx", NULL, false },
				 { S_DEPSEQNO, "seqno", NULL, false }),
	[FAM_617_JOB] = FS({ S_NAME, "name", NULL, true },
			   { S_DEV, "dev", NULL, true },
			   { S_CTX, "fence_context", NULL, true },
			   { S_SEQNO, "fence_seqno", NULL, true },
			   { S_CLIENT, "client_id", NULL, false },
			   { S_JOBCNT, "job_count", NULL, false },
			   { S_HWCNT, "hw_job_count", NULL, false }),
	[FAM_617_DONE] = FS({ S_CTX, "fence_context", NULL, true },
			    { S_SEQNO, "fence_seqno", NULL, true },
			    { S_DEV, "dev", NULL, false }),
	[FAM_617_DEP] = FS({ S_CTX, "fence_context", NULL, true },
			   { S_SEQNO, "fence_seqno", NULL, true },
			   { S_DEPCTX, "ctx", NULL, true },
			   { S_DEPSEQNO, "seqno", NULL, true }),
	[FAM_FENCE] = FS({ S_DRIVER, "driver", NULL, true },
			 { S_TIMELINE, "timeline", NULL, true },
			 { S_CTX, "context", NULL, true },
			 { S_SEQNO, "seqno", NULL, true }),
	[FAM_AMD_JOB] = FS({ S_TIMELINE, "timeline", NULL, true },
			   { S_CTX, "context", NULL, true },
			   { S_SEQNO, "seqno", NULL, true },
			   { S_ID, "sched_job_id", NULL, false },
			   { S_NAME, "ring", "ring_name", false }),
	[FAM_AMD_IV] = FS({ S_IRQ, "src_id", NULL, false },
			  { S_VALUE, "ring_id", NULL, false },
			  { S_CLIENT, "client_id", NULL, false }),
	[FAM_IRQ] = FS({ S_IRQ, "irq", NULL, true }),
	[FAM_SOFTIRQ] = FS({ S_IRQ, "vec", NULL, true }),
	[FAM_SWITCH] = FS({ S_PREV_PID, "prev_pid", NULL, true },
			  { S_NEXT_PID, "next_pid", NULL, true },
			  { S_PREV_STATE, "prev_state", NULL, false }),
	[FAM_WAKING] = FS({ S_NEXT_PID, "pid", NULL, true },
			  { S_CPUID, "target_cpu", NULL, false }),
	[FAM_CPUFREQ] = FS({ S_VALUE, "state", NULL, true },
			   { S_CPUID, "cpu_id", NULL, true }),
	/* `time` and `high_prec` exist since 4.15 ("crtc=%d, seq=%u, time=%lld,
	 * high-prec=%s"); older kernels trace crtc and seq only */
	/* 5.x+ layout; <= 4.19 had `ring` and `global` instead of class:instance */
	[FAM_I915_REQ] = FS({ S_DEV, "dev", NULL, true },
			    { S_CTX, "ctx", NULL, true },
			    { S_SEQNO, "seqno", NULL, true },
			    { S_CLASS, "class", NULL, true },
			    { S_INSTANCE, "instance", NULL, true },
			    { S_VALUE, "completed", "flags", false }),
	/* 6.8: no dev, no lrc_seqno; 6.11+: dev */
	[FAM_XE_JOB] = FS({ S_SEQNO, "seqno", NULL, true },
			  { S_FENCE, "fence", NULL, true },
			  { S_GUC, "guc_id", NULL, true },
			  { S_DEV, "dev", NULL, false },
			  { S_LRC, "lrc_seqno", NULL, false },
			  { S_VALUE, "error", NULL, false }),
	[FAM_XE_FENCE] = FS({ S_CTX, "ctx", NULL, true },
			    { S_SEQNO, "seqno", NULL, true },
			    { S_FENCE, "fence", NULL, true },
			    { S_DEV, "dev", NULL, false }),
	[FAM_XE_QUEUE] = FS({ S_GUC, "guc_id", NULL, true },
			    { S_DEV, "dev", NULL, false },
			    { S_CLASS, "class", NULL, false }),
	/* drivers/gpu/drm/msm/msm_gpu_trace.h: ticks (flush) or start_ticks and
	 * end_ticks (retired) of the GPU's 19.2 MHz always-on counter */
	[FAM_MSM_SUBMIT] = FS({ S_ID, "ringid", NULL, true },
			      { S_SEQNO, "seqno", NULL, true },
			      { S_TICKS, "ticks", "start_ticks", true },
			      { S_TICKS_END, "end_ticks", NULL, false }),
	/* drivers/gpu/drm/v3d/v3d_trace.h: the v3d fence's seqno */
	[FAM_V3D] = FS({ S_DEV, "dev", NULL, true },
		       { S_SEQNO, "seqno", NULL, true },
		       { S_VALUE, "is_render", NULL, false }),
	[FAM_VBLANK] = FS({ S_CRTC, "crtc", NULL, true },
			  { S_VBL_SEQ, "seq", NULL, true },
			  { S_VBL_TIME, "time", NULL, false },
			  { S_VBL_HIGH_PREC, "high_prec", NULL, false }),
	/* "file=%p, crtc=%d, seq=%u"; the oldest kernels traced `pid_t pid` */
	[FAM_VBLANK_FILE] = FS({ S_CRTC, "crtc", NULL, true },
			       { S_VBL_SEQ, "seq", NULL, true },
			       { S_VBL_FILE, "file", "pid", false }),
};
/* clang-format on */

#undef FS

/*
 * The last strings a string field produced, so that the same ring / device /
 * timeline bytes are not hashed and looked up again on every record.
 */
#define STRCACHE_WAYS	4

enum strslot {
	SC_NAME,
	SC_DEV,
	SC_DRIVER,
	SC_TIMELINE,
	SC__COUNT,
};

struct strcache {
	const char	*s[STRCACHE_WAYS];	/* interned, NULL = empty way */
	size_t		len[STRCACHE_WAYS];	/* strlen(s[i]) */
	unsigned int	next;			/* way replaced on the next miss */
};

/*
 * A number field as decode reads it: offset, end and sign extension taken
 * from its tep_format_field once at bind time, so that a read is one bound
 * check against the record (end = INT64_MAX: absent or unreadable, never
 * fits). Before, read_num() checked the format field's five conditions and
 * followed its pointer on every read: 1.47 M reads on dense-1M.
 */
struct fnum {
	int64_t		end;		/* offset + size */
	int		off;
	int		size;		/* 1, 2, 4 or 8 */
	unsigned int	sign_bits;	/* sign-extend from this many bits, 0: none */
	uint8_t how; /* size and sign as one FN_* (host byte order) */
	/* read_fnum()'s 8-byte load: shift left and back (sign), then mask */
	uint8_t sh;
	uint64_t mask;
	/* offset + 8: the 8-byte load lies inside a record at least this long */
	int64_t end8;
};

/*
 * read_fnum()'s one switch in the host byte order, instead of one on the
 * size, a swap test and a sign test (callgrind, KernelShark dense-1M: 1 M
 * reads)
 */
enum {
	FN_NONE,
	FN_U8,
	FN_U16,
	FN_U32,
	FN_U64,
	FN_S8,
	FN_S16,
	FN_S32,
};

struct bound {
	int			id;		/* tep event id */
	const struct evdef	*def;
	struct tep_event	*event;
	struct tep_format_field	*f[S__COUNT];
	struct fnum		n[S__COUNT];	/* f[] as numbers */
	bool			damaged_warned;
	uint64_t		damaged;
	struct strcache		sc[SC__COUNT];
	unsigned int		aux;		/* xe_exec_queue_*: GPULAT_XEQ_* */
};

/* ids below this get a direct-indexed table; a larger or negative one is searched */
#define IDX_MAX		65536

#define GPULAT_MAX_WARN_KEEP	32

/* i915 names cached per device / engine (others are interned per record) */
#define I915_DEVS	16
#define I915_CLASSES	8
#define I915_INSTANCES	16

/* comm_of(): tep's comm string -> its interned copy */
#define COMM_CACHE	256

/* gpulat__binding_adopt(): a clone's string -> the parent's */
#define ADOPT_MEMO	64

struct adopt_memo {
	const char	*in;
	const char	*out;
};

struct commcache {
	int		pid;
	const char	*out;		/* NULL: empty slot */
};

struct gpulat_binding {
	struct tep_handle	*tep;
	struct gpulat__strtab	*strs;
	struct bound		*ev;		/* sorted by id */
	unsigned int		nev;
	unsigned int		last;		/* last hit, for the lookup */
	/*
	 * idx[id] = 1 + index in ev of the bound event with that id, 0 when
	 * the record is not ours (unbound, or a context event while
	 * no_context): one load decides for the ~80 % of records that are
	 * not GPU events. nidx = largest indexed id + 1; ids outside are not
	 * ours unless idx_partial (a negative or huge id is bound: search).
	 */
	uint8_t			*idx;
	unsigned int		nidx;
	bool			idx_partial;
	bool			swap;		/* file endianness differs from the host */
	bool			ct_u16;		/* common_type: unsigned, 2 bytes, offset >= 0 */
	bool			common_std;	/* flags u8 at 2, pid 4 bytes at 4 (common_word()) */
	uint64_t		has;		/* 1 << kind */
	enum gpulat_era		era;
	unsigned int		problems;
	struct tep_format_field	*common_pid;
	struct tep_format_field	*common_flags;
	struct tep_format_field	*common_type;
	struct fnum		n_pid;		/* common_pid, common_flags as numbers */
	struct fnum		n_flags;
	gpulat_warn_fn		warn;
	void			*warn_data;
	/* warnings issued before a callback was set, replayed by set_warn */
	char			*kept[GPULAT_MAX_WARN_KEEP];
	unsigned int		nkept;
	const char		*empty;
	bool			no_context;	/* skip irq/sched/power records */
	struct commcache	comms[COMM_CACHE];	/* by pid */
	/* i915: interned "card%u" and engine names ("rcs0") */
	const char		*i915_dev[I915_DEVS];
	const char		*i915_engine[I915_CLASSES][I915_INSTANCES];
	/*
	 * A clone (gpulat__binding_clone()) decodes on a reader thread into
	 * strings of its own table; the thread of @parent maps them with
	 * @map: id in the clone's table -> the parent's interned copy.
	 */
	struct gpulat_binding	*parent;
	const char		**map;
	uint32_t		nmap;
	struct adopt_memo	*memo;		/* ADOPT_MEMO by pointer, before map */
};

static void warnf(struct gpulat_binding *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(struct gpulat_binding *b, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (b->warn) {
		b->warn(msg, b->warn_data);
	} else if (b->nkept < GPULAT_MAX_WARN_KEEP) {
		b->kept[b->nkept] = strdup(msg);
		if (b->kept[b->nkept])
			b->nkept++;
	}
}

static struct tep_format_field *find_field(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f;

	if (!name)
		return NULL;
	f = tep_find_field(ev, name);
	if (!f)
		f = tep_find_any_field(ev, name);
	return f;
}

static bool field_is_string(const struct tep_format_field *f)
{
	return f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING) ||
	       ((f->flags & TEP_FIELD_IS_ARRAY) && f->type && strstr(f->type, "char"));
}

/* @f as a number field (the checks read_num() makes, once) */
static struct fnum fnum_of(const struct tep_format_field *f)
{
	struct fnum n = { INT64_MAX, 0, 0, 0, FN_NONE, 0, 0, INT64_MAX };

	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8)
		return n;
	n.off = f->offset;
	n.size = f->size;
	n.end = (int64_t)f->offset + f->size;
	n.end8 = (int64_t)f->offset + 8;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8)
		n.sign_bits = (unsigned int)f->size * 8;
	/* the sizes tep_read_number() reads; it reads 0 for the others (mask 0) */
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		n.mask = f->size == 8 ? ~0ULL : (1ULL << (f->size * 8)) - 1;
		if (n.sign_bits) {
			n.sh = (uint8_t)(64 - n.sign_bits);
			n.mask = ~0ULL;
		}
	}
	switch (f->size) {
	case 1:
		n.how = n.sign_bits ? FN_S8 : FN_U8;
		break;
	case 2:
		n.how = n.sign_bits ? FN_S16 : FN_U16;
		break;
	case 4:
		n.how = n.sign_bits ? FN_S32 : FN_U32;
		break;
	case 8:
		n.how = FN_U64;
		break;
	}
	return n;
}

/* Bind one present event; false (after one warning) when a required field is missing. */
static bool bind_event(struct gpulat_binding *b, struct bound *bd)
{
	const struct famspec *fs = &famspecs[bd->def->fam];
	struct tep_format_field *f;
	unsigned int i;

	for (i = 0; i < fs->n; i++) {
		const struct fieldspec *s = &fs->f[i];

		f = find_field(bd->event, s->name);
		if (!f)
			f = find_field(bd->event, s->alt);
		/* amdgpu_vm_grab_id-style duplicates: prefer the string for names */
		if (f && s->slot == S_NAME && !field_is_string(f) && !(f->flags & TEP_FIELD_IS_POINTER) &&
		    f->size != 8 && f->size != 4)
			f = NULL;
		if (!f && s->required) {
			b->problems++;
			warnf(b, "%s:%s: unknown layout, field '%s' missing; event ignored",
			      bd->def->system, bd->def->name, s->name);
			return false;
		}
		bd->f[s->slot] = f;
	}
	for (i = 0; i < S__COUNT; i++)
		bd->n[i] = fnum_of(bd->f[i]);
	return true;
}

static int cmp_bound(const void *a, const void *b)
{
	const struct bound *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* index in b->ev of the event with this id, -1 if none */
static int search(const struct gpulat_binding *b, int id)
{
	unsigned int lo = 0, hi = b->nev;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (b->ev[mid].id == id)
			return (int)mid;
		if (b->ev[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static bool is_context(const struct bound *bd)
{
	return bd->def->kind >= GPULAT_EV_IRQ_ENTRY && bd->def->kind <= GPULAT_EV_CPU_FREQ;
}

/* (re)build the id -> bound table; on ENOMEM every lookup searches */
static void build_idx(struct gpulat_binding *b)
{
	unsigned int i, n = 0;
	uint8_t *idx;

	b->idx_partial = false;
	for (i = 0; i < b->nev; i++) {
		if (b->ev[i].id < 0 || b->ev[i].id >= IDX_MAX)
			b->idx_partial = true;
		else if ((unsigned int)b->ev[i].id + 1 > n)
			n = b->ev[i].id + 1;
	}
	/* one byte per id: 1 + index must fit */
	if (b->nev >= UINT8_MAX)
		n = 0;
	idx = n ? calloc(n, sizeof(*idx)) : NULL;
	free(b->idx);
	b->idx = idx;
	b->nidx = idx ? n : 0;
	if (!idx) {
		b->idx_partial = b->nev > 0;
		return;
	}
	for (i = 0; i < b->nev; i++) {
		int id = b->ev[i].id, k;

		if (id < 0 || id >= IDX_MAX)
			continue;
		/* two formats with one id: the one the binary search finds */
		k = search(b, id);
		if (b->no_context && is_context(&b->ev[k]))
			continue;
		idx[id] = (uint8_t)(k + 1);
	}
}

static bool present(struct tep_handle *tep, const char *sys, const char *name)
{
	return tep_find_event_by_name(tep, sys, name) != NULL;
}

static enum gpulat_era detect_era(struct gpulat_binding *b)
{
	struct tep_event *ev;
	struct tep_format_field *f;

	if (present(b->tep, "gpu_scheduler", "drm_sched_job_queue") ||
	    present(b->tep, "gpu_scheduler", "drm_sched_job_run") ||
	    present(b->tep, "gpu_scheduler", "drm_sched_job_done"))
		return GPULAT_ERA_V617;
	ev = tep_find_event_by_name(b->tep, "gpu_scheduler", "drm_run_job");
	if (ev) {
		f = tep_find_field(ev, "name");
		if (f && (f->flags & TEP_FIELD_IS_DYNAMIC))
			return GPULAT_ERA_V519;
		return GPULAT_ERA_V57;
	}
	if (present(b->tep, "gpu_scheduler", "drm_sched_job") ||
	    present(b->tep, "gpu_scheduler", "drm_sched_process_job") ||
	    present(b->tep, "gpu_sched", "amd_sched_job") ||
	    present(b->tep, "gpu_sched", "amd_sched_process_job"))
		return GPULAT_ERA_PRE57;
	if (present(b->tep, "amdgpu", "amdgpu_cs_ioctl") ||
	    present(b->tep, "amdgpu", "amdgpu_sched_run_job"))
		return GPULAT_ERA_AMDGPU;
	/* i915 does not use drm_sched: its requests are the jobs */
	if (gpulat_binding_has(b, GPULAT_EV_I915_ADD))
		return GPULAT_ERA_I915;
	return GPULAT_ERA_NONE;
}

/* xe_exec_queue_<what> -> GPULAT_XEQ_* */
static unsigned int xe_queue_ev(const char *name)
{
	static const struct { const char *n; unsigned int v; } m[] = {
		{ "xe_exec_queue_create", GPULAT_XEQ_CREATE },
		{ "xe_exec_queue_submit", GPULAT_XEQ_SUBMIT },
		{ "xe_exec_queue_kill", GPULAT_XEQ_KILL },
		{ "xe_exec_queue_reset", GPULAT_XEQ_RESET },
		{ "xe_exec_queue_destroy", GPULAT_XEQ_DESTROY },
	};
	unsigned int i;

	for (i = 0; i < GPULAT_ARRAY_SIZE(m); i++)
		if (!strcmp(name, m[i].n))
			return m[i].v;
	return GPULAT_XEQ_OTHER;
}

/**
 * gpulat_binding_new - find every supported event of every era in @tep
 * @tep: the trace's handle; must outlive the binding
 *
 * Fields are found by name in the trace's own format sections and cached.
 * An event whose layout lacks a required field is not bound, and one warning
 * names the event and the field; warnings issued here are kept and replayed
 * to the callback given to gpulat_binding_set_warn().
 *
 * Return: a binding, or NULL with errno set.
 */
struct gpulat_binding *gpulat_binding_new(struct tep_handle *tep)
{
	struct gpulat_binding *b;
	struct tep_event *ev;
	unsigned int i;

	if (!tep) {
		errno = EINVAL;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->tep = tep;
	b->strs = gpulat__strtab_new();
	b->ev = calloc(GPULAT_ARRAY_SIZE(evdefs), sizeof(*b->ev));
	if (!b->strs || !b->ev)
		goto fail;
	b->empty = gpulat__strtab_intern(b->strs, "");
	if (!b->empty)
		goto fail;

	for (i = 0; i < GPULAT_ARRAY_SIZE(evdefs); i++) {
		struct bound *bd = &b->ev[b->nev];

		ev = tep_find_event_by_name(tep, evdefs[i].system, evdefs[i].name);
		if (!ev)
			continue;
		memset(bd, 0, sizeof(*bd));
		bd->id = ev->id;
		bd->def = &evdefs[i];
		bd->event = ev;
		if (!bind_event(b, bd))
			continue;
		if (evdefs[i].fam == FAM_XE_QUEUE)
			bd->aux = xe_queue_ev(evdefs[i].name);
		if (!b->common_type) {
			b->common_type = tep_find_common_field(ev, "common_type");
			b->common_pid = tep_find_common_field(ev, "common_pid");
			b->common_flags = tep_find_common_field(ev, "common_flags");
			b->n_pid = fnum_of(b->common_pid);
			b->n_flags = fnum_of(b->common_flags);
		}
		b->has |= 1ull << evdefs[i].kind;
		b->nev++;
	}
	qsort(b->ev, b->nev, sizeof(*b->ev), cmp_bound);
	/* as tep_read_number(): swap when the file and host byte orders differ */
	b->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	build_idx(b);
	b->ct_u16 = b->common_type && b->common_type->offset >= 0 &&
		    b->common_type->size == 2 &&
		    !(b->common_type->flags & TEP_FIELD_IS_SIGNED);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* every kernel's layout: type u16 at 0, flags u8 at 2, preempt_count u8, pid s32 at 4 */
	b->common_std = !b->swap && b->n_flags.off == 2 && b->n_flags.size == 1 &&
			b->n_pid.off == 4 && b->n_pid.size == 4;
#endif
	b->era = detect_era(b);
	return b;
fail:
	gpulat_binding_free(b);
	errno = ENOMEM;
	return NULL;
}

/**
 * gpulat_binding_free - free a binding and every string it interned
 * @b: the binding, may be NULL
 */
void gpulat_binding_free(struct gpulat_binding *b)
{
	unsigned int i;

	if (!b)
		return;
	for (i = 0; i < b->nkept; i++)
		free(b->kept[i]);
	gpulat__strtab_free(b->strs);
	if (!b->parent)
		free(b->idx);	/* a clone reads its parent's */
	free(b->map);
	free(b->memo);
	free(b->ev);
	free(b);
}

/**
 * gpulat_binding_set_warn - where one-line warnings go
 * @b: binding
 * @fn: callback, NULL to keep them (up to 32) for later
 * @data: its argument
 *
 * Warnings produced by gpulat_binding_new() are delivered to @fn now.
 */
void gpulat_binding_set_warn(struct gpulat_binding *b, gpulat_warn_fn fn, void *data)
{
	unsigned int i;

	b->warn = fn;
	b->warn_data = data;
	if (!fn)
		return;
	for (i = 0; i < b->nkept; i++) {
		fn(b->kept[i], data);
		free(b->kept[i]);
	}
	b->nkept = 0;
}

/**
 * gpulat_binding_era - the era detected from the events present in the trace
 * @b: binding
 *
 * Return: the era, GPULAT_ERA_NONE when no GPU scheduler or amdgpu event exists.
 */
enum gpulat_era gpulat_binding_era(const struct gpulat_binding *b)
{
	return b->era;
}

/**
 * gpulat_binding_has - whether @kind has at least one bound event in this trace
 * @b: binding
 * @kind: event kind
 *
 * Return: true if bound.
 */
bool gpulat_binding_has(const struct gpulat_binding *b, enum gpulat_kind kind)
{
	if ((unsigned int)kind >= GPULAT_EV__COUNT)
		return false;
	return b->has & (1ull << kind);
}

/**
 * gpulat_binding_problems - number of layout problems warned about
 * @b: binding
 *
 * Return: the count.
 */
unsigned int gpulat_binding_problems(const struct gpulat_binding *b)
{
	return b->problems;
}

/**
 * gpulat_binding_intern - intern a string in the binding's table
 * @b: binding
 * @s: string
 *
 * Return: the interned copy (equal strings give the same pointer), NULL on ENOMEM.
 */
const char *gpulat_binding_intern(struct gpulat_binding *b, const char *s)
{
	return gpulat__strtab_intern(b->strs, s);
}

static struct bound *lookup(struct gpulat_binding *b, int id)
{
	int i;

	if (b->last < b->nev && b->ev[b->last].id == id)
		return &b->ev[b->last];
	i = search(b, id);
	if (i < 0)
		return NULL;
	b->last = (unsigned int)i;
	return &b->ev[i];
}

/**
 * gpulat_binding_kind_of - the kind of the event with this id
 * @b: binding
 * @event_id: tep event id
 *
 * Return: the kind, GPULAT_EV_NONE if the event is not one of ours.
 */
enum gpulat_kind gpulat_binding_kind_of(const struct gpulat_binding *b, int event_id)
{
	int i = search(b, event_id);

	return i < 0 ? GPULAT_EV_NONE : b->ev[i].def->kind;
}

/**
 * gpulat_binding_event_name - "system:event" of a bound event id (for messages)
 * @b: binding
 * @event_id: tep event id
 *
 * Return: a static "system:event" pair in @sys/@name, or -ENOENT.
 */
int gpulat_binding_event_name(const struct gpulat_binding *b, int event_id,
			      const char **sys, const char **name)
{
	unsigned int i;

	for (i = 0; i < b->nev; i++) {
		if (b->ev[i].id == event_id) {
			*sys = b->ev[i].def->system;
			*name = b->ev[i].def->name;
			return 0;
		}
	}
	return -ENOENT;
}

/* @size bytes at @p as a host number: what tep_read_number() returns, inline */
static inline uint64_t load_num(const struct gpulat_binding *b, const void *p, int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		return b->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		return b->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, sizeof(v64));
		return b->swap ? __builtin_bswap64(v64) : v64;
	default:
		return 0;	/* tep_read_number() reads no other size */
	}
}

/* A number field, bounds-checked against the record. */
static inline int read_num(const struct gpulat_binding *b, const struct tep_format_field *f,
			   const struct tep_record *rec, uint64_t *v)
{
	uint64_t val;

	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 ||
	    f->offset + f->size > rec->size)
		return -1;
	val = load_num(b, (const char *)rec->data + f->offset, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned int bits = f->size * 8;
		uint64_t sign = 1ULL << (bits - 1);

		val &= (1ULL << bits) - 1;
		val = (val ^ sign) - sign;	/* sign-extend */
	}
	*v = val;
	return 0;
}

/* read_num() of a field bound as @n, the other byte order out of line */
static __attribute__((noinline)) uint64_t read_fnum_swapped(const struct gpulat_binding *b,
							    const struct fnum *n, const char *p)
{
	uint64_t val = load_num(b, p, n->size);

	if (n->sign_bits) {
		uint64_t sign = 1ULL << (n->sign_bits - 1);

		val &= (1ULL << n->sign_bits) - 1;
		val = (val ^ sign) - sign;	/* sign-extend */
	}
	return val;
}

static inline int read_fnum(const struct gpulat_binding *b, const struct fnum *n,
			    const struct tep_record *rec, uint64_t *v)
{
	const char *p = (const char *)rec->data + n->off;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Most fields have 8 bytes of the record from their offset: one load, the
	 * sign and size by a shift and a mask, no switch (callgrind, KernelShark
	 * dense-1M: ~1 M reads)
	 */
	if (__builtin_expect(n->end8 <= rec->size && !b->swap, 1)) {
		memcpy(&v64, p, sizeof(v64));
		*v = (uint64_t)((int64_t)(v64 << n->sh) >> n->sh) & n->mask;
		return 0;
	}
#endif
	if (n->end > rec->size)
		return -1;
	if (__builtin_expect(b->swap, 0)) {
		*v = read_fnum_swapped(b, n, p);
		return 0;
	}
	switch (n->how) {
	case FN_U8:
		*v = *(const uint8_t *)p;
		break;
	case FN_U16:
		memcpy(&v16, p, sizeof(v16));
		*v = v16;
		break;
	case FN_U32:
		memcpy(&v32, p, sizeof(v32));
		*v = v32;
		break;
	case FN_U64:
		memcpy(&v64, p, sizeof(v64));
		*v = v64;
		break;
	case FN_S8:
		*v = (uint64_t)(int64_t) * (const int8_t *)p;
		break;
	case FN_S16:
		memcpy(&v16, p, sizeof(v16));
		*v = (uint64_t)(int64_t)(int16_t)v16;
		break;
	case FN_S32:
		memcpy(&v32, p, sizeof(v32));
		*v = (uint64_t)(int64_t)(int32_t)v32;
		break;
	default:
		*v = 0; /* tep_read_number() reads no other size */
		break;
	}
	return 0;
}

/* memcmp() == 0 for the few bytes of a name, without the call */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	uint32_t u, v;

	if (n >= 8) {
		/* whole words, then the last 8 bytes (overlapping the previous word) */
		for (; n > 8; a += 8, b += 8, n -= 8) {
			memcpy(&x, a, sizeof(x));
			memcpy(&y, b, sizeof(y));
			if (x != y)
				return false;
		}
		memcpy(&x, a + n - 8, sizeof(x));
		memcpy(&y, b + n - 8, sizeof(y));
		return x == y;
	}
	if (n >= 4) {
		/* 4 to 7 bytes: the first 4 and the last 4 */
		memcpy(&u, a, sizeof(u));
		memcpy(&v, b, sizeof(v));
		if (u != v)
			return false;
		memcpy(&u, a + n - 4, sizeof(u));
		memcpy(&v, b + n - 4, sizeof(v));
		return u == v;
	}
	for (; n; a++, b++, n--)
		if (*a != *b)
			return false;
	return true;
}

/*
 * Intern @len raw bytes of a string field (up to the first NUL), through the
 * field's cache: a way holding interned @s of length @l matches when the raw
 * bytes are @s followed by a NUL (or exactly @s when @len == @l), i.e. exactly
 * when gpulat__strtab_intern_len() would return @s.
 */
static __attribute__((noinline)) const char *
intern_miss(struct gpulat_binding *b, struct strcache *c, const char *raw, size_t len)
{
	const char *s;
	unsigned int i;

	s = gpulat__strtab_intern_name(b->strs, raw, len);
	if (!s)
		return NULL;
	/* an escaped name is not the raw bytes: the cache must not match it on them */
	if (strncmp(s, raw, len))
		return s;
	i = c->next;
	c->next = (i + 1) % STRCACHE_WAYS;
	c->s[i] = s;
	c->len[i] = strlen(s);
	return s;
}

/*
 * Inline, the miss out of line: the call's entry and exit were 17 of the
 * 45 instructions of a string (callgrind, KernelShark dense-1M: 475 k)
 */
static inline __attribute__((always_inline)) const char *
intern_cached(struct gpulat_binding *b, struct strcache *c, const char *raw, size_t len)
{
	unsigned int i;

	for (i = 0; i < STRCACHE_WAYS && c->s[i]; i++) {
		size_t l = c->len[i];

		if (len >= l && same_bytes(raw, c->s[i], len > l ? l + 1 : l))
			return c->s[i];
	}
	return intern_miss(b, c, raw, len);
}

/* a `const char *` field, unreadable offline: its value as "0x%llx" (read_str()) */
static __attribute__((noinline)) int read_str_ptr(struct gpulat_binding *b,
						  const struct tep_format_field *f,
						  const struct tep_record *rec, const char **out,
						  bool *is_ptr)
{
	char buf[32];
	uint64_t v;

	if (read_num(b, f, rec, &v))
		return -1;
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	*out = gpulat__strtab_intern(b->strs, buf);
	if (is_ptr)
		*is_ptr = true;
	return *out ? 0 : -1;
}

/*
 * A string field: __data_loc / __rel_loc, a fixed char array, or a pointer
 * (const char * that cannot be dereferenced offline: "0x%llx", *is_ptr set).
 * Return 0, or -1 when the string lies outside the record.
 *
 * Inlined into decode_event() (the pointer case stays a call): the call and
 * its generic checks were 52 of the ~100 instructions of a string (dense-1M
 * in KernelShark: 475 k strings, decode 134.3 M -> 122.0 M).
 */
static inline __attribute__((always_inline)) int
read_str(struct gpulat_binding *b, const struct tep_format_field *f, struct strcache *c,
	 const struct tep_record *rec, const char **out, bool *is_ptr)
{
	uint64_t v;
	unsigned int off, len;

	*out = NULL;
	if (is_ptr)
		*is_ptr = false;
	if (!f)
		return 0;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		if (f->offset < 0 || f->offset + 4 > rec->size)
			return -1;
		v = load_num(b, (const char *)rec->data + f->offset, 4);
		off = v & 0xffff;
		len = (v >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
		if ((uint64_t)off + len > (uint64_t)rec->size)
			return -1;
		*out = intern_cached(b, c, (const char *)rec->data + off, len);
		return *out ? 0 : -1;
	}
	if ((f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_STRING &&
						 !(f->flags & TEP_FIELD_IS_POINTER))) {
		if (f->offset < 0 || f->offset + f->size > rec->size)
			return -1;
		*out = intern_cached(b, c, (const char *)rec->data + f->offset, f->size);
		return *out ? 0 : -1;
	}
	return read_str_ptr(b, f, rec, out, is_ptr);
}

/*
 * A clone's ev->comm: tep's comm lookup is not known to be thread safe
 * (libtraceevent builds its sorted cmdline array on first use), so the
 * parent's thread looks it up (gpulat__binding_adopt()).
 */
static const char comm_later[] = "";

/*
 * A pid's name, cached by pid: libtraceevent's lookup (a bsearch of its
 * cmdlines) was 10 M of comm_of()'s 13 M instructions on KernelShark's
 * dense-1M (47 k queue events). The cache is exact while the tep's names
 * only grow, as they do while we read: tep_register_comm() (libkshark's
 * and trace-cmd's sched plugins, at load or print) never replaces the name
 * of a pid it has, only tep_override_comm() does, and no front end of ours
 * calls it. A pid without a name ("<...>") may get one later: not cached.
 */
static const char *comm_of(struct gpulat_binding *b, int pid)
{
	struct commcache *e;
	const char *c, *s;

	if (b->parent)
		return comm_later;
	e = &b->comms[(unsigned int)pid % COMM_CACHE];
	if (e->out && e->pid == pid)
		return e->out;
	c = tep_data_comm_from_pid(b->tep, pid);
	if (!c)
		return NULL;
	s = gpulat__strtab_intern_name(b->strs, c, strlen(c));
	if (s && strcmp(c, "<...>")) {
		e->pid = pid;
		e->out = s;
	}
	return s;
}

/*
 * A record stamped 2^64 - 1 ns: that time is GPULAT_NONE ("no such stage") for
 * every stage and span, so it cannot be taken as is; a damaged page time or a
 * hostile trace (tests/damaged/hostile.py future). Skipped as damaged.
 */
static int damaged_ts(struct gpulat_binding *b, struct bound *bd)
{
	if (b->parent)
		return -1;	/* a clone: the parent decodes it again */
	bd->damaged++;
	if (!bd->damaged_warned) {
		bd->damaged_warned = true;
		b->problems++;
		warnf(b, "%s:%s: record stamped at the largest time (2^64 - 1 ns); skipped",
		      bd->def->system, bd->def->name);
	}
	return -1;
}

static int damaged(struct gpulat_binding *b, struct bound *bd)
{
	if (b->parent)
		return -1;	/* a clone: the parent decodes it again */
	bd->damaged++;
	if (!bd->damaged_warned) {
		bd->damaged_warned = true;
		b->problems++;
		warnf(b, "%s:%s: damaged record (field outside the record); skipped",
		      bd->def->system, bd->def->name);
	}
	return -1;
}

/* read an optional number slot: 1 present, 0 absent, -1 damaged (inline: a call was 2.4 M) */
static inline __attribute__((always_inline)) int opt_num(struct gpulat_binding *b, struct bound *bd,
							 enum slot s, struct tep_record *rec,
							 uint64_t *v)
{
	if (!bd->f[s])
		return 0;
	return read_fnum(b, &bd->n[s], rec, v) ? -1 : 1;
}

/**
 * gpulat_binding_set_context - decode the irq/sched/power context events or not
 * @b: binding
 * @on: false makes gpulat_binding_decode() return 0 for them (the default is true)
 *
 * Job linking needs none of them; only diagnosis (gpulat-diag.h) does.
 */
void gpulat_binding_set_context(struct gpulat_binding *b, bool on)
{
	if (b->no_context == !on)
		return;
	b->no_context = !on;
	build_idx(b);
}

/*
 * memset() of the whole event compiles to a "rep stos" whose start-up costs
 * more than the rest of a decode; constant 32-byte pieces become plain
 * vector stores.
 */
static inline void zero_event(struct gpulat_event *ev)
{
	char *p = (char *)ev;
	size_t n = sizeof(*ev);

	/* unrolled: the loop's own compares and adds were 2/3 of its 36 Ir a record */
#pragma GCC unroll 16
	for (; n >= 32; p += 32, n -= 32)
		memset(p, 0, 32);
	memset(p, 0, n);
}

/* interned i915 engine name (gpulat__i915_engine()), cached per class:instance */
static const char *i915_engine_name(struct gpulat_binding *b, uint64_t cls, uint64_t inst)
{
	const char **slot = NULL;
	const char *s;
	char buf[48];

	if (cls < I915_CLASSES && inst < I915_INSTANCES) {
		slot = &b->i915_engine[cls][inst];
		if (*slot)
			return *slot;
	}
	gpulat__i915_engine(buf, sizeof(buf), cls, inst);
	s = gpulat__strtab_intern(b->strs, buf);
	if (slot)
		*slot = s;
	return s;
}

/* interned "card<dev>" (gpulat__i915_dev()), cached */
static const char *i915_dev_name(struct gpulat_binding *b, uint64_t dev)
{
	const char *s;
	char buf[32];

	if (dev < I915_DEVS && b->i915_dev[dev])
		return b->i915_dev[dev];
	gpulat__i915_dev(buf, sizeof(buf), dev);
	s = gpulat__strtab_intern(b->strs, buf);
	if (dev < I915_DEVS)
		b->i915_dev[dev] = s;
	return s;
}

/* decode a record of bound event @bd (gpulat_binding_decode() found it ours) */
static __attribute__((noinline)) int decode_event(struct gpulat_binding *b, struct bound *bd,
						  struct tep_record *rec, struct gpulat_event *ev)
{
	uint64_t v;
	bool is_ptr;
	int r;

	if (rec->ts == GPULAT_NONE)
		return damaged_ts(b, bd);
	zero_event(ev);
	ev->ts = rec->ts;
	ev->cpu = rec->cpu;
	ev->kind = bd->def->kind;
	ev->dev = b->empty;
	if (__builtin_expect(b->common_std && rec->size >= 8, 1)) {
		/*
		 * pid and flags out of one 8-byte load of the common fields, as
		 * the two reads below give them (callgrind, KernelShark dense-1M:
		 * 333 k records, decode 80.2 M -> 75.2 M)
		 */
		memcpy(&v, rec->data, sizeof(v));
		ev->pid = (int)(int32_t)(v >> 32);
		v >>= 16;
	} else {
		if (!read_fnum(b, &b->n_pid, rec, &v))
			ev->pid = (int)v;
		if (read_fnum(b, &b->n_flags, rec, &v))
			v = 0;
	}
	if (v & 0x08)
		ev->flags |= GPULAT_EVF_HARDIRQ;
	if (v & 0x10)
		ev->flags |= GPULAT_EVF_SOFTIRQ;

	switch (bd->def->fam) {
	case FAM_SCHED_JOB:
	case FAM_SCHED_WAITDEP:
		if (read_str(b, bd->f[S_NAME], &bd->sc[SC_NAME], rec, &ev->ring, &is_ptr))
			return damaged(b, bd);
		if (is_ptr)
			ev->flags |= GPULAT_EVF_RING_PTR;
		if (bd->def->fam == FAM_SCHED_JOB) {
			if (read_fnum(b, &bd->n[S_FENCE], rec, &ev->fence_ptr))
				return damaged(b, bd);
			ev->flags |= GPULAT_EVF_FENCE_PTR;
		} else {
			if (read_fnum(b, &bd->n[S_DEPPTR], rec, &ev->dep_ptr))
				return damaged(b, bd);
			ev->flags |= GPULAT_EVF_DEP_PTR;
			r = opt_num(b, bd, S_DEPCTX, rec, &ev->dep_ctx);
			if (r < 0 || opt_num(b, bd, S_DEPSEQNO, rec, &ev->dep_seqno) < 0)
				return damaged(b, bd);
			if (r > 0 && bd->f[S_DEPSEQNO])
				ev->flags |= GPULAT_EVF_DEP;
		}
		r = opt_num(b, bd, S_ID, rec, &ev->id);
		if (r < 0)
			return damaged(b, bd);
		if (r > 0)
			ev->flags |= GPULAT_EVF_ID;
		break;
	case FAM_SCHED_DONE:
		if (read_fnum(b, &bd->n[S_FENCE], rec, &ev->fence_ptr))
			return damaged(b, bd);
		ev->flags |= GPULAT_EVF_FENCE_PTR;
		break;
	case FAM_617_JOB:
		if (read_str(b, bd->f[S_NAME], &bd->sc[SC_NAME], rec, &ev->ring, NULL) ||
		    read_str(b, bd->f[S_DEV], &bd->sc[SC_DEV], rec, &ev->dev, NULL))
			return damaged(b, bd);
		/* fall through */
	case FAM_617_DONE:
	case FAM_617_DEP:
		if (read_fnum(b, &bd->n[S_CTX], rec, &ev->ctx) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno))
			return damaged(b, bd);
		ev->flags |= GPULAT_EVF_FENCE;
		if (bd->def->fam == FAM_617_DEP) {
			if (read_fnum(b, &bd->n[S_DEPCTX], rec, &ev->dep_ctx) ||
			    read_fnum(b, &bd->n[S_DEPSEQNO], rec, &ev->dep_seqno))
				return damaged(b, bd);
			ev->flags |= GPULAT_EVF_DEP;
		}
		if (bd->def->fam == FAM_617_DONE && bd->f[S_DEV] &&
		    read_str(b, bd->f[S_DEV], &bd->sc[SC_DEV], rec, &ev->dev, NULL))
			return damaged(b, bd);
		if (!ev->dev)
			ev->dev = b->empty;
		r = opt_num(b, bd, S_CLIENT, rec, &ev->client_id);
		if (r < 0)
			return damaged(b, bd);
		if (r > 0)
			ev->flags |= GPULAT_EVF_CLIENT;
		break;
	case FAM_FENCE:
		if (read_str(b, bd->f[S_DRIVER], &bd->sc[SC_DRIVER], rec, &ev->driver, NULL) ||
		    read_str(b, bd->f[S_TIMELINE], &bd->sc[SC_TIMELINE], rec, &ev->timeline,
			     NULL) ||
		    read_fnum(b, &bd->n[S_CTX], rec, &ev->ctx) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno))
			return damaged(b, bd);
		ev->flags |= GPULAT_EVF_FENCE;
		if (bd->f[S_CTX]->size < 8 || bd->f[S_SEQNO]->size < 8)
			ev->flags |= GPULAT_EVF_FENCE32;
		if (ev->kind == GPULAT_EV_FENCE_WAIT_START || ev->kind == GPULAT_EV_FENCE_WAIT_END)
			ev->comm = comm_of(b, ev->pid);
		break;
	case FAM_AMD_JOB:
		if (read_str(b, bd->f[S_TIMELINE], &bd->sc[SC_TIMELINE], rec, &ev->timeline,
			     NULL) ||
		    read_fnum(b, &bd->n[S_CTX], rec, &ev->ctx) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno) ||
		    read_str(b, bd->f[S_NAME], &bd->sc[SC_NAME], rec, &ev->ring, &is_ptr))
			return damaged(b, bd);
		/* a `char *ring_name` (<= 5.4.6) cannot be read: the timeline is the ring */
		if (!ev->ring || (bd->f[S_NAME] && is_ptr))
			ev->ring = ev->timeline;
		ev->flags |= GPULAT_EVF_FENCE;
		if (bd->f[S_CTX]->size < 8 || bd->f[S_SEQNO]->size < 8)
			ev->flags |= GPULAT_EVF_FENCE32;
		r = opt_num(b, bd, S_ID, rec, &ev->id);
		if (r < 0)
			return damaged(b, bd);
		if (r > 0)
			ev->flags |= GPULAT_EVF_ID;
		break;
	case FAM_AMD_IV:
		if (opt_num(b, bd, S_IRQ, rec, &v) > 0)
			ev->irq = (int)v;
		if (opt_num(b, bd, S_VALUE, rec, &ev->value) < 0 ||
		    opt_num(b, bd, S_CLIENT, rec, &ev->client_id) < 0)
			return damaged(b, bd);
		break;
	case FAM_IRQ:
	case FAM_SOFTIRQ:
		if (read_fnum(b, &bd->n[S_IRQ], rec, &v))
			return damaged(b, bd);
		ev->irq = (int)v;
		break;
	case FAM_SWITCH:
		if (read_fnum(b, &bd->n[S_PREV_PID], rec, &v))
			return damaged(b, bd);
		ev->prev_pid = (int)v;
		if (read_fnum(b, &bd->n[S_NEXT_PID], rec, &v))
			return damaged(b, bd);
		ev->next_pid = (int)v;
		if (opt_num(b, bd, S_PREV_STATE, rec, &v) > 0)
			ev->prev_state = (long)v;
		break;
	case FAM_WAKING:
		if (read_fnum(b, &bd->n[S_NEXT_PID], rec, &v))
			return damaged(b, bd);
		ev->next_pid = (int)v;
		if (opt_num(b, bd, S_CPUID, rec, &v) > 0)
			ev->irq = (int)v;
		break;
	case FAM_CPUFREQ:
		if (read_fnum(b, &bd->n[S_VALUE], rec, &ev->value) ||
		    read_fnum(b, &bd->n[S_CPUID], rec, &v))
			return damaged(b, bd);
		ev->irq = (int)v;
		break;
	case FAM_I915_REQ: {
		uint64_t dev, cls, inst;

		if (read_fnum(b, &bd->n[S_DEV], rec, &dev) ||
		    read_fnum(b, &bd->n[S_CTX], rec, &ev->ctx) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno) ||
		    read_fnum(b, &bd->n[S_CLASS], rec, &cls) ||
		    read_fnum(b, &bd->n[S_INSTANCE], rec, &inst) ||
		    opt_num(b, bd, S_VALUE, rec, &ev->value) < 0)
			return damaged(b, bd);
		ev->dev = i915_dev_name(b, dev);
		ev->ring = i915_engine_name(b, cls, inst);
		/* ctx is the request fence's full u64 context, seqno its u32 seqno */
		ev->flags |= GPULAT_EVF_FENCE;
		if (!ev->dev || !ev->ring)
			return damaged(b, bd);
		if (ev->kind == GPULAT_EV_I915_ADD || ev->kind == GPULAT_EV_I915_QUEUE ||
		    ev->kind == GPULAT_EV_I915_WAIT_BEGIN || ev->kind == GPULAT_EV_I915_WAIT_END)
			ev->comm = comm_of(b, ev->pid);
		break;
	}
	case FAM_XE_JOB:
	case FAM_XE_FENCE:
	case FAM_XE_QUEUE:
		if (bd->f[S_DEV] &&
		    read_str(b, bd->f[S_DEV], &bd->sc[SC_DEV], rec, &ev->dev, NULL))
			return damaged(b, bd);
		if (!ev->dev)
			ev->dev = b->empty;
		if (bd->def->fam == FAM_XE_QUEUE) {
			if (read_fnum(b, &bd->n[S_GUC], rec, &v))
				return damaged(b, bd);
			ev->guc_id = (uint32_t)v;
			ev->flags |= GPULAT_EVF_GUC;
			ev->value = bd->aux;
			if (opt_num(b, bd, S_CLASS, rec, &v) > 0)
				ev->irq = (int)v;
			break;
		}
		if (read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno) ||
		    read_fnum(b, &bd->n[S_FENCE], rec, &ev->fence_ptr))
			return damaged(b, bd);
		ev->flags |= GPULAT_EVF_FENCE_PTR;
		if (bd->def->fam == FAM_XE_FENCE) {
			if (read_fnum(b, &bd->n[S_CTX], rec, &ev->ctx))
				return damaged(b, bd);
			ev->flags |= GPULAT_EVF_FENCE;
			break;
		}
		if (read_fnum(b, &bd->n[S_GUC], rec, &v))
			return damaged(b, bd);
		ev->guc_id = (uint32_t)v;
		ev->flags |= GPULAT_EVF_GUC;
		if (opt_num(b, bd, S_LRC, rec, &v) > 0)
			ev->lrc_seqno = (uint32_t)v;
		r = opt_num(b, bd, S_VALUE, rec, &ev->value);
		if (r < 0)
			return damaged(b, bd);
		if (ev->kind == GPULAT_EV_XE_JOB_CREATE)
			ev->comm = comm_of(b, ev->pid);
		break;
	case FAM_MSM_SUBMIT:
		if (read_fnum(b, &bd->n[S_ID], rec, &ev->id) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno) ||
		    read_fnum(b, &bd->n[S_TICKS], rec, &ev->ticks) ||
		    opt_num(b, bd, S_TICKS_END, rec, &ev->ticks_end) < 0)
			return damaged(b, bd);
		/* the ring is msm's ringid, not the scheduler's name: no ring */
		ev->flags |= GPULAT_EVF_ID | GPULAT_EVF_TICKS;
		break;
	case FAM_V3D:
		if (read_fnum(b, &bd->n[S_DEV], rec, &v) ||
		    read_fnum(b, &bd->n[S_SEQNO], rec, &ev->seqno) ||
		    opt_num(b, bd, S_VALUE, rec, &ev->value) < 0)
			return damaged(b, bd);
		ev->dev = i915_dev_name(b, v);	/* the DRM primary minor: card<n> */
		if (!ev->dev)
			return damaged(b, bd);
		break;
	case FAM_VBLANK:
	case FAM_VBLANK_FILE:
		if (read_fnum(b, &bd->n[S_CRTC], rec, &v))
			return damaged(b, bd);
		ev->crtc = (int)v;
		if (read_fnum(b, &bd->n[S_VBL_SEQ], rec, &v))
			return damaged(b, bd);
		ev->vbl_seq = (uint32_t)v;
		r = opt_num(b, bd, S_VBL_TIME, rec, &v);
		if (r < 0)
			return damaged(b, bd);
		if (r > 0) {
			ev->vbl_time = (int64_t)v;
			ev->flags |= GPULAT_EVF_VBL_TIME;
		}
		if (opt_num(b, bd, S_VBL_HIGH_PREC, rec, &v) > 0 && v)
			ev->flags |= GPULAT_EVF_VBL_HIGH_PREC;
		r = opt_num(b, bd, S_VBL_FILE, rec, &ev->vbl_file);
		if (r < 0)
			return damaged(b, bd);
		if (r > 0)
			ev->flags |= GPULAT_EVF_VBL_FILE;
		if (bd->def->fam == FAM_VBLANK_FILE)
			ev->comm = comm_of(b, ev->pid);
		break;
	}

	if (bd->f[S_JOBCNT] || bd->f[S_HWCNT]) {
		if (opt_num(b, bd, S_JOBCNT, rec, &v) > 0)
			ev->job_count = (uint32_t)v;
		if (opt_num(b, bd, S_HWCNT, rec, &v) > 0)
			ev->hw_job_count = (int32_t)v;
		ev->flags |= GPULAT_EVF_COUNTS;
	}
	if (ev->kind == GPULAT_EV_QUEUE || ev->kind == GPULAT_EV_AMD_CS)
		ev->comm = comm_of(b, ev->pid);
	return 1;
}

/**
 * gpulat_binding_decode - turn one record into a normalized event
 * @b: binding
 * @rec: the record (rec->ts, rec->cpu, rec->data, rec->size are used)
 * @ev: filled on success
 *
 * Every read is checked against rec->size: a __data_loc string or a field that
 * lies outside the record makes the record "damaged".
 *
 * Return: 1 when @rec is a bound event and @ev was filled, 0 when the record
 * is not one of ours, -1 when it is ours but damaged; a damaged record is
 * counted and warned about once per event.
 */
int gpulat_binding_decode(struct gpulat_binding *b, struct tep_record *rec,
			  struct gpulat_event *ev)
{
	const struct tep_format_field *ct = b->common_type;
	struct bound *bd;
	uint64_t type;
	uint16_t v16;
	int id;

	if (!ct || !rec || !rec->data)
		return 0;
	/* most records are not ours: keep this path to a few loads */
	if (b->ct_u16) {
		/* read_num() of an unsigned 2-byte field at a valid offset */
		if (ct->offset + 2 > rec->size)
			return 0;
		memcpy(&v16, (const char *)rec->data + ct->offset, sizeof(v16));
		id = b->swap ? __builtin_bswap16(v16) : v16;
	} else {
		if (read_num(b, ct, rec, &type))
			return 0;
		id = (int)type;
	}
	if ((unsigned int)id < b->nidx && b->idx[id])
		return decode_event(b, &b->ev[b->idx[id] - 1], rec, ev);
	/* not ours, unless a bound id lies outside the table */
	if (!b->idx_partial)
		return 0;
	bd = lookup(b, id);
	if (!bd)
		return 0;
	/* most records of a real trace are context events: cheap to skip */
	if (b->no_context && is_context(bd))
		return 0;
	return decode_event(b, bd, rec, ev);
}

/*
 * Clones for read-par.c's threads (-j N), decoding with
 * gpulat_binding_decode() on their thread. A clone shares its parent's
 * bound fields and id table (read only: made after
 * gpulat_binding_set_context(), which must not be called while clones
 * exist) and has its own string caches and string table, so a thread can
 * decode with it while the parent decodes on another. It returns 1 with
 * @ev holding strings of its own table, to be mapped by
 * gpulat__binding_adopt() on the parent's thread, 0 (not ours) as the
 * parent would, and -1 for a damaged record without counting or warning:
 * the parent decodes that one again (gpulat_binding_decode()), so damage is
 * counted and warned about in time order, once.
 */
struct gpulat_binding *gpulat__binding_clone(struct gpulat_binding *b)
{
	struct gpulat_binding *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *b;
	c->parent = b;
	c->tep = NULL;		/* comm_x(): the parent resolves comms */
	c->warn = NULL;
	c->warn_data = NULL;
	c->nkept = 0;
	c->last = 0;
	c->map = NULL;
	c->nmap = 0;
	c->memo = calloc(ADOPT_MEMO, sizeof(*c->memo));
	memset(c->comms, 0, sizeof(c->comms));
	memset(c->i915_dev, 0, sizeof(c->i915_dev));
	memset(c->i915_engine, 0, sizeof(c->i915_engine));
	c->ev = malloc((b->nev ? b->nev : 1) * sizeof(*c->ev));
	c->strs = gpulat__strtab_new();
	if (!c->ev || !c->strs || !c->memo) {
		free(c->ev);
		free(c->memo);
		gpulat__strtab_free(c->strs);
		free(c);
		return NULL;
	}
	memcpy(c->ev, b->ev, b->nev * sizeof(*c->ev));
	for (unsigned int i = 0; i < c->nev; i++) {
		memset(c->ev[i].sc, 0, sizeof(c->ev[i].sc));
		c->ev[i].damaged = 0;
	}
	c->empty = gpulat__strtab_intern(c->strs, "");
	if (!c->empty) {
		gpulat_binding_free(c);
		return NULL;
	}
	return c;
}

/* the parent's copy of @s, a string of clone @c's table; NULL: ENOMEM */
static __attribute__((noinline)) const char *adopt_miss(struct gpulat_binding *c, const char *s)
{
	uint32_t id = gpulat__strtab_id(s);
	struct adopt_memo *m = &c->memo[((uintptr_t)s >> 3) % ADOPT_MEMO];

	if (id >= c->nmap) {
		uint32_t n = id < 32 ? 64 : 2 * id;
		const char **v = realloc(c->map, n * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + c->nmap, 0, (n - c->nmap) * sizeof(*v));
		c->map = v;
		c->nmap = n;
	}
	/* the clone's string is in the display form already: the parent's equal bytes */
	if (!c->map[id])
		c->map[id] = gpulat__strtab_intern_len(c->parent->strs, s, strlen(s));
	if (c->map[id]) {
		m->in = s;
		m->out = c->map[id];
	}
	return c->map[id];
}

/*
 * @*s of clone @c's table -> the parent's copy; 0 or -1 (ENOMEM). A
 * memo by pointer first: 4 instructions instead of the id's call (25 a
 * string, 19.5 M of the merge thread's 295 M: shape-dense 200 k, -j2).
 */
static inline int adopt_str(struct gpulat_binding *c, const char **s)
{
	const struct adopt_memo *m;

	if (!*s)
		return 0;
	m = &c->memo[((uintptr_t)*s >> 3) % ADOPT_MEMO];
	*s = m->in == *s ? m->out : adopt_miss(c, *s);
	return *s ? 0 : -1;
}

/*
 * @ev, decoded by clone @c on another thread, as the parent's own decode
 * would have made it: its strings the parent's, its comm looked up. On
 * the parent's thread, in the order the parent would have decoded the
 * records (the interned strings are the same, only their table ids may
 * come in another order, and ids are only used to find a string again).
 * Return 0, or -ENOMEM (where the parent's decode would have counted the
 * record as damaged).
 */
int gpulat__binding_adopt(struct gpulat_binding *c, struct gpulat_event *ev)
{
	if (adopt_str(c, &ev->dev) || adopt_str(c, &ev->ring) || adopt_str(c, &ev->driver) ||
	    adopt_str(c, &ev->timeline))
		return -ENOMEM;
	if (ev->comm == comm_later)
		ev->comm = comm_of(c->parent, ev->pid);
	return 0;
}

/*
 * Can gpulat_binding_decode() return non-zero for @rec? False only when it
 * surely returns 0 (not ours), the same few loads; true when unsure. Only
 * reads what gpulat_binding_set_context() built, so a reader thread may ask
 * while another thread decodes (read-par.c).
 */
bool gpulat__binding_wants(const struct gpulat_binding *b, const struct tep_record *rec)
{
	const struct tep_format_field *ct = b->common_type;
	uint16_t v16;
	int id;

	if (!ct || !rec->data)
		return false;
	if (!b->ct_u16 || b->idx_partial)
		return true;
	if (ct->offset + 2 > rec->size)
		return false;
	memcpy(&v16, (const char *)rec->data + ct->offset, sizeof(v16));
	id = b->swap ? __builtin_bswap16(v16) : v16;
	return (unsigned int)id < b->nidx && b->idx[id];
}

/**
 * gpulat__event_def - one entry of GPULAT_EVENTS, for readers without formats
 * @i: index, from 0
 * @sys: its system ("gpu_scheduler", "dma_fence", ...)
 * @name: its event name
 * @kind: its normalized kind
 *
 * The text reader (read-text.c) knows events by name only; it takes the
 * names and kinds from this one list so that both readers agree on them.
 *
 * Return: 0, or -ENOENT past the end.
 */
int gpulat__event_def(unsigned int i, const char **sys, const char **name,
		      enum gpulat_kind *kind)
{
	if (i >= GPULAT_ARRAY_SIZE(evdefs))
		return -ENOENT;
	*sys = evdefs[i].system;
	*name = evdefs[i].name;
	*kind = evdefs[i].kind;
	return 0;
}

/*
 * The public view of the same list, for front ends that hook events by name
 * (the libtraceevent plugin registers a print handler for each GPU event):
 * they walk this list instead of keeping a copy of it.
 */
int gpulat_event_def(unsigned int i, const char **sys, const char **name, enum gpulat_kind *kind)
{
	return gpulat__event_def(i, sys, name, kind);
}
