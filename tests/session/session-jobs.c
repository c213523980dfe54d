// SPDX-License-Identifier: LGPL-2.1
/*
 * session-jobs: count a trace's jobs through the public session API only.
 *
 *   session-jobs --file trace.dat     the session reads the file
 *   session-jobs --push trace.dat     libtracecmd reads it, records are pushed
 *                                     one by one (what a host plugin does)
 *   session-jobs --push-many trace.dat  the same records kept (payload copies)
 *                                     and pushed in batches of up to 5, lost
 *                                     events said between two batches (what the
 *                                     KernelShark plugin does)
 *
 * Prints one line: "jobs N complete C incomplete I lost L orphan O era E".
 * Two more listeners check the kinds mask of struct gpulat_listener: one wants
 * queue and done events only, one is an older caller whose sz ends before
 * @kinds (so it gets every kind whatever lies there); a mismatch adds a line.
 * Built in the tree (tests/session) and, by the install test, outside it
 * against the installed library with `pkg-config --cflags --libs gpulat`.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "gpulat-session.h"

struct tally {
	unsigned long long st[4];
	bool push;
	unsigned long long no_ref;	/* --push: seen stages without the host's ref */
};

static void msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	if (level != GPULAT_MSG_WARN)
		fprintf(stderr, "session-jobs: %s%s", text, level == GPULAT_MSG_HINT ? "" : "\n");
}

static int on_job(const struct gpulat_job *job, void *data)
{
	struct tally *t = data;

	int st;

	if ((unsigned int)job->status < 4)
		t->st[job->status]++;
	/* every stage seen carries the reference its record was pushed with */
	for (st = 0; t->push && st < GPULAT_ST__COUNT; st++)
		if (job->ts[st] != GPULAT_NONE && !job->ref[st])
			t->no_ref++;
	return 0;
}

/* what the kinds-mask listeners saw */
struct kinds_check {
	uint64_t	want;		/* the masked listener's kinds */
	uint64_t	masked;		/* events it got */
	uint64_t	outside;	/* of them, of a kind it did not ask for */
	uint64_t	all;		/* events the old-size listener got */
	uint64_t	all_wanted;	/* of them, of a kind in @want */
};

static int on_masked(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct kinds_check *k = data;

	(void)rec;
	(void)file;
	k->masked++;
	if ((unsigned int)ev->kind >= 64 || !(k->want & GPULAT_LISTEN_KIND(ev->kind)))
		k->outside++;
	return 0;
}

static int on_every(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct kinds_check *k = data;

	(void)rec;
	(void)file;
	k->all++;
	if ((unsigned int)ev->kind < 64 && (k->want & GPULAT_LISTEN_KIND(ev->kind)))
		k->all_wanted++;
	return 0;
}

/* the two listeners against each other and against the session's per-kind counts */
static void kinds_report(struct gpulat_session *s, const struct kinds_check *k)
{
	uint64_t fed = 0;
	int kind;

	for (kind = 0; kind < GPULAT_EV__COUNT; kind++)
		fed += gpulat_session_kind_count(s, kind);
	if (k->outside || k->masked != k->all_wanted || k->all != fed)
		printf("listener kinds: masked %llu (%llu outside the mask), every-kind %llu "
		       "(%llu in the mask), fed %llu\n",
		       (unsigned long long)k->masked, (unsigned long long)k->outside,
		       (unsigned long long)k->all, (unsigned long long)k->all_wanted,
		       (unsigned long long)fed);
}

struct push {
	struct gpulat_session	*s;
	struct tally		*t;
	int			err;
};

static int push_one(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct push *p = data;
	int r = gpulat_session_push(p->s, rec, rec);

	(void)h;
	(void)cpu;
	if (r < 0) {
		p->err = r;
		return 1;	/* stop */
	}
	return 0;
}

/* @path opened for a host's pushes, its tep attached to @s (*@ret: that result) */
static struct tracecmd_input *open_attached(struct gpulat_session *s, const char *path, int *ret)
{
	struct tracecmd_input *h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);

	if (!h) {
		fprintf(stderr, "session-jobs: %s: cannot open\n", path);
		return NULL;
	}
	*ret = gpulat_session_attach_tep(s, tracecmd_get_tep(h));
	return h;
}

static int push_file(struct gpulat_session *s, const char *path, struct tally *t)
{
	struct push p = { s, t, 0 };
	struct tracecmd_input *h;
	int ret;

	h = open_attached(s, path, &ret);
	if (!h)
		return -1;
	/* every record of every CPU, in time order, as a host sees them */
	if (!ret)
		tracecmd_iterate_events(h, NULL, 0, push_one, &p);
	ret = ret ? ret : p.err;
	if (!ret)
		ret = gpulat_session_finish(s);
	tracecmd_close(h);
	return ret;
}

/* --push-many: the records so far, not pushed yet */
struct batch {
	struct gpulat_session *s;
	struct gpulat_host_rec r[5];
	size_t n;
	uint64_t *cpu_last; /* last record's time per cpu */
	int ncpus;
	int err;
};

static int batch_flush(struct batch *b)
{
	size_t i;
	int r = b->n ? gpulat_session_push_many(b->s, b->r, b->n, sizeof(b->r[0])) : 0;

	for (i = 0; i < b->n; i++)
		free((void *)b->r[i].data);
	b->n = 0;
	return r < 0 ? r : 0;
}

static int batch_one(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct batch *b = data;
	struct gpulat_host_rec *r;
	void *copy;

	(void)h;
	(void)cpu;
	if (b->n == sizeof(b->r) / sizeof(b->r[0]) || rec->missed_events)
		b->err = batch_flush(b);
	/* a gap before this record on its cpu, as gpulat_session_push() says it */
	if (!b->err && rec->missed_events)
		gpulat_session_lost(b->s, rec->cpu,
				    rec->cpu >= 0 && rec->cpu < b->ncpus ? b->cpu_last[rec->cpu] :
									   0,
				    rec->ts, rec->missed_events > 0 ? rec->missed_events : 0);
	if (rec->cpu >= 0 && rec->cpu < b->ncpus)
		b->cpu_last[rec->cpu] = rec->ts;
	copy = rec->size > 0 ? malloc(rec->size) : NULL;
	if (b->err || (rec->size > 0 && !copy)) {
		free(copy);
		b->err = b->err ? b->err : -1;
		return 1; /* stop */
	}
	if (copy)
		memcpy(copy, rec->data, rec->size);
	r = &b->r[b->n++];
	r->ref = rec; /* freed after the callback: only its being non-NULL is checked */
	r->data = copy;
	r->ts = rec->ts;
	r->size = rec->size;
	r->cpu = rec->cpu;
	return 0;
}

static int push_many_file(struct gpulat_session *s, const char *path)
{
	struct batch b = { .s = s };
	struct tracecmd_input *h;
	int ret;

	h = open_attached(s, path, &ret);
	if (!h)
		return -1;
	b.ncpus = tep_get_cpus(tracecmd_get_tep(h));
	b.cpu_last = calloc(b.ncpus > 0 ? b.ncpus : 1, sizeof(*b.cpu_last));
	if (!ret && !b.cpu_last)
		ret = -1;
	if (!ret)
		tracecmd_iterate_events(h, NULL, 0, batch_one, &b);
	if (!ret && !b.err)
		b.err = batch_flush(&b);
	ret = ret ? ret : b.err;
	if (!ret)
		ret = gpulat_session_finish(s);
	free(b.cpu_last);
	tracecmd_close(h);
	return ret;
}

int main(int argc, char **argv)
{
	struct gpulat_session_counts c = { .sz = sizeof(c) };
	struct gpulat_listener l = { .sz = sizeof(l), .job = on_job };
	struct kinds_check k = {
		.want = GPULAT_LISTEN_KIND(GPULAT_EV_QUEUE) | GPULAT_LISTEN_KIND(GPULAT_EV_DONE),
	};
	struct gpulat_listener lm = { .sz = sizeof(lm), .event = on_masked, .kinds = k.want };
	/* built by a caller that knew no @kinds: what lies there must not count */
	struct gpulat_listener lold = {
		.sz = offsetof(struct gpulat_listener, kinds),
		.event = on_every,
		.kinds = k.want,
	};
	struct gpulat_session_opts o;
	struct gpulat_session *s;
	struct tally t = { { 0 }, false, 0 };
	int ret;

	if (argc != 3 || (strcmp(argv[1], "--file") && strcmp(argv[1], "--push") &&
			  strcmp(argv[1], "--push-many"))) {
		fprintf(stderr, "usage: session-jobs --file|--push|--push-many trace.dat\n");
		return 2;
	}
	gpulat_session_opts_init(&o);
	o.msg = msg;
	s = gpulat_session_new(&o);
	if (!s || gpulat_session_add_listener(s, &l, &t) < 0 ||
	    gpulat_session_add_listener(s, &lm, &k) < 0 ||
	    gpulat_session_add_listener(s, &lold, &k) < 0)
		return 1;
	if (!strcmp(argv[1], "--file")) {
		ret = gpulat_session_add_file(s, argv[2]);
		if (!ret)
			ret = gpulat_session_run(s);
	} else if (!strcmp(argv[1], "--push")) {
		t.push = true;
		ret = push_file(s, argv[2], &t);
	} else {
		t.push = true;
		ret = push_many_file(s, argv[2]);
	}
	if (ret < 0) {
		gpulat_session_free(s);
		return 1;
	}
	gpulat_session_counts(s, &c);
	printf("jobs %llu complete %llu incomplete %llu lost %llu orphan %llu era %s\n",
	       (unsigned long long)c.jobs, t.st[GPULAT_JOB_COMPLETE], t.st[GPULAT_JOB_INCOMPLETE],
	       t.st[GPULAT_JOB_LOST], t.st[GPULAT_JOB_ORPHAN], gpulat_era_name(c.era));
	if (t.no_ref)
		printf("stages without their host_ref: %llu\n", t.no_ref);
	kinds_report(s, &k);
	gpulat_session_free(s);
	return 0;
}
