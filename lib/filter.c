// SPDX-License-Identifier: LGPL-2.1
/*
 * The job filter of the session options: devices, rings, submitting
 * processes (pid, comm) and a time window. Applied to finished jobs, after
 * linking, so the ring FIFO (start_ts) of a kept job still accounts for the
 * jobs filtered out. The lists are copied: the filter owns its strings.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session-int.h"

struct strlist {
	char		**v;
	size_t		n;
};

struct gpulat_filter {
	struct strlist	devs;
	struct strlist	rings;
	struct strlist	comms;
	int		*pids;
	size_t		npids;
	uint64_t	start_ns;
	uint64_t	end_ns;		/* UINT64_MAX: no limit */
};

static int strlist_copy(struct strlist *l, const char * const *v, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	if (!v)
		return -EINVAL;
	l->v = calloc(n, sizeof(*l->v));
	if (!l->v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!v[i])
			return -EINVAL;
		l->v[i] = strdup(v[i]);
		if (!l->v[i])
			return -ENOMEM;
		l->n++;
	}
	return 0;
}

static void strlist_free(struct strlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

static bool strlist_match(const struct strlist *l, const char *s)
{
	size_t i;

	if (!l->n)
		return true;
	if (!s)
		return false;
	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i], s) == 0)
			return true;
	}
	return false;
}

/**
 * gpulat_filter_new - the job filter of @o (devs ... end_ns)
 * @o: options (gpulat_session_opts_init() defaults: no filter)
 *
 * Return: the filter, or NULL with errno set (EINVAL, ENOMEM).
 */
struct gpulat_filter *gpulat_filter_new(const struct gpulat_session_opts *o)
{
	struct gpulat_filter *f;
	int ret;

	f = calloc(1, sizeof(*f));
	if (!f) {
		errno = ENOMEM;
		return NULL;
	}
	f->start_ns = o->start_ns;
	/* 0 is the zero-initialised "not set" of a sized opts struct */
	f->end_ns = o->end_ns ? o->end_ns : UINT64_MAX;
	ret = strlist_copy(&f->devs, o->devs, o->n_devs);
	if (!ret)
		ret = strlist_copy(&f->rings, o->rings, o->n_rings);
	if (!ret)
		ret = strlist_copy(&f->comms, o->comms, o->n_comms);
	if (!ret && o->n_pids) {
		f->pids = o->pids ? malloc(o->n_pids * sizeof(*f->pids)) : NULL;
		if (!f->pids)
			ret = o->pids ? -ENOMEM : -EINVAL;
		else
			memcpy(f->pids, o->pids, o->n_pids * sizeof(*f->pids));
		f->npids = f->pids ? o->n_pids : 0;
	}
	if (ret) {
		gpulat_filter_free(f);
		errno = -ret;
		return NULL;
	}
	return f;
}

void gpulat_filter_free(struct gpulat_filter *f)
{
	if (!f)
		return;
	strlist_free(&f->devs);
	strlist_free(&f->rings);
	strlist_free(&f->comms);
	free(f->pids);
	free(f);
}

/* rings: the name, the label dev/ring, or (<= 5.18) the traced address (ringname.c) */
static bool ring_match(const struct strlist *l, const struct gpulat_job *job)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (gpulat_ring_match(l->v[i], job->dev, job->ring, job->ring_ptr))
			return true;
	}
	return !l->n;
}

/* devices: as the events carry them, or without PCI domain 0 (ringname.c) */
static bool dev_match(const struct strlist *l, const char *dev)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (gpulat_dev_match(l->v[i], dev ? dev : ""))
			return true;
	}
	return !l->n;
}

/*
 * The time a job is placed at for start_ns/end_ns: its first seen stage in
 * pipeline order, not its earliest timestamp (they differ when clocks go
 * backwards across CPUs; docs/gpu-latency.md, tests/fuzz X4).
 */
static uint64_t job_ref_ts(const struct gpulat_job *job)
{
	int st;

	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (job->ts[st] != GPULAT_NONE)
			return job->ts[st];
	}
	return GPULAT_NONE;
}

/**
 * gpulat_filter_job - whether @job passes the filter
 * @f: filter
 * @job: a finished job
 *
 * Return: true to keep it.
 */
bool gpulat_filter_job(const struct gpulat_filter *f, const struct gpulat_job *job)
{
	if (f->start_ns || f->end_ns != UINT64_MAX) {
		uint64_t ts = job_ref_ts(job);

		if (ts == GPULAT_NONE || ts < f->start_ns || ts > f->end_ns)
			return false;
	}
	if (!dev_match(&f->devs, job->dev))
		return false;
	if (!ring_match(&f->rings, job))
		return false;
	if (!strlist_match(&f->comms, job->comm))
		return false;
	if (f->npids) {
		size_t i;

		for (i = 0; i < f->npids; i++) {
			if (f->pids[i] == job->pid)
				break;
		}
		if (i == f->npids)
			return false;
	}
	return true;
}

/* the window of the filter: [*start, *end], end UINT64_MAX when open */
void gpulat__filter_window(const struct gpulat_filter *f, uint64_t *start, uint64_t *end)
{
	*start = f->start_ns;
	*end = f->end_ns;
}
