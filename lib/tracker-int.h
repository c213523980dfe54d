/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Internals of the job tracker, shared by its files:
 *   tracker.c      the API: setup, feed dispatch, lost events, flush
 *   track-index.c  open-job indexes (fence, pointer, id), rings, per-cpu
 *                  state, lost windows, the completed-job cache
 *   track-job.c    a job's life: create, stages, derived times, status, emit
 *   track-sched.c  drm_sched queue / run / done, finished-fence signals
 *   track-ptr.c    pointer eras (<= 6.16): fence inits, pointer ring names
 *   track-deps.c   dependencies and the foreign fences they wait for
 *   track-amd.c    amdgpu_cs_ioctl / amdgpu_sched_run_job
 *   track-xe.c     xe facts of drm_sched jobs (hangs), through track-int.h
 * Drivers without drm_sched talk to the tracker through track-int.h only.
 */
#ifndef _GPULAT_TRACKER_INT_H
#define _GPULAT_TRACKER_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "gpulat-int.h"
#include "track-int.h"

#define U32(x)			(0xffffffffULL & (x))

/* fence key: low 32 bits of the context, and the file it came from */
#define FK(t, ctx)		(U32(ctx) | ((uint64_t)(t)->cur_file << 32))

struct ring {
	struct gpulat__hnode	node;
	struct ring		*next_all;
	const char		*dev;
	const char		*name;
	const char		*alias;		/* real name of a "0x..." label, from dma_fence */
	uint64_t		last_done;	/* done_ts of the last job done on it */
	int			file;
};

struct ctxmap {
	struct gpulat__hnode	node;
	struct ring		*ring;
};

/* the largest U32(seqno) by_fence ever held under one FK(ctx) (track-index.c) */
struct fmax {
	struct gpulat__hnode	node;
	uint64_t		max;
};

/* a dependency on a fence of no traced job, waiting for its dma_fence_signaled */
struct watch {
	struct gpulat__hnode	node;
	struct watch		*next;		/* the job's other watches */
	struct job		*job;
	unsigned int		dep;		/* index in job->deps */
};

struct job {
	struct watch		*watches;
	struct gpulat__hnode	by_fence;
	struct gpulat__hnode	by_ptr;
	struct gpulat__hnode	by_id;
	bool			in_fence, in_ptr, in_id;
	bool			fence32;	/* ctx/seqno known only on 32 bits */
	bool			held;		/* done, waiting for its signal */
	bool			from_amd;	/* created by an amdgpu event */
	struct job		*prev, *next;	/* open list (first sight order) or held list */
	struct ring		*ring;
	struct gpulat_dep	*deps;
	unsigned int		ndeps, capdeps;
	int			slot_cpu;	/* per-cpu "last done" slot it occupies, -1 */
	struct gpulat_job	j;
};

/* a completed job, remembered for dependency resolution */
struct dent {
	struct gpulat__hnode	by_seq;
	struct gpulat__hnode	by_fence;
	struct gpulat__hnode	by_ptr;
	bool			used, in_fence, in_ptr;
	uint64_t		seq;
	uint64_t		ctx, seqno, ptr;
	const char		*dev, *ring;
	uint64_t		done_ts;
	uint64_t		run_ts;		/* its scheduled fence's signal */
};

struct lostwin {
	int		cpu;
	uint64_t	from, to;
};

/*
 * drm_sched_job_arm() initializes the scheduled (ctx N) then the finished
 * (ctx N + 1) fence, same seqno, just before the queue event on that cpu.
 */
struct initslot {
	uint64_t	ts;
	uint64_t	ctx, seqno;
	const char	*timeline;
	bool		have_prev;
	uint64_t	pctx, pseqno;
	bool		pair;
};

struct joblist {
	struct job	*head, *tail;
	size_t		n;
};

struct gpulat_tracker {
	struct gpulat_tracker_ops ops;
	void			*data;
	struct gpulat__strtab	*strs;
	const char		*empty;
	const char		*unknown;
	size_t			max_open;
	uint64_t		linger;
	/* how long a done msm job waits for its retired event (track-hw.c),
	 * also where jobs are final at their done (linger 0): the measured
	 * exec exists only once the retire worker traced it */
	uint64_t		hw_linger;
	bool			signal_expected;
	enum gpulat_era		era;
	bool			seen_run;
	bool			warned_cap;
	bool			warned_disorder;
	uint64_t		next_seq;
	uint64_t		last_ts;
	int			cur_file;	/* file of the event being fed (several traces) */

	struct gpulat__htab	rings;
	struct ring		*all_rings;
	struct gpulat__htab	ctxs;		/* fence context -> ring (6.17 orphans) */
	size_t			nctx;

	struct gpulat__htab	by_fence, by_ptr, by_id;
	struct gpulat__htab	fmax;		/* FK(ctx) -> struct fmax: skips by_fence misses */
	bool			fmax_off;	/* an fmax failed to allocate: no skipping */
	struct gpulat__htab	watches;	/* foreign dependency fences */
	struct joblist		open;		/* no done yet */
	struct joblist		held;		/* done, waiting for the signal */
	struct job		*free_jobs;	/* emitted jobs for reuse, by ->next */
	size_t			nfree_jobs;

	struct dent		*dc;		/* DCACHE_SIZE ring of completed jobs */
	size_t			dc_next;
	struct gpulat__htab	dc_seq, dc_fence, dc_ptr;

	struct job		**cpu_slot;	/* last done job per cpu, awaiting signal */
	struct job		**run_slot;	/* job just run per cpu (<= 6.16, no fence yet) */
	struct initslot		*init_slot;	/* drm_sched fence inits per cpu */
	uint64_t		*cpu_last;	/* last ts fed per cpu */
	int			ncpus;

	struct lostwin		*lost;
	size_t			nlost;

	struct gpulat_tracker_counters c;

	/* the job of the last event fed, for gpulat_tracker_last_job() */
	struct gpulat_job	last;
	bool			has_last;

	/* drivers without drm_sched, created at their first event */
	struct gpulat__i915	*i915;
	/* xe facts of drm_sched jobs (track-xe.c), created at the first xe event */
	struct gpulat__xe *xe;
	/* measured hardware times (track-hw.c), created at the first msm/v3d event */
	struct gpulat__hw *hw;
	/* the last run event (task, file, ts, job), for a linker created after it */
	struct gpulat_event last_run;
	uint64_t last_run_seq;
	/*
	 * <= 6.16: jobs seen so far per fence handle, per file (65536 counters
	 * of a file made at its first pointer; track-ptr.c): gpulat_job.ptr_gen
	 */
	uint32_t **ptr_gens;
	int nptr_gens;
};

/* the ring's name as every front end shows it: the real name once known */
static inline const char *shown_ring(const struct job *j)
{
	return j->ring && j->ring->alias ? j->ring->alias : j->j.ring;
}

/* fences of the drm_sched scheduler (amd_sched before 4.17 renamed it) */
static inline bool sched_driver(const char *drv)
{
	return drv && (!strcmp(drv, "drm_sched") || !strcmp(drv, "amd_sched"));
}

/* indexes of open jobs, rings, per-cpu state, lost windows, completed-job cache (track-index.c) */
void gpulat__tk_list_add_tail(struct joblist *l, struct job *j);
void gpulat__tk_list_del(struct joblist *l, struct job *j);
const char *gpulat__tk_tstr(struct gpulat_tracker *t, const char *s);
struct ring *gpulat__tk_get_ring(struct gpulat_tracker *t, const char *dev, const char *name);
void gpulat__tk_ctx_learn(struct gpulat_tracker *t, uint64_t ctx, struct ring *r);
struct ring *gpulat__tk_ctx_ring(struct gpulat_tracker *t, uint64_t ctx);
int gpulat__tk_ensure_cpu(struct gpulat_tracker *t, int cpu);
void gpulat__tk_add_lost(struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to);
bool gpulat__tk_lost_between(const struct gpulat_tracker *t, int cpu, uint64_t from, uint64_t to);
struct job *gpulat__tk_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno,
				  bool full);
struct job *gpulat__tk_find_fence_signal(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno,
					 bool full);
void gpulat__tk_set_fence(struct gpulat_tracker *t, struct job *j, uint64_t ctx, uint64_t seqno,
			  bool fence32);
struct job *gpulat__tk_find_ptr(struct gpulat_tracker *t, uint64_t ptr);
void gpulat__tk_set_ptr(struct gpulat_tracker *t, struct job *j, uint64_t ptr);
/* number @j as the next job of its fence handle (gpulat_job.ptr_gen), once */
void gpulat__tk_ptr_gen(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_ptr_gens_free(struct gpulat_tracker *t);
struct job *gpulat__tk_find_id(struct gpulat_tracker *t, struct ring *r, uint64_t id);
void gpulat__tk_set_id(struct gpulat_tracker *t, struct job *j, uint64_t id);
void gpulat__tk_unindex(struct gpulat_tracker *t, struct job *j, bool fence_too);
struct dent *gpulat__tk_dc_find_seq(struct gpulat_tracker *t, uint64_t seq);
struct dent *gpulat__tk_dc_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno);
struct dent *gpulat__tk_dc_find_ptr(struct gpulat_tracker *t, uint64_t ptr);
void gpulat__tk_dc_set_fence(struct gpulat_tracker *t, struct dent *d, uint64_t ctx,
			     uint64_t seqno);
void gpulat__tk_dc_add(struct gpulat_tracker *t, const struct job *j);

/* job lifecycle: create, stage, derive, classify, emit (track-job.c) */
struct job *gpulat__tk_new_job(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r);
void gpulat__tk_set_ring(struct gpulat_tracker *t, struct job *j, struct ring *r);
void gpulat__tk_stage(struct job *j, enum gpulat_stage st, const struct gpulat_event *ev);
void gpulat__tk_free_job(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_keep_last(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_emit(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_evict_if_needed(struct gpulat_tracker *t);
void gpulat__tk_expire_held(struct gpulat_tracker *t, uint64_t now);
void gpulat__tk_complete(struct gpulat_tracker *t, struct job *j, const struct gpulat_event *ev);
bool gpulat__tk_hw_waits(struct gpulat_tracker *t, const struct job *j);
void gpulat__tk_job_queue_fields(struct gpulat_tracker *t, struct job *j,
				 const struct gpulat_event *ev);

/* drm_sched queue / run / done and finished-fence signals (track-sched.c) */
int gpulat__tk_on_queue(struct gpulat_tracker *t, const struct gpulat_event *ev);
int gpulat__tk_on_run(struct gpulat_tracker *t, const struct gpulat_event *ev);
int gpulat__tk_on_done(struct gpulat_tracker *t, const struct gpulat_event *ev);
int gpulat__tk_on_signal(struct gpulat_tracker *t, const struct gpulat_event *ev);
void gpulat__tk_attach_signal(struct gpulat_tracker *t, struct job *j,
			      const struct gpulat_event *ev);

/* pointer eras, <= 6.16 (track-ptr.c) */
void gpulat__tk_learn_alias(struct gpulat_tracker *t, struct job *j, const char *timeline);
int gpulat__tk_on_init(struct gpulat_tracker *t, const struct gpulat_event *ev);
struct job *gpulat__tk_ptr_queue(struct gpulat_tracker *t, const struct gpulat_event *ev,
				 struct ring *r);
struct job *gpulat__tk_ptr_run(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r);
struct job *gpulat__tk_ptr_done(struct gpulat_tracker *t, const struct gpulat_event *ev);
void gpulat__tk_ptr_signal(struct gpulat_tracker *t, const struct gpulat_event *ev);

/* dependencies (track-deps.c) */
void gpulat__tk_resolve_deps(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_unwatch(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_signal_watches(struct gpulat_tracker *t, const struct gpulat_event *ev);
int gpulat__tk_on_dep(struct gpulat_tracker *t, const struct gpulat_event *ev, bool unsched);

/* amdgpu events (track-amd.c) */
int gpulat__tk_on_amd(struct gpulat_tracker *t, const struct gpulat_event *ev);

#endif /* _GPULAT_TRACKER_INT_H */
