/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat frames: GPU jobs judged against the display's vblanks (issue 18).
 *
 *   f = gpulat_frames_new(&opts);
 *   gpulat_frames_event(f, ev)   every decoded event, in time order (vblank
 *                                events, queue events for the job count)
 *   gpulat_frames_job(f, job)    every job from the tracker (any order)
 *   gpulat_frames_finish(f)      then read the CRTCs, clients, late frames
 * or, on a session: l = gpulat_frames_listen(session, flags), run the
 * session, f = gpulat_frames_listener_frames(l).
 *
 * Definitions (docs/frames.md has the long form):
 *  - vblank instant V(c, s): drm_vblank_event `time` of CRTC c, count s, when
 *    the trace clock is CLOCK_MONOTONIC (trace_clock=mono); otherwise the
 *    record timestamp (the IRQ handler's time, up to hundreds of us late).
 *  - client: one struct drm_file (the `file` of drm_vblank_event_queued /
 *    _delivered) on one CRTC, with the pid/comm that queued its events; its
 *    jobs are the jobs whose queue event has that pid.
 *  - frame: one drm_vblank_event_queued of the client (a request for vblank
 *    T). Its work is the client's jobs queued after its previous request and
 *    up to this one. ready = max(request time, last done of its work).
 *  - deadline: vblank min(T, max(T_prev, P_prev) + 1): the vblank right
 *    after the previous frame's target or presentation, whichever is later
 *    (the first frame: T). A frame after a late one is not late for it.
 *  - presented: the first vblank s >= T with V(s) >= ready.
 *  - late: ready > V(deadline); missed vblanks = presented - deadline
 *    (>= 1 exactly when late).
 *  - cause of a late frame: late_submit when none of its jobs was in flight
 *    at the deadline (the work or the request came after it: the CPU side);
 *    otherwise the state at the deadline of the job that finished last:
 *    dep_wait (blocked on a dependency), sched_queue (queued, not run),
 *    hw_queue (run, waiting behind other jobs on the ring), gpu_exec.
 *  - refresh interval: median of the intervals between consecutive vblanks
 *    (count + 1) of a CRTC; vrr when they vary by more than 5 % of it
 *    (plus 500 us when the record timestamps are used).
 *  - per-vblank GPU time of a process: the sum over its jobs of the part
 *    of [start_ts, done_ts] inside [V(s), V(s+1)) of its CRTC (its client's,
 *    else the first CRTC), over the intervals where it is not 0.
 */
#ifndef _GPULAT_FRAMES_H
#define _GPULAT_FRAMES_H

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpulat_frame_cause {
	GPULAT_FC_NONE = 0,
	GPULAT_FC_LATE_SUBMIT,		/* "late_submit" */
	GPULAT_FC_DEP_WAIT,		/* "dep_wait" */
	GPULAT_FC_SCHED_QUEUE,		/* "sched_queue" */
	GPULAT_FC_HW_QUEUE,		/* "hw_queue" */
	GPULAT_FC_GPU_EXEC,		/* "gpu_exec" */
	GPULAT_FC__COUNT,
};

const char *gpulat_frame_cause_name(enum gpulat_frame_cause c);

/* a vblank as the analysis counts it (a new count of its CRTC) */
struct gpulat_vblank {
	int		file;		/* input file index */
	int		crtc;
	uint64_t	seq;		/* vblank count, unwrapped to 64 bits */
	uint64_t	ts;		/* the vblank instant V (see above) */
	uint64_t	record_ts;	/* the drm_vblank_event record's timestamp */
	bool		vbl_time;	/* ts is `time` (else the record timestamp) */
};

/* a judged frame, on time or late (the late ones are also kept, below) */
struct gpulat_frame_verdict {
	int		file;
	int		crtc;
	uint64_t	drm_file;
	int		pid;		/* the client's, -1 not known yet (page flips) */
	const char	*comm;
	bool		flip;		/* of a page-flip client */
	bool		late;
	uint64_t	deadline;	/* vblank count */
	uint64_t	deadline_ts;	/* V(deadline), GPULAT_NONE: not traced */
	uint64_t	presented;	/* vblank count, GPULAT_NONE: not by the end */
	uint64_t	presented_ts;
	uint64_t	request_ts;	/* GPULAT_NONE for page flips */
	uint64_t	ready_ts;	/* GPULAT_NONE: unknown or never */
	uint64_t	missed;		/* vblanks */
	enum gpulat_frame_cause cause;
};

/* streaming consumers (exports, drawing): return 0, or a negative errno to stop */
typedef int (*gpulat_vblank_fn)(const struct gpulat_vblank *v, void *data);
typedef int (*gpulat_frame_fn)(const struct gpulat_frame_verdict *fv, void *data);

struct gpulat_frames_opts {
	size_t		sz;		/* sizeof(struct gpulat_frames_opts) */
	/* vblank instant from drm_vblank_event `time` (trace clock mono) */
	bool		use_vbl_time;
	/* late frames kept per client (all are counted), default 32 */
	unsigned int	late_kept;
	/* optional: every vblank counted, every frame judged, as they come */
	gpulat_vblank_fn on_vblank;
	gpulat_frame_fn on_frame;
	void		*cb_data;
};

struct gpulat_crtc_report {
	int		file;		/* input file index */
	int		crtc;
	uint64_t	vblanks;	/* drm_vblank_event records */
	uint64_t	seq_gaps;	/* vblank counts missing between two records */
	uint64_t	first_ts;	/* first and last vblank instant */
	uint64_t	last_ts;
	uint64_t	refresh_ns;	/* median interval, 0 if < 2 vblanks */
	struct gpulat_summary interval;	/* consecutive-count intervals */
	bool		vrr;		/* the interval varies */
	bool		vbl_time;	/* instants from `time` (else record ts) */
	uint64_t	irq_delay_max;	/* record ts - time, when `time` is used */
	uint64_t	irq_delay_mean;
	uint64_t	frames;		/* of its clients */
	uint64_t	late;
	uint64_t	missed;		/* vblanks missed by its clients' frames */
};

struct gpulat_frame_client {
	int		file;
	uint64_t	drm_file;	/* struct drm_file * */
	int		crtc;
	int		pid;		/* that queued its first event */
	const char	*comm;
	uint64_t	requested;	/* drm_vblank_event_queued */
	uint64_t	delivered;	/* drm_vblank_event_delivered */
	uint64_t	frames;		/* requests judged (target vblank traced) */
	uint64_t	late;
	uint64_t	missed;		/* vblanks */
	uint64_t	unresolved;	/* requests after the last traced vblank */
	uint64_t	by_cause[GPULAT_FC__COUNT];
	struct gpulat_summary frame_time;	/* V(presented) - previous V(presented) */
	struct gpulat_summary gpu_time;		/* per frame: sum of its jobs' exec */
	uint64_t	late_total;	/* == late; late frames kept: */
	size_t		nlate;
	/*
	 * page-flip client: a drm_file with _delivered and no _queued (flip
	 * completions); its frames are its flips after the first, pid/comm
	 * are inferred (pid_inferred): see docs/frames.md
	 */
	uint64_t flips;
	bool pid_inferred;
};

#define GPULAT_FRAME_JOBS	4

/* a job of a late frame and its state at the deadline */
struct gpulat_frame_job {
	uint64_t	seq;		/* gpulat_job.seq */
	const char	*dev;
	const char	*ring;
	uint64_t	queue_ts, run_ts, start_ts, done_ts;
	uint64_t	exec;
	enum gpulat_frame_cause state;	/* at the deadline (NONE: done before) */
	/* the dependency it was blocked on (state dep_wait) */
	uint64_t	dep_ctx, dep_seqno;
	const char	*dep_ring;	/* NULL: fence of no traced job */
	uint64_t	dep_signal_ts;
};

struct gpulat_late_frame {
	int		file;
	int		crtc;
	uint64_t	drm_file;
	int		pid;
	const char	*comm;
	uint64_t	target;		/* requested vblank count (unwrapped) */
	uint64_t	deadline;	/* vblank count */
	uint64_t	deadline_ts;	/* V(deadline) */
	uint64_t	request_ts;
	uint64_t	first_submit_ts;	/* first / last queue of its work, */
	uint64_t	last_submit_ts;		/* GPULAT_NONE without jobs */
	uint64_t	ready_ts;	/* GPULAT_NONE: a job never completed */
	uint64_t	presented;	/* vblank count, GPULAT_NONE: not by the end */
	uint64_t	presented_ts;
	uint64_t	missed;
	enum gpulat_frame_cause cause;
	unsigned int	njobs;		/* of its work */
	unsigned int	nkept;		/* jobs[] kept: the last to finish first */
	struct gpulat_frame_job jobs[GPULAT_FRAME_JOBS];
};

struct gpulat_frame_proc {
	int		file;
	int		pid;
	const char	*comm;
	int		crtc;		/* whose vblanks cut its GPU time */
	uint64_t	jobs;
	struct gpulat_summary gpu_time;	/* per vblank interval with GPU work */
};

struct gpulat_frames;

void gpulat_frames_opts_init(struct gpulat_frames_opts *o);
struct gpulat_frames *gpulat_frames_new(const struct gpulat_frames_opts *o);
void gpulat_frames_free(struct gpulat_frames *f);

/* Return: 0, or -ENOMEM */
int gpulat_frames_event(struct gpulat_frames *f, const struct gpulat_event *ev);
int gpulat_frames_job(struct gpulat_frames *f, const struct gpulat_job *job);
int gpulat_frames_finish(struct gpulat_frames *f);

/* events of CRTCs (> 64), clients or processes (> 4096) beyond the bounds, ignored */
uint64_t gpulat_frames_ignored(const struct gpulat_frames *f);
/* any vblank event seen */
bool gpulat_frames_active(const struct gpulat_frames *f);

/*
 * The shortest refresh interval over the CRTCs as measured so far (median of
 * the first 16 intervals of each CRTC); 0 until one CRTC has 16. @crtc gets
 * the CRTC. For the default stall threshold while reading.
 */
uint64_t gpulat_frames_early_refresh(const struct gpulat_frames *f, int *crtc);

size_t gpulat_frames_ncrtcs(const struct gpulat_frames *f);
const struct gpulat_crtc_report *gpulat_frames_crtc(const struct gpulat_frames *f, size_t i);
size_t gpulat_frames_nclients(const struct gpulat_frames *f);
const struct gpulat_frame_client *gpulat_frames_client(const struct gpulat_frames *f, size_t i);
const struct gpulat_late_frame *gpulat_frames_late(const struct gpulat_frames *f,
						   size_t client, size_t i);
size_t gpulat_frames_nprocs(const struct gpulat_frames *f);
const struct gpulat_frame_proc *gpulat_frames_proc(const struct gpulat_frames *f, size_t i);

/* ---- as a session listener (frames-session.c) ---- */

struct gpulat_session;
struct gpulat_frames_listener;

#define GPULAT_FRAMES_LEARN_THRESHOLD	(1u << 0)
/*
 * the host knows its records' clock is CLOCK_MONOTONIC (trace_clock=mono) though
 * the session cannot tell (records pushed through gpulat_session_attach_tep()):
 * vblank instants from `time`
 */
#define GPULAT_FRAMES_VBL_TIME		(1u << 1)

struct gpulat_frames_listener *gpulat_frames_listen(struct gpulat_session *s, unsigned int flags);
void gpulat_frames_listener_free(struct gpulat_frames_listener *l);
/* the analysis, NULL when the input had no drm vblank event */
struct gpulat_frames *gpulat_frames_listener_frames(const struct gpulat_frames_listener *l);
/* the CRTC whose refresh became the stall threshold, -1 if none */
int gpulat_frames_listener_threshold_crtc(const struct gpulat_frames_listener *l);
/*
 * gpulat_frames_opts.on_vblank / on_frame for the analysis the listener
 * makes (call before the session reads its input). Return: 0 or -EINVAL.
 */
int gpulat_frames_listener_set_cb(struct gpulat_frames_listener *l, gpulat_vblank_fn on_vblank,
				  gpulat_frame_fn on_frame, void *data);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_FRAMES_H */
