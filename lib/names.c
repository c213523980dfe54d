// SPDX-License-Identifier: LGPL-2.1
/*
 * Names of eras, event kinds and metrics (the strings of docs/truth-format.md),
 * and durations written for humans.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gpulat-int.h"

/**
 * gpulat_era_name - the era as written in truth files ("5.19-6.16", ...)
 * @era: the era
 *
 * Return: a static string, "none" for GPULAT_ERA_NONE or unknown values.
 */
const char *gpulat_era_name(enum gpulat_era era)
{
	switch (era) {
	case GPULAT_ERA_PRE57:	return "pre-5.7";
	case GPULAT_ERA_V57:	return "5.7-5.18";
	case GPULAT_ERA_V519:	return "5.19-6.16";
	case GPULAT_ERA_V617:	return "6.17+";
	case GPULAT_ERA_AMDGPU:	return "amdgpu";
	case GPULAT_ERA_I915:	return "i915";
	case GPULAT_ERA_NONE:	break;
	}
	return "none";
}

static const char * const kind_names[GPULAT_EV__COUNT] = {
	[GPULAT_EV_NONE]		= "none",
	[GPULAT_EV_QUEUE]		= "queue",
	[GPULAT_EV_RUN]			= "run",
	[GPULAT_EV_DONE]		= "done",
	[GPULAT_EV_DEP]			= "dep",
	[GPULAT_EV_UNSCHED]		= "unschedulable",
	[GPULAT_EV_FENCE_INIT]		= "fence_init",
	[GPULAT_EV_FENCE_EMIT]		= "fence_emit",
	[GPULAT_EV_FENCE_ENABLE]	= "fence_enable_signal",
	[GPULAT_EV_FENCE_SIGNALED]	= "fence_signaled",
	[GPULAT_EV_FENCE_DESTROY]	= "fence_destroy",
	[GPULAT_EV_FENCE_WAIT_START]	= "fence_wait_start",
	[GPULAT_EV_FENCE_WAIT_END]	= "fence_wait_end",
	[GPULAT_EV_AMD_CS]		= "amdgpu_cs_ioctl",
	[GPULAT_EV_AMD_RUN]		= "amdgpu_sched_run_job",
	[GPULAT_EV_AMD_IV]		= "amdgpu_iv",
	[GPULAT_EV_I915_QUEUE]		= "i915_request_queue",
	[GPULAT_EV_I915_ADD]		= "i915_request_add",
	[GPULAT_EV_I915_SUBMIT]		= "i915_request_submit",
	[GPULAT_EV_I915_EXECUTE]	= "i915_request_execute",
	[GPULAT_EV_I915_IN]		= "i915_request_in",
	[GPULAT_EV_I915_OUT]		= "i915_request_out",
	[GPULAT_EV_I915_RETIRE]		= "i915_request_retire",
	[GPULAT_EV_I915_WAIT_BEGIN]	= "i915_request_wait_begin",
	[GPULAT_EV_I915_WAIT_END]	= "i915_request_wait_end",
	[GPULAT_EV_XE_JOB_CREATE]	= "xe_sched_job_create",
	[GPULAT_EV_XE_JOB_EXEC]		= "xe_sched_job_exec",
	[GPULAT_EV_XE_JOB_RUN]		= "xe_sched_job_run",
	[GPULAT_EV_XE_JOB_FREE]		= "xe_sched_job_free",
	[GPULAT_EV_XE_JOB_TIMEDOUT]	= "xe_sched_job_timedout",
	[GPULAT_EV_XE_JOB_SET_ERROR]	= "xe_sched_job_set_error",
	[GPULAT_EV_XE_JOB_BAN]		= "xe_sched_job_ban",
	[GPULAT_EV_XE_HW_FENCE_CREATE]	= "xe_hw_fence_create",
	[GPULAT_EV_XE_HW_FENCE_SIGNAL]	= "xe_hw_fence_signal",
	[GPULAT_EV_XE_HW_FENCE_TRY_SIGNAL] = "xe_hw_fence_try_signal",
	[GPULAT_EV_XE_EXEC_QUEUE]	= "xe_exec_queue",
	[GPULAT_EV_MSM_FLUSH]		= "msm_gpu_submit_flush",
	[GPULAT_EV_MSM_RETIRED]		= "msm_gpu_submit_retired",
	[GPULAT_EV_V3D_SUBMIT]		= "v3d_submit",
	[GPULAT_EV_V3D_IRQ]		= "v3d_irq",
	[GPULAT_EV_IRQ_ENTRY]		= "irq_handler_entry",
	[GPULAT_EV_IRQ_EXIT]		= "irq_handler_exit",
	[GPULAT_EV_SOFTIRQ_ENTRY]	= "softirq_entry",
	[GPULAT_EV_SOFTIRQ_EXIT]	= "softirq_exit",
	[GPULAT_EV_SCHED_SWITCH]	= "sched_switch",
	[GPULAT_EV_SCHED_WAKING]	= "sched_waking",
	[GPULAT_EV_CPU_FREQ]		= "cpu_frequency",
	[GPULAT_EV_VBLANK]		= "drm_vblank_event",
	[GPULAT_EV_VBLANK_QUEUED]	= "drm_vblank_event_queued",
	[GPULAT_EV_VBLANK_DELIVERED]	= "drm_vblank_event_delivered",
};

/**
 * gpulat_kind_name - short name of a normalized event kind
 * @kind: the kind
 *
 * Return: a static string ("queue", "run", ...), "?" for out-of-range values.
 */
const char *gpulat_kind_name(enum gpulat_kind kind)
{
	if ((unsigned int)kind >= GPULAT_EV__COUNT || !kind_names[kind])
		return "?";
	return kind_names[kind];
}

/**
 * gpulat_job_metric - a job's value of a metric
 * @job: the job
 * @m: the metric
 *
 * Return: the value in ns, GPULAT_NONE when the job has none (or @m is not a metric).
 */
uint64_t gpulat_job_metric(const struct gpulat_job *job, enum gpulat_metric m)
{
	return gpulat__job_metric(job, m);
}

/**
 * gpulat_metric_name - the metric as named in truth files and reports
 * @m: the metric
 *
 * Return: "wait", "hw_queue", "exec", "total", "dep_wait", or "?".
 */
const char *gpulat_metric_name(enum gpulat_metric m)
{
	switch (m) {
	case GPULAT_M_WAIT:	return "wait";
	case GPULAT_M_HW_QUEUE:	return "hw_queue";
	case GPULAT_M_EXEC:	return "exec";
	case GPULAT_M_TOTAL:	return "total";
	case GPULAT_M_DEP_WAIT:	return "dep_wait";
	case GPULAT_M__COUNT:	break;
	}
	return "?";
}

/**
 * gpulat_stage_name - "queue", "run", "done" or "signal" (truth lost_stages)
 * @st: the stage
 *
 * Return: a static string, "?" for out-of-range values.
 */
const char *gpulat_stage_name(enum gpulat_stage st)
{
	switch (st) {
	case GPULAT_ST_QUEUE:	return "queue";
	case GPULAT_ST_RUN:	return "run";
	case GPULAT_ST_DONE:	return "done";
	case GPULAT_ST_SIGNAL:	return "signal";
	case GPULAT_ST__COUNT:	break;
	}
	return "?";
}

/**
 * gpulat_status_name - "complete", "incomplete", "lost" or "orphan"
 * @s: the job status
 *
 * Return: a static string (the truth-file spelling; "orphan" is ours).
 */
const char *gpulat_status_name(enum gpulat_job_status s)
{
	switch (s) {
	case GPULAT_JOB_COMPLETE:	return "complete";
	case GPULAT_JOB_INCOMPLETE:	return "incomplete";
	case GPULAT_JOB_LOST:		return "lost";
	case GPULAT_JOB_ORPHAN:		return "orphan";
	}
	return "?";
}

/**
 * gpulat_timing_start - how a job's start_ts was obtained
 * @job: the job
 *
 * Return: "measured" (a driver event put the job on the hardware), or
 * "inferred" (max(run, previous done on the ring): the ring is FIFO).
 */
const char *gpulat_timing_start(const struct gpulat_job *job)
{
	return job->timing & GPULAT_TIMING_START_HW ? "measured" : "inferred";
}

/**
 * gpulat_timing_done - how a job's done_ts was obtained
 * @job: the job
 *
 * Return: "late" (i915_request_retire: after the completion, an upper bound)
 * or "exact" (the completion event itself).
 */
const char *gpulat_timing_done(const struct gpulat_job *job)
{
	return job->timing & GPULAT_TIMING_DONE_LATE ? "late" : "exact";
}

/**
 * gpulat_hang_name - name of bit @i of gpulat_job.hang
 * @i: 0 .. GPULAT_HANG__COUNT - 1
 *
 * Return: "timedout" (xe_sched_job_timedout: the scheduler's timeout fired
 * and xe found the job still running), "error" (xe_sched_job_set_error: the
 * job's fence was failed), "banned" (xe_sched_job_ban: its exec queue was
 * banned), or NULL beyond the last bit.
 */
const char *gpulat_hang_name(unsigned int i)
{
	static const char * const names[GPULAT_HANG__COUNT] = { "timedout", "error", "banned" };

	return i < GPULAT_HANG__COUNT ? names[i] : NULL;
}

/*
 * drivers/gpu/drm/amd/amdgpu/amdgpu_job.h (2025-06 and later): kernel jobs
 * carry client ids counting down from U64_MAX; index = U64_MAX - id. Index 2
 * was renamed VM_MAP_RANGE in 2026 (same id). Real client ids count up from 1.
 */
static const char * const kernel_jobs[] = {
	"VM_UPDATE",	    "VM_UPDATE_PDES",	"VM_UPDATE_RANGE",
	"VM_PT_CLEAR",	    "TTM_MAP_BUFFER",	"TTM_ACCESS_MEMORY_SDMA",
	"TTM_COPY_BUFFER",  "CLEAR_ON_RELEASE", "MOVE_BLIT",
	"TTM_CLEAR_BUFFER", "CLEANER_SHADER",	"FLUSH_GPU_TLB",
	"KFD_GART_MAP",	    "VCN_RING_TEST",	NULL,
	"SDMA_RING_TEST",   "VPE_RING_TEST",	"RUN_SHADER",
	"VM_UNMAP_RANGE",
};

/* ids this close to U64_MAX are kernel work (new kinds are added below the last) */
#define KERNEL_JOB_IDS 64

/**
 * gpulat_kernel_job_name - the amdgpu kernel work a job's client_id stands for
 * @client_id: the client_id of the job's queue event (6.17+)
 *
 * Return: a static name, "kernel" for an unnamed kernel id, NULL for a client.
 */
const char *gpulat_kernel_job_name(uint64_t client_id)
{
	uint64_t i = UINT64_MAX - client_id;

	if (i >= KERNEL_JOB_IDS)
		return NULL;
	if (i < GPULAT_ARRAY_SIZE(kernel_jobs) && kernel_jobs[i])
		return kernel_jobs[i];
	return "kernel";
}

/**
 * gpulat_timing_exec - how a job's exec was obtained
 * @job: the job
 *
 * Return: "measured" (the GPU's clock: msm_gpu_submit_retired start and end
 * ticks) or "derived" (done_ts - start_ts).
 */
const char *gpulat_timing_exec(const struct gpulat_job *job)
{
	return job->timing & GPULAT_TIMING_EXEC_HW ? "measured" : "derived";
}

/**
 * gpulat_kind_makes_jobs - whether events of @kind open or complete GPU jobs
 * @kind: the kind
 *
 * A trace with none of them has no jobs to report, whatever else it holds.
 *
 * Return: true for the scheduler's queue/run/done, amdgpu's cs/run and the
 * i915 request stages.
 */
bool gpulat_kind_makes_jobs(enum gpulat_kind kind)
{
	switch (kind) {
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_RUN:
	case GPULAT_EV_DONE:
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_AMD_RUN:
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_SUBMIT:
	case GPULAT_EV_I915_IN:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
		return true;
	default:
		return false;
	}
}

/**
 * gpulat_kind_linked - whether gpulat_tracker_feed() uses events of @kind
 * @kind: the kind
 *
 * Front ends that register per-event handlers (KernelShark) register only these.
 *
 * Return: true for the kinds that make jobs, dependencies, fence inits and
 * signals, and the xe job events.
 */
bool gpulat_kind_linked(enum gpulat_kind kind)
{
	switch (kind) {
	case GPULAT_EV_DEP:
	case GPULAT_EV_UNSCHED:
	case GPULAT_EV_FENCE_INIT:
	case GPULAT_EV_FENCE_SIGNALED:
	case GPULAT_EV_XE_JOB_EXEC:
	case GPULAT_EV_XE_JOB_RUN:
	case GPULAT_EV_XE_JOB_TIMEDOUT:
	case GPULAT_EV_XE_JOB_SET_ERROR:
	case GPULAT_EV_XE_JOB_BAN:
	case GPULAT_EV_XE_JOB_FREE:
	case GPULAT_EV_MSM_FLUSH:
	case GPULAT_EV_MSM_RETIRED:
	case GPULAT_EV_V3D_SUBMIT:
		return true;
	default:
		return gpulat_kind_makes_jobs(kind);
	}
}

bool gpulat_kind_is_gpu(enum gpulat_kind kind)
{
	return kind > GPULAT_EV_NONE && kind <= GPULAT_EV__GPU_LAST;
}

/*
 * i915 engine name from its uabi class:instance, as the kernel names the
 * engines (intel_engine_user.c: rcs, bcs, vcs, vecs, ccs) and i915 tools print
 * them; an unknown class keeps its numbers ("class7:0").
 */
void gpulat__i915_engine(char *buf, size_t len, uint64_t cls, uint64_t inst)
{
	static const char * const names[] = { "rcs", "bcs", "vcs", "vecs", "ccs" };

	if (cls < sizeof(names) / sizeof(names[0]))
		snprintf(buf, len, "%s%llu", names[cls], (unsigned long long)inst);
	else
		snprintf(buf, len, "class%llu:%llu", (unsigned long long)cls,
			 (unsigned long long)inst);
}

/* i915's dev is the DRM primary minor: /dev/dri/card<dev> */
void gpulat__i915_dev(char *buf, size_t len, uint64_t dev)
{
	snprintf(buf, len, "card%llu", (unsigned long long)dev);
}

/**
 * gpulat_fmt_duration - format a duration for humans
 * @buf: output buffer
 * @len: its size
 * @ns: the duration in ns; GPULAT_NONE prints "-"
 *
 * Three significant digits: "812ns", "12.4us", "3.21ms", "1.500s" (seconds
 * keep millisecond resolution).
 *
 * Return: @buf.
 */
/* @n in decimal at @p (no NUL); the end */
static char *put_u64(char *p, uint64_t n)
{
	char t[20];
	int i = 0;

	do {
		t[i++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (i)
		*p++ = t[--i];
	return p;
}

/*
 * "%.<dec>f<unit>" of @ns / @div (div = 10^k, dec < k) without the double:
 * what printf prints of the double ns / div whenever the exact quotient is
 * not a tie at @dec decimals. A tie (the digits after @dec are 5000...) is
 * where the double's binary rounding decides, so there it returns false and
 * the caller prints the double. Elsewhere the double is within half an ulp
 * (< 2^-53 relative, ns < 10^15) of ns / div, a multiple of 1 / div, which
 * lies at least 1 / div from the nearest rounding boundary: the same digits.
 * The report prints this for every group's quantiles (10^4 processes: 13 %
 * of the run went to snprintf's double formatting).
 */
static bool fmt_fixed(char *buf, size_t len, uint64_t ns, uint64_t div, unsigned int dec,
		      const char *unit)
{
	uint64_t step = div, q, r, scale = 1;
	char tmp[40], *p = tmp;
	unsigned int i;

	for (i = 0; i < dec; i++) {
		step /= 10;
		scale *= 10;
	}
	q = ns / step;
	r = ns % step;
	if (r * 2 == step)
		return false;
	if (r * 2 > step)
		q++;
	p = put_u64(p, q / scale);
	if (dec) {
		uint64_t f = q % scale;

		*p++ = '.';
		for (i = dec; i--;) {
			p[i] = (char)('0' + f % 10);
			f /= 10;
		}
		p += dec;
	}
	while (*unit)
		*p++ = *unit++;
	*p = '\0';
	/* truncated like snprintf */
	i = (unsigned int)(p - tmp);
	if (i >= len)
		i = (unsigned int)len - 1;
	memcpy(buf, tmp, i);
	buf[i] = '\0';
	return true;
}

char *gpulat_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	unsigned int dec;
	double v;

	if (!buf || !len)
		return buf;
	if (ns == GPULAT_NONE) {
		snprintf(buf, len, "-");
	} else if (ns < 1000) {
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	} else if (ns < 1000000) {
		dec = ns < 10000 ? 2 : ns < 100000 ? 1 : 0;
		if (fmt_fixed(buf, len, ns, 1000, dec, "us"))
			return buf;
		v = ns / 1e3;
		snprintf(buf, len, v < 10 ? "%.2fus" : v < 100 ? "%.1fus" : "%.0fus", v);
	} else if (ns < 1000000000) {
		dec = ns < 10000000 ? 2 : ns < 100000000 ? 1 : 0;
		if (fmt_fixed(buf, len, ns, 1000000, dec, "ms"))
			return buf;
		v = ns / 1e6;
		snprintf(buf, len, v < 10 ? "%.2fms" : v < 100 ? "%.1fms" : "%.0fms", v);
	} else {
		if (ns < 1000000000000000ULL && fmt_fixed(buf, len, ns, 1000000000, 3, "s"))
			return buf;
		snprintf(buf, len, "%.3fs", ns / 1e9);
	}
	return buf;
}
