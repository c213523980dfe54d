/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat diagnosis internals, shared by diag-ctx.c (bounded context windows),
 * diag-explain.c (hints) and diag-fencepath.c (fence-signal path, IRQ load).
 */
#ifndef _GPULAT_DIAG_INT_H
#define _GPULAT_DIAG_INT_H

/* irq numbers followed, in all and per ring of the fence path (hostile traces) */
#define DG_IRQS_MAX	1024
#define DG_FP_IRQS_MAX	64

#include "gpulat-diag.h"
#include "gpulat-int.h"

/* ---- bounded ring of fixed-size elements; the first u64 is a time ---- */

struct dg_ring {
	unsigned char	*v;
	size_t		esz;
	size_t		cap;
	size_t		max;
	size_t		head;		/* oldest */
	size_t		n;
	uint64_t	dropped_to;	/* time of the newest element dropped by the cap */
};

void dg_ring_init(struct dg_ring *r, size_t esz, size_t max);
void dg_ring_fini(struct dg_ring *r);
/* a slot for a new newest element (the oldest is overwritten when full), NULL on ENOMEM */
void *dg_ring_push(struct dg_ring *r);
/* i-th oldest */
void *dg_ring_at(const struct dg_ring *r, size_t i);
/* drop the oldest elements whose time is before @t */
void dg_ring_prune(struct dg_ring *r, uint64_t t);

/* an interval; @end first so that pruning drops what ended before the window */
struct dg_iv {
	uint64_t	end;
	uint64_t	start;
	int		what;		/* irq / vec / cpu */
	int		who;		/* holder pid (runnable intervals) */
};

struct dg_freq {
	uint64_t	ts;
	uint64_t	khz;
	uint64_t	prev_khz;	/* 0: unknown */
};

struct dg_run {			/* a drm_run_job / drm_sched_job_run record */
	uint64_t	ts;
	int		pid;
};

struct dg_done {		/* a done event and the interrupt around it */
	uint64_t	ts;
	int		irq;		/* open hardirq, -1 none */
	uint64_t	irq_ts;
	uint64_t	iv_ts;		/* latest amdgpu_iv on the CPU, GPULAT_NONE */
};

struct dg_cpu {
	struct dg_ring	hard;		/* struct dg_iv, what = irq */
	struct dg_ring	soft;		/* struct dg_iv, what = vec; start..end net of hardirqs */
	struct dg_ring	freq;		/* struct dg_freq */
	struct dg_ring	runs;		/* struct dg_run */
	struct dg_ring	dones;		/* struct dg_done */
	bool		in_hard, in_soft;
	int		hard_irq, soft_vec;
	uint64_t	hard_ts, soft_ts, soft_nested;
	uint64_t	hard_ns, soft_ns, hard_n, soft_n;
	uint64_t	khz, max_khz;
	uint64_t	iv_ts;
	bool		seen;
};

struct dg_task {
	struct gpulat__hnode node;	/* k1 = file, k2 = pid */
	int		pid;
	char		comm[16];
	bool		running;
	uint64_t	runnable_since;	/* GPULAT_NONE when not runnable */
	int		runnable_cpu;
	uint64_t	active_since;	/* last wakeup or switch-in after sleeping */
	struct dg_ring	runq;		/* struct dg_iv: runnable, not running; what = cpu, who = holder */
	struct dg_ring	fwait;		/* struct dg_iv: blocked in dma_fence_wait; what = seqno */
	bool		in_fwait;
	uint64_t fwait_ts, fwait_ctx, fwait_seqno;
	const char	*qcomm;		/* comm of its queue events */
};

/* kept explanations */
struct dg_stall {
	enum gpulat_stall_kind kind;
	int		pid;
	const char	*dev, *ring;	/* ring idle (job strings, copied) */
	uint64_t	start_ts, end_ts;
	struct gpulat_explain x;
};

struct dg_worst {
	uint64_t	seq;
	uint64_t	metric;
	struct gpulat_explain x;
};

/* per ring fence-path accumulators; irq->done per candidate irq */
struct dg_fp_irq {
	int		irq;		/* -2: amdgpu_iv */
	struct gpulat__qacc q;
};

struct dg_fp_ring {
	const char	*dev, *ring;	/* interned in d->names */
	int		file;
	struct dg_fp_irq *irqs;
	size_t		nirqs;
	struct gpulat__qacc q[GPULAT_FP__COUNT];	/* [IRQ_DONE] filled at finish */
	struct gpulat_fp_ring out;
};

/* a fence somebody waited for, or a job's finished fence */
struct dg_fence {
	struct gpulat__hnode node;	/* k1 = file << 40 | ctx32, k2 = seqno32 */
	uint64_t	created;
	uint64_t	wait_start, wait_end, signal_ts;
	int		ring;		/* dg_fp_ring index, -1 */
	bool		sampled;
	bool		gone;		/* removed from the table, waits for pruning */
};

struct dg_fence_ref {
	uint64_t	ts;
	struct dg_fence	*f;
};

struct dg_irqcount {
	int		irq;
	uint64_t	n;
	char		name[32];
};

/*
 * (file, dev, ring) -> row of a per-ring table (ring idle, fence path):
 * hashed, since a linear search made 10^5 rings take minutes, and capped at
 * gpulat__cap(GPULAT_CAP_GROUPS) rows as the statistics cap their groups;
 * the rings beyond it are not followed (counted in @dropped, warned once).
 */
struct dg_rmap {
	struct gpulat__htab h;		/* struct dg_rkey */
	size_t		n;
	uint64_t	dropped;	/* jobs of rings beyond the cap */
};

int dg_rmap_init(struct dg_rmap *m);
void dg_rmap_fini(struct dg_rmap *m);
long dg_rmap_get(struct gpulat_diag *d, struct dg_rmap *m, int file, const char *dev,
		 const char *ring);

struct gpulat_diag {
	struct gpulat_diag_opts o;
	struct gpulat__strtab *names;
	struct dg_cpu	*cpus;
	int		ncpus;
	struct gpulat__htab tasks;
	uint64_t	now;

	struct gpulat__topk stalls; /* struct dg_stall, the longest gaps (gpulat__diag_gap) */
	uint64_t	stalls_dropped;	/* explanations not kept: more than the cap */
	struct dg_worst *worst; /* gpulat__diag_worst() */
	size_t nworst, capworst;

	struct dg_fp_ring *fp;
	size_t		nfp, capfp;
	struct dg_rmap	fp_map;
	/* tasks and irq numbers beyond their caps share one unlisted sink each */
	size_t		max_tasks;
	uint64_t	tasks_dropped;
	struct dg_task	task_sink;
	struct dg_irqcount irq_sink;
	uint64_t	irqs_dropped;
	struct gpulat__htab fences;
	struct dg_ring	fence_fifo;	/* struct dg_fence_ref */
	struct dg_irqcount *irqc;	/* irq numbers, names and done-inside counts */
	size_t		nirqc;
	uint64_t	done_events, done_iv;
	bool		has_irq, has_iv;
	struct gpulat_gpu_irq gpu_irq;
	uint64_t	span;
	bool		finished;
	int		err;
};

struct dg_cpu *dg_cpu_get(struct gpulat_diag *d, int cpu);
struct dg_task *dg_task_find(const struct gpulat_diag *d, int file, int pid);
struct dg_irqcount *dg_irq_get(struct gpulat_diag *d, int irq);
const char *dg_comm(const struct gpulat_diag *d, int file, int pid, char *buf, size_t len);
const char *dg_fmt_ts(char *buf, size_t len, uint64_t ts);
uint64_t dg_overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1);

/* diag-explain.c */
void dg_explain_window(struct gpulat_diag *d, int file, int pid, int cpu, uint64_t from,
		       uint64_t to, struct gpulat_explain *x);
void dg_explain_job(struct gpulat_diag *d, const struct gpulat_job *job, struct gpulat_explain *x);
void dg_explain_sort(struct gpulat_explain *x);
int dg_stalls_init(struct gpulat_diag *d);

/* diag-fencepath.c */
int dg_fp_feed(struct gpulat_diag *d, const struct gpulat_event *ev);
int dg_fp_job(struct gpulat_diag *d, const struct gpulat_job *job);
void dg_fp_finish(struct gpulat_diag *d);
void dg_fp_free(struct gpulat_diag *d);

#endif /* _GPULAT_DIAG_INT_H */
