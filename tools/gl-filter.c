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

/* ", "-joined distinct labels of the rings (or devices) jobs were on */
static void seen_list(const struct gl_run *r, bool devs, char *buf, size_t len)
{
	size_t i, k, n = gpulat_session_nseen_rings(r->session), off = 0;
	const char *dev, *ring, *ptr;
	char label[256];

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++) {
		gpulat_session_seen_ring(r->session, i, &dev, &ring, &ptr);
		if (devs && !*dev)
			continue;
		if (devs)
			snprintf(label, sizeof(label), "%s", dev);
		else
			gpulat_ring_label(label, sizeof(label), dev, ring);
		for (k = 0; k < i; k++) {
			const char *d2, *r2, *p2;
			char l2[256];

			gpulat_session_seen_ring(r->session, k, &d2, &r2, &p2);
			if (devs)
				snprintf(l2, sizeof(l2), "%s", d2);
			else
				gpulat_ring_label(l2, sizeof(l2), d2, r2);
			if (!strcmp(l2, label))
				break;
		}
		if (k < i)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", label);
	}
}

/* does any ring jobs were on pass @f's ring (or device) list */
static bool seen_any(const struct gl_run *r, const struct gl_strlist *l, bool devs)
{
	size_t i, k, n = gpulat_session_nseen_rings(r->session);
	const char *dev, *ring, *ptr;

	for (i = 0; i < n; i++) {
		gpulat_session_seen_ring(r->session, i, &dev, &ring, &ptr);
		for (k = 0; k < l->n; k++) {
			if (devs ? gpulat_dev_match(l->v[k], dev) :
				   gpulat_ring_match(l->v[k], dev, ring, ptr))
				return true;
		}
	}
	return false;
}

/**
 * gl_filter_miss - when the filters left no job of a trace that had jobs:
 * one line naming the filter that matched nothing and what the trace has
 * @r: a run after reading
 * @buf: the line (without the tool's name)
 *
 * Return: true when @buf holds the line (an error: the report would be
 * empty tables).
 */
bool gl_filter_miss(const struct gl_run *r, char *buf, size_t len)
{
	const struct gl_filter *f = &r->opts->filter;
	char what[1024], a[32], b[32], spec[256] = "";
	uint64_t first, last;
	size_t i, off = 0;

	if (r->c.jobs || !r->c.jobs_seen || !gl_filter_active(f))
		return false;
	gpulat_session_seen_window(r->session, &first, &last);
	if (f->rings.n && !seen_any(r, &f->rings, false)) {
		for (i = 0; i < f->rings.n; i++)
			off += (size_t)snprintf(spec + off, sizeof(spec) - off, "%s%s",
						i ? "," : "", f->rings.v[i]);
		seen_list(r, false, what, sizeof(what));
		snprintf(buf, len, "no job matches --ring %s; rings: %s", spec, what);
		return true;
	}
	if (f->devs.n && !seen_any(r, &f->devs, true)) {
		for (i = 0; i < f->devs.n; i++)
			off += (size_t)snprintf(spec + off, sizeof(spec) - off, "%s%s",
						i ? "," : "", f->devs.v[i]);
		seen_list(r, true, what, sizeof(what));
		if (*what)
			snprintf(buf, len, "no job matches --dev %s; devices: %s", spec, what);
		else
			snprintf(buf, len,
				 "no job matches --dev %s; this trace's events carry no "
				 "device (kernels before 6.17)",
				 spec);
		return true;
	}
	if ((f->start_ns || f->end_ns != UINT64_MAX) && first != GPULAT_NONE &&
	    (f->start_ns > last || f->end_ns < first)) {
		snprintf(buf, len, "no job matches --start %s --end %s; jobs from %s to %s",
			 f->start_ns ? gl_fmt_ts(a, sizeof(a), f->start_ns) : "-",
			 f->end_ns != UINT64_MAX ? gl_fmt_ts(b, sizeof(b), f->end_ns) : "-",
			 gl_fmt_ts(what, 32, first), gl_fmt_ts(what + 32, 32, last));
		return true;
	}
	seen_list(r, false, what, sizeof(what));
	snprintf(buf, len,
		 "no job matches the filters (--dev, --ring, --pid, --comm, --start, "
		 "--end together) of %llu jobs; rings: %s",
		 (unsigned long long)r->c.jobs_seen, what);
	return true;
}
