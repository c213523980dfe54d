// SPDX-License-Identifier: LGPL-2.1
/*
 * One test per linking rule: small hand-written event sequences fed to the
 * tracker, jobs checked stage by stage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat.h"

#define NONE	GPULAT_NONE
#define MAXJ	64

struct got {
	struct gpulat_job	j[MAXJ];
	struct gpulat_dep	d[MAXJ][4];
	int			n;
	int			warns;
	bool			deps_null[MAXJ];	/* job->deps as handed out */
};

static void on_job(const struct gpulat_job *job, void *data)
{
	struct got *g = data;
	unsigned int i;

	assert_true(g->n < MAXJ);
	g->j[g->n] = *job;
	g->deps_null[g->n] = job->deps == NULL;
	for (i = 0; i < job->n_deps && i < 4; i++)
		g->d[g->n][i] = job->deps[i];
	g->j[g->n].deps = g->d[g->n];
	g->n++;
}

static void on_warn(const char *msg, void *data)
{
	(void)msg;
	((struct got *)data)->warns++;
}

static struct gpulat_tracker *mk(struct got *g, enum gpulat_era era, bool signals)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	struct gpulat_tracker *t;

	memset(g, 0, sizeof(*g));
	t = gpulat_tracker_new(&ops, g);
	assert_non_null(t);
	gpulat_tracker_set_era(t, era);
	gpulat_tracker_set_signal_expected(t, signals);
	return t;
}

/* 6.17 events */
static void q617(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int cpu,
		 const char *dev, const char *ring, uint64_t ctx, uint64_t seqno)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = cpu, .pid = 100, .kind = k,
		.flags = GPULAT_EVF_FENCE | GPULAT_EVF_CLIENT,
		.dev = dev, .ring = ring, .comm = "app", .ctx = ctx, .seqno = seqno,
		.client_id = 7,
	};

	if (k == GPULAT_EV_DONE) {
		ev.dev = "";
		ev.ring = NULL;
		ev.flags = GPULAT_EVF_FENCE;
	}
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

static void dep617(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, uint64_t ctx,
		   uint64_t seqno, uint64_t dctx, uint64_t dseqno)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = 0, .kind = k, .flags = GPULAT_EVF_FENCE | GPULAT_EVF_DEP,
		.dev = "", .ctx = ctx, .seqno = seqno, .dep_ctx = dctx, .dep_seqno = dseqno,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/* <= 6.16 events */
static void qold(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int cpu,
		 const char *ring, uint64_t id, uint64_t ptr)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = cpu, .pid = 200, .kind = k, .dev = "", .ring = ring,
		.comm = "old", .id = id, .fence_ptr = ptr,
		.flags = GPULAT_EVF_FENCE_PTR | GPULAT_EVF_ID,
	};

	/* <= 5.18 the binding marks an address label */
	if (ring && !strncmp(ring, "0x", 2))
		ev.flags |= GPULAT_EVF_RING_PTR;
	if (k == GPULAT_EV_DONE) {
		ev.ring = NULL;
		ev.flags = GPULAT_EVF_FENCE_PTR;
	}
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

static void sig(struct gpulat_tracker *t, uint64_t ts, int cpu, const char *timeline,
		uint64_t ctx, uint64_t seqno)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = cpu, .kind = GPULAT_EV_FENCE_SIGNALED, .dev = "",
		.driver = "drm_sched", .timeline = timeline,
		.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32,
		.ctx = ctx & 0xffffffff, .seqno = seqno & 0xffffffff,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

static const struct gpulat_job *by_seqno(struct got *g, uint64_t seqno)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->j[i].seqno == seqno)
			return &g->j[i];
	fail_msg("no job with seqno %llu", (unsigned long long)seqno);
	return NULL;
}

static const struct gpulat_job *by_id(struct got *g, uint64_t id)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->j[i].id == id)
			return &g->j[i];
	fail_msg("no job with id %llu", (unsigned long long)id);
	return NULL;
}

static void test_617_keying(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "0000:03:00.0", "gfx", 1025, 1);
	q617(t, GPULAT_EV_QUEUE, 110, 1, "0000:03:00.0", "gfx", 1025, 2);
	q617(t, GPULAT_EV_RUN, 150, 2, "0000:03:00.0", "gfx", 1025, 1);
	q617(t, GPULAT_EV_RUN, 160, 2, "0000:03:00.0", "gfx", 1025, 2);
	q617(t, GPULAT_EV_DONE, 300, 3, NULL, NULL, 1025, 1);
	q617(t, GPULAT_EV_DONE, 400, 0, NULL, NULL, 1025, 2);
	gpulat_tracker_flush(t, 500);
	assert_int_equal(g.n, 2);
	a = by_seqno(&g, 1);
	b = by_seqno(&g, 2);
	assert_string_equal(a->dev, "0000:03:00.0");
	assert_string_equal(a->ring, "gfx");
	assert_string_equal(a->comm, "app");
	assert_int_equal(a->client_id, 7);
	assert_int_equal(a->id, NONE);
	assert_int_equal(a->ts[GPULAT_ST_QUEUE], 100);
	assert_int_equal(a->cpu[GPULAT_ST_DONE], 3);
	assert_int_equal(a->start_ts, 150);
	assert_int_equal(a->wait, 50);
	assert_int_equal(a->hw_queue, 0);
	assert_int_equal(a->exec, 150);
	assert_int_equal(a->total, 200);
	assert_int_equal(a->dep_wait, 0);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	/* FIFO ring: b starts when a is done */
	assert_int_equal(b->start_ts, 300);
	assert_int_equal(b->hw_queue, 140);
	assert_int_equal(b->exec, 100);
	gpulat_tracker_free(t);
}

/*
 * What the tracker keeps out of line for few jobs (lib/tracker-int.h struct
 * jrare): cpu numbers beyond int16_t (a host may feed any int) and the
 * device of a job first seen without a ring (a done of an unknown context).
 */
static void test_617_rare_fields(void **state)
{
	struct gpulat_event ev = {
		.ts = 500,
		.cpu = 2,
		.kind = GPULAT_EV_DONE,
		.flags = GPULAT_EVF_FENCE,
		.dev = "0000:04:00.0",
		.ctx = 3000,
		.seqno = 9,
	};
	const struct gpulat_job *a, *o;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 40000, "0000:03:00.0", "gfx", 1025, 1);
	q617(t, GPULAT_EV_RUN, 150, 70000, "0000:03:00.0", "gfx", 1025, 1);
	q617(t, GPULAT_EV_DONE, 300, 3, NULL, NULL, 1025, 1);
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	gpulat_tracker_flush(t, 600);
	assert_int_equal(g.n, 2);
	a = by_seqno(&g, 1);
	assert_int_equal(a->cpu[GPULAT_ST_QUEUE], 40000);
	assert_int_equal(a->cpu[GPULAT_ST_RUN], 70000);
	assert_int_equal(a->cpu[GPULAT_ST_DONE], 3);
	assert_int_equal(a->cpu[GPULAT_ST_SIGNAL], -1);
	assert_string_equal(a->dev, "0000:03:00.0");
	o = by_seqno(&g, 9);
	assert_string_equal(o->dev, "0000:04:00.0");
	assert_int_equal(o->cpu[GPULAT_ST_DONE], 2);
	assert_int_equal(o->cpu[GPULAT_ST_QUEUE], -1);
	assert_int_equal(o->ts[GPULAT_ST_QUEUE], NONE);
	gpulat_tracker_free(t);
}

static void test_legacy_link(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, false);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0xffff1000);
	qold(t, GPULAT_EV_QUEUE, 101, 0, "comp", 1, 0xffff2000);
	qold(t, GPULAT_EV_RUN, 120, 1, "comp", 1, 0xffff2000);
	qold(t, GPULAT_EV_RUN, 130, 1, "gfx", 1, 0xffff1000);
	qold(t, GPULAT_EV_DONE, 200, 2, NULL, 0, 0xffff1000);
	qold(t, GPULAT_EV_DONE, 210, 2, NULL, 0, 0xffff2000);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 2);
	a = &g.j[0];
	b = &g.j[1];
	assert_string_equal(a->ring, "gfx");
	assert_string_equal(a->dev, "");
	assert_int_equal(a->id, 1);
	assert_int_equal(a->fence_ptr, 0xffff1000);
	assert_int_equal(a->total, 100);
	assert_int_equal(a->wait, 30);
	assert_string_equal(b->ring, "comp");
	assert_int_equal(b->start_ts, 120);	/* other ring: not serialized */
	assert_int_equal(b->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(a->ctx, NONE);
	gpulat_tracker_free(t);
}

/* a pointer seen again after its job completed starts a new job */
static void test_legacy_ptr_reuse(void **state)
{
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, false);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0xabc0);
	qold(t, GPULAT_EV_RUN, 110, 0, "gfx", 1, 0xabc0);
	qold(t, GPULAT_EV_DONE, 150, 0, NULL, 0, 0xabc0);
	qold(t, GPULAT_EV_QUEUE, 200, 0, "gfx", 2, 0xabc0);
	qold(t, GPULAT_EV_RUN, 210, 0, "gfx", 2, 0xabc0);
	qold(t, GPULAT_EV_DONE, 260, 0, NULL, 0, 0xabc0);
	/* pointer reused while an older holder never completed: newest wins */
	qold(t, GPULAT_EV_QUEUE, 300, 0, "gfx", 3, 0xdef0);
	qold(t, GPULAT_EV_RUN, 310, 0, "gfx", 3, 0xdef0);
	qold(t, GPULAT_EV_QUEUE, 320, 0, "gfx", 4, 0xdef0);
	qold(t, GPULAT_EV_RUN, 330, 0, "gfx", 4, 0xdef0);
	qold(t, GPULAT_EV_DONE, 400, 0, NULL, 0, 0xdef0);
	gpulat_tracker_flush(t, 500);
	assert_int_equal(g.n, 4);
	assert_int_equal(by_id(&g, 1)->ts[GPULAT_ST_DONE], 150);
	assert_int_equal(by_id(&g, 2)->ts[GPULAT_ST_DONE], 260);
	assert_int_equal(by_id(&g, 2)->total, 60);
	assert_int_equal(by_id(&g, 4)->ts[GPULAT_ST_DONE], 400);
	assert_int_equal(by_id(&g, 3)->ts[GPULAT_ST_DONE], NONE);
	assert_int_equal(by_id(&g, 3)->status, GPULAT_JOB_INCOMPLETE);
	gpulat_tracker_free(t);
}

static void test_pre57_no_run(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_PRE57, false);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "0xffffffff81000000", 1, 0x10);
	qold(t, GPULAT_EV_QUEUE, 120, 0, "0xffffffff81000000", 2, 0x20);
	qold(t, GPULAT_EV_DONE, 200, 1, NULL, 0, 0x10);
	qold(t, GPULAT_EV_DONE, 260, 1, NULL, 0, 0x20);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 2);
	a = by_id(&g, 1);
	b = by_id(&g, 2);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(a->wait, NONE);
	assert_int_equal(a->hw_queue, NONE);
	assert_int_equal(a->start_ts, 100);
	assert_int_equal(a->exec, 100);
	assert_int_equal(b->start_ts, 200);
	assert_int_equal(b->exec, 60);
	assert_int_equal(b->total, 140);
	gpulat_tracker_free(t);
}

static void test_signal_out_of_order(void **state)
{
	const struct gpulat_job *a, *b, *c;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, true);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 9, 1);
	q617(t, GPULAT_EV_QUEUE, 101, 0, "d", "gfx", 9, 2);
	q617(t, GPULAT_EV_QUEUE, 102, 0, "d", "gfx", 9, 3);
	q617(t, GPULAT_EV_RUN, 110, 1, "d", "gfx", 9, 1);
	q617(t, GPULAT_EV_RUN, 111, 1, "d", "gfx", 9, 2);
	q617(t, GPULAT_EV_RUN, 112, 1, "d", "gfx", 9, 3);
	sig(t, 199, 3, "gfx", 9, 1);		/* before its done, other cpu */
	q617(t, GPULAT_EV_DONE, 200, 2, NULL, NULL, 9, 1);
	q617(t, GPULAT_EV_DONE, 300, 2, NULL, NULL, 9, 2);
	assert_int_equal(g.n, 1);		/* 2 waits for its signal */
	sig(t, 301, 2, "gfx", 9, 2);
	assert_int_equal(g.n, 2);
	q617(t, GPULAT_EV_DONE, 400, 2, NULL, NULL, 9, 3);	/* never signalled */
	q617(t, GPULAT_EV_QUEUE, 400 + 20000000, 0, "d", "gfx", 9, 4);	/* linger passes */
	assert_int_equal(g.n, 3);
	gpulat_tracker_flush(t, 500 + 20000000);
	a = by_seqno(&g, 1);
	b = by_seqno(&g, 2);
	c = by_seqno(&g, 3);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 199);
	assert_int_equal(a->cpu[GPULAT_ST_SIGNAL], 3);
	assert_int_equal(b->ts[GPULAT_ST_SIGNAL], 301);
	assert_int_equal(c->ts[GPULAT_ST_SIGNAL], NONE);
	assert_int_equal(c->status, GPULAT_JOB_COMPLETE);
	gpulat_tracker_free(t);
}

/* <= 6.16: the scheduled-fence signal after a run names the finished fence */
static void test_legacy_signal(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, true);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0x10);
	qold(t, GPULAT_EV_QUEUE, 101, 0, "gfx", 2, 0x20);
	qold(t, GPULAT_EV_RUN, 110, 1, "gfx", 1, 0x10);
	sig(t, 111, 1, "gfx", 40, 1);	/* scheduled fence of job 1 */
	qold(t, GPULAT_EV_RUN, 112, 1, "gfx", 2, 0x20);
	sig(t, 113, 1, "gfx", 40, 2);	/* scheduled fence of job 2 */
	qold(t, GPULAT_EV_DONE, 200, 2, NULL, 0, 0x10);
	sig(t, 201, 3, "gfx", 41, 2);	/* job 2's finished fence, early, other cpu */
	sig(t, 230, 0, "gfx", 41, 1);	/* job 1's, late, other cpu */
	assert_int_equal(g.n, 1);
	qold(t, GPULAT_EV_DONE, 300, 3, NULL, 0, 0x20);
	gpulat_tracker_flush(t, 400);
	assert_int_equal(g.n, 2);
	a = by_id(&g, 1);
	b = by_id(&g, 2);
	assert_int_equal(a->ctx, 41);
	assert_int_equal(a->seqno, 1);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 230);
	assert_int_equal(a->cpu[GPULAT_ST_SIGNAL], 0);
	assert_int_equal(b->ctx, 41);
	assert_int_equal(b->seqno, 2);
	assert_int_equal(b->ts[GPULAT_ST_SIGNAL], 201);
	gpulat_tracker_free(t);
}

/* no scheduled-fence signal (pre-5.7): the signal after the done on its cpu */
static void test_legacy_signal_after_done(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_PRE57, true);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "0xffffffffc0001000", 1, 0x10);
	qold(t, GPULAT_EV_QUEUE, 101, 0, "0xffffffffc0001000", 2, 0x20);
	qold(t, GPULAT_EV_DONE, 200, 2, NULL, 0, 0x10);
	sig(t, 201, 3, "gfx", 41, 9);	/* other cpu: not ours */
	sig(t, 202, 2, "gfx", 41, 1);
	qold(t, GPULAT_EV_DONE, 300, 3, NULL, 0, 0x20);
	sig(t, 300, 3, "gfx", 41, 2);
	gpulat_tracker_flush(t, 400);
	assert_int_equal(g.n, 2);
	a = by_id(&g, 1);
	b = by_id(&g, 2);
	assert_int_equal(a->ctx, 41);
	assert_int_equal(a->seqno, 1);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 202);
	assert_int_equal(b->seqno, 2);
	assert_int_equal(b->ts[GPULAT_ST_SIGNAL], 300);
	/* the pointer label gets its name from the fence timeline, and stays */
	assert_string_equal(a->ring, "gfx");
	assert_string_equal(a->ring_ptr, "0xffffffffc0001000");
	assert_string_equal(a->ring_name, "gfx");
	assert_string_equal(b->ring_name, "gfx");
	gpulat_tracker_free(t);
}

static void finit(struct gpulat_tracker *t, uint64_t ts, int cpu, const char *timeline,
		  uint64_t ctx, uint64_t seqno)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = cpu, .kind = GPULAT_EV_FENCE_INIT, .dev = "",
		.driver = "drm_sched", .timeline = timeline,
		.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32, .ctx = ctx, .seqno = seqno,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/* <= 6.16: drm_sched_job_arm's two fence inits just before the queue name the job */
static void test_legacy_fence_from_init(void **state)
{
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, true);
	finit(t, 90, 0, "gfx", 40, 7);		/* scheduled */
	finit(t, 91, 0, "gfx", 41, 7);		/* finished */
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0x10);
	finit(t, 200, 1, "gfx", 40, 8);
	finit(t, 201, 1, "gfx", 41, 8);
	/* 20 ms later: a stale pair, not this job's */
	qold(t, GPULAT_EV_QUEUE, 20000201, 1, "gfx", 2, 0x20);
	qold(t, GPULAT_EV_RUN, 20000300, 2, "gfx", 1, 0x10);
	sig(t, 20000400, 3, "gfx", 41, 7);	/* job 1's finished fence, before its done */
	qold(t, GPULAT_EV_DONE, 20000500, 2, NULL, 0, 0x10);
	gpulat_tracker_flush(t, 20000600);
	a = by_id(&g, 1);
	b = by_id(&g, 2);
	assert_int_equal(a->ctx, 41);
	assert_int_equal(a->seqno, 7);
	assert_string_equal(a->ring_name, "gfx");
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 20000400);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(b->ctx, NONE);
	gpulat_tracker_free(t);
}

/*
 * 5.7-5.18: two GPUs, no device field: two pointer rings whose fences share the
 * timeline "gfx_0.0.0". The first named keeps the name, the second gets its
 * address's tail; the name is known from the queue on (fence inits before it).
 */
static void test_pointer_ring_names(void **state)
{
	const struct gpulat_job *a, *b, *last;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V57, true);
	assert_string_equal(gpulat_tracker_ring_name(t, "", "0xffff888100001000"),
			    "0xffff888100001000");
	finit(t, 90, 0, "gfx_0.0.0", 40, 7);
	finit(t, 91, 0, "gfx_0.0.0", 41, 7);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "0xffff888100001000", 1, 0x10);
	last = gpulat_tracker_last_job(t);
	assert_non_null(last);
	assert_string_equal(last->ring, "gfx_0.0.0");
	assert_string_equal(last->ring_ptr, "0xffff888100001000");
	finit(t, 190, 1, "gfx_0.0.0", 80, 3);
	finit(t, 191, 1, "gfx_0.0.0", 81, 3);
	qold(t, GPULAT_EV_QUEUE, 200, 1, "0xffff888100002000", 1, 0x20);
	assert_string_equal(gpulat_tracker_ring_name(t, "", "0xffff888100001000"), "gfx_0.0.0");
	assert_string_equal(gpulat_tracker_ring_name(t, "", "0xffff888100002000"),
			    "gfx_0.0.0@2000");
	assert_string_equal(gpulat_tracker_ring_name(t, "", "gfx"), "gfx");
	qold(t, GPULAT_EV_RUN, 300, 2, "0xffff888100001000", 1, 0x10);
	qold(t, GPULAT_EV_RUN, 310, 3, "0xffff888100002000", 1, 0x20);
	qold(t, GPULAT_EV_DONE, 400, 2, NULL, 0, 0x10);
	qold(t, GPULAT_EV_DONE, 410, 3, NULL, 0, 0x20);
	gpulat_tracker_flush(t, 500);
	assert_int_equal(g.n, 2);
	a = by_seqno(&g, 7);
	b = by_seqno(&g, 3);
	assert_string_equal(a->ring, "gfx_0.0.0");
	assert_string_equal(a->ring_ptr, "0xffff888100001000");
	assert_string_equal(b->ring, "gfx_0.0.0@2000");
	assert_string_equal(b->ring_ptr, "0xffff888100002000");
	gpulat_tracker_free(t);
}

/* 5.19+: names are in the events, there is no address label */
static void test_named_ring_no_ptr(void **state)
{
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, true);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0x10);
	qold(t, GPULAT_EV_DONE, 200, 0, NULL, 0, 0x10);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.j[0].ring, "gfx");
	assert_null(g.j[0].ring_ptr);
	gpulat_tracker_free(t);
}

static void test_deps_617(void **state)
{
	const struct gpulat_job *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "comp", 20, 5);
	q617(t, GPULAT_EV_RUN, 105, 1, "d", "comp", 20, 5);
	q617(t, GPULAT_EV_QUEUE, 110, 0, "d", "gfx", 30, 1);
	dep617(t, GPULAT_EV_DEP, 110, 30, 1, 20, 5);
	dep617(t, GPULAT_EV_DEP, 110, 30, 1, 999, 3);	/* foreign fence */
	q617(t, GPULAT_EV_DONE, 150, 2, NULL, NULL, 20, 5);
	q617(t, GPULAT_EV_RUN, 160, 1, "d", "gfx", 30, 1);
	q617(t, GPULAT_EV_DONE, 200, 2, NULL, NULL, 30, 1);
	gpulat_tracker_flush(t, 300);
	b = by_seqno(&g, 1);
	assert_int_equal(b->n_deps, 2);
	assert_int_equal(b->deps[0].ctx, 20);
	assert_int_equal(b->deps[0].job_seq, 0);
	assert_string_equal(b->deps[0].ring, "comp");
	assert_int_equal(b->deps[0].signal_ts, 150);
	assert_int_equal(b->deps[1].job_seq, NONE);
	assert_int_equal(b->dep_wait, 40);
	assert_int_equal(b->wait, 50);
	gpulat_tracker_free(t);
}

/* a dependency on a fence of no traced job: its dma_fence_signaled ends the wait */
static void test_deps_foreign_fence(void **state)
{
	struct gpulat_event ev = {
		.ts = 140, .cpu = 3, .kind = GPULAT_EV_FENCE_SIGNALED, .dev = "",
		.driver = "sw_sync", .timeline = "sync-timeline",
		.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32, .ctx = 999, .seqno = 3,
	};
	const struct gpulat_job *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 30, 1);
	dep617(t, GPULAT_EV_DEP, 100, 30, 1, 999, 3);
	dep617(t, GPULAT_EV_UNSCHED, 101, 30, 1, 999, 3);
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	q617(t, GPULAT_EV_RUN, 160, 1, "d", "gfx", 30, 1);
	q617(t, GPULAT_EV_DONE, 200, 2, NULL, NULL, 30, 1);
	gpulat_tracker_flush(t, 300);
	b = by_seqno(&g, 1);
	assert_int_equal(b->n_deps, 1);
	assert_true(b->deps[0].unschedulable);
	assert_int_equal(b->deps[0].job_seq, NONE);
	assert_null(b->deps[0].ring);
	assert_int_equal(b->deps[0].signal_ts, 140);
	assert_int_equal(b->dep_wait, 40);
	gpulat_tracker_free(t);
}

static void test_deps_legacy(void **state)
{
	struct gpulat_event ev;
	const struct gpulat_job *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, false);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "comp", 1, 0xa0);
	qold(t, GPULAT_EV_QUEUE, 110, 0, "gfx", 1, 0xb0);
	qold(t, GPULAT_EV_RUN, 112, 1, "comp", 1, 0xa0);
	memset(&ev, 0, sizeof(ev));
	ev.ts = 113;
	ev.kind = GPULAT_EV_DEP;
	ev.dev = "";
	ev.ring = "gfx";
	ev.id = 1;
	ev.dep_ptr = 0xa0;
	ev.dep_ctx = 77;
	ev.dep_seqno = 1;
	ev.flags = GPULAT_EVF_ID | GPULAT_EVF_DEP_PTR | GPULAT_EVF_DEP;
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	qold(t, GPULAT_EV_DONE, 180, 2, NULL, 0, 0xa0);
	/* the fence pointer is reused by a later job: the dep still names job 0 */
	qold(t, GPULAT_EV_QUEUE, 181, 0, "comp", 2, 0xa0);
	qold(t, GPULAT_EV_RUN, 190, 1, "gfx", 1, 0xb0);
	qold(t, GPULAT_EV_DONE, 250, 2, NULL, 0, 0xb0);
	gpulat_tracker_flush(t, 300);
	b = by_id(&g, 1);
	b = strcmp(b->ring, "gfx") ? &g.j[1] : b;
	assert_string_equal(b->ring, "gfx");
	assert_int_equal(b->n_deps, 1);
	assert_int_equal(b->deps[0].ptr, 0xa0);
	assert_int_equal(b->deps[0].job_seq, 0);
	assert_int_equal(b->deps[0].signal_ts, 180);
	assert_string_equal(b->deps[0].ring, "comp");
	assert_int_equal(b->dep_wait, 70);
	gpulat_tracker_free(t);
}

/* unschedulable names the scheduled fence (context - 1) of a same-ring job */
static void test_unsched_ctx_minus_1(void **state)
{
	const struct gpulat_job *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 51, 1);
	q617(t, GPULAT_EV_QUEUE, 101, 0, "d", "gfx", 61, 1);
	dep617(t, GPULAT_EV_DEP, 101, 61, 1, 51, 1);
	dep617(t, GPULAT_EV_UNSCHED, 102, 61, 1, 50, 1);
	q617(t, GPULAT_EV_RUN, 110, 1, "d", "gfx", 51, 1);
	q617(t, GPULAT_EV_RUN, 111, 1, "d", "gfx", 61, 1);
	q617(t, GPULAT_EV_DONE, 150, 2, NULL, NULL, 51, 1);
	q617(t, GPULAT_EV_DONE, 190, 2, NULL, NULL, 61, 1);
	gpulat_tracker_flush(t, 300);
	b = by_seqno(&g, 1);
	b = b->ctx == 61 ? b : &g.j[1];
	assert_int_equal(b->ctx, 61);
	assert_int_equal(b->n_deps, 1);		/* merged with the add_dep */
	assert_true(b->deps[0].unschedulable);
	assert_int_equal(b->deps[0].job_seq, 0);
	assert_int_equal(b->dep_wait, 10);	/* clamped to wait */
	gpulat_tracker_free(t);
}

static void test_two_devices(void **state)
{
	const struct gpulat_job *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "0000:03:00.0", "gfx", 11, 1);
	q617(t, GPULAT_EV_QUEUE, 100, 1, "0000:04:00.0", "gfx", 21, 1);
	q617(t, GPULAT_EV_RUN, 110, 0, "0000:03:00.0", "gfx", 11, 1);
	q617(t, GPULAT_EV_RUN, 120, 1, "0000:04:00.0", "gfx", 21, 1);
	q617(t, GPULAT_EV_DONE, 200, 0, NULL, NULL, 11, 1);
	q617(t, GPULAT_EV_QUEUE, 210, 0, "0000:03:00.0", "gfx", 11, 2);
	q617(t, GPULAT_EV_RUN, 210, 0, "0000:03:00.0", "gfx", 11, 2);
	q617(t, GPULAT_EV_DONE, 300, 1, NULL, NULL, 21, 1);
	q617(t, GPULAT_EV_DONE, 400, 0, NULL, NULL, 11, 2);
	gpulat_tracker_flush(t, 500);
	assert_int_equal(g.n, 3);
	b = &g.j[1];
	assert_string_equal(b->dev, "0000:04:00.0");
	assert_int_equal(b->start_ts, 120);	/* not after the other device's done */
	b = &g.j[2];
	assert_string_equal(b->dev, "0000:03:00.0");
	assert_int_equal(b->start_ts, 210);	/* 04's done at 300 does not count */
	gpulat_tracker_free(t);
}

static void test_seqno_wrap(void **state)
{
	const struct gpulat_job *a;
	struct gpulat_tracker *t;
	struct got g;
	uint64_t big = (1ULL << 32) + 5;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, true);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 3, big);
	q617(t, GPULAT_EV_QUEUE, 101, 0, "d", "gfx", 3, 5);	/* same low bits, other job */
	q617(t, GPULAT_EV_RUN, 110, 0, "d", "gfx", 3, big);
	q617(t, GPULAT_EV_DONE, 150, 1, NULL, NULL, 3, big);
	sig(t, 151, 1, "gfx", 3, big);
	gpulat_tracker_flush(t, 200);
	assert_int_equal(g.n, 2);
	a = &g.j[0];
	assert_int_equal(a->seqno, big);
	assert_int_equal(a->ts[GPULAT_ST_DONE], 150);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 151);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(g.j[1].seqno, 5);
	assert_int_equal(g.j[1].ts[GPULAT_ST_DONE], NONE);
	gpulat_tracker_free(t);
}

static void test_lost_events(void **state)
{
	struct gpulat_tracker_counters c;
	const struct gpulat_job *a, *b;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 3, 1);
	q617(t, GPULAT_EV_QUEUE, 101, 0, "d", "gfx", 3, 2);
	/* cpu 1 lost events between 105 and 130: job 1's run was there */
	gpulat_tracker_lost_range(t, 1, 105, 130, 12);
	q617(t, GPULAT_EV_RUN, 130, 1, "d", "gfx", 3, 2);
	q617(t, GPULAT_EV_DONE, 200, 2, NULL, NULL, 3, 1);
	q617(t, GPULAT_EV_DONE, 250, 2, NULL, NULL, 3, 2);
	gpulat_tracker_flush(t, 300);
	a = by_seqno(&g, 1);
	b = by_seqno(&g, 2);
	assert_int_equal(a->status, GPULAT_JOB_LOST);
	assert_int_equal(a->lost_stages, 1u << GPULAT_ST_RUN);
	assert_int_equal(a->wait, NONE);
	assert_int_equal(a->total, 100);
	assert_int_equal(b->status, GPULAT_JOB_COMPLETE);
	gpulat_tracker_counters(t, &c);
	assert_int_equal(c.lost_events, 12);
	gpulat_tracker_free(t);
}

static void test_incomplete_at_end(void **state)
{
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, false);
	qold(t, GPULAT_EV_QUEUE, 100, 0, "gfx", 1, 0x10);
	qold(t, GPULAT_EV_RUN, 110, 0, "gfx", 1, 0x10);
	qold(t, GPULAT_EV_QUEUE, 120, 0, "gfx", 2, 0x20);
	assert_int_equal(g.n, 0);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.j[0].status, GPULAT_JOB_INCOMPLETE);
	assert_int_equal(g.j[0].ts[GPULAT_ST_RUN], 110);
	assert_int_equal(g.j[0].total, NONE);
	assert_int_equal(g.j[0].exec, NONE);
	assert_int_equal(g.j[0].start_ts, NONE);
	assert_int_equal(g.j[0].wait, 10);
	assert_int_equal(g.j[1].status, GPULAT_JOB_INCOMPLETE);
	assert_int_equal(g.j[1].wait, NONE);
	gpulat_tracker_free(t);
}

static void test_orphan_done(void **state)
{
	struct gpulat_tracker_counters c;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V519, false);
	qold(t, GPULAT_EV_DONE, 100, 0, NULL, 0, 0x10);
	qold(t, GPULAT_EV_RUN, 110, 0, "gfx", 5, 0x20);
	qold(t, GPULAT_EV_DONE, 150, 0, NULL, 0, 0x20);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.j[0].status, GPULAT_JOB_ORPHAN);
	assert_int_equal(g.j[0].fence_ptr, 0x10);
	assert_int_equal(g.j[1].status, GPULAT_JOB_ORPHAN);
	assert_int_equal(g.j[1].exec, 40);
	gpulat_tracker_counters(t, &c);
	assert_int_equal(c.orphan_done, 2);
	assert_int_equal(c.orphan_run, 1);
	gpulat_tracker_free(t);
}

static void test_max_open(void **state)
{
	struct gpulat_tracker_counters c;
	struct gpulat_tracker *t;
	struct got g;
	int i;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	gpulat_tracker_set_max_open(t, 4);
	for (i = 0; i < 10; i++)
		q617(t, GPULAT_EV_QUEUE, 100 + i, 0, "d", "gfx", 3, i);
	assert_int_equal(g.n, 6);
	assert_int_equal(g.j[0].seqno, 0);
	assert_int_equal(g.j[0].status, GPULAT_JOB_INCOMPLETE);
	gpulat_tracker_counters(t, &c);
	assert_int_equal(c.dropped_open, 6);
	assert_int_equal(c.open, 4);
	assert_int_equal(g.warns, 1);
	gpulat_tracker_flush(t, 300);
	assert_int_equal(g.n, 10);
	gpulat_tracker_free(t);
}

/* emitted jobs are recycled: a new job never sees an old one's dependencies */
static void test_job_recycling(void **state)
{
	const struct gpulat_job *a, *b, *c;
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	q617(t, GPULAT_EV_QUEUE, 100, 0, "d", "gfx", 30, 1);
	dep617(t, GPULAT_EV_DEP, 100, 30, 1, 999, 3);
	dep617(t, GPULAT_EV_DEP, 100, 30, 1, 998, 4);
	q617(t, GPULAT_EV_RUN, 110, 1, "d", "gfx", 30, 1);
	q617(t, GPULAT_EV_DONE, 120, 2, NULL, NULL, 30, 1);
	q617(t, GPULAT_EV_QUEUE, 200, 0, "d", "gfx", 30, 2);
	q617(t, GPULAT_EV_RUN, 210, 1, "d", "gfx", 30, 2);
	q617(t, GPULAT_EV_DONE, 220, 2, NULL, NULL, 30, 2);
	q617(t, GPULAT_EV_QUEUE, 300, 0, "d", "gfx", 30, 3);
	dep617(t, GPULAT_EV_DEP, 300, 30, 3, 997, 5);
	q617(t, GPULAT_EV_RUN, 310, 1, "d", "gfx", 30, 3);
	q617(t, GPULAT_EV_DONE, 320, 2, NULL, NULL, 30, 3);
	gpulat_tracker_flush(t, 400);
	assert_int_equal(g.n, 3);
	a = by_seqno(&g, 1);
	b = by_seqno(&g, 2);
	c = by_seqno(&g, 3);
	assert_int_equal(a->n_deps, 2);
	assert_false(g.deps_null[a - g.j]);
	assert_int_equal(b->n_deps, 0);
	assert_true(g.deps_null[b - g.j]);
	assert_int_equal(b->dep_wait, 0);
	assert_int_equal(c->n_deps, 1);
	assert_int_equal(c->deps[0].ctx, 997);
	assert_int_equal(c->seq, 2);
	assert_int_equal(c->ts[GPULAT_ST_SIGNAL], NONE);
	assert_int_equal(c->client_id, 7);
	gpulat_tracker_free(t);
}

/* one caller buffer holding different ring names in turn: each its own ring */
static void test_reused_name_buffer(void **state)
{
	struct gpulat_tracker *t;
	char ring[16], dev[16];
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_V617, false);
	strcpy(dev, "d0");
	strcpy(ring, "gfx");
	q617(t, GPULAT_EV_QUEUE, 100, 0, dev, ring, 30, 1);
	strcpy(ring, "comp");
	q617(t, GPULAT_EV_QUEUE, 101, 0, dev, ring, 40, 1);
	strcpy(dev, "d1");
	q617(t, GPULAT_EV_QUEUE, 102, 0, dev, ring, 50, 1);
	strcpy(ring, "gfx");
	q617(t, GPULAT_EV_RUN, 110, 1, "d0", ring, 30, 1);
	q617(t, GPULAT_EV_DONE, 120, 2, NULL, NULL, 30, 1);
	q617(t, GPULAT_EV_DONE, 130, 2, NULL, NULL, 40, 1);
	q617(t, GPULAT_EV_DONE, 140, 2, NULL, NULL, 50, 1);
	gpulat_tracker_flush(t, 400);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.j[0].ring, "gfx");
	assert_string_equal(g.j[0].dev, "d0");
	assert_string_equal(g.j[1].ring, "comp");
	assert_string_equal(g.j[1].dev, "d0");
	assert_string_equal(g.j[2].ring, "comp");
	assert_string_equal(g.j[2].dev, "d1");
	/* interned: equal names share a pointer */
	assert_ptr_equal(g.j[0].ring, by_seqno(&g, 1)->ring);
	assert_ptr_not_equal(g.j[1].dev, g.j[2].dev);
	gpulat_tracker_free(t);
}


/* i915 request events (lib/track-i915.c) */
static void i915ev(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int cpu,
		   const char *ring, uint64_t ctx, uint64_t seqno, uint64_t value)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = cpu, .pid = 300, .kind = k, .flags = GPULAT_EVF_FENCE,
		.dev = "card0", .ring = ring, .comm = "glxgears", .ctx = ctx,
		.seqno = seqno, .value = value,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

static void i915sig(struct gpulat_tracker *t, uint64_t ts, uint64_t ctx, uint64_t seqno)
{
	struct gpulat_event ev = {
		.ts = ts, .cpu = 0, .kind = GPULAT_EV_FENCE_SIGNALED, .dev = "",
		.driver = "i915", .timeline = "rcs0",
		.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32,
		.ctx = ctx & 0xffffffff, .seqno = seqno,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/*
 * Without LOW_LEVEL tracepoints: queue = add, done = the fence signal, no run,
 * start inferred from the engine FIFO; emitted at retire.
 */
static void test_i915_basic(void **state)
{
	struct gpulat_tracker *t;
	const struct gpulat_job *a, *b;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_I915, true);
	i915ev(t, GPULAT_EV_I915_ADD, 1000, 1, "rcs0", 0x100000001ULL, 7, 0);
	i915ev(t, GPULAT_EV_I915_ADD, 1500, 1, "rcs0", 0x100000001ULL, 8, 0);
	i915sig(t, 5000, 0x100000001ULL, 7);
	i915sig(t, 9000, 0x100000001ULL, 8);
	assert_int_equal(g.n, 0);	/* held until retire */
	i915ev(t, GPULAT_EV_I915_RETIRE, 9500, 2, "rcs0", 0x100000001ULL, 8, 0);
	i915ev(t, GPULAT_EV_I915_RETIRE, 9600, 2, "rcs0", 0x100000001ULL, 7, 0);
	gpulat_tracker_flush(t, 10000);
	assert_int_equal(g.n, 2);
	a = by_seqno(&g, 7);
	b = by_seqno(&g, 8);
	assert_string_equal(a->dev, "card0");
	assert_string_equal(a->ring, "rcs0");
	assert_string_equal(a->comm, "glxgears");
	assert_int_equal(a->ctx, 0x100000001ULL);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(a->ts[GPULAT_ST_QUEUE], 1000);
	assert_int_equal(a->ts[GPULAT_ST_RUN], NONE);
	assert_int_equal(a->ts[GPULAT_ST_DONE], 5000);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 5000);
	assert_int_equal(a->start_ts, 1000);
	assert_int_equal(a->exec, 4000);
	assert_int_equal(a->wait, NONE);
	assert_int_equal(a->dep_wait, NONE);
	assert_string_equal(gpulat_timing_start(a), "inferred");
	assert_string_equal(gpulat_timing_done(a), "exact");
	assert_true(a->timing & GPULAT_TIMING_NO_RUN);
	/* FIFO: b starts when a is done */
	assert_int_equal(b->start_ts, 5000);
	assert_int_equal(b->exec, 4000);
	assert_int_equal(b->total, 7500);
	gpulat_tracker_free(t);
}

/*
 * LOW_LEVEL: submit = run, in = measured start (even when the FIFO guess
 * differs), out with completed=0 is a preemption, completed=1 the done. A
 * request added on a virtual engine runs on the physical one of its "in".
 */
static void test_i915_lowlevel(void **state)
{
	struct gpulat_tracker *t;
	const struct gpulat_job *a;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_I915, true);
	i915ev(t, GPULAT_EV_I915_ADD, 1000, 1, "vcs0", 55, 3, 0);
	i915ev(t, GPULAT_EV_I915_SUBMIT, 1200, 3, "vcs0", 55, 3, 0);
	i915ev(t, GPULAT_EV_I915_IN, 1300, 0, "vcs1", 55, 3, 0);
	i915ev(t, GPULAT_EV_I915_OUT, 2000, 0, "vcs1", 55, 3, 0);	/* preempted */
	i915ev(t, GPULAT_EV_I915_IN, 2500, 0, "vcs1", 55, 3, 0);
	i915ev(t, GPULAT_EV_I915_OUT, 4000, 0, "vcs1", 55, 3, 1);
	i915sig(t, 4010, 55, 3);
	i915ev(t, GPULAT_EV_I915_RETIRE, 6000, 2, "vcs0", 55, 3, 0);
	assert_int_equal(g.n, 1);
	a = &g.j[0];
	assert_string_equal(a->ring, "vcs1");
	assert_int_equal(a->ts[GPULAT_ST_RUN], 1200);
	assert_int_equal(a->start_ts, 1300);
	assert_int_equal(a->ts[GPULAT_ST_DONE], 4000);
	assert_int_equal(a->ts[GPULAT_ST_SIGNAL], 4010);
	assert_int_equal(a->wait, 200);
	assert_int_equal(a->hw_queue, 100);
	assert_int_equal(a->exec, 2700);
	assert_string_equal(gpulat_timing_start(a), "measured");
	assert_false(a->timing & GPULAT_TIMING_NO_RUN);
	assert_int_equal(a->status, GPULAT_JOB_COMPLETE);
	gpulat_tracker_free(t);
}

/* no fence signal traced: done from the retire, marked late */
static void test_i915_retire_late(void **state)
{
	struct gpulat_tracker *t;
	struct got g;

	(void)state;
	t = mk(&g, GPULAT_ERA_I915, false);
	i915ev(t, GPULAT_EV_I915_ADD, 1000, 1, "bcs0", 9, 1, 0);
	i915ev(t, GPULAT_EV_I915_RETIRE, 30000, 1, "bcs0", 9, 1, 0);
	/* a retire of a request added before the trace: an orphan */
	i915ev(t, GPULAT_EV_I915_RETIRE, 31000, 1, "bcs0", 9, 0, 0);
	/* added, never done: incomplete at the end */
	i915ev(t, GPULAT_EV_I915_ADD, 32000, 1, "bcs0", 9, 2, 0);
	gpulat_tracker_flush(t, 40000);
	assert_int_equal(g.n, 3);
	assert_int_equal(by_seqno(&g, 1)->ts[GPULAT_ST_DONE], 30000);
	assert_string_equal(gpulat_timing_done(by_seqno(&g, 1)), "late");
	assert_int_equal(by_seqno(&g, 1)->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(by_seqno(&g, 0)->status, GPULAT_JOB_ORPHAN);
	assert_int_equal(by_seqno(&g, 2)->status, GPULAT_JOB_INCOMPLETE);
	gpulat_tracker_free(t);
}

/* xe events (lib/track-xe.c): the job's hardware fence pointer, its task */
static void xe(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int pid, uint64_t hwfence)
{
	struct gpulat_event ev = {
		.ts = ts,
		.cpu = 0,
		.pid = pid,
		.kind = k,
		.dev = "0000:00:02.0",
		.flags = GPULAT_EVF_FENCE_PTR | GPULAT_EVF_GUC,
		.fence_ptr = hwfence,
		.guc_id = 3,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/* a <= 6.16 scheduler event of task @pid */
static void qpid(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int pid, uint64_t id,
		 uint64_t ptr)
{
	struct gpulat_event ev = {
		.ts = ts,
		.cpu = 1,
		.pid = pid,
		.kind = k,
		.dev = "",
		.ring = "rcs0",
		.comm = "app",
		.id = id,
		.fence_ptr = ptr,
		.flags = GPULAT_EVF_FENCE_PTR | GPULAT_EVF_ID,
	};

	if (k == GPULAT_EV_DONE) {
		ev.ring = NULL;
		ev.flags = GPULAT_EVF_FENCE_PTR;
	}
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/*
 * xe: exec right before the queue of the same task, run right after the
 * scheduler's run; a timeout names the hardware fence and reaches the job.
 */
static void test_xe_hang_linked(void **state)
{
	struct got g;
	struct gpulat_tracker *t = mk(&g, GPULAT_ERA_V519, false);

	(void)state;
	/* job A: hw fence 0xa0, finished fence 0xf1 */
	xe(t, GPULAT_EV_XE_JOB_EXEC, 1000, 50, 0xa0);
	qpid(t, GPULAT_EV_QUEUE, 1200, 50, 1, 0xf1);
	/* job B of another task: exec/queue interleaved with A's on another CPU */
	xe(t, GPULAT_EV_XE_JOB_EXEC, 1300, 60, 0xb0);
	qpid(t, GPULAT_EV_QUEUE, 1400, 60, 2, 0xf2);
	qpid(t, GPULAT_EV_RUN, 2000, 9, 1, 0xf1);
	xe(t, GPULAT_EV_XE_JOB_RUN, 2100, 9, 0xa0);
	qpid(t, GPULAT_EV_RUN, 2200, 9, 2, 0xf2);
	xe(t, GPULAT_EV_XE_JOB_RUN, 2300, 9, 0xb0);
	/* B hangs: timed out, then banned; A completes */
	qpid(t, GPULAT_EV_DONE, 3000, 9, 0, 0xf1);
	xe(t, GPULAT_EV_XE_JOB_TIMEDOUT, 9000, 9, 0xb0);
	xe(t, GPULAT_EV_XE_JOB_BAN, 9100, 9, 0xb0);
	qpid(t, GPULAT_EV_DONE, 9500, 9, 0, 0xf2);
	gpulat_tracker_flush(t, 10000);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.j[0].id, 1);
	assert_int_equal(g.j[0].hang, 0);
	assert_int_equal(g.j[1].id, 2);
	assert_int_equal(g.j[1].hang, GPULAT_HANG_TIMEDOUT | GPULAT_HANG_BANNED);
	assert_string_equal(gpulat_hang_name(0), "timedout");
	assert_null(gpulat_hang_name(GPULAT_HANG__COUNT));
	gpulat_tracker_free(t);
}

/*
 * A job pushed before the trace started is linked by its run; an exec whose
 * queue never follows (another task queued) links nothing; a reused hardware
 * fence pointer after xe_sched_job_free belongs to the next job.
 */
static void test_xe_link_by_run_and_reuse(void **state)
{
	struct got g;
	struct gpulat_tracker *t = mk(&g, GPULAT_ERA_V519, false);

	(void)state;
	xe(t, GPULAT_EV_XE_JOB_EXEC, 100, 70, 0xc0); /* never queued by task 70 */
	qpid(t, GPULAT_EV_RUN, 1000, 9, 5, 0xf5); /* queued before the trace */
	xe(t, GPULAT_EV_XE_JOB_RUN, 1100, 9, 0xa0);
	xe(t, GPULAT_EV_XE_JOB_TIMEDOUT, 5000, 9, 0xa0);
	qpid(t, GPULAT_EV_DONE, 5100, 9, 0, 0xf5);
	xe(t, GPULAT_EV_XE_JOB_FREE, 5200, 9, 0xa0);
	/* the pointer again: a new job, no hang */
	xe(t, GPULAT_EV_XE_JOB_EXEC, 6000, 50, 0xa0);
	qpid(t, GPULAT_EV_QUEUE, 6100, 50, 6, 0xf6);
	qpid(t, GPULAT_EV_RUN, 6200, 9, 6, 0xf6);
	xe(t, GPULAT_EV_XE_JOB_RUN, 6300, 9, 0xa0);
	qpid(t, GPULAT_EV_DONE, 7000, 9, 0, 0xf6);
	/* too far apart: a queue 2 ms after the exec is not its push */
	xe(t, GPULAT_EV_XE_JOB_EXEC, 8000, 50, 0xd0);
	qpid(t, GPULAT_EV_QUEUE, 2008000, 50, 7, 0xf7);
	xe(t, GPULAT_EV_XE_JOB_TIMEDOUT, 3000000, 9, 0xd0);
	gpulat_tracker_flush(t, 4000000);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.j[0].id, 5);
	assert_int_equal(g.j[0].hang, GPULAT_HANG_TIMEDOUT);
	assert_int_equal(g.j[1].id, 6);
	assert_int_equal(g.j[1].hang, 0);
	assert_int_equal(g.j[2].id, 7);
	assert_int_equal(g.j[2].hang, 0);
	gpulat_tracker_free(t);
}

/* msm_gpu_submit_flush / _retired of ringid 0 (ticks: the 19.2 MHz counter) */
static void msm(struct gpulat_tracker *t, enum gpulat_kind k, uint64_t ts, int pid, uint64_t seqno,
		uint64_t ticks, uint64_t ticks_end)
{
	struct gpulat_event ev = {
		.ts = ts,
		.cpu = 0,
		.pid = pid,
		.kind = k,
		.dev = "",
		.flags = GPULAT_EVF_ID | GPULAT_EVF_TICKS,
		.id = 0,
		.seqno = seqno,
		.ticks = ticks,
		.ticks_end = ticks_end,
	};

	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
}

/*
 * msm: the flush right after the run pairs a counter value with a trace
 * time; the retired event's start/end ticks give the measured start and
 * exec, and the done job waits for it.
 */
static void test_msm_hw_times(void **state)
{
	struct got g;
	struct gpulat_tracker *t = mk(&g, GPULAT_ERA_V519, false);

	(void)state;
	qpid(t, GPULAT_EV_QUEUE, 1000, 50, 1, 0xf1);
	qpid(t, GPULAT_EV_RUN, 2000, 9, 1, 0xf1);
	msm(t, GPULAT_EV_MSM_FLUSH, 2100, 9, 77, 19200, 0);
	/* job 2 on the ring: its retired never comes */
	qpid(t, GPULAT_EV_QUEUE, 3000, 50, 2, 0xf2);
	qpid(t, GPULAT_EV_RUN, 4000, 9, 2, 0xf2);
	msm(t, GPULAT_EV_MSM_FLUSH, 4100, 9, 78, 19250, 0);
	qpid(t, GPULAT_EV_DONE, 60000, 9, 0, 0xf1);
	assert_int_equal(g.n, 0); /* held for its retired event */
	/* started 192 ticks (10 us) after the flush, ran 768 ticks (40 us) */
	msm(t, GPULAT_EV_MSM_RETIRED, 61000, 9, 77, 19200 + 192, 19200 + 960);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.j[0].start_ts, 12100);
	assert_int_equal(g.j[0].exec, 40000);
	assert_int_equal(g.j[0].hw_queue, 10100);
	assert_true(g.j[0].timing & GPULAT_TIMING_START_HW);
	assert_true(g.j[0].timing & GPULAT_TIMING_EXEC_HW);
	assert_string_equal(gpulat_timing_start(&g.j[0]), "measured");
	assert_string_equal(gpulat_timing_exec(&g.j[0]), "measured");
	qpid(t, GPULAT_EV_DONE, 70000, 9, 0, 0xf2);
	gpulat_tracker_flush(t, 90000);
	assert_int_equal(g.n, 2);
	/* inferred: max(run, previous done) */
	assert_int_equal(g.j[1].start_ts, 60000);
	assert_int_equal(g.j[1].timing & (GPULAT_TIMING_START_HW | GPULAT_TIMING_EXEC_HW), 0);
	assert_string_equal(gpulat_timing_exec(&g.j[1]), "derived");
	gpulat_tracker_free(t);
}

/* v3d: the submit right after the run is the job's start on the hardware */
static void test_v3d_submit_start(void **state)
{
	struct gpulat_event v3d = {
		.cpu = 0,
		.pid = 9,
		.kind = GPULAT_EV_V3D_SUBMIT,
		.dev = "card0",
		.seqno = 5,
	};
	struct got g;
	struct gpulat_tracker *t = mk(&g, GPULAT_ERA_V519, false);

	(void)state;
	qpid(t, GPULAT_EV_QUEUE, 1000, 50, 1, 0xf1);
	qpid(t, GPULAT_EV_QUEUE, 1100, 50, 2, 0xf2);
	qpid(t, GPULAT_EV_RUN, 2000, 9, 1, 0xf1);
	v3d.ts = 2300;
	assert_int_equal(gpulat_tracker_feed(t, &v3d), 0);
	qpid(t, GPULAT_EV_DONE, 9000, 9, 0, 0xf1);
	/* job 2 runs with no v3d event from its task: inferred */
	qpid(t, GPULAT_EV_RUN, 9500, 9, 2, 0xf2);
	v3d.ts = 9600;
	v3d.pid = 10;
	assert_int_equal(gpulat_tracker_feed(t, &v3d), 0);
	qpid(t, GPULAT_EV_DONE, 12000, 9, 0, 0xf2);
	gpulat_tracker_flush(t, 20000);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.j[0].start_ts, 2300);
	assert_int_equal(g.j[0].exec, 6700);
	assert_true(g.j[0].timing & GPULAT_TIMING_START_HW);
	assert_int_equal(g.j[1].start_ts, 9500);
	assert_false(g.j[1].timing & GPULAT_TIMING_START_HW);
	gpulat_tracker_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_617_keying),
		cmocka_unit_test(test_617_rare_fields),
		cmocka_unit_test(test_legacy_link),
		cmocka_unit_test(test_legacy_ptr_reuse),
		cmocka_unit_test(test_pre57_no_run),
		cmocka_unit_test(test_signal_out_of_order),
		cmocka_unit_test(test_legacy_signal),
		cmocka_unit_test(test_legacy_signal_after_done),
		cmocka_unit_test(test_pointer_ring_names),
		cmocka_unit_test(test_named_ring_no_ptr),
		cmocka_unit_test(test_legacy_fence_from_init),
		cmocka_unit_test(test_deps_617),
		cmocka_unit_test(test_deps_foreign_fence),
		cmocka_unit_test(test_deps_legacy),
		cmocka_unit_test(test_unsched_ctx_minus_1),
		cmocka_unit_test(test_two_devices),
		cmocka_unit_test(test_seqno_wrap),
		cmocka_unit_test(test_lost_events),
		cmocka_unit_test(test_incomplete_at_end),
		cmocka_unit_test(test_orphan_done),
		cmocka_unit_test(test_max_open),
		cmocka_unit_test(test_job_recycling),
		cmocka_unit_test(test_reused_name_buffer),
		cmocka_unit_test(test_i915_basic),
		cmocka_unit_test(test_i915_lowlevel),
		cmocka_unit_test(test_i915_retire_late),
		cmocka_unit_test(test_xe_hang_linked),
		cmocka_unit_test(test_xe_link_by_run_and_reuse),
		cmocka_unit_test(test_msm_hw_times),
		cmocka_unit_test(test_v3d_submit_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
