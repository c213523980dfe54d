// SPDX-License-Identifier: LGPL-2.1
/*
 * Statistics: busy union, queue depth, stalls, dependency waits and worst
 * jobs, with jobs arriving out of completion order (a few, and thousands
 * against a brute-force sweep: nearly sorted, far out of order, shuffled);
 * tracker streaming.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat.h"
#include "gpulat-int.h"
#include "test-util.h"

#define NONE	GPULAT_NONE

static struct gpulat_job mkjob(uint64_t seq, const char *ring, int pid, uint64_t q, uint64_t r,
			       uint64_t start, uint64_t d)
{
	struct gpulat_job j;
	int i;

	memset(&j, 0, sizeof(j));
	j.seq = seq;
	j.dev = "";
	j.ring = ring;
	j.comm = pid == 1 ? "one" : "two";
	j.pid = pid;
	j.id = seq;
	j.ctx = j.seqno = j.client_id = NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j.ts[i] = NONE;
		j.cpu[i] = i;
	}
	j.ts[GPULAT_ST_QUEUE] = q;
	j.ts[GPULAT_ST_RUN] = r;
	j.ts[GPULAT_ST_DONE] = d;
	j.start_ts = start;
	j.wait = r != NONE ? r - q : NONE;
	j.hw_queue = start != NONE && r != NONE ? start - r : NONE;
	j.exec = d != NONE && start != NONE ? d - start : NONE;
	j.total = d != NONE ? d - q : NONE;
	j.dep_wait = 0;
	j.status = d != NONE ? GPULAT_JOB_COMPLETE : GPULAT_JOB_INCOMPLETE;
	return j;
}

static const struct gpulat_group *ring_group(struct gpulat_stats *s, const char *ring)
{
	size_t i;

	for (i = 0; i < gpulat_stats_ngroups(s, GPULAT_G_RING); i++)
		if (!strcmp(gpulat_stats_group(s, GPULAT_G_RING, i)->ring, ring))
			return gpulat_stats_group(s, GPULAT_G_RING, i);
	fail_msg("no ring %s", ring);
	return NULL;
}

static void test_busy_depth_out_of_order(void **state)
{
	struct gpulat_stats_opts o;
	const struct gpulat_group *g;
	struct gpulat_stats *s;
	struct gpulat_job j[5];
	const int order[5] = { 3, 0, 4, 2, 1 };
	int i;

	(void)state;
	gpulat_stats_opts_init(&o);
	o.stall_threshold_ns = 100;
	s = gpulat_stats_new(&o);
	/* gfx: [10,20] [20,40] [200,210] busy 40; queued 0,1,2 at once -> depth 3 */
	j[0] = mkjob(0, "gfx", 1, 0, 5, 10, 20);
	j[1] = mkjob(1, "gfx", 1, 1, 6, 20, 40);
	j[2] = mkjob(2, "gfx", 2, 2, 190, 200, 210);
	j[3] = mkjob(3, "comp", 2, 300, 301, 302, 400);
	j[4] = mkjob(4, "gfx", 1, 500, NONE, NONE, NONE);	/* incomplete */
	for (i = 0; i < 5; i++)
		assert_int_equal(gpulat_stats_add(s, &j[order[i]]), 0);
	gpulat_stats_set_span(s, 0, 1000);
	gpulat_stats_finish(s);

	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_RING), 2);
	/* sorted by (dev, ring) */
	assert_string_equal(gpulat_stats_group(s, GPULAT_G_RING, 0)->ring, "comp");
	g = ring_group(s, "gfx");
	assert_int_equal(g->jobs, 4);
	assert_int_equal(g->complete, 3);
	assert_int_equal(g->incomplete, 1);
	assert_int_equal(g->busy_ns, 40);
	assert_true(g->busy_pct > 3.99 && g->busy_pct < 4.01);
	assert_int_equal(g->max_depth, 3);
	assert_int_equal(g->m[GPULAT_M_TOTAL].n, 3);
	assert_int_equal(g->m[GPULAT_M_TOTAL].max, 208);
	assert_int_equal(g->m[GPULAT_M_TOTAL].max_ts, 210);	/* where: done ts, cpu */
	assert_int_equal(g->m[GPULAT_M_TOTAL].max_cpu, GPULAT_ST_DONE);
	assert_int_equal(g->m[GPULAT_M_TOTAL].max_job_seq, 2);
	/* depth integral: [0,1)1 [1,2)2 [2,20)3 [20,40)2 [40,210)1 [210,500)0 [500,1000)1 */
	assert_true(g->avg_depth > (1 + 2 + 54 + 40 + 170 + 500) / 1000.0 - 1e-9);
	assert_true(g->avg_depth < (1 + 2 + 54 + 40 + 170 + 500) / 1000.0 + 1e-9);

	/* processes */
	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_PROCESS), 2);
	assert_int_equal(gpulat_stats_group(s, GPULAT_G_PROCESS, 0)->pid, 1);
	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_CLIENT), 0);
	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_DEVICE), 1);
	assert_int_equal(gpulat_stats_group(s, GPULAT_G_DEVICE, 0)->busy_ns, 40 + 98);

	/*
	 * gaps > 100 ns: gfx idle 40 -> 200 is a stall; pid 1 submits 1 -> 500
	 * and pid 2 2 -> 300 with no steady pace before: idle gaps, not stalls
	 */
	assert_int_equal(gpulat_stats_nstalls(s), 1);
	assert_int_equal(gpulat_stats_stall(s, 0)->kind, GPULAT_STALL_RING_IDLE);
	assert_int_equal(gpulat_stats_stall(s, 0)->start_ts, 40);
	assert_int_equal(gpulat_stats_stall(s, 0)->end_ts, 200);
	assert_string_equal(gpulat_stats_stall(s, 0)->ring, "gfx");
	assert_int_equal(gpulat_stats_idle_gaps(s), 2);
	assert_int_equal(gpulat_stats_group(s, GPULAT_G_PROCESS, 0)->idle_gaps, 1);

	/* worst by total: 208 (job 2), then 100 (comp), 39, 20 */
	assert_int_equal(gpulat_stats_nworst(s), 4);
	assert_int_equal(gpulat_stats_worst(s, 0)->job.seq, 2);
	assert_int_equal(gpulat_stats_worst(s, 1)->job.seq, 3);
	assert_int_equal(gpulat_stats_worst(s, 3)->job.seq, 0);
	gpulat_stats_free(s);
}

static void test_worst_top_n_and_depwaits(void **state)
{
	struct gpulat_stats_opts o;
	struct gpulat_dep dep = { 0 };
	const struct gpulat_depwait *dw;
	struct gpulat_stats *s;
	struct gpulat_job j;
	int i;

	(void)state;
	gpulat_stats_opts_init(&o);
	o.top_n = 3;
	o.worst_by = GPULAT_M_WAIT;
	s = gpulat_stats_new(&o);
	for (i = 0; i < 50; i++) {
		j = mkjob(i, "gfx", 1, 1000 * i, 1000 * i + (i * 37) % 101, 1000 * i + 200,
			  1000 * i + 300);
		if (i % 10 == 0) {
			dep.ctx = 5;
			dep.seqno = i;
			dep.ring = "sdma0";
			dep.dev = "";
			dep.job_seq = 1000 + i;
			dep.signal_ts = 1000 * i + 50;
			j.deps = &dep;
			j.n_deps = 1;
		}
		assert_int_equal(gpulat_stats_add(s, &j), 0);
	}
	gpulat_stats_finish(s);
	assert_int_equal(gpulat_stats_nworst(s), 3);
	assert_int_equal(gpulat_stats_worst(s, 0)->job.wait, 100);
	assert_int_equal(gpulat_stats_worst(s, 1)->job.wait, 97);	/* 37 i mod 101, i < 50 */
	assert_int_equal(gpulat_stats_worst(s, 2)->job.wait, 96);
	assert_null(gpulat_stats_worst(s, 3));
	assert_int_equal(gpulat_stats_ndepwaits(s), 1);
	dw = gpulat_stats_depwait(s, 0);
	assert_string_equal(dw->ring, "gfx");
	assert_string_equal(dw->dep_ring, "sdma0");
	assert_int_equal(dw->count, 5);
	/* per dep: min(50, wait): waits of i=0,10,20,30,40 are 0,67,33,100,66 */
	assert_int_equal(dw->total_ns, 0 + 50 + 33 + 50 + 50);
	assert_int_equal(dw->max_ns, 50);
	gpulat_stats_free(s);
}

/* depth events: t * 2 + 1 for a queue, t * 2 for a done (done first at equal t) */
static void brute_depth(const struct gpulat_job *j, size_t n, uint64_t end,
			unsigned int *max, uint64_t *area)
{
	uint64_t *e = malloc(2 * n * sizeof(*e)), last = 0;
	size_t i, ne = 0;
	int64_t cur = 0;

	assert_non_null(e);
	for (i = 0; i < n; i++) {
		e[ne++] = j[i].ts[GPULAT_ST_QUEUE] * 2 + 1;
		if (j[i].ts[GPULAT_ST_DONE] != NONE)
			e[ne++] = j[i].ts[GPULAT_ST_DONE] * 2;
	}
	qsort(e, ne, sizeof(*e), cmp_u64);
	*max = 0;
	*area = 0;
	for (i = 0; i < ne; i++) {
		*area += (uint64_t)cur * (e[i] / 2 - last);
		last = e[i] / 2;
		cur += e[i] & 1 ? 1 : -1;
		if (cur > (int64_t)*max)
			*max = (unsigned int)cur;
	}
	*area += (uint64_t)cur * (end - last);
	free(e);
}

/* busy: union of [start, done] of complete jobs; idle gaps > @thr counted */
static uint64_t brute_busy(const struct gpulat_job *j, size_t n, uint64_t thr, size_t *gaps)
{
	uint64_t *e = malloc(2 * n * sizeof(*e)), busy = 0, s = 0, d = 0;
	size_t i, ne = 0;

	assert_non_null(e);
	for (i = 0; i < n; i++) {
		if (j[i].status != GPULAT_JOB_COMPLETE)
			continue;
		e[ne++] = j[i].start_ts;
		e[ne++] = j[i].ts[GPULAT_ST_DONE];
	}
	/* pairs sorted by start: sort an index through the start values */
	for (i = 1; i < ne / 2; i++) {
		uint64_t a = e[2 * i], b = e[2 * i + 1];
		size_t k = i;

		for (; k > 0 && e[2 * (k - 1)] > a; k--) {
			e[2 * k] = e[2 * (k - 1)];
			e[2 * k + 1] = e[2 * (k - 1) + 1];
		}
		e[2 * k] = a;
		e[2 * k + 1] = b;
	}
	*gaps = 0;
	for (i = 0; i < ne / 2; i++) {
		if (i && e[2 * i] <= d) {
			if (e[2 * i + 1] > d)
				d = e[2 * i + 1];
			continue;
		}
		if (i) {
			busy += d - s;
			if (e[2 * i] - d > thr)
				(*gaps)++;
		}
		s = e[2 * i];
		d = e[2 * i + 1];
	}
	if (ne)
		busy += d - s;
	free(e);
	return busy;
}

/*
 * The submit-gap rule of lib/stats.c (docs/gpu-latency.md "Stalls") written
 * out plainly over one process's jobs sorted by queue time: the pace is the
 * last 8 intervals of at least min(1 ms, @thr / 16) (every one but a
 * stall's); a gap over
 * @thr is idle without 4 of them or when the longest is over twice the
 * shortest, jitter when at most 1.5 x their (lower) median, else a stall.
 * Return: the stalls; @idle (may be NULL) gets the idle gaps, @out (may be
 * NULL) each stall's gap.
 */
static size_t ref_submit_stalls(const struct gpulat_job *j, size_t n, uint64_t thr,
				size_t *idle, uint64_t *out)
{
	uint64_t pace[8];
	size_t i, k, np = 0, stalls = 0, idles = 0;

	for (i = 1; i < n; i++) {
		uint64_t gap = j[i].ts[GPULAT_ST_QUEUE] - j[i - 1].ts[GPULAT_ST_QUEUE];
		uint64_t lo = UINT64_MAX, hi = 0, sorted[8], med = 0;
		size_t m = np < 8 ? np : 8;

		for (k = 0; k < m; k++) {
			lo = pace[k] < lo ? pace[k] : lo;
			hi = pace[k] > hi ? pace[k] : hi;
			sorted[k] = pace[k];
		}
		if (m) {
			qsort(sorted, m, sizeof(*sorted), cmp_u64);
			med = sorted[(m - 1) / 2];
		}
		if (gap > thr && m >= 4 && hi <= 2 * lo && gap > med + med / 2) {
			if (out)
				out[stalls] = gap;
			stalls++;
			continue;
		}
		if (gap > thr && (m < 4 || hi > 2 * lo))
			idles++;
		if (gap > thr || gap >= (thr / 16 < 1000000 ? thr / 16 : 1000000))
			pace[np++ % 8] = gap;
	}
	if (idle)
		*idle = idles;
	return stalls;
}

/*
 * 3000 jobs of one process on one ring (overlapping: depth and busy merges),
 * every 7th incomplete, fed in three orders: done order with a little jitter
 * and a few jobs 200 places late (the reorder queue's fallback heap), fully
 * shuffled, and reversed. Busy, depth, idle stalls and submit gaps must
 * match a brute-force sweep.
 */
static void test_reorder_brute(void **state)
{
	const size_t n = 3000;
	struct gpulat_job *j = malloc(n * sizeof(*j)), *f = malloc(n * sizeof(*f));
	struct gpulat_stats_opts o;
	const struct gpulat_group *g;
	uint64_t t = 1000, busy, area, end;
	size_t i, k, gaps, sgaps, mode;
	unsigned int maxd;

	(void)state;
	assert_non_null(j);
	assert_non_null(f);
	for (i = 0; i < n; i++) {
		uint64_t q = t, start = q + rnd() % 3000, d = start + 1 + rnd() % 4000;

		/*
		 * a steady 2 us cadence (+-50 ns), every 50th gap a 5-40 us
		 * stall: the whole run (~7 ms) stays within the reorder
		 * queues' watermark even when shuffled
		 */
		t += 1950 + rnd() % 100 + (i % 50 ? 0 : 5000 + rnd() % 35000);
		j[i] = mkjob(i, "gfx", 1, q, start, start, i % 7 == 3 ? NONE : d);
	}
	end = t + 10000;
	brute_depth(j, n, end, &maxd, &area);
	busy = brute_busy(j, n, 3000, &gaps);
	sgaps = ref_submit_stalls(j, n, 3000, NULL, NULL);
	assert_true(sgaps >= n / 50 - 2);	/* the injected stalls are there */

	for (mode = 0; mode < 3; mode++) {
		struct gpulat_stats *s;

		memcpy(f, j, n * sizeof(*j));
		for (i = 0; i < n; i++) {
			struct gpulat_job tmp;

			if (mode == 0)
				k = i + 3 < n ? i + rnd() % 4 : i;
			else if (mode == 1)
				k = i + rnd() % (n - i);
			else
				k = n - 1 - i;
			if (mode == 0 && i % 97 == 5 && i + 200 < n)
				k = i + 200;
			if (mode == 2 && k <= i)
				break;
			tmp = f[i];
			f[i] = f[k];
			f[k] = tmp;
		}
		gpulat_stats_opts_init(&o);
		o.stall_threshold_ns = 3000;
		s = gpulat_stats_new(&o);
		assert_non_null(s);
		for (i = 0; i < n; i++)
			assert_int_equal(gpulat_stats_add(s, &f[i]), 0);
		gpulat_stats_set_span(s, 0, end);
		gpulat_stats_finish(s);
		g = ring_group(s, "gfx");
		assert_int_equal(g->busy_ns, busy);
		assert_int_equal(g->max_depth, maxd);
		assert_true(fabs(g->avg_depth - (double)area / (double)end) <=
			    1e-9 * (double)area / (double)end);
		assert_int_equal(gpulat_stats_stalls_total(s), gaps + sgaps);
		for (i = 1, k = 0; i < gpulat_stats_nstalls(s); i++)
			k += gpulat_stats_stall(s, i - 1)->start_ts > gpulat_stats_stall(s, i)->start_ts;
		assert_int_equal(k, 0);
		gpulat_stats_free(s);
	}
	free(j);
	free(f);
}

/* streaming: a long run of jobs keeps O(jobs in flight) open */
static void tr_job(const struct gpulat_job *job, void *data)
{
	struct gpulat_stats *s = data;

	assert_int_equal(job->status, GPULAT_JOB_COMPLETE);
	assert_int_equal(gpulat_stats_add(s, job), 0);
}

static void test_streaming(void **state)
{
	struct gpulat_tracker_ops ops = { .job = tr_job };
	struct gpulat_tracker_counters c;
	struct gpulat_stats *s = gpulat_stats_new(NULL);
	struct gpulat_tracker *t = gpulat_tracker_new(&ops, s);
	struct gpulat_event ev;
	const struct gpulat_group *g;
	uint64_t i, n = 200000;

	(void)state;
	gpulat_tracker_set_era(t, GPULAT_ERA_V617);
	memset(&ev, 0, sizeof(ev));
	ev.dev = "d";
	ev.flags = GPULAT_EVF_FENCE;
	for (i = 0; i < n; i++) {
		ev.ring = "gfx";
		ev.ctx = 7;
		ev.seqno = i;
		ev.kind = GPULAT_EV_QUEUE;
		ev.ts = 1000 * i;
		assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
		ev.kind = GPULAT_EV_RUN;
		ev.ts = 1000 * i + 100;
		assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
		if (i >= 2) {	/* two jobs in flight */
			ev.kind = GPULAT_EV_DONE;
			ev.ring = NULL;
			ev.seqno = i - 2;
			ev.ts = 1000 * i + 500;
			assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
		}
	}
	gpulat_tracker_counters(t, &c);
	assert_true(c.open_peak <= 3);
	assert_int_equal(c.jobs, n - 2);
	gpulat_stats_finish(s);
	g = gpulat_stats_group(s, GPULAT_G_RING, 0);
	assert_int_equal(g->complete, n - 2);
	/*
	 * beyond GPULAT_EXACT_MAX the histogram holds the values, but every one
	 * is 2500: each quantile is 2500 exactly, and the summary says so
	 */
	{
		size_t qbytes;

		assert_int_equal(gpulat__group_qmode(g, GPULAT_M_TOTAL, &qbytes), GPULAT_QM_HIST);
	}
	assert_true(g->m[GPULAT_M_TOTAL].exact);
	assert_int_equal(g->m[GPULAT_M_TOTAL].min, 2500);
	assert_int_equal(g->m[GPULAT_M_TOTAL].max, 2500);
	assert_int_equal(g->m[GPULAT_M_TOTAL].p99, 2500);
	assert_int_equal(g->max_depth, 3);
	gpulat_tracker_free(t);
	gpulat_stats_free(s);
}

/* amdgpu events alone: cs = queue, sched_run_job = run, finished signal = done */
/*
 * More stalls than are kept: every one is counted, the longest are kept (in
 * time order), checked against all gaps computed here from the schedule.
 */
static void test_stalls_longest_kept(void **state)
{
	enum { JOBS = 6000 };
	static uint64_t gaps[2 * JOBS];
	static struct gpulat_job jobs[JOBS];
	struct gpulat_stats_opts o;
	struct gpulat_stats *s;
	uint64_t t = 1000, prev_d = 0, cut, seed = 7;
	size_t i, n = 0, kept, above = 0, kept_above = 0, idle = 0, stalls;

	(void)state;
	gpulat_stats_opts_init(&o);
	o.stall_threshold_ns = 100;
	s = gpulat_stats_new(&o);
	for (i = 0; i < JOBS; i++) {
		struct gpulat_job j;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		t += 200 + (seed >> 33) % 100000;	/* idle gap before the job */
		j = mkjob(i, "gfx", 1, t, t, t, t + 10);
		jobs[i] = j;
		assert_int_equal(gpulat_stats_add(s, &j), 0);
		if (i)
			gaps[n++] = t - prev_d;		/* ring idle: done -> start */
		prev_d = t + 10;
		t += 10;
	}
	gpulat_stats_set_span(s, 0, t);
	gpulat_stats_finish(s);

	/* submit gaps: the irregular ones are idle, the rest classified as the rule says */
	stalls = ref_submit_stalls(jobs, JOBS, 100, &idle, gaps + n);
	assert_true(idle > JOBS / 2);
	n += stalls;
	assert_int_equal(gpulat_stats_stalls_total(s), n);
	assert_int_equal(gpulat_stats_idle_gaps(s), idle);
	kept = gpulat_stats_nstalls(s);
	assert_true(kept > 0 && kept < n);
	qsort(gaps, n, sizeof(*gaps), cmp_u64_desc);
	cut = gaps[kept - 1];
	for (i = 0; i < n; i++)
		above += gaps[i] > cut;
	for (i = 0; i < kept; i++) {
		const struct gpulat_stall *st = gpulat_stats_stall(s, i);

		assert_true(st->end_ts - st->start_ts >= cut);
		kept_above += st->end_ts - st->start_ts > cut;
		if (i)
			assert_true(gpulat_stats_stall(s, i - 1)->start_ts <= st->start_ts);
	}
	/* every stall longer than the shortest kept one is kept */
	assert_int_equal(kept_above, above);
	gpulat_stats_free(s);
}

/*
 * The submit-gap rule on a desktop-like schedule, with the answer known from
 * the schedule itself: a 60 Hz client with +-300 us jitter that misses one
 * frame, a 120 Hz client submitting bursts of three jobs that pauses 30 ms
 * once, and a compositor that draws only now and then.
 */
static void test_submit_pace(void **state)
{
	const uint64_t frame = 16666667, ms = 1000000;
	static const uint64_t comp[] = { 5, 80, 90, 400, 410, 1000 };	/* ms */
	struct gpulat_stats_opts o;
	struct gpulat_stats *s;
	struct gpulat_job j;
	uint64_t t, seq = 0, miss_at = 0, pause_at = 0;
	size_t i, k, stalls = 0;

	(void)state;
	gpulat_stats_opts_init(&o);	/* threshold: one 60 Hz frame */
	s = gpulat_stats_new(&o);
	/* pid 1: frame i at i * frame +-300 us; frame 60 never comes */
	for (i = 0; i < 120; i++) {
		t = 10 * ms + i * frame + (rnd() % 600000) - 300000;
		if (i == 60)
			continue;
		if (i == 61)
			miss_at = t;
		j = mkjob(seq++, "gfx", 1, t, t + 1000, t + 1000, t + ms);
		assert_int_equal(gpulat_stats_add(s, &j), 0);
	}
	/* pid 2: three jobs 100 us apart every 8.33 ms, one 30 ms pause */
	for (i = 0, t = 11 * ms; i < 200; i++) {
		for (k = 0; k < 3; k++) {
			j = mkjob(seq++, "comp", 2, t + k * 100000, t + k * 100000 + 1000,
				  t + k * 100000 + 1000, t + k * 100000 + 50000);
			assert_int_equal(gpulat_stats_add(s, &j), 0);
		}
		t += i == 100 ? 30 * ms : frame / 2;
		if (i == 100)
			pause_at = t;
	}
	/* pid 3: a compositor drawing when something changed */
	for (i = 0; i < sizeof(comp) / sizeof(comp[0]); i++) {
		t = comp[i] * ms;
		j = mkjob(seq++, "sdma0", 3, t, t + 1000, t + 1000, t + 2000);
		assert_int_equal(gpulat_stats_add(s, &j), 0);
	}
	gpulat_stats_set_span(s, 0, 2100 * ms);
	gpulat_stats_finish(s);

	for (i = 0; i < gpulat_stats_nstalls(s); i++) {
		const struct gpulat_stall *st = gpulat_stats_stall(s, i);

		if (st->kind != GPULAT_STALL_SUBMIT_GAP)
			continue;
		stalls++;
		/* only the missed frame and the pause; never a jitter gap */
		if (st->pid == 1)
			assert_int_equal(st->end_ts, miss_at);
		else if (st->pid == 2)
			assert_int_equal(st->end_ts, pause_at);
		else
			fail_msg("pid %d: a gap of an idle compositor listed as a stall", st->pid);
	}
	assert_int_equal(stalls, 2);
	for (i = 0, k = 0; i < gpulat_stats_ngroups(s, GPULAT_G_PROCESS); i++) {
		const struct gpulat_group *g = gpulat_stats_group(s, GPULAT_G_PROCESS, i);

		k += g->idle_gaps;
		if (g->pid == 3)	/* 75 ms (no pace yet), 310 ms (2 intervals), */
			assert_int_equal(g->idle_gaps, 3);	/* 590 ms (irregular) */
		else if (g->pid == 2)
			assert_int_equal(g->idle_gaps, 0);
		else	/* a late frame before the pace exists: only the first 4 gaps */
			assert_true(g->idle_gaps <= 4);
	}
	assert_int_equal(gpulat_stats_idle_gaps(s), k);
	gpulat_stats_free(s);
}

static void test_amdgpu_only(void **state)
{
	struct gpulat_tracker_ops ops = { .job = tr_job };
	struct gpulat_stats *s = gpulat_stats_new(NULL);
	struct gpulat_tracker *t = gpulat_tracker_new(&ops, s);
	struct gpulat_event ev;
	const struct gpulat_group *g;

	(void)state;
	gpulat_tracker_set_era(t, GPULAT_ERA_AMDGPU);
	gpulat_tracker_set_signal_expected(t, true);
	memset(&ev, 0, sizeof(ev));
	ev.dev = "";
	ev.ring = "gfx";
	ev.timeline = "gfx";
	ev.comm = "game";
	ev.pid = 9;
	ev.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32 | GPULAT_EVF_ID;
	ev.ctx = 77;
	ev.seqno = 3;
	ev.id = 12;
	ev.kind = GPULAT_EV_AMD_CS;
	ev.ts = 100;
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	ev.kind = GPULAT_EV_AMD_RUN;
	ev.ts = 150;
	ev.pid = 0;
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	memset(&ev, 0, sizeof(ev));
	ev.kind = GPULAT_EV_FENCE_SIGNALED;
	ev.dev = "";
	ev.driver = "drm_sched";
	ev.timeline = "gfx";
	ev.flags = GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32;
	ev.ctx = 77;
	ev.seqno = 3;
	ev.ts = 400;
	assert_int_equal(gpulat_tracker_feed(t, &ev), 0);
	gpulat_tracker_flush(t, 500);
	gpulat_stats_finish(s);
	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_RING), 1);
	g = gpulat_stats_group(s, GPULAT_G_RING, 0);
	assert_int_equal(g->complete, 1);
	assert_int_equal(g->m[GPULAT_M_WAIT].max, 50);
	assert_int_equal(g->m[GPULAT_M_TOTAL].max, 300);
	assert_int_equal(gpulat_stats_group(s, GPULAT_G_PROCESS, 0)->pid, 9);
	gpulat_tracker_free(t);
	gpulat_stats_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_depth_out_of_order),
		cmocka_unit_test(test_worst_top_n_and_depwaits),
		cmocka_unit_test(test_reorder_brute),
		cmocka_unit_test(test_streaming),
		cmocka_unit_test(test_amdgpu_only),
		cmocka_unit_test(test_stalls_longest_kept),
		cmocka_unit_test(test_submit_pace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
