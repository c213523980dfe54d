// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin: the text of a job's tooltip.
 *
 * Every number is the core's (lib/): stage times as traced (seconds, as trace-cmd
 * report prints them, to the ns) with their CPUs, the metrics of docs/truth-format.md
 * in us to the ns, and for each dependency the fence, its producer when traced, and
 * how long the job waited on it (from its queue to the fence's signal; 0 when it had
 * signaled already). A legend of the shades ends it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu_jobs.h"
#include "gpulat-report.h"

struct gpujob_buf {
	char *buf;
	size_t len;
	size_t n;
};

static void put(struct gpujob_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(b->n < b->len ? b->buf + b->n : NULL, b->n < b->len ? b->len - b->n : 0, fmt,
		      ap);
	va_end(ap);
	if (r > 0)
		b->n += r;
}

static void put_ts(struct gpujob_buf *b, const char *name, uint64_t ts, int cpu)
{
	if (ts == GPULAT_NONE) {
		put(b, "\n%-7s -", name);
		return;
	}
	put(b, "\n%-7s %" PRIu64 ".%09" PRIu64, name, ts / 1000000000, ts % 1000000000);
	if (cpu >= 0)
		put(b, "  CPU %d", cpu);
}

static void put_us(struct gpujob_buf *b, const char *name, uint64_t ns)
{
	if (ns == GPULAT_NONE)
		put(b, "  %s -", name);
	else
		put(b, "  %s %" PRIu64 ".%03" PRIu64 " us", name, ns / 1000, ns % 1000);
}

/**
 * plugin_gpujob_describe - the tooltip of job @j
 * @ctx: a linked context
 * @j: job index
 * @buf: output ('\n'-separated lines)
 * @len: its size
 *
 * Return: the length the text needs (snprintf() semantics).
 */
size_t plugin_gpujob_describe(const struct plugin_gpujob_ctx *ctx, size_t j, char *buf, size_t len)
{
	const struct plugin_gpujob *job = &ctx->jobs[j];
	const struct plugin_gpujob_ring *ring = job->ring_idx >= 0 ? &ctx->rings[job->ring_idx] :
								     NULL;
	struct gpujob_buf b = { buf, len, 0 };
	static const char * const status[] = { "complete", "incomplete", "lost", "orphan" };
	uint32_t k;

	if (len)
		buf[0] = '\0';
	put(&b, "%s-%d", job->comm && job->comm[0] ? job->comm : "?", job->pid);
	put(&b, "\nring    %s", ring ? ring->label : job->ring ? job->ring : "?");
	if (job->dev && job->dev[0])
		put(&b, "  (device %s)", job->dev);
	if (job->ctx != GPULAT_NONE && job->seqno != GPULAT_NONE)
		put(&b, "\njob     fence=%" PRIu64 ":%" PRIu64, job->ctx, job->seqno);
	else
		put(&b, "\njob     -");
	if (job->id != GPULAT_NONE)
		put(&b, "  id=%" PRIu64, job->id);
	if (job->status > 0 && (size_t)job->status < sizeof(status) / sizeof(status[0]))
		put(&b, "  (%s)", status[job->status]);
	/*
	 * before 6.17 the plugin, gpu-latency's job rows and stall rows name a
	 * job by ring, id and fence handle (job=gfx#12 fence=b2f8.1): the same
	 * text from lib, so one grep of it finds the job in trace-cmd report
	 */
	if (job->fence_ptr && job->fence_ptr != GPULAT_NONE) {
		char id[96];

		put(&b, "\nreport  %s",
		    gpulat_ptr_job_identity(id, sizeof(id), job->ring, job->id, job->fence_ptr,
					    job->ptr_gen));
	}
	put_ts(&b, "queue", job->ts[GPULAT_ST_QUEUE], job->cpu[GPULAT_ST_QUEUE]);
	put_ts(&b, "run", job->ts[GPULAT_ST_RUN], job->cpu[GPULAT_ST_RUN]);
	put_ts(&b, "start", job->start_ts, -1);
	put_ts(&b, "done", job->ts[GPULAT_ST_DONE], job->cpu[GPULAT_ST_DONE]);
	if (job->ts[GPULAT_ST_SIGNAL] != GPULAT_NONE)
		put_ts(&b, "signal", job->ts[GPULAT_ST_SIGNAL], job->cpu[GPULAT_ST_SIGNAL]);
	put(&b, "\n");
	put_us(&b, "wait", job->wait);
	put_us(&b, "hw_queue", job->hw_queue);
	put_us(&b, "exec", job->exec);
	put_us(&b, "total", job->total);

	for (k = 0; k < job->n_deps; k++) {
		const struct plugin_gpujob_dep *d = &ctx->deps[job->dep_first + k];
		uint64_t q = job->ts[GPULAT_ST_QUEUE], waited = GPULAT_NONE;

		put(&b, "\ndep     fence=%" PRIu64 ":%" PRIu64, d->ctx, d->seqno);
		if (d->producer >= 0) {
			const struct plugin_gpujob *p = &ctx->jobs[d->producer];

			put(&b, " (%s-%d on %s)", p->comm && p->comm[0] ? p->comm : "?", p->pid,
			    p->ring_idx >= 0 ? ctx->rings[p->ring_idx].label : "?");
		}
		if (d->signal_ts != GPULAT_NONE && q != GPULAT_NONE)
			waited = d->signal_ts > q ? d->signal_ts - q : 0;
		if (waited == GPULAT_NONE)
			put(&b, ": waited ? (signal not traced)");
		else if (!waited)
			put(&b, ": signaled before the queue, no wait");
		else
			put(&b, ": waited %" PRIu64 ".%03" PRIu64 " us", waited / 1000,
			    waited % 1000);
	}
	put(&b, "\nshades: pale = scheduler wait, mid = hw queue, dark = execution");
	return b.n;
}
