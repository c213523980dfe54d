/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * --perfetto: GPU jobs as a Perfetto trace (protobuf, proto/perfetto_subset.proto).
 *
 *   gl-pf-write.c   packets -> temporary file -> rename into place
 *   gl-perfetto.c   jobs, flows, ring depth, stalls, marks (gl-pf-int.h:
 *                   gl-pf-event.c, gl-pf-tracks.c, gl-pf-sched.c)
 *
 * Interface of a stream consumer: open, then jobs / events / stalls / marks
 * in any mix as the trace is read, then close (commit or drop). Memory is
 * the tracks (rings, processes) plus a bounded batch of sched events per CPU.
 */
#ifndef _GL_PERFETTO_H
#define _GL_PERFETTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulat.h"
#include "perfetto_subset.pb-c.h"

/* ------------------------------------------------------------------------ */
/* gl-pf-write.c                                                              */

struct gl_pfw {
	int		fd;
	char		*path;		/* final name */
	char		*tmp;		/* PATH.tmpXXXXXX until commit */
	uint8_t		*buf;
	size_t		len;
	size_t		cap;
	uint8_t		*scratch;	/* one packed TracePacket */
	size_t		scratch_cap;
	uint64_t	packets;
	uint64_t	bytes;		/* written so far */
	int		err;		/* first write error, sticky */
};

int gl_pfw_open(struct gl_pfw *w, const char *path, char *err, size_t errlen);
int gl_pfw_packet(struct gl_pfw *w, Gst__Perfetto__TracePacket *p);
int gl_pfw_event(struct gl_pfw *w, Gst__Perfetto__TrackEventPacket *p, size_t bound,
		 bool interned);
int gl_pfw_core(struct gl_pfw *w, Gst__Perfetto__TrackEventCorePacket *p);
int gl_pfw_commit(struct gl_pfw *w, char *err, size_t errlen);
void gl_pfw_abort(struct gl_pfw *w);

/* ------------------------------------------------------------------------ */
/* gl-perfetto.c                                                              */

struct gl_pf;
struct gpulat_late_frame;
struct gpulat_vblank;

/* the canonical ring label of the front end (the report's spelling) */
typedef const char *(*gl_pf_label_fn)(void *data, int file, const char *dev,
				      const char *ring, char *buf, size_t len);
/* whether the filters keep a ring (dependency arrows lead only to kept rings) */
typedef bool (*gl_pf_ring_fn)(void *data, const char *dev, const char *ring);
/* the command name of @pid in @file (sched events), NULL if unknown */
typedef const char *(*gl_pf_comm_fn)(void *data, int file, int pid);

struct gl_pf_opts {
	size_t		sz;		/* sizeof(struct gl_pf_opts) */
	bool		sched;		/* CPU scheduling from sched_switch/waking */
	uint64_t	start_ns;	/* events outside [start_ns, end_ns] are left out */
	uint64_t	end_ns;
	gl_pf_label_fn	ring_label;
	gl_pf_comm_fn	comm;
	gl_pf_ring_fn	keep_ring;	/* NULL: every ring */
	void		*data;		/* for ring_label, comm and keep_ring */
};

/*
 * A marker: an instant at @ts on the child track @track of a top-level group,
 * the GPU @dev, or with @group set that group (e.g. "Display" for the late
 * frames of --frames, issue 18).
 */
struct gl_pf_mark {
	size_t		sz;		/* sizeof(struct gl_pf_mark) */
	int		file;
	const char	*dev;		/* "" before 6.17 */
	const char *group; /* NULL: the GPU @dev */
	const char *track; /* e.g. "crtc 0 late frames" */
	const char *name; /* e.g. "late frame game-5100" */
	uint64_t	ts;
	uint64_t	dur;		/* an argument (GPULAT_NONE: none) */
};

struct gl_pf_counts {
	uint64_t	jobs;
	uint64_t	packets;
	uint64_t	bytes;
	uint64_t	tracks;
	uint64_t	flows;
	uint64_t	sched_events;
};

struct gl_pf *gl_pf_open(const char *path, const struct gl_pf_opts *o, char *err,
			 size_t errlen);
/* a job that passed the filters */
int gl_pf_job(struct gl_pf *pf, const struct gpulat_job *job);
/*
 * every decoded event, in time order; @job is the job it belongs to when that
 * job passes the filters (gpulat_tracker_last_job()), else NULL
 */
int gl_pf_event(struct gl_pf *pf, const struct gpulat_event *ev, int file,
		const struct gpulat_job *job);
int gl_pf_stall(struct gl_pf *pf, const struct gpulat_stall *st);
int gl_pf_mark(struct gl_pf *pf, const struct gl_pf_mark *m);
/* a late frame of --frames (gpulat-frames.h): an instant at its deadline vblank
 * on "Display" / "crtc N late frames" */
int gl_pf_late_frame(struct gl_pf *pf, const struct gpulat_late_frame *lf);
/* a vblank as --frames counts it (its instant V): a tick on "Display" /
 * "crtc N vblanks" */
int gl_pf_vblank(struct gl_pf *pf, const struct gpulat_vblank *v);
void gl_pf_counts(const struct gl_pf *pf, struct gl_pf_counts *c);
/*
 * @commit: rename the file into place (0 or a negative errno with @err set);
 * otherwise drop it. Frees @pf either way.
 */
int gl_pf_close(struct gl_pf *pf, bool commit, char *err, size_t errlen);

#endif /* _GL_PERFETTO_H */
