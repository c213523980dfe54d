/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * --perfetto: what the exporter's files share (gl-perfetto.h is the interface).
 *
 *   gl-pf-event.c   track descriptors, track events, arguments, interned names
 *   gl-pf-tracks.c  GPUs, rings and their lanes, processes
 *   gl-pf-sched.c   CPU scheduling as ftrace bundles
 *   gl-perfetto.c   jobs, flows, ring depth, stalls, marks; open and close
 */
#ifndef _GL_PF_INT_H
#define _GL_PF_INT_H

#include "gl-perfetto.h"

typedef Gst__Perfetto__TracePacket	pf_packet;
typedef Gst__Perfetto__TrackEvent	pf_event;
typedef Gst__Perfetto__TrackDescriptor	pf_track;
typedef Gst__Perfetto__DebugAnnotation	pf_arg;

#define PF_EV_BEGIN	GST__PERFETTO__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
#define PF_EV_END	GST__PERFETTO__TRACK_EVENT__TYPE__TYPE_SLICE_END
#define PF_EV_INSTANT	GST__PERFETTO__TRACK_EVENT__TYPE__TYPE_INSTANT
#define PF_EV_COUNTER	GST__PERFETTO__TRACK_EVENT__TYPE__TYPE_COUNTER

#define PF_SCHED_BATCH	256	/* sched events per CPU per bundle */
#define PF_MAX_ARGS	32
#define PF_NAME_LEN	256

/* interned event names (iid = index + 1) */
enum pf_name {
	PN_WAIT = 0, PN_HW_QUEUE, PN_EXEC, PN_SUBMIT, PN_DEP, PN__COUNT,
};

/* interned argument names (iid = index + 1) */
enum pf_argname {
	PA_JOB = 0, PA_PID, PA_COMM, PA_CLIENT, PA_ID, PA_FENCE_PTR, PA_CTX, PA_SEQNO,
	PA_WAIT, PA_HW_QUEUE, PA_EXEC, PA_TOTAL, PA_DEP_WAIT, PA_JOB_COUNT,
	PA_HW_JOB_COUNT, PA_STATUS, PA_LOST, PA_QUEUE_CPU, PA_RUN_CPU, PA_DONE_CPU,
	PA_SIGNAL_TS, PA_RING_NAME, PA_DEP, PA_DUR, PA_START, PA_END, PA_DEPS,
	PA_CRTC,
	PA_MISSED,
	PA_CAUSE,
	PA_REQUEST_TS,
	PA_READY_TS,
	PA_PRESENTED_TS,
	PA_JOBS,
	PA_VBL_SEQ,
	PA_RECORD_TS,
	PA__COUNT,
};

struct pf_lane {
	uint64_t	uuid;
	uint64_t	end;		/* last ts used on the lane */
};

struct pf_ring {
	int		file;
	char		*dev;
	char		*ring;
	char		*label;
	const char	*ring_key;	/* the caller's pointers last looked up */
	const char	*dev_key;
	uint64_t	uuid;
	uint64_t	depth_uuid;
	uint64_t	signals_uuid;	/* 0 until first used */
	uint64_t	idle_uuid;
	int64_t		depth;
	struct pf_lane	*lanes;
	size_t		nlanes;
};

struct pf_dev {
	int		file;
	char		*dev;
	uint64_t	uuid;
	/* gl_pf_mark() tracks: name -> uuid */
	char		**mark_names;
	uint64_t	*mark_uuids;
	size_t		nmarks;
};

struct pf_proc {
	int		file;
	int		pid;
	uint64_t	uuid;		/* 0: free slot */
};

struct pf_cpu {
	Gst__Perfetto__FtraceEvent	ev[PF_SCHED_BATCH];
	Gst__Perfetto__FtraceEvent	*evp[PF_SCHED_BATCH];
	union {
		Gst__Perfetto__SchedSwitchFtraceEvent	sw;
		Gst__Perfetto__SchedWakingFtraceEvent	wk;
	} data[PF_SCHED_BATCH];
	size_t		n;
};

struct gl_pf {
	struct gl_pf_opts opts;
	struct gl_pfw	w;
	uint64_t	next_uuid;
	uint64_t	next_flow;
	uint64_t	now;		/* last event ts seen */
	struct pf_dev	*devs;
	size_t		ndevs;
	struct pf_ring	**rings;	/* stable pointers: callers keep one */
	size_t		nrings;
	struct pf_ring	*last_ring;
	struct pf_proc	*procs;		/* open addressing on (file, pid) */
	size_t		nprocs;
	size_t		procs_cap;	/* power of two */
	struct pf_cpu	**cpus;
	size_t		ncpus;
	uint64_t	sched_track;	/* 0 until the first sched event */
	struct gl_pf_counts c;
	int		err;
};

/* arguments of one event, built on the stack */
struct pf_args {
	pf_arg		a[PF_MAX_ARGS];
	pf_arg		*p[PF_MAX_ARGS];
	size_t		n;
};

struct pf_ev {
	uint64_t	ts;
	uint64_t	track;
	int		type;
	const char	*name;		/* or iid */
	int		iid;		/* enum pf_name + 1, 0: @name */
	struct pf_args	*args;
	uint64_t	flow;		/* flow_ids */
	uint64_t	term_flow;	/* terminating_flow_ids */
	bool		counter;
	int64_t		value;
};

/* gl-pf-event.c */
int pf_emit(struct gl_pf *pf, pf_packet *p);
int pf_emit_track(struct gl_pf *pf, pf_track *t);
uint64_t pf_new_track(struct gl_pf *pf, uint64_t parent, const char *name,
		      const char *description, bool counter);
int pf_emit_interned(struct gl_pf *pf);
pf_arg *arg_new(struct pf_args *as, enum pf_argname name);
void arg_u64(struct pf_args *as, enum pf_argname name, uint64_t v);
void arg_int(struct pf_args *as, enum pf_argname name, int64_t v);
void arg_ptr(struct pf_args *as, enum pf_argname name, uint64_t v);
void arg_str(struct pf_args *as, enum pf_argname name, const char *s);
size_t ev_bound(const struct pf_ev *e);
int pf_emit_event(struct gl_pf *pf, const struct pf_ev *e);
int pf_slice(struct gl_pf *pf, uint64_t track, uint64_t b, uint64_t e, int iid,
	     const char *name, struct pf_args *args, uint64_t term_flow);

/* gl-pf-tracks.c */
char *pf_strdup(struct gl_pf *pf, const char *s);
const char *pf_label(struct gl_pf *pf, int file, const char *dev, const char *ring,
		     char *buf, size_t len);
struct pf_dev *pf_dev(struct gl_pf *pf, int file, const char *dev);
struct pf_dev *pf_group(struct gl_pf *pf, const char *name);
struct pf_ring *pf_ring(struct gl_pf *pf, int file, const char *dev, const char *ring,
			const char *ring_name);
uint64_t pf_lane(struct gl_pf *pf, struct pf_ring *r, uint64_t begin, uint64_t end);
uint64_t pf_child(struct gl_pf *pf, uint64_t *uuid, uint64_t parent, const char *name,
		  const char *desc);
uint64_t pf_proc(struct gl_pf *pf, int file, int pid, const char *comm);
struct pf_ring *ring_find(struct gl_pf *pf, const char *dev, const char *ring);

/* gl-pf-sched.c */
int pf_sched_event(struct gl_pf *pf, const struct gpulat_event *ev, int file);
void pf_sched_flush_all(struct gl_pf *pf);
void pf_sched_free(struct gl_pf *pf);

#endif /* _GL_PF_INT_H */
