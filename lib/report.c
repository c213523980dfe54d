// SPDX-License-Identifier: LGPL-2.1
/*
 * The report model of a finished session (gpulat-report.h): its rows, the
 * span, and a job's identity as the other front ends print it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-int.h"

struct gpulat_report *gpulat_report_new(struct gpulat_session *s)
{
	struct gpulat_report *r;
	size_t i, n;

	if (!s || !gpulat_session_stats(s)) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->s = s;
	r->stats = gpulat_session_stats(s);
	r->c.sz = sizeof(r->c);
	gpulat_session_counts(s, &r->c);
	gpulat_session_tracker_counters(s, &r->tc);
	r->stall_threshold_ns = gpulat_session_stall_threshold(s);

	n = gpulat_stats_ngroups(r->stats, GPULAT_G_CLIENT);
	r->clients = calloc(n + 1, sizeof(*r->clients));
	if (!r->clients) {
		free(r);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(r->stats, GPULAT_G_CLIENT, i);

		/* jobs without a client id (before 6.17) are no client */
		if (g->client_id != GPULAT_NONE)
			r->clients[r->nclients++] = g;
	}
	if (gpulat__report_headlines(r) < 0) {
		gpulat_report_free(r);
		errno = ENOMEM;
		return NULL;
	}
	return r;
}

void gpulat_report_free(struct gpulat_report *r)
{
	if (!r)
		return;
	free(r->headlines);
	free(r->clients);
	free(r);
}

static const enum gpulat_group_kind group_of[GPULAT_ROW__COUNT] = {
	[GPULAT_ROW_RING] = GPULAT_G_RING,
	[GPULAT_ROW_PROCESS] = GPULAT_G_PROCESS,
	[GPULAT_ROW_DEVICE] = GPULAT_G_DEVICE,
};

size_t gpulat_report_nrows(const struct gpulat_report *r, enum gpulat_row row)
{
	switch (row) {
	case GPULAT_ROW_TRACE:
		return 1;
	case GPULAT_ROW_RING:
	case GPULAT_ROW_PROCESS:
	case GPULAT_ROW_DEVICE:
		return gpulat_stats_ngroups(r->stats, group_of[row]);
	case GPULAT_ROW_CLIENT:
		return r->nclients;
	case GPULAT_ROW_JOB:
		return gpulat_stats_nworst(r->stats);
	case GPULAT_ROW_STALL:
		return gpulat_stats_nstalls(r->stats);
	case GPULAT_ROW_DEPWAIT:
		return gpulat_stats_ndepwaits(r->stats);
	default:
		return 0;
	}
}

const void *gpulat_report_row(const struct gpulat_report *r, enum gpulat_row row, size_t i)
{
	if (i >= gpulat_report_nrows(r, row))
		return NULL;
	switch (row) {
	case GPULAT_ROW_TRACE:
		return r;
	case GPULAT_ROW_RING:
	case GPULAT_ROW_PROCESS:
	case GPULAT_ROW_DEVICE:
		return gpulat_stats_group(r->stats, group_of[row], i);
	case GPULAT_ROW_CLIENT:
		return r->clients[i];
	case GPULAT_ROW_JOB:
		return &gpulat_stats_worst(r->stats, i)->job;
	case GPULAT_ROW_STALL:
		return gpulat_stats_stall(r->stats, i);
	case GPULAT_ROW_DEPWAIT:
		return gpulat_stats_depwait(r->stats, i);
	default:
		return NULL;
	}
}

size_t gpulat_report_nkept(const struct gpulat_report *r)
{
	return gpulat_session_nkept(r->s);
}

const struct gpulat_job *gpulat_report_kept(const struct gpulat_report *r, size_t i)
{
	if (i >= gpulat_session_nkept(r->s))
		return NULL;
	return &gpulat_session_kept(r->s, i)->job;
}

const struct gpulat_summary *gpulat_report_summary(const struct gpulat_group *g,
						   enum gpulat_metric m)
{
	return (unsigned int)m < GPULAT_M__COUNT ? &g->m[m] : NULL;
}

void gpulat_report_span(const struct gpulat_report *r, uint64_t *first, uint64_t *last)
{
	*first = r->c.span_first;
	*last = r->c.span_last;
}

const struct gpulat_session *gpulat_report_session(const struct gpulat_report *r)
{
	return r->s;
}

/*
 * An approximate quantile is one a histogram gave (the group held more than
 * GPULAT_EXACT_MAX values of the metric, or its set's budget of exact values
 * was spent): the CLI's text report and the plugin's summary both print it
 * behind this mark, and the JSON report has "exact": false.
 */
const char *gpulat_quantile_mark(const struct gpulat_summary *s)
{
	return s->n && !s->exact ? "~" : "";
}

/*
 * Both bounds: the mark does not say which histogram a quantile came from,
 * and the coarse one (past the budget, under GPULAT_FINE_FROM values) only
 * comes with many groups, where the 1/128 alone would be a false promise.
 */
char *gpulat_quantile_legend(char *buf, size_t len)
{
	snprintf(buf, len,
		 "~ quantile from the histogram, within %.1f%% of the exact value "
		 "(%.1f%% past the memory budget)",
		 100.0 * GPULAT_REL_ERROR, 100.0 * GPULAT_COARSE_ERROR);
	return buf;
}

/*
 * The plugin's pointer handle: a 64-bit mix (murmur3's finaliser) of the
 * address cut to 16 bits, short enough to read and to grep for.
 */
unsigned int gpulat_ptr_handle(uint64_t p)
{
	p ^= p >> 33;
	p *= 0xff51afd7ed558ccdULL;
	p ^= p >> 33;
	p *= 0xc4ceb9fe1a85ec53ULL;
	p ^= p >> 33;
	return (unsigned int)(p & 0xffff);
}

/*
 * The one spelling of a job's identity (the gpu_sched plugin's): the finished
 * fence ctx:seqno when known and no fence pointer (6.17+), else the pointer
 * eras' job=RING#ID fence=HANDLE, fence=HANDLE without an id (@handle:
 * gpulat_fence_handle()'s HHHH.N, NULL: no pointer).
 */
static char *identity(char *buf, size_t len, const char *ring, uint64_t ctx, uint64_t seqno,
		      const char *handle, uint64_t id)
{
	if (!ring || !*ring)
		ring = "!";
	if (ctx != GPULAT_NONE && !handle)
		snprintf(buf, len, "fence=%llu:%llu", (unsigned long long)ctx,
			 (unsigned long long)seqno);
	else if (handle && id != GPULAT_NONE)
		snprintf(buf, len, "job=%s#%llu fence=%s", ring, (unsigned long long)id, handle);
	else if (handle)
		snprintf(buf, len, "fence=%s", handle);
	else
		snprintf(buf, len, "-");
	return buf;
}

/* HHHH.N: the 16-bit handle and which job of the file with that handle (issue 16) */
static char *handle_gen(char *buf, size_t len, unsigned int handle, uint32_t gen)
{
	if (gen)
		snprintf(buf, len, "%04x.%u", handle, gen);
	else
		snprintf(buf, len, "%04x", handle);
	return buf;
}

char *gpulat_fence_handle(char *buf, size_t len, const struct gpulat_job *job)
{
	return handle_gen(buf, len, gpulat_ptr_handle(job->fence_ptr), job->ptr_gen);
}

char *gpulat_ptr_job_identity(char *buf, size_t len, const char *ring, uint64_t id,
			      uint64_t fence_ptr, uint32_t ptr_gen)
{
	char h[24];

	return identity(buf, len, ring, GPULAT_NONE, 0,
			handle_gen(h, sizeof(h), gpulat_ptr_handle(fence_ptr), ptr_gen), id);
}

char *gpulat_job_identity(char *buf, size_t len, const struct gpulat_job *job)
{
	if (job->fence_ptr && job->fence_ptr != GPULAT_NONE)
		return gpulat_ptr_job_identity(buf, len, job->ring, job->id, job->fence_ptr,
					       job->ptr_gen);
	return identity(buf, len, job->ring, job->ctx, job->seqno, NULL, job->id);
}

char *gpulat_stall_identity(char *buf, size_t len, const struct gpulat_stall *st)
{
	char h[24];

	return identity(buf, len, st->job_ring, st->job_ctx, st->job_seqno,
			st->job_handle >= 0 ? handle_gen(h, sizeof(h), (unsigned int)st->job_handle,
							 st->job_ptr_gen) :
					      NULL,
			st->job_id);
}
