// SPDX-License-Identifier: LGPL-2.1
/*
 * What to record: the `trace-cmd record` line per kernel era. The one place
 * these lines exist; the errors for traces without GPU events, --help, the
 * README and the man page all print them from here.
 */
#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "gpulat-int.h"
#include "gpulat-session.h"

/*
 * The finished-fence dma_fence_signaled links the signal stage (and the
 * done of amdgpu-only traces); the other dma_fence events are optional.
 */
#define SIGNALED	" -e dma_fence:dma_fence_signaled COMMAND"

/**
 * gpulat_record_line - the `trace-cmd record` line for kernels of @era
 * @era: the era; GPULAT_ERA_NONE for a line that works on every era
 *
 * Return: a static string ending in " COMMAND".
 */
const char *gpulat_record_line(enum gpulat_era era)
{
	switch (era) {
	case GPULAT_ERA_V617:
		return "trace-cmd record -e gpu_scheduler:drm_sched_job_queue"
		       " -e gpu_scheduler:drm_sched_job_run -e gpu_scheduler:drm_sched_job_done"
		       " -e gpu_scheduler:drm_sched_job_add_dep"
		       " -e gpu_scheduler:drm_sched_job_unschedulable" SIGNALED;
	case GPULAT_ERA_V57:
	case GPULAT_ERA_V519:
		return "trace-cmd record -e gpu_scheduler:drm_sched_job"
		       " -e gpu_scheduler:drm_run_job -e gpu_scheduler:drm_sched_process_job"
		       " -e gpu_scheduler:drm_sched_job_wait_dep" SIGNALED;
	case GPULAT_ERA_PRE57:
		/* drm_run_job came with 5.7 */
		return "trace-cmd record -e gpu_scheduler:drm_sched_job"
		       " -e gpu_scheduler:drm_sched_process_job"
		       " -e gpu_scheduler:drm_sched_job_wait_dep" SIGNALED;
	case GPULAT_ERA_AMDGPU:
		return "trace-cmd record -e amdgpu:amdgpu_cs_ioctl -e amdgpu:amdgpu_sched_run_job"
		       SIGNALED;
	case GPULAT_ERA_I915:
		/*
		 * the glob takes submit/in/out too where the kernel has them
		 * (CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS) and is not an error
		 * where it has not
		 */
		return "trace-cmd record -e 'i915:i915_request_*'" SIGNALED;
	case GPULAT_ERA_NONE:
		break;
	}
	return "trace-cmd record -e gpu_scheduler -e dma_fence COMMAND";
}

/**
 * gpulat_record_frames - what to add to a record line for frames (--frames)
 *
 * The drm core's vblank events (every era since 4.15 has `time`) and the
 * monotonic trace clock, so that `time` (CLOCK_MONOTONIC) and the record
 * timestamps are one clock domain.
 *
 * Return: a static string of trace-cmd record options.
 */
const char *gpulat_record_frames(void)
{
	return "-C mono -e drm:drm_vblank_event -e drm:drm_vblank_event_queued"
	       " -e drm:drm_vblank_event_delivered";
}

/**
 * gpulat_era_kernels - the kernels an era stands for, for humans
 * @era: the era
 *
 * Return: a static string ("6.17+", "5.7-6.16", "4.16-5.6", ...).
 */
const char *gpulat_era_kernels(enum gpulat_era era)
{
	switch (era) {
	case GPULAT_ERA_V617:	return "6.17+";
	/* the record line is the same for both layouts of the name field */
	case GPULAT_ERA_V57:
	case GPULAT_ERA_V519:	return "5.7-6.16";
	case GPULAT_ERA_PRE57:	return "4.16-5.6";
	case GPULAT_ERA_AMDGPU:	return "amdgpu, any kernel";
	case GPULAT_ERA_I915:	return "i915 (Intel)";
	case GPULAT_ERA_NONE:	break;
	}
	return "any era";
}

/**
 * gpulat_record_hint - the lines printed when a trace has no GPU events
 * @buf: filled (may be NULL with @len 0)
 * @len: its size
 *
 * Return: the length of the whole text (snprintf() semantics).
 */
/* append to @buf at *@off with snprintf() semantics (the length counts on) */
static void hint_add(char *buf, size_t len, size_t *off, const char *label, const char *text)
{
	int w;

	w = snprintf(*off < len ? buf + *off : NULL, *off < len ? len - *off : 0, "    %-17s%s\n",
		     label, text);
	if (w > 0)
		*off += (size_t)w;
}

size_t gpulat_record_hint(char *buf, size_t len)
{
	static const enum gpulat_era eras[] = {
		GPULAT_ERA_V617, GPULAT_ERA_V519, GPULAT_ERA_PRE57, GPULAT_ERA_I915,
		GPULAT_ERA_NONE,
	};
	char add[256];
	size_t off = 0, i;
	int w;

	w = snprintf(buf, len, "  record the GPU scheduler events, for example:\n");
	if (w > 0)
		off += (size_t)w;
	for (i = 0; i < GPULAT_ARRAY_SIZE(eras); i++) {
		char label[32];

		if (eras[i] == GPULAT_ERA_NONE || eras[i] == GPULAT_ERA_I915)
			snprintf(label, sizeof(label), "%s:", gpulat_era_kernels(eras[i]));
		else
			snprintf(label, sizeof(label), "Linux %s:", gpulat_era_kernels(eras[i]));
		hint_add(buf, len, &off, label, gpulat_record_line(eras[i]));
	}
	/*
	 * amdgpu_cs_ioctl/_sched_run_job (any kernel since 4.12) name the
	 * submitting context; amdgpu_iv is the GPU interrupt --fence-path uses
	 */
	hint_add(buf, len, &off, "amdgpu:",
		 "add -e amdgpu:amdgpu_cs_ioctl -e amdgpu:amdgpu_sched_run_job"
		 " -e amdgpu:amdgpu_iv");
	/* what --explain and --fence-path read around a job (all optional) */
	hint_add(buf, len, &off, "--explain:",
		 "add -e irq -e sched:sched_switch -e sched:sched_waking -e power:cpu_frequency");
	snprintf(add, sizeof(add), "add %s", gpulat_record_frames());
	hint_add(buf, len, &off, "--frames:", add);
	return off;
}

/*
 * GPU drivers whose own events a trace may hold without the gpu_scheduler
 * events that make jobs here (README, "Drivers"): the scheduler events are
 * what links every drm_sched driver's jobs (amdgpu, etnaviv, lima, msm,
 * nouveau, panfrost, panthor, v3d, xe); msm, v3d and xe events only add
 * measured times and hangs to them. i915 requests and amdgpu_cs_ioctl /
 * amdgpu_sched_run_job make jobs by themselves (their absence is the
 * driver's other events only, e.g. i915_gem_*).
 */
static const struct {
	const char *system, *driver;
} gpu_systems[] = {
	{ "drm_msm_gpu", "msm" },	{ "v3d", "v3d" },	  { "xe", "xe" },
	{ "nouveau", "nouveau" },	{ "panfrost", "panfrost" }, { "panthor", "panthor" },
	{ "lima", "lima" },		{ "etnaviv", "etnaviv" }, { "i915", "i915" },
	{ "amdgpu", "amdgpu" },		{ "amdxdna", "amdxdna" }, { "nvkm", "nouveau" },
};

/**
 * gpulat__unmodelled_driver - a GPU driver's own events in a trace without jobs
 * @tep: the trace's handle (its event formats: the events recorded)
 * @ev: set to "system:event" of its first such event (static until @tep goes)
 * @len: size of @ev
 *
 * Return: the driver's name, or NULL when the trace has none of its events.
 */
const char *gpulat__unmodelled_driver(struct tep_handle *tep, char *ev, size_t len)
{
	struct tep_event **evs = tep ? tep_list_events(tep, TEP_EVENT_SORT_ID) : NULL;
	size_t i, k;

	for (i = 0; evs && evs[i]; i++) {
		for (k = 0; k < GPULAT_ARRAY_SIZE(gpu_systems); k++) {
			if (!evs[i]->system || strcmp(evs[i]->system, gpu_systems[k].system))
				continue;
			snprintf(ev, len, "%s:%s", evs[i]->system, evs[i]->name);
			return gpu_systems[k].driver;
		}
	}
	return NULL;
}
