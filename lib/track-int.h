/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internal interface between the job tracker (tracker.c, tracker-int.h) and the per-driver
 * linkers of drivers without drm_sched (track-i915.c). A driver linker builds
 * struct gpulat_job values and hands them to the tracker, which counts them
 * and passes them to the user's job callback exactly like drm_sched jobs, so
 * statistics, reports, KernelShark rows and exports need nothing new.
 */
#ifndef _GPULAT_TRACK_INT_H
#define _GPULAT_TRACK_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "gpulat-int.h"

/* what a driver linker may ask of the tracker that owns it */
struct gpulat__sink {
	void		*data;
	/* a new job: its gpulat_job.seq (first-sight order shared by all jobs) */
	uint64_t	(*opened)(void *data);
	/* the job is final: counted, emitted through ops->job, forgotten */
	void		(*emit)(void *data, struct gpulat_job *j);
	/* the job of the event being fed (gpulat_tracker_last_job()) */
	void		(*last)(void *data, const struct gpulat_job *j);
	/* were events lost on any cpu within [from, to)? */
	bool		(*lost)(void *data, uint64_t from, uint64_t to);
	struct gpulat__strtab *strs;	/* the tracker's string table */
};

struct gpulat__i915;

struct gpulat__i915 *gpulat__i915_new(const struct gpulat__sink *sink);
void gpulat__i915_free(struct gpulat__i915 *x);
/* i915_request_* and dma_fence_signaled; 0 or -ENOMEM */
int gpulat__i915_feed(struct gpulat__i915 *x, const struct gpulat_event *ev);
/* end of trace: every request still open is emitted */
void gpulat__i915_flush(struct gpulat__i915 *x);
/* requests in flight */
size_t gpulat__i915_open(const struct gpulat__i915 *x);

/* xe (track-xe.c): xe jobs linked to the drm_sched jobs of the same submission */
struct gpulat__xe;

struct gpulat__xe *gpulat__xe_new(void);
void gpulat__xe_free(struct gpulat__xe *x);
/* xe_sched_job_* / xe_hw_fence_* events; 0 or -ENOMEM */
int gpulat__xe_feed(struct gpulat__xe *x, const struct gpulat_event *ev);
/* the scheduler's queue / run event @ev of job @seq was fed */
int gpulat__xe_queued(struct gpulat__xe *x, const struct gpulat_event *ev, uint64_t seq);
int gpulat__xe_ran(struct gpulat__xe *x, const struct gpulat_event *ev, uint64_t seq);
/* job @seq is emitted: its GPULAT_HANG_* bits, and forget it */
unsigned int gpulat__xe_take(struct gpulat__xe *x, uint64_t seq);
uint64_t gpulat__xe_unlinked_hangs(const struct gpulat__xe *x);

/* true hardware times (track-hw.c): msm ticks, v3d submits */
struct gpulat__hw;

struct gpulat__hw *gpulat__hw_new(void);
void gpulat__hw_free(struct gpulat__hw *h);
/* msm / v3d events; *released: a held job that may go now, or GPULAT_NONE */
int gpulat__hw_feed(struct gpulat__hw *h, const struct gpulat_event *ev, uint64_t *released);
int gpulat__hw_ran(struct gpulat__hw *h, const struct gpulat_event *ev, uint64_t seq);
bool gpulat__hw_waits(struct gpulat__hw *h, uint64_t seq);
/* the job is emitted: measured start / exec into it, and forget it */
void gpulat__hw_apply(struct gpulat__hw *h, struct gpulat_job *g);

#endif /* _GPULAT_TRACK_INT_H */
