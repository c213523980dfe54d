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

/* rings remembered by gpulat__tk_get_ring() (2^6: the slot is a hash's top 6 bits) */
#define RING_HINTS		64

#define U32(x)			(0xffffffffULL & (x))

/* fence key: low 32 bits of the context, and the file it came from */
#define FK(t, ctx)		(U32(ctx) | ((uint64_t)(t)->cur_file << 32))

/*
 * A ring found for an event's (dev, name) strings: the pointers compared
 * equal to the ring's own when they were last looked up. struct
 * gpulat_event's strings stay valid and unchanged (interned), so the same
 * pointers again are the same strings.
 */
struct ring_hint {
	struct ring		*ring;
	const char		*name, *dev;
};

struct ring {
	struct gpulat__hnode	node;
	struct ring		*next_all;
	const char		*dev;
	const char		*name;
	const char		*alias;		/* real name of a "0x..." label, from dma_fence */
	uint64_t		last_done;	/* done_ts of the last job done on it */
	int			file;
	bool			is_ptr;		/* gpulat_ring_is_ptr(name): a "0x..." label */
};

/* a dependency on a fence of no traced job, waiting for its dma_fence_signaled */
struct watch {
	struct gpulat__hnode	node;
	struct watch		*next;		/* the job's other watches */
	struct job		*job;
	unsigned int		dep;		/* index in the job's deps */
};

/*
 * An open job: only what linking and the stage times need while it is open
 * (the public struct gpulat_job is built when it is handed out,
 * gpulat__tk_build()). Strings are gpulat__strtab_id()s; what only some
 * jobs have lives out of line in arrays parallel to the job slab, allocated
 * for a slab chunk when one of its jobs first needs them (struct jchunk):
 * pointer-era keys, dependencies, host references; from the done on, the
 * done and signal times in a struct jdone. 104 bytes (bench/inflight-rss:
 * the record holding a gpulat_job took 424 + malloc's 8, then 176 with
 * by_fence's 24-byte node and list pointers, the done-stage fields inline,
 * 32-bit cpus, the device of a ring-less job).
 */
struct job {
	/* links are job refs (1 + idx, 0 = none: job_at()), half a pointer's size */
	uint32_t		fnext;		/* by_fence chain (struct ftab) */
	uint32_t		prev, next;	/* open list (first sight order), held list, free list */
	bool			in_fence : 1, in_ptr : 1, in_id : 1;
	bool			fence32 : 1;	/* ctx/seqno known only on 32 bits */
	bool			held : 1;	/* done, waiting for its signal */
	bool			from_amd : 1;	/* created by an amdgpu event */
	bool			kernel_job : 1;	/* queued with a client id: gpulat_kernel_job_name() */
	bool			ffile_x : 1;	/* by_fence under jrare.ffile, not its file */
	uint8_t			timing;		/* GPULAT_TIMING_* (bits 0-4) */
	bool			cpu_x : 1;	/* a cpu outside int16_t: cpu_qr in jrare.cpu */
	struct ring		*ring;
	uint64_t		seq;
	uint64_t		ts_qr[2];	/* queue, run (job_ts()) */
	uint64_t		ctx, seqno;	/* finished fence, GPULAT_NONE if unknown */
	uint64_t		client_id;
	int16_t			cpu_qr[2];	/* job_cpu(); -1 unknown */
	int32_t			pid;
	int32_t			file;
	uint32_t		idx;		/* slab slot: t->chunks[idx >> JCHUNK_SHIFT] */
	uint32_t		comm;		/* string ids */
	uint32_t		job_count;
	int32_t			hw_job_count;
	uint32_t		dn;		/* its struct jdone: 1 + slot, 0 = none yet */
};

/*
 * What a job has from its done (or an early signal) on, out of line: a deep
 * backlog is open jobs that never ran, and those are most of the jobs in
 * flight; the done ones wait at most the linger time. A slab of its own,
 * slot recycled at the job's emission (no malloc a job).
 */
struct jdone {
	uint64_t		ts[2];		/* done, signal */
	uint64_t		start_ts;
	int32_t			cpu[2];
	int32_t			slot_cpu;	/* per-cpu "last done" slot it occupies, -1 */
	uint32_t		dc_slot;	/* 1 + its entry in t->dc, 0 none; free: next free */
};

/* a job's keys of the pointer eras (<= 6.16); 6.17+ jobs have none */
struct jptr {
	struct gpulat__hnode	by_ptr;
	struct gpulat__hnode	by_id;
	struct job		*job;
	uint64_t		id;		/* GPULAT_NONE when unknown */
	uint64_t		fence_ptr;	/* 0 when unknown */
	uint32_t		ptr_gen;
};

/* what few jobs need, out of line like struct jptr (job_rarex()) */
struct jrare {
	int32_t			ffile;		/* the fence's file when not the job's (ffile_x) */
	uint32_t		dev;		/* string id of the device of a job made without ring */
	int32_t			cpu[2];		/* queue and run cpus that int16_t cannot hold (cpu_x) */
};

/* a job's dependencies; the array is kept for the slot's next job */
struct jdeps {
	struct gpulat_dep	*deps;
	unsigned int		ndeps, capdeps;
	struct watch		*watches;
};

#define JCHUNK_SHIFT		8
#define JCHUNK			(1u << JCHUNK_SHIFT)	/* jobs per slab chunk */
#define DCHUNK_SHIFT		8
#define DCHUNK			(1u << DCHUNK_SHIFT)	/* struct jdone per chunk */

struct jchunk {
	struct job		jobs[JCHUNK];
	/* parallel to jobs[], NULL until a job of the chunk needs them */
	struct jptr		*ptr;
	struct jdeps		*deps;
	struct jrare		*rare;
	void			*(*refs)[GPULAT_ST__COUNT];	/* gpulat_event.ref */
};

/* a completed job, remembered for dependency resolution */
struct dent {
	struct gpulat__hnode	by_seq;
	struct gpulat__hnode	by_fence;
	struct gpulat__hnode	by_ptr;
	bool			used, in_fence, in_ptr;
	bool			has_fence;	/* ctx, seqno known (in_fence: also indexed) */
	uint32_t		forder;		/* when the fence was learnt (t->dc_forder) */
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

/*
 * Open jobs by fence, FK(ctx) and U32(seqno) as gpulat__htab keys them, but
 * the keys are read from the job (its ctx, seqno, file) and the chains and
 * buckets hold job refs: 4 bytes a job and 4 a bucket instead of a 24-byte
 * node and an 8-byte bucket (bench/inflight-rss). Equal keys: newest first.
 */
struct ftab {
	uint32_t		*b;
	size_t			nb;		/* power of two */
	size_t			n;
};

struct joblist {
	struct job	*head, *tail;
	size_t		n;
};

struct gpulat_tracker {
	struct gpulat_tracker_ops ops;
	void			*data;
	/* the queue event of every job (gpulat__tracker_on_queued()), optional */
	void (*queued)(const struct gpulat_event *ev, void *data);
	void *queued_data;
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
	bool			any_amd;	/* some job was opened by an amdgpu event */
	bool			warned_cap;
	bool			warned_disorder;
	uint64_t		next_seq;
	uint64_t		last_ts;
	int			cur_file;	/* file of the event being fed (several traces) */

	struct gpulat__htab	rings;
	struct ring		*all_rings;
	/* gpulat__tk_get_ring()'s last rings, by the caller's name pointer (a hint) */
	struct ring_hint	ring_hint[RING_HINTS];
	/* dma_fence driver strings known to be the scheduler's, or not (sched_driver()) */
	const char		*drv_sched, *drv_other;
	struct gpulat__omap	ctxs;		/* FK(ctx) -> struct ring * (6.17 orphans) */
	size_t			nctx;

	struct ftab		by_fence;
	struct gpulat__htab	by_ptr, by_id;
	/* FK(ctx) -> the largest U32(seqno) by_fence ever held: skips its misses */
	struct gpulat__omap	fmax;
	bool			fmax_off;	/* an fmax failed to allocate: no skipping */
	struct gpulat__htab	watches;	/* foreign dependency fences */
	struct joblist		open;		/* no done yet */
	struct joblist		held;		/* done, waiting for the signal */
	/* job slab: chunks never move; emitted jobs go to free_jobs (by ->next refs) */
	struct jchunk		**chunks;
	uint32_t		nchunks, capchunks;
	struct job		*free_jobs;
	/* struct jdone slab (job_donex()): chunks never move; free ones by dc_slot */
	struct jdone		**dchunks;
	uint32_t		ndchunks, capdchunks;
	uint32_t		free_dn;
	uint32_t		empty_id;	/* gpulat__strtab_id(empty) */

	struct dent		*dc;		/* DCACHE_SIZE ring of completed jobs */
	size_t			dc_next;
	/* the ring's indexes, built at the first lookup (track-index.c) */
	bool			dc_indexed;
	uint32_t		dc_forder;	/* fences learnt so far (dent.forder) */
	struct gpulat__htab	dc_seq, dc_fence, dc_ptr;

	struct job		**cpu_slot;	/* last done job per cpu, awaiting signal */
	struct job		**run_slot;	/* job just run per cpu (<= 6.16, no fence yet) */
	struct initslot		*init_slot;	/* drm_sched fence inits per cpu */
	uint64_t		*cpu_last;	/* last ts fed per cpu */
	int			ncpus;

	struct lostwin		*lost;
	size_t			nlost;

	struct gpulat_tracker_counters c;

	/*
	 * the job of the last event fed, for gpulat_tracker_last_job(): built
	 * only when asked (most front ends never ask) from @last_job while it
	 * is open, or built at its emission
	 */
	struct gpulat_job	last;
	bool			has_last;
	enum {
		LAST_BUILT,
		LAST_OPEN,
		LAST_HELD
	} last_state;
	struct job		*last_job;
	uint64_t		last_seq;	/* last.seq, always set */

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
	/* gpulat__tracker_horizon(): the last one found, at c.jobs == hz_jobs */
	uint64_t hz, hz_jobs;
	bool hz_valid;
};

static inline struct jchunk *job_chunk(const struct gpulat_tracker *t, const struct job *j)
{
	return t->chunks[j->idx >> JCHUNK_SHIFT];
}

/* the job of ref @r (struct job links), NULL for 0 */
static inline struct job *job_at(const struct gpulat_tracker *t, uint32_t r)
{
	return r ? &t->chunks[(r - 1) >> JCHUNK_SHIFT]->jobs[(r - 1) & (JCHUNK - 1)] : NULL;
}

static inline uint32_t job_ref(const struct job *j)
{
	return j ? j->idx + 1 : 0;
}

/* the done part of @j, NULL before its done or signal */
static inline struct jdone *job_donex(const struct gpulat_tracker *t, const struct job *j)
{
	uint32_t d = j->dn - 1;

	return j->dn ? &t->dchunks[d >> DCHUNK_SHIFT][d & (DCHUNK - 1)] : NULL;
}

/* the time of stage @st of @j, GPULAT_NONE when not seen */
static inline uint64_t job_ts(const struct gpulat_tracker *t, const struct job *j,
			      enum gpulat_stage st)
{
	const struct jdone *d;

	if (st < GPULAT_ST_DONE)
		return j->ts_qr[st];
	d = job_donex(t, j);
	return d ? d->ts[st - GPULAT_ST_DONE] : GPULAT_NONE;
}

/* the per-cpu "last done" slot @j occupies, -1 */
static inline int job_slot_cpu(const struct gpulat_tracker *t, const struct job *j)
{
	const struct jdone *d = job_donex(t, j);

	return d ? d->slot_cpu : -1;
}

/* the pointer-era keys of @j, NULL when it has none */
static inline struct jptr *job_ptrx(const struct gpulat_tracker *t, const struct job *j)
{
	struct jchunk *c = job_chunk(t, j);

	return c->ptr ? &c->ptr[j->idx & (JCHUNK - 1)] : NULL;
}

/* the rare parts of @j, NULL when none of its chunk has them */
static inline struct jrare *job_rarex(const struct gpulat_tracker *t, const struct job *j)
{
	struct jchunk *c = job_chunk(t, j);

	return c->rare ? &c->rare[j->idx & (JCHUNK - 1)] : NULL;
}

static inline int job_cpu(const struct gpulat_tracker *t, const struct job *j, enum gpulat_stage st)
{
	const struct jdone *d;

	if (st < GPULAT_ST_DONE)
		return j->cpu_x ? job_rarex(t, j)->cpu[st] : j->cpu_qr[st];
	d = job_donex(t, j);
	return d ? d->cpu[st - GPULAT_ST_DONE] : -1;
}

/* the dependencies of @j, NULL when it has none */
static inline struct jdeps *job_depx(const struct gpulat_tracker *t, const struct job *j)
{
	struct jchunk *c = job_chunk(t, j);

	return c->deps ? &c->deps[j->idx & (JCHUNK - 1)] : NULL;
}

static inline unsigned int job_ndeps(const struct gpulat_tracker *t, const struct job *j)
{
	const struct jdeps *d = job_depx(t, j);

	return d ? d->ndeps : 0;
}

static inline uint64_t job_fence_ptr(const struct gpulat_tracker *t, const struct job *j)
{
	const struct jptr *p = job_ptrx(t, j);

	return p ? p->fence_ptr : 0;
}

static inline const char *job_dev(const struct gpulat_tracker *t, const struct job *j)
{
	const struct jrare *p;

	if (j->ring)
		return j->ring->dev;
	p = job_rarex(t, j);
	return p ? gpulat__strtab_str(t->strs, p->dev) : t->empty;
}

/* the ring's name as every front end shows it: the real name once known */
static inline const char *shown_ring(const struct gpulat_tracker *t, const struct job *j)
{
	if (!j->ring)
		return t->unknown;
	return j->ring->alias ? j->ring->alias : j->ring->name;
}

/* fences of the drm_sched scheduler (amd_sched before 4.17 renamed it) */
static inline bool sched_driver_str(const char *drv)
{
	return drv && (!strcmp(drv, "drm_sched") || !strcmp(drv, "amd_sched"));
}

/*
 * sched_driver_str() of an event's driver string, remembered for the last
 * pointer found to be the scheduler's and the last found not to be: event
 * strings are interned (struct gpulat_event), so one pointer is one string.
 * Two strcmp() calls a dma_fence event were 7 M instructions of KernelShark's
 * dense-1M load (285 k calls; callgrind).
 */
static inline bool sched_driver(struct gpulat_tracker *t, const char *drv)
{
	if (drv == t->drv_sched)
		return drv != NULL;
	if (drv == t->drv_other)
		return false;
	if (sched_driver_str(drv)) {
		t->drv_sched = drv;
		return true;
	}
	t->drv_other = drv;
	return false;
}

/* indexes of open jobs, rings, per-cpu state, lost windows, completed-job cache (track-index.c) */
void gpulat__tk_list_add_tail(struct gpulat_tracker *t, struct joblist *l, struct job *j);
void gpulat__tk_list_del(struct gpulat_tracker *t, struct joblist *l, struct job *j);
/* the job after @j on its list */
static inline struct job *gpulat__tk_list_next(const struct gpulat_tracker *t, const struct job *j)
{
	return job_at(t, j->next);
}
int gpulat__tk_fence_init(struct gpulat_tracker *t);
void gpulat__tk_fence_fini(struct gpulat_tracker *t);
const char *gpulat__tk_tstr(struct gpulat_tracker *t, const char *s);
struct ring *gpulat__tk_get_ring(struct gpulat_tracker *t, const char *dev, const char *name);
void gpulat__tk_ctx_learn(struct gpulat_tracker *t, uint64_t ctx, struct ring *r);
struct ring *gpulat__tk_ctx_ring(struct gpulat_tracker *t, uint64_t ctx);
int gpulat__tk_grow_cpu(struct gpulat_tracker *t, int cpu);

/*
 * per-cpu state for @cpu exists (0), or -EINVAL / -ENOMEM; inline: every
 * event asks, and the out-of-line call was 1.3 % of the -j2 main thread's
 * instructions (callgrind, shape-dense 200 k events)
 */
static inline int gpulat__tk_ensure_cpu(struct gpulat_tracker *t, int cpu)
{
	return cpu >= 0 && cpu < t->ncpus ? 0 : gpulat__tk_grow_cpu(t, cpu);
}
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
struct dent *gpulat__tk_dc_of(struct gpulat_tracker *t, const struct job *j);
struct dent *gpulat__tk_dc_find_fence(struct gpulat_tracker *t, uint64_t ctx, uint64_t seqno);
struct dent *gpulat__tk_dc_find_ptr(struct gpulat_tracker *t, uint64_t ptr);
void gpulat__tk_dc_set_fence(struct gpulat_tracker *t, struct dent *d, uint64_t ctx,
			     uint64_t seqno);
void gpulat__tk_dc_add(struct gpulat_tracker *t, struct job *j);

/* job lifecycle: create, stage, derive, classify, emit (track-job.c) */
struct job *gpulat__tk_new_job(struct gpulat_tracker *t, const struct gpulat_event *ev,
			       struct ring *r);
void gpulat__tk_set_ring(struct gpulat_tracker *t, struct job *j, struct ring *r);
void gpulat__tk_stage(struct gpulat_tracker *t, struct job *j, enum gpulat_stage st,
		      const struct gpulat_event *ev);
void gpulat__tk_free_job(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_keep_last(struct gpulat_tracker *t, struct job *j);
const struct gpulat_job *gpulat__tk_last(struct gpulat_tracker *t);
/* the out-of-line parts of @j, allocated for its chunk if needed; NULL: ENOMEM */
struct jptr *gpulat__tk_ptrx(struct gpulat_tracker *t, struct job *j);
struct jdeps *gpulat__tk_depx(struct gpulat_tracker *t, struct job *j);
struct jrare *gpulat__tk_rarex(struct gpulat_tracker *t, struct job *j);
/* the done part of @j, taken from the slab if needed; NULL: ENOMEM */
struct jdone *gpulat__tk_donex(struct gpulat_tracker *t, struct job *j);
void gpulat__tk_jobs_free(struct gpulat_tracker *t);
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
