// SPDX-License-Identifier: LGPL-2.1
/*
 * lib/frames.c against hand-computed frames: a 16 ms CRTC, one client with
 * an on-time frame, a long GPU job, a late submission, a dependency wait and
 * another on-time frame; every expected number is worked out in the comments
 * from the scenario, not taken from the code.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat-frames.h"

#define MS(x)	((uint64_t)((x) * 1000000.0 + 0.5))
#define T0	1000000000ULL
#define IV	MS(16)
#define V(s)	(T0 + ((uint64_t)(s) - 100) * IV)	/* vblank instant */
#define IRQ	300000ULL				/* record ts - time */
#define FILEP	0xffff888000aaa000ULL

enum {
	IT_VBL,
	IT_REQ,
	IT_QUEUE,
	IT_JOB,
	IT_FLIP
};

struct item {
	uint64_t	ts;
	int		type;
	uint32_t	seq;		/* vblank / target */
	uint64_t	iv;		/* VRR: this vblank's time */
	struct gpulat_job job;
	struct gpulat_dep dep;
};

static struct item items[256];
static int nitems;

static void add_vbl(uint32_t s, uint64_t t)
{
	items[nitems++] = (struct item){ .ts = t + IRQ, .type = IT_VBL, .seq = s, .iv = t };
}

static void add_req(uint64_t ts, uint32_t target)
{
	items[nitems++] = (struct item){ .ts = ts, .type = IT_REQ, .seq = target };
}

/* a job of pid 10: queue event at q, the job itself arrives after its done */
static void add_job(uint64_t q, uint64_t run, uint64_t start, uint64_t done, uint64_t dep_done)
{
	struct item *it;
	static uint64_t seq;

	items[nitems++] = (struct item){ .ts = q, .type = IT_QUEUE };
	it = &items[nitems++];
	memset(it, 0, sizeof(*it));
	it->ts = done + 1000;
	it->type = IT_JOB;
	it->job.seq = seq++;
	it->job.dev = "";
	it->job.ring = "gfx";
	it->job.comm = "game";
	it->job.pid = 10;
	it->job.ts[0] = q;
	it->job.ts[1] = run;
	it->job.ts[2] = done;
	it->job.ts[3] = GPULAT_NONE;
	it->job.start_ts = start;
	it->job.exec = done - start;
	it->job.dep_wait = dep_done ? dep_done - q : 0;
	it->job.status = GPULAT_JOB_COMPLETE;
	if (dep_done) {
		it->dep.ctx = 77;
		it->dep.seqno = 5;
		it->dep.ring = "comp";
		it->dep.signal_ts = dep_done;
		it->job.n_deps = 1;
	}
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

/* streaming consumers for run() (test_frames_stream) */
static gpulat_vblank_fn run_on_vblank;
static gpulat_frame_fn run_on_frame;

static struct gpulat_frames *run(bool use_time)
{
	struct gpulat_frames_opts o;
	struct gpulat_frames *f;
	int i;

	gpulat_frames_opts_init(&o);
	o.use_vbl_time = use_time;
	o.on_vblank = run_on_vblank;
	o.on_frame = run_on_frame;
	f = gpulat_frames_new(&o);
	assert_non_null(f);
	qsort(items, nitems, sizeof(items[0]), cmp_item);
	for (i = 0; i < nitems; i++) {
		struct item *it = &items[i];
		struct gpulat_event ev = { .ts = it->ts, .pid = 10, .comm = "game" };

		switch (it->type) {
		case IT_VBL:
			ev.kind = GPULAT_EV_VBLANK;
			ev.pid = 0;
			ev.vbl_seq = it->seq;
			ev.vbl_time = (int64_t)it->iv;
			ev.flags = GPULAT_EVF_VBL_TIME | GPULAT_EVF_VBL_HIGH_PREC;
			break;
		case IT_REQ:
			ev.kind = GPULAT_EV_VBLANK_QUEUED;
			ev.vbl_seq = it->seq;
			ev.vbl_file = FILEP;
			ev.flags = GPULAT_EVF_VBL_FILE;
			break;
		case IT_QUEUE:
			ev.kind = GPULAT_EV_QUEUE;
			break;
		case IT_FLIP:
			/* a page-flip completion: in the vblank IRQ, no _queued */
			ev.kind = GPULAT_EV_VBLANK_DELIVERED;
			ev.pid = 0;
			ev.vbl_seq = it->seq;
			ev.vbl_file = FILEP + 0x400;
			ev.flags = GPULAT_EVF_VBL_FILE;
			break;
		case IT_JOB:
			if (it->job.n_deps)
				it->job.deps = &it->dep;
			assert_int_equal(gpulat_frames_job(f, &it->job), 0);
			continue;
		}
		assert_int_equal(gpulat_frames_event(f, &ev), 0);
	}
	assert_int_equal(gpulat_frames_finish(f), 0);
	return f;
}

static void scenario(void)
{
	uint32_t s;

	nitems = 0;
	for (s = 100; s <= 120; s++)
		add_vbl(s, V(s));
	/* A: on time; its job runs 0.6-5 ms after V(100) -> presented 101 */
	add_job(V(100) + MS(0.5), V(100) + MS(0.6), V(100) + MS(0.6), V(100) + MS(5), 0);
	add_req(V(100) + MS(1), 101);
	/* B: 19.4 ms of exec, done 4 ms after V(102) > deadline V(102): late, presented 103 */
	add_job(V(101) + MS(0.5), V(101) + MS(0.6), V(101) + MS(0.6), V(102) + MS(4), 0);
	add_req(V(101) + MS(1), 102);
	/* B2: on time after B: deadline max(102, 103) + 1 = 104 */
	add_job(V(103) + MS(0.5), V(103) + MS(0.6), V(103) + MS(0.6), V(103) + MS(3), 0);
	add_req(V(103) + MS(1), 104);
	/* C: CPU late: woken at V(104), submits 3.5 ms after V(105), asks for 106;
	 * deadline 105 -> presented 106 */
	add_job(V(105) + MS(3.5), V(105) + MS(3.6), V(105) + MS(3.6), V(105) + MS(6), 0);
	add_req(V(105) + MS(4), 106);
	/* D: blocked on a fence signalled 2 ms after V(107); deadline 107 -> 108 */
	add_job(V(106) + MS(0.5), V(107) + MS(2.1), V(107) + MS(2.1), V(107) + MS(3),
		V(107) + MS(2));
	add_req(V(106) + MS(1), 107);
	/* E: on time after D (deadline 109), presented 109 */
	add_job(V(108) + MS(0.5), V(108) + MS(0.6), V(108) + MS(0.6), V(108) + MS(3), 0);
	add_req(V(108) + MS(1), 109);
}

static void test_frames_causes(void **state)
{
	const struct gpulat_crtc_report *c;
	const struct gpulat_frame_client *cl;
	const struct gpulat_late_frame *lf;
	const struct gpulat_frame_proc *p;
	struct gpulat_frames *f;
	int crtc = -1;

	(void)state;
	scenario();
	f = run(true);
	assert_int_equal(gpulat_frames_ncrtcs(f), 1);
	c = gpulat_frames_crtc(f, 0);
	assert_int_equal(c->vblanks, 21);
	assert_int_equal(c->refresh_ns, IV);
	assert_false(c->vrr);
	assert_true(c->vbl_time);
	assert_int_equal(c->irq_delay_max, IRQ);
	assert_int_equal(c->seq_gaps, 0);
	assert_int_equal(c->first_ts, V(100));
	assert_int_equal(c->late, 3);
	assert_int_equal(c->missed, 3);
	/* 20 intervals: the first 16 give the early estimate */
	assert_int_equal(gpulat_frames_early_refresh(f, &crtc), IV);
	assert_int_equal(crtc, 0);

	assert_int_equal(gpulat_frames_nclients(f), 1);
	cl = gpulat_frames_client(f, 0);
	assert_int_equal(cl->drm_file, FILEP);
	assert_int_equal(cl->pid, 10);
	assert_string_equal(cl->comm, "game");
	assert_int_equal(cl->requested, 6);
	assert_int_equal(cl->frames, 6);
	assert_int_equal(cl->late, 3);
	assert_int_equal(cl->missed, 3);
	assert_int_equal(cl->by_cause[GPULAT_FC_GPU_EXEC], 1);
	assert_int_equal(cl->by_cause[GPULAT_FC_LATE_SUBMIT], 1);
	assert_int_equal(cl->by_cause[GPULAT_FC_DEP_WAIT], 1);
	/* presented 101, 103, 104, 106, 108, 109: 32, 16, 32, 32, 16 ms */
	assert_int_equal(cl->frame_time.n, 5);
	assert_int_equal(cl->frame_time.p50, MS(32));
	assert_int_equal(cl->frame_time.min, MS(16));
	assert_int_equal(cl->frame_time.max, MS(32));
	/* exec per frame: 4.4, 19.4, 2.4, 2.4, 0.9, 2.4 ms */
	assert_int_equal(cl->gpu_time.n, 6);
	assert_int_equal(cl->gpu_time.max, MS(19.4));
	assert_int_equal(cl->gpu_time.p50, MS(2.4));

	assert_int_equal(cl->nlate, 3);
	lf = gpulat_frames_late(f, 0, 0);
	assert_int_equal(lf->cause, GPULAT_FC_GPU_EXEC);
	assert_int_equal(lf->deadline, 102);
	assert_int_equal(lf->deadline_ts, V(102));
	assert_int_equal(lf->presented, 103);
	assert_int_equal(lf->missed, 1);
	assert_int_equal(lf->ready_ts, V(102) + MS(4));
	assert_int_equal(lf->nkept, 1);
	assert_int_equal(lf->jobs[0].state, GPULAT_FC_GPU_EXEC);
	assert_string_equal(lf->jobs[0].ring, "gfx");
	lf = gpulat_frames_late(f, 0, 1);
	assert_int_equal(lf->cause, GPULAT_FC_LATE_SUBMIT);
	assert_int_equal(lf->target, 106);
	assert_int_equal(lf->deadline, 105);
	assert_int_equal(lf->presented, 106);
	assert_int_equal(lf->request_ts, V(105) + MS(4));
	assert_int_equal(lf->first_submit_ts, V(105) + MS(3.5));
	assert_int_equal(lf->jobs[0].state, GPULAT_FC_NONE);
	lf = gpulat_frames_late(f, 0, 2);
	assert_int_equal(lf->cause, GPULAT_FC_DEP_WAIT);
	assert_int_equal(lf->deadline, 107);
	assert_int_equal(lf->presented, 108);
	assert_int_equal(lf->jobs[0].dep_ctx, 77);
	assert_string_equal(lf->jobs[0].dep_ring, "comp");
	assert_int_equal(lf->jobs[0].dep_signal_ts, V(107) + MS(2));
	assert_null(gpulat_frames_late(f, 0, 3));

	/* GPU time per vblank interval: 100: 4.4, 101: 15.4, 102: 4, 103: 2.4,
	 * 105: 2.4, 107: 0.9, 108: 2.4 ms */
	assert_int_equal(gpulat_frames_nprocs(f), 1);
	p = gpulat_frames_proc(f, 0);
	assert_int_equal(p->pid, 10);
	assert_int_equal(p->jobs, 6);
	assert_int_equal(p->gpu_time.n, 7);
	assert_int_equal(p->gpu_time.max, MS(15.4));
	assert_int_equal(p->gpu_time.p50, MS(2.4));
	gpulat_frames_free(f);
}

/* what a streaming consumer (Perfetto ticks, KernelShark's CRTC rows) is told */
static struct gpulat_vblank seen_vbl[64];
static int nseen_vbl;
static struct gpulat_frame_verdict seen_fr[16];
static int nseen_fr;

static int keep_vblank(const struct gpulat_vblank *v, void *data)
{
	(void)data;
	if (nseen_vbl < 64)
		seen_vbl[nseen_vbl++] = *v;
	return 0;
}

static int keep_frame(const struct gpulat_frame_verdict *fv, void *data)
{
	(void)data;
	if (nseen_fr < 16)
		seen_fr[nseen_fr++] = *fv;
	return 0;
}

static void test_frames_stream(void **state)
{
	/* the scenario's frames: deadline, presented, late, missed, cause */
	static const struct {
		uint64_t dl, pres;
		bool late;
		enum gpulat_frame_cause cause;
	} want[] = {
		{ 101, 101, false, GPULAT_FC_NONE },	  /* A */
		{ 102, 103, true, GPULAT_FC_GPU_EXEC },	  /* B: 19.4 ms of exec */
		{ 104, 104, false, GPULAT_FC_NONE },	  /* B2: max(102, 103) + 1 */
		{ 105, 106, true, GPULAT_FC_LATE_SUBMIT }, /* C */
		{ 107, 108, true, GPULAT_FC_DEP_WAIT },	  /* D */
		{ 109, 109, false, GPULAT_FC_NONE },	  /* E */
	};
	struct gpulat_frames *f;
	int i;

	(void)state;
	scenario();
	nseen_vbl = nseen_fr = 0;
	run_on_vblank = keep_vblank;
	run_on_frame = keep_frame;
	f = run(true);
	run_on_vblank = NULL;
	run_on_frame = NULL;
	/* every vblank once, with its hardware instant (not the IRQ's record ts) */
	assert_int_equal(nseen_vbl, 21);
	for (i = 0; i < nseen_vbl; i++) {
		assert_int_equal(seen_vbl[i].seq, 100 + i);
		assert_int_equal(seen_vbl[i].ts, V(100 + i));
		assert_int_equal(seen_vbl[i].record_ts, V(100 + i) + IRQ);
		assert_true(seen_vbl[i].vbl_time);
		assert_int_equal(seen_vbl[i].crtc, 0);
	}
	/* every frame once, on time ones too, in order */
	assert_int_equal(nseen_fr, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(seen_fr[i].deadline, want[i].dl);
		assert_int_equal(seen_fr[i].deadline_ts, V(want[i].dl));
		assert_int_equal(seen_fr[i].presented, want[i].pres);
		assert_int_equal(seen_fr[i].presented_ts, V(want[i].pres));
		assert_int_equal(seen_fr[i].late, want[i].late);
		assert_int_equal(seen_fr[i].missed, want[i].pres - want[i].dl);
		assert_int_equal(seen_fr[i].cause, want[i].cause);
		assert_int_equal(seen_fr[i].pid, 10);
		assert_false(seen_fr[i].flip);
	}
	gpulat_frames_free(f);
}

/* record timestamps instead of `time`: everything 300 us later, same frames */
static void test_frames_record_ts(void **state)
{
	const struct gpulat_crtc_report *c;
	const struct gpulat_late_frame *lf;
	struct gpulat_frames *f;

	(void)state;
	scenario();
	f = run(false);
	c = gpulat_frames_crtc(f, 0);
	assert_false(c->vbl_time);
	assert_int_equal(c->first_ts, V(100) + IRQ);
	assert_int_equal(c->refresh_ns, IV);
	assert_int_equal(c->irq_delay_max, 0);
	assert_int_equal(gpulat_frames_client(f, 0)->late, 3);
	lf = gpulat_frames_late(f, 0, 0);
	assert_int_equal(lf->deadline_ts, V(102) + IRQ);
	gpulat_frames_free(f);
}

/* VRR: intervals between 7 and 16 ms; a lost vblank count is a gap */
static void test_frames_vrr(void **state)
{
	const struct gpulat_crtc_report *c;
	struct gpulat_frames *f;
	uint64_t t = T0;
	uint32_t s;

	(void)state;
	nitems = 0;
	for (s = 0; s < 40; s++) {
		if (s != 20)
			add_vbl(s, t);
		t += s % 2 ? MS(7) : MS(16);
	}
	f = run(true);
	c = gpulat_frames_crtc(f, 0);
	assert_int_equal(c->vblanks, 39);
	assert_int_equal(c->seq_gaps, 1);
	assert_true(c->vrr);
	assert_int_equal(c->interval.min, MS(7));
	assert_int_equal(c->interval.max, MS(16));
	assert_int_equal(gpulat_frames_nclients(f), 0);
	gpulat_frames_free(f);
}

/*
 * The client's first frame: its job is queued before the client's first
 * request (the pid is not a client yet) and finishes 2 ms after the target
 * V(101): late, presented 102, missed 1, the job executing at the deadline.
 */
static void test_frames_first_frame(void **state)
{
	const struct gpulat_frame_client *cl;
	const struct gpulat_late_frame *lf;
	struct gpulat_frames *f;
	uint32_t s;

	(void)state;
	nitems = 0;
	for (s = 100; s <= 105; s++)
		add_vbl(s, V(s));
	add_job(V(100) + MS(0.5), V(100) + MS(0.6), V(100) + MS(0.6), V(101) + MS(2), 0);
	add_req(V(100) + MS(1), 101);
	f = run(true);
	cl = gpulat_frames_client(f, 0);
	assert_int_equal(cl->frames, 1);
	assert_int_equal(cl->late, 1);
	assert_int_equal(cl->missed, 1);
	lf = gpulat_frames_late(f, 0, 0);
	assert_non_null(lf);
	assert_int_equal(lf->deadline, 101);
	assert_int_equal(lf->presented, 102);
	assert_int_equal(lf->cause, GPULAT_FC_GPU_EXEC);
	gpulat_frames_free(f);
}

/*
 * A page-flip client (only _delivered): flips shown at 101, 102, 104, 107.
 * The first is not judged; 102 is on time (deadline 102), 104 is late by 1
 * (deadline 103), 107 by 2 (deadline 105): 3 frames, 2 late, 3 missed,
 * frame times 16, 32, 48 ms. Each flip waited for a job of pid 10 done
 * 2 ms before its vblank: the client's process is inferred as pid 10.
 */
static void test_frames_flips(void **state)
{
	static const uint32_t flips[] = { 101, 102, 104, 107 };
	const struct gpulat_frame_client *cl;
	const struct gpulat_late_frame *lf;
	struct gpulat_frames *f;
	unsigned int i;
	uint32_t s;

	(void)state;
	nitems = 0;
	for (s = 100; s <= 110; s++)
		add_vbl(s, V(s));
	for (i = 0; i < 4; i++) {
		uint64_t d = V(flips[i]) - MS(2);

		add_job(d - MS(3), d - MS(3), d - MS(3), d, 0);
		items[nitems++] = (struct item){ .ts = V(flips[i]) + IRQ + 1000,
						 .type = IT_FLIP,
						 .seq = flips[i] };
	}
	f = run(true);
	assert_int_equal(gpulat_frames_nclients(f), 1);
	cl = gpulat_frames_client(f, 0);
	assert_int_equal(cl->requested, 0);
	assert_int_equal(cl->delivered, 4);
	assert_int_equal(cl->flips, 4);
	assert_int_equal(cl->frames, 3);
	assert_int_equal(cl->late, 2);
	assert_int_equal(cl->missed, 3);
	assert_true(cl->pid_inferred);
	assert_int_equal(cl->pid, 10);
	assert_int_equal(cl->frame_time.n, 3);
	assert_int_equal(cl->frame_time.min, MS(16));
	assert_int_equal(cl->frame_time.max, MS(48));
	lf = gpulat_frames_late(f, 0, 0);
	assert_int_equal(lf->deadline, 103);
	assert_int_equal(lf->presented, 104);
	assert_int_equal(lf->missed, 1);
	assert_int_equal(lf->cause, GPULAT_FC_NONE);
	lf = gpulat_frames_late(f, 0, 1);
	assert_int_equal(lf->deadline, 105);
	assert_int_equal(lf->presented, 107);
	assert_int_equal(lf->missed, 2);
	assert_int_equal(gpulat_frames_crtc(f, 0)->late, 2);
	gpulat_frames_free(f);
}

/* damaged input: bounded CRTCs, a request far behind the vblanks, no hang */
static void test_frames_bounds(void **state)
{
	struct gpulat_frames *f = gpulat_frames_new(NULL);
	struct gpulat_event ev = { .kind = GPULAT_EV_VBLANK, .flags = GPULAT_EVF_VBL_TIME };
	int c;
	uint32_t s;

	(void)state;
	assert_non_null(f);
	for (c = 0; c < 70; c++) {
		ev.crtc = c;
		ev.ts = T0 + (uint64_t)c;
		assert_int_equal(gpulat_frames_event(f, &ev), 0);
	}
	assert_int_equal(gpulat_frames_ncrtcs(f), 64);
	assert_int_equal(gpulat_frames_ignored(f), 6);
	/* crtc 0 runs 5000 vblanks ahead; a request for 2^31 counts back */
	ev.crtc = 0;
	for (s = 1; s <= 5000; s++) {
		ev.vbl_seq = s;
		ev.ts = ev.vbl_time = (int64_t)(T0 + s * IV);
		assert_int_equal(gpulat_frames_event(f, &ev), 0);
	}
	ev = (struct gpulat_event){ .kind = GPULAT_EV_VBLANK_QUEUED, .ts = T0 + 5000 * IV + 1,
				    .vbl_seq = 5000u - 0x7fffffffu, .vbl_file = FILEP, .pid = 3 };
	assert_int_equal(gpulat_frames_event(f, &ev), 0);
	assert_int_equal(gpulat_frames_finish(f), 0);
	assert_int_equal(gpulat_frames_client(f, 0)->requested, 1);
	assert_int_equal(gpulat_frames_client(f, 0)->frames + gpulat_frames_client(f, 0)->unresolved, 1);
	gpulat_frames_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_causes),	   cmocka_unit_test(test_frames_record_ts),
		cmocka_unit_test(test_frames_vrr),	   cmocka_unit_test(test_frames_bounds),
		cmocka_unit_test(test_frames_first_frame), cmocka_unit_test(test_frames_flips),
		cmocka_unit_test(test_frames_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
