/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpu_jobs - KernelShark plugin: GPU job lifetimes (queue -> run -> done/signal).
 *
 * Data side (gpu_jobs.c, C): at load time the entry and a copy of the payload of every
 * gpu_scheduler / dma_fence / amdgpu record are appended to per-stream storage; nothing
 * else happens per record. The first draw (or the first accessor call) decodes them
 * through the core binding, sorts them by time and feeds them to the core tracker (gpulat_tracker),
 * which does all the job linking; the plugin only stores the finished jobs and builds
 * range indexes (per ring, per CPU, per submitting task) for drawing.
 *
 * Drawing side (GpuJobs.cpp, C++): CPU graphs, task graphs of submitters, and ring rows
 * (Task graphs of synthetic ids, see gpu_rings.h).
 */
#ifndef _GPU_JOBS_H
#define _GPU_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "gpulat.h"
#include "gpulat-session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The plugin is built with -fvisibility=hidden; only these symbols are exported. */
#define GPUJOB_EXPORT	__attribute__((visibility("default")))

/* A stage of a job: queue, run, done, signal (enum gpulat_stage). */
#define GPUJOB_NSTAGES	GPULAT_ST__COUNT

/**
 * struct plugin_gpujob - one linked GPU job as the plugin keeps and draws it
 *
 * Times are stream time (after KernelShark's calibration), GPULAT_NONE when the stage
 * was not seen. Strings are interned by the core binding and live with the stream.
 */
struct plugin_gpujob {
	/** Stage timestamps: [GPULAT_ST_QUEUE], [..._RUN], [..._DONE], [..._SIGNAL]. */
	uint64_t		ts[GPUJOB_NSTAGES];
	/** Start on the hardware (max(run, previous done on the ring)), or GPULAT_NONE. */
	uint64_t		start_ts;
	/** First seen stage timestamp (sort key). */
	uint64_t		begin;
	/** Last seen stage timestamp, or the stream's last GPU event if never done. */
	uint64_t		end;
	/** Finished fence context and seqno (GPULAT_NONE when unknown). */
	uint64_t		ctx;
	/** Finished fence seqno. */
	uint64_t		seqno;
	/** drm_sched job id before 6.17, GPULAT_NONE after. */
	uint64_t		id;
	/** Finished fence pointer before 6.17 (0 after), for its identity. */
	uint64_t		fence_ptr;
	/** Which job of the trace with that pointer handle (gpulat_job.ptr_gen). */
	uint32_t		ptr_gen;
	/** Core tracker's job sequence number (first sight order). */
	uint64_t		seq;
	/** Entries of the stage events, NULL when not seen (markers A/B). */
	struct kshark_entry	*entry[GPUJOB_NSTAGES];
	/** Device ("" before 6.17) and ring name; NULL ring when unknown. */
	const char		*dev;
	/** Ring name (before 5.19 as the core library names the traced address). */
	const char		*ring;
	/** Submitting process name. */
	const char		*comm;
	/** CPU of each stage, -1 when not seen. */
	int			cpu[GPUJOB_NSTAGES];
	/** Submitting task (the queue event's pid). */
	int			pid;
	/** Index into the stream's ring table, -1 when the ring is unknown. */
	int			ring_idx;
	/** Stacking sub-row inside the ring row. */
	int			subrow;
	/** Dependencies: deps[dep_first .. dep_first + n_deps). */
	uint32_t		dep_first;
	/** Number of dependencies. */
	uint32_t		n_deps;
	/** enum gpulat_job_status. */
	int			status;
	/** Stages lost to ring-buffer overruns (1 << enum gpulat_stage). */
	unsigned int		lost_stages;
	/** Before 5.19: the ring's address label as traced (gpulat_job.ring_ptr), else NULL. */
	const char		*ring_ptr;
	/** The core's metrics (docs/truth-format.md), GPULAT_NONE when not computable. */
	uint64_t wait;
	/** start - run. */
	uint64_t hw_queue;
	/** done - start. */
	uint64_t exec;
	/** done - queue. */
	uint64_t total;
	/** Time blocked on dependencies. */
	uint64_t dep_wait;
	/** Palette index of the submitting process (gpu_index.c, first appearance). */
	int color;
};

/** struct plugin_gpujob_dep - a dependency of a job on a fence */
struct plugin_gpujob_dep {
	/** Index of the producing job in the job table, -1 when not traced. */
	ssize_t			producer;
	/** Fence context waited on. */
	uint64_t		ctx;
	/** Fence seqno waited on. */
	uint64_t		seqno;
	/** When the fence signaled (the producer's done), GPULAT_NONE when unknown. */
	uint64_t signal_ts;
	/** The job really waited on it: it signaled after the queue (or blocked it). */
	bool waited;
};

/** struct plugin_gpujob_ring - one GPU ring of one device */
struct plugin_gpujob_ring {
	/** Device ("" before 6.17). */
	const char		*dev;
	/** Ring name as traced (the synthetic id is made from it). */
	const char		*name;
	/** Row label: gpulat_ring_label() of dev and the ring's name ("dev/ring"). */
	char			*label;
	/** Synthetic task id of the ring row (gpu_rings.h). */
	int			id;
	/** Number of stacking sub-rows used. */
	int			n_subrows;
	/** Number of jobs on this ring. */
	size_t			n_jobs;
	/** The ring's name as the core library gives it (NULL: @name). */
	const char		*shown;
	/** Another interned copy of @name and @dev seen (the tracker's), or NULL. */
	const char		*name2;
	/** Its device. */
	const char		*dev2;
};

/** struct plugin_gpujob_frame - a frame lib/frames.c judged (gpulat_frame_verdict) */
struct plugin_gpujob_frame {
	/** The vblank it was due for: count and instant (GPULAT_NONE: not traced). */
	uint64_t		deadline;
	/** V(deadline). */
	uint64_t		deadline_ts;
	/** The vblank it was shown at (GPULAT_NONE: not by the end of the trace). */
	uint64_t		presented;
	/** V(presented). */
	uint64_t		presented_ts;
	/** Vblanks missed (0 when on time). */
	uint64_t		missed;
	/** The client's process (-1: not known when judged), its name. */
	int			pid;
	/** The client's process name ("" when unknown). */
	const char		*comm;
	/** Later than its deadline. */
	bool			late;
	/** enum gpulat_frame_cause of a late frame. */
	int			cause;
};

/** struct plugin_gpujob_crtc - one display CRTC: its row, vblanks and judged frames */
struct plugin_gpujob_crtc {
	/** Pipe index (drm_vblank_event crtc). */
	int			crtc;
	/** Synthetic task id of the CRTC row (gpujob_crtc_id(), gpu_rings.h). */
	int			id;
	/** Row label ("crtc 0"). */
	char			label[24];
	/** Vblank instants (lib/frames.c's V: `time` under trace_clock=mono), in order. */
	uint64_t		*vblank_ts;
	/** Number of vblanks. */
	size_t			n_vblanks;
	/** Capacity of vblank_ts. */
	size_t			cap_vblanks;
	/** Frames of its clients, in the order they were judged. */
	struct plugin_gpujob_frame *frames;
	/** Number of frames. */
	size_t			n_frames;
	/** Capacity of frames. */
	size_t			cap_frames;
	/** Late frames among them. */
	size_t			n_late;
	/** The instants are drm_vblank_event `time` (else record timestamps). */
	bool			vbl_time;
};

/*
 * CPU index items with this bit in @stage are arrivals: the connector from the previous
 * stage's CPU to this one, over [previous stage, this stage]. Without it, a connector
 * could only be found from its left end.
 */
#define GPUJOB_ARRIVAL	0x100

/** An item of a range index: a job, or one stage of a job. */
struct gpujob_item {
	/** Begin of the drawn interval. */
	uint64_t		begin;
	/** End of the drawn interval. */
	uint64_t		end;
	/** Job index. */
	uint32_t		job;
	/** Stage (for CPU items). */
	uint32_t		stage;
};

/**
 * struct gpujob_index - items sorted by begin, with the running maximum of end, so
 * the items that intersect [t0, t1] are found with one binary search.
 */
struct gpujob_index {
	/** Items sorted by begin. */
	struct gpujob_item	*it;
	/** end_max[i] = max(it[0..i].end). */
	uint64_t		*end_max;
	/** Number of items. */
	size_t			n;
	/** Capacity. */
	size_t			cap;
	/** Key (cpu, pid or ring index). */
	int			key;
};

/* Opaque per-stream state of the drawing side (GpuJobs.cpp). */
struct gpujob_draw_state;

/**
 * struct gpujob_raw - a record of ours as collected at load time
 *
 * The entry's time and CPU are copied too: putting 10^5..10^6 records in time order
 * and feeding them then reads this array only, not the scattered entries. Stretches
 * of it in time order go to the session as they are (gpulat_session_push_many()).
 */
struct gpujob_raw {
	/** ref: the KernelShark entry (struct kshark_entry *); data: copy of the
	 * record's payload (NULL for lost-event and damaged entries); ts: stream
	 * time of the entry (after KernelShark's calibration); size, cpu. */
	struct gpulat_host_rec	r;
};

static inline struct kshark_entry *gpujob_raw_entry(const struct gpujob_raw *r)
{
	return (struct kshark_entry *)r->r.ref;
}

/** struct gpujob_block - storage for payload copies */
struct gpujob_block {
	/** Next (older) block. */
	struct gpujob_block	*next;
	/** Bytes used. */
	size_t			used;
	/** Bytes available. */
	size_t			cap;
	/** The bytes. */
	char			data[];
};

/** struct plugin_gpujob_ctx - per-stream plugin context (KS_DEFINE_PLUGIN_CONTEXT) */
struct plugin_gpujob_ctx {
	/** The stream. */
	struct kshark_data_stream	*stream;
	/** The core binding for this stream's tep handle. */
	struct gpulat_binding		*binding;
	/** Event ids with a registered handler. */
	int				*event_ids;
	/** Number of event ids. */
	size_t				n_event_ids;

	/** Our records, collected at load time (file order). */
	struct gpujob_raw		*ents;
	/** Number of collected records. */
	size_t				n_ents;
	/** Capacity of ents. */
	size_t				cap_ents;
	/** Copies of the records' payloads (blocks that never move). */
	struct gpujob_block		*blocks;

	/** Latest timestamp of a record of ours (lost-event entries not counted). */
	uint64_t			last_ts;
	/** The session that linked the jobs: owns their strings (gpu_link.c). */
	struct gpulat_session *session;

	/** The lazy second pass (linking) is done. */
	bool				linked;
	/** Linking failed (out of memory): draw nothing. */
	bool				link_failed;
	/** Collecting failed (out of memory): linking will fail. */
	bool				collect_failed;
	/** Ring-buffer page size of the stream's file (0: unknown; gpulat_record_bytes). */
	int				page_size;
	/** Records whose length does not fit their page (damaged): not decoded. */
	size_t				n_damaged;

	/** Linked jobs, sorted by begin. */
	struct plugin_gpujob		*jobs;
	/** Number of jobs. */
	size_t				n_jobs;
	/** Capacity of jobs. */
	size_t				cap_jobs;
	/** Dependencies of all jobs. */
	struct plugin_gpujob_dep	*deps;
	/** Number of dependencies. */
	size_t				n_deps;
	/** Capacity of deps. */
	size_t				cap_deps;
	/** Rings, in order of first sight. */
	struct plugin_gpujob_ring	*rings;
	/** Number of rings. */
	size_t				n_rings;
	/** Per ring: jobs. */
	struct gpujob_index		*ring_idx;
	/** Per CPU: job stages that happened there. */
	struct gpujob_index		*cpu_idx;
	/** Number of CPU indexes. */
	int				n_cpus;
	/** Per submitting task: job lifetimes, sorted by key (pid). */
	struct gpujob_index		*pid_idx;
	/** Number of task indexes. */
	size_t				n_pids;
	/** CPU and task indexes: 0 not built yet (built on first use), 1 built, -1 failed. */
	int				aux_built;
	/** Longest job (end - begin): zoomed out below a CPU strip's width, no CPU index. */
	uint64_t			max_job_ns;
	/** CRTCs with vblank events, by pipe index (issue 18's frames, gpu_frames.c). */
	struct plugin_gpujob_crtc	*crtcs;
	/** Number of CRTCs. */
	size_t				n_crtcs;
	/** The frames analysis on the session (lib/frames-session.c). */
	struct gpulat_frames_listener	*frames;
	/** Core tracker counters after linking. */
	struct gpulat_tracker_counters	counters;

	/** Drawing state, owned by GpuJobs.cpp. */
	struct gpujob_draw_state	*draw;
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct plugin_gpujob_ctx)

/* gpu_jobs.c: entry points, load-time collection */
void plugin_gpujob_warn(struct plugin_gpujob_ctx *ctx, const char *msg);

/* gpu_link.c: the lazy second pass */
int plugin_gpujob_link(struct plugin_gpujob_ctx *ctx);
void plugin_gpujob_free_results(struct plugin_gpujob_ctx *ctx);

/*
 * Process colors: well separated (Okabe-Ito's colorblind-safe set and four more), given
 * to processes in order of first appearance; GpuJobs.cpp draws with them and
 * tests/kshark/gui_test.py checks pixels against them.
 */
#define GPUJOB_PALETTE_SIZE 12
extern const unsigned char plugin_gpujob_palette[GPUJOB_PALETTE_SIZE][3];

/* gpu_frames.c: CRTC rows from lib/frames.c (vblanks, judged frames) */
int plugin_gpujob_frames_listen(struct plugin_gpujob_ctx *ctx);
void plugin_gpujob_frames_done(struct plugin_gpujob_ctx *ctx);
void plugin_gpujob_frames_free(struct plugin_gpujob_ctx *ctx);
ssize_t plugin_gpujob_crtc_by_id(struct plugin_gpujob_ctx *ctx, int id);
/* the first vblank / frame (by deadline) at or after @t (binary search), n when none */
size_t plugin_gpujob_vblank_first(const struct plugin_gpujob_crtc *c, uint64_t t);
size_t plugin_gpujob_frame_first(const struct plugin_gpujob_crtc *c, uint64_t t);

/* gpu_describe.c: the tooltip text of a job ('\n'-separated lines), snprintf() semantics */
size_t plugin_gpujob_describe(const struct plugin_gpujob_ctx *ctx, size_t j, char *buf, size_t len);

/* gpu_index.c: ring table, stacking, range indexes */
ssize_t plugin_gpujob_ring_add(struct plugin_gpujob_ctx *ctx, const char *dev, const char *ring);
int plugin_gpujob_build_rings(struct plugin_gpujob_ctx *ctx);
int plugin_gpujob_build_indexes(struct plugin_gpujob_ctx *ctx);
void plugin_gpujob_free_indexes(struct plugin_gpujob_ctx *ctx);
ssize_t plugin_gpujob_index_first(const struct gpujob_index *idx, uint64_t t0);
const struct gpujob_index *plugin_gpujob_cpu_index(struct plugin_gpujob_ctx *ctx, int cpu);
const struct gpujob_index *plugin_gpujob_pid_index(struct plugin_gpujob_ctx *ctx, int pid);
ssize_t plugin_gpujob_ring_by_id(struct plugin_gpujob_ctx *ctx, int id);

/* GpuJobs.cpp */
void plugin_gpujob_draw(struct kshark_cpp_argv *argv, int sd, int val, int draw_action);
void plugin_gpujob_draw_free(struct gpujob_draw_state *st);

/*
 * Exported accessors (for tests and scripts that load the plugin through libkshark).
 * They link on first use. Pointers stay valid until the plugin is closed or the
 * stream reloaded. Return the count, or a negative errno (-ENODEV: no context).
 */
GPUJOB_EXPORT ssize_t plugin_gpujob_get_jobs(int sd, const struct plugin_gpujob **jobs);
GPUJOB_EXPORT ssize_t plugin_gpujob_get_rings(int sd, const struct plugin_gpujob_ring **rings);
GPUJOB_EXPORT ssize_t plugin_gpujob_get_deps(int sd, const struct plugin_gpujob_dep **deps);
GPUJOB_EXPORT ssize_t plugin_gpujob_get_crtcs(int sd, const struct plugin_gpujob_crtc **crtcs);

typedef ssize_t (*plugin_gpujob_get_jobs_fn)(int sd, const struct plugin_gpujob **jobs);
typedef ssize_t (*plugin_gpujob_get_rings_fn)(int sd, const struct plugin_gpujob_ring **rings);
typedef ssize_t (*plugin_gpujob_get_deps_fn)(int sd, const struct plugin_gpujob_dep **deps);
typedef ssize_t (*plugin_gpujob_get_crtcs_fn)(int sd, const struct plugin_gpujob_crtc **crtcs);

#ifdef __cplusplus
}
#endif

#endif /* _GPU_JOBS_H */
