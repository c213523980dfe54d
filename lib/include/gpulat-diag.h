/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat diagnosis: why a frame stuttered, and how long a GPU completion
 * takes to reach the waiting process.
 *
 *   d = gpulat_diag_new(&opts);
 *   for every record, in time order:  gpulat_diag_feed(d, &ev, tep, rec);
 *   for every finished job:           gpulat_diag_job(d, job);
 *   gpulat_diag_finish(d, first_ts, last_ts);
 *   gpulat_diag_stall_explain(d, stall) / gpulat_diag_job_explain(d, seq)
 *   gpulat_diag_fence_path(d, ...), gpulat_diag_irq_load(d, cpu, ...)
 *
 * Streaming: the context (irq, softirq, cpu_frequency, sched_switch/waking,
 * dma_fence waits) is kept in bounded per-CPU and per-task windows (the last
 * opts.window_ns of trace time, at most opts.max_per_cpu entries each);
 * explanations are computed when a gap over the stall threshold ends or a
 * job enters the worst list (a session's statistics say which) and only
 * those are kept.
 */
#ifndef _GPULAT_DIAG_H
#define _GPULAT_DIAG_H

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a hint blames; the names are those of the truth files ("cause"). */
enum gpulat_cause {
	GPULAT_CAUSE_NONE = 0,
	GPULAT_CAUSE_CPU_FREQ,		/* "cpu_freq": the CPU ran below its top frequency */
	GPULAT_CAUSE_IRQ,		/* "irq_storm": hardirq/softirq time on the CPU */
	GPULAT_CAUSE_CPU_HOG,		/* "cpu_hog": runnable but another task held the CPU */
	GPULAT_CAUSE_FENCE_WAIT,	/* "fence_wait": the submitter blocked in dma_fence_wait */
	GPULAT_CAUSE_DEP_WAIT,		/* "dep_wait": the job waited for its dependencies */
	GPULAT_CAUSE__COUNT,
};

const char *gpulat_cause_name(enum gpulat_cause c);

#define GPULAT_DIAG_MAX_HINTS	8

/**
 * struct gpulat_hint - one line of an explanation
 * @cause: what it blames
 * @score: the delay it can explain, ns (hints are sorted by it, largest first)
 * @from_ts: where to look in the trace (KernelShark markers)
 * @to_ts: ...
 * @cpu: the CPU concerned, -1 if none
 * @text: one line for humans, with timestamps as trace-cmd report prints them
 */
struct gpulat_hint {
	enum gpulat_cause cause;
	uint64_t	score;
	uint64_t	from_ts;
	uint64_t	to_ts;
	int		cpu;
	char		text[224];
};

struct gpulat_explain {
	uint64_t	from_ts;	/* the window looked at */
	uint64_t	to_ts;
	int		pid;		/* submitter, -1 if unknown */
	int		cpu;		/* its CPU */
	bool		partial;	/* part of the window was older than the kept context */
	unsigned int	n;
	struct gpulat_hint h[GPULAT_DIAG_MAX_HINTS];
};

struct gpulat_diag_opts {
	uint64_t	window_ns;	/* context kept per CPU/task, default 2 s */
	unsigned int	max_per_cpu;	/* entries per window, default 65536 */
	uint64_t	stall_threshold_ns;	/* default 16666667 (as gpulat_stats) */
	unsigned int	top_n;		/* worst jobs explained, default 10 */
	enum gpulat_metric worst_by;	/* default GPULAT_M_TOTAL */
	int		gpu_irq;	/* GPU irq number, -1 = choose (default) */
	const char	*gpu_irq_name;	/* or by irq_handler_entry name, NULL = none */
};

struct gpulat_diag;
struct tep_handle;
struct tep_record;

void gpulat_diag_opts_init(struct gpulat_diag_opts *o);
struct gpulat_diag *gpulat_diag_new(const struct gpulat_diag_opts *o);
void gpulat_diag_free(struct gpulat_diag *d);
/* no effect (ABI): the statistics own the threshold (gpulat_session_set_stall_threshold) */
void gpulat_diag_set_stall_threshold(struct gpulat_diag *d, uint64_t ns);

/**
 * gpulat_diag_feed - one decoded event, in time order across all CPUs
 * @d: diagnosis state
 * @ev: the event (any kind gpulat_binding_decode() returns)
 * @tep: the trace's handle (irq and task names are read from @rec); may be NULL
 * @rec: the record; may be NULL
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat_diag_feed(struct gpulat_diag *d, const struct gpulat_event *ev,
		     struct tep_handle *tep, struct tep_record *rec);

/**
 * gpulat_diag_job - a finished job (the tracker's job callback, after filters)
 * @d: diagnosis state
 * @job: the job; only valid during the call
 *
 * Adds its fence-path samples. Which stalls and worst jobs are explained is
 * said by the statistics of a session (gpulat-session.h with
 * GPULAT_FEAT_EXPLAIN): the diagnosis detects none itself.
 *
 * Return: 0, or -ENOMEM.
 */
int gpulat_diag_job(struct gpulat_diag *d, const struct gpulat_job *job);

/* end of input: chooses the GPU irq, computes quantiles and IRQ load over the span */
int gpulat_diag_finish(struct gpulat_diag *d, uint64_t first_ts, uint64_t last_ts);

/* explanation of a stall of gpulat_stats (same kind, process/ring, end), or NULL */
const struct gpulat_explain *gpulat_diag_stall_explain(const struct gpulat_diag *d,
							const struct gpulat_stall *st);
/*
 * Stall explanations not kept: the diagnosis keeps those of the
 * GPULAT_DIAG_STALLS_KEPT longest gaps over the threshold the statistics said
 * (a superset of the stalls they list); 0 when every gap kept its own.
 */
uint64_t gpulat_diag_stalls_dropped(const struct gpulat_diag *d);
/* explanation of a worst job (gpulat_worst.job.seq), or NULL */
const struct gpulat_explain *gpulat_diag_job_explain(const struct gpulat_diag *d, uint64_t seq);

/**
 * gpulat_diag_explain_now - explain @job from the context kept so far
 * @d: diagnosis state
 * @job: a job just finished (the tracker's callback)
 * @out: filled
 *
 * For live use (a job that may not rank among the worst of the whole run).
 */
void gpulat_diag_explain_now(struct gpulat_diag *d, const struct gpulat_job *job,
			     struct gpulat_explain *out);

/* ---- fence-signal path and IRQ load (after gpulat_diag_finish) ---- */

enum gpulat_irq_source {
	GPULAT_IRQSRC_NONE = 0,		/* no irq stage: done events are not inside an irq */
	GPULAT_IRQSRC_AUTO,		/* irq_handler_entry most often around done events */
	GPULAT_IRQSRC_OPTION,		/* chosen by gpulat_diag_opts.gpu_irq / _name */
	GPULAT_IRQSRC_AMDGPU_IV,	/* amdgpu_iv before the done event */
};

/* "none", "auto", "option", "amdgpu_iv" */
const char *gpulat_irq_source_name(enum gpulat_irq_source src);

struct gpulat_gpu_irq {
	enum gpulat_irq_source source;
	int		irq;		/* -1 for NONE / AMDGPU_IV */
	const char	*name;		/* irq_handler_entry name, "" if unknown */
	uint64_t	done_inside;	/* done events inside this irq (or after an iv) */
	uint64_t	done_events;	/* done events seen */
};

enum gpulat_fp_stage {
	GPULAT_FP_IRQ_DONE = 0,		/* irq_handler_entry (or amdgpu_iv) -> done */
	GPULAT_FP_DONE_SIGNAL,		/* done -> finished fence dma_fence_signaled */
	GPULAT_FP_SIGNAL_WAIT_END,	/* signal -> a blocked waiter's dma_fence_wait_end */
	GPULAT_FP__COUNT,
};

const char *gpulat_fp_stage_name(enum gpulat_fp_stage st);	/* "irq_to_done", ... */

struct gpulat_fp_ring {
	const char	*dev;
	const char	*ring;
	int		file;
	struct gpulat_summary s[GPULAT_FP__COUNT];
};

void gpulat_diag_gpu_irq(const struct gpulat_diag *d, struct gpulat_gpu_irq *out);
/* the irqs irq_handler_entry named, in order of first appearance */
size_t gpulat_diag_nirqs(const struct gpulat_diag *d);
/* irq number of the @i-th, its handler name in @name ("" if unknown); -1 out of range */
int gpulat_diag_irq_at(const struct gpulat_diag *d, size_t i, const char **name);
/*
 * gpulat_diag_gpu_irq_missing - when the gpu_irq / gpu_irq_name option names
 * no irq of the trace: one line saying so and listing the trace's irqs in
 * @buf; true then (the fence path would silently be empty)
 */
bool gpulat_diag_gpu_irq_missing(const struct gpulat_diag *d, char *buf, size_t len);
/* true (and one line in @buf) when tasks, rings or irqs beyond the memory caps were seen */
bool gpulat_diag_caps_hit(const struct gpulat_diag *d, char *buf, size_t len);
size_t gpulat_diag_fp_nrings(const struct gpulat_diag *d);
const struct gpulat_fp_ring *gpulat_diag_fp_ring(const struct gpulat_diag *d, size_t i);

struct gpulat_irq_load {
	int		cpu;
	uint64_t	hardirq_ns;	/* irq_handler_entry -> exit */
	uint64_t	softirq_ns;	/* softirq_entry -> exit, minus nested hardirqs */
	double		hardirq_pct;	/* of the trace span */
	double		softirq_pct;
	uint64_t	hardirqs;	/* handler invocations */
	uint64_t	softirqs;
};

/* CPUs with irq or softirq events seen (index 0..n-1 are CPUs 0..n-1) */
int gpulat_diag_ncpus(const struct gpulat_diag *d);
void gpulat_diag_irq_load(const struct gpulat_diag *d, int cpu, struct gpulat_irq_load *out);
/* whether irq / softirq events were seen at all */
bool gpulat_diag_has_irq(const struct gpulat_diag *d);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_DIAG_H */
