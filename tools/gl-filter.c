// SPDX-License-Identifier: LGPL-2.1
/*
 * The job filter: --dev, --ring, --pid, --comm (each repeatable, comma lists),
 * --start/--end. Applied to finished jobs, after linking, so the ring FIFO
 * (start_ts) of a kept job still accounts for the jobs filtered out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-latency.h"

int gl_strlist_add(struct gl_strlist *l, const char *csv)
{
	char *copy, *tok, *save = NULL;

	copy = strdup(csv);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **tmp;

		tmp = realloc(l->v, (l->n + 1) * sizeof(*l->v));
		if (!tmp)
			goto nomem;
		l->v = tmp;
		l->v[l->n] = strdup(tok);
		if (!l->v[l->n])
			goto nomem;
		l->n++;
	}
	free(copy);
	return 0;
 nomem:
	free(copy);
	return -ENOMEM;
}

void gl_strlist_free(struct gl_strlist *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static bool strlist_match(const struct gl_strlist *l, const char *s)
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

void gl_filter_init(struct gl_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->end_ns = UINT64_MAX;
}

void gl_filter_free(struct gl_filter *f)
{
	gl_strlist_free(&f->devs);
	gl_strlist_free(&f->rings);
	gl_strlist_free(&f->comms);
	free(f->pids);
	gl_filter_init(f);
}

int gl_filter_add_pids(struct gl_filter *f, const char *csv)
{
	struct gl_strlist l = { 0 };
	size_t i;
	int ret;

	ret = gl_strlist_add(&l, csv);
	if (ret < 0)
		return ret;
	for (i = 0; i < l.n; i++) {
		char *end;
		long pid;
		int *tmp;

		pid = strtol(l.v[i], &end, 10);
		if (!*l.v[i] || *end || pid < 0 || pid > 0x7fffffff) {
			ret = -EINVAL;
			break;
		}
		tmp = realloc(f->pids, (f->npids + 1) * sizeof(*f->pids));
		if (!tmp) {
			ret = -ENOMEM;
			break;
		}
		f->pids = tmp;
		f->pids[f->npids++] = (int)pid;
	}
	gl_strlist_free(&l);
	return ret;
}

bool gl_filter_active(const struct gl_filter *f)
{
	return f->devs.n || f->rings.n || f->comms.n || f->npids ||
	       f->start_ns || f->end_ns != UINT64_MAX;
}

/* the time a job is placed at for --start/--end: its first seen stage */
static uint64_t job_ref_ts(const struct gpulat_job *job)
{
	int st;

	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (job->ts[st] != GPULAT_NONE)
			return job->ts[st];
	}
	return GPULAT_NONE;
}

bool gl_filter_job(const struct gl_filter *f, const struct gpulat_job *job)
{
	if (f->start_ns || f->end_ns != UINT64_MAX) {
		uint64_t ts = job_ref_ts(job);

		if (ts == GPULAT_NONE || ts < f->start_ns || ts > f->end_ns)
			return false;
	}
	if (!strlist_match(&f->devs, job->dev))
		return false;
	if (!strlist_match(&f->rings, job->ring))
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
