// SPDX-License-Identifier: LGPL-2.1
/*
 * The job filter's options: --dev, --ring, --pid, --comm (each repeatable,
 * comma lists), --start/--end. The session (lib/filter.c) applies them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-session.h"
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

/* the lists as the session's filter options (pointers into @f) */
void gl_filter_session_opts(const struct gl_filter *f, struct gpulat_session_opts *so)
{
	so->devs = (const char * const *)f->devs.v;
	so->n_devs = f->devs.n;
	so->rings = (const char * const *)f->rings.v;
	so->n_rings = f->rings.n;
	so->comms = (const char * const *)f->comms.v;
	so->n_comms = f->comms.n;
	so->pids = f->pids;
	so->n_pids = f->npids;
	so->start_ns = f->start_ns;
	so->end_ns = f->end_ns;
}
