// SPDX-License-Identifier: LGPL-2.1
/*
 * The reorder queues of all groups together stay bounded (lib/stats.c,
 * QUEUED_MAX): NPROC processes on NRING rings, each with a few dozen jobs
 * over 3 s, so that no process group alone reaches REORDER_MAX. Fed in done
 * order to two stats sets: one bounded to UNBOUNDED entries (more than the
 * test ever queues, and than QUEUED_MAX: the queues grow with the jobs), one
 * bounded to QMAX entries.
 *
 * Checks: the set's count of queued entries is what its groups hold, after
 * every job; with twice the jobs, the bounded set's peak of queued entries
 * stays the same (within 10 %) while the other's doubles; both give the
 * same groups (busy, depth, gaps and percentiles) and the same stalls; each
 * process's busy time equals the union of its jobs' [start, done] computed
 * here.
 *
 * test_busy_kinds: a set keeping busy union and depth for rings and devices
 * only (gpulat__stats_busy_kinds(), as the session's) gives the rings the
 * busy time of their jobs' union computed here and the same results as a set
 * keeping them for all; its processes and clients have none (0) and else the
 * same results; it queues fewer entries.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat-int.h"
#include "report-int.h"
#include "test-util.h"

#define NONE		GPULAT_NONE
#define NPROC		2000
#define NRING		4
#define NJOBS		60000
#define SPACING		50000ULL	/* ns between two submissions: 3 s in all */
#define QMAX		256
#define UNBOUNDED	(1u << 20) /* above the test's 124 470 entries queued at most */

struct tj {
	uint64_t	q, run, start, done;
	int		pid;
};

static char comms[NPROC][16], rings[NRING][8];

static int by_done(const void *a, const void *b)
{
	const struct tj *x = a, *y = b;

	return (x->done > y->done) - (x->done < y->done);
}

static int by_start(const void *a, const void *b)
{
	const struct tj *x = *(const struct tj *const *)a, *y = *(const struct tj *const *)b;

	return (x->start > y->start) - (x->start < y->start);
}

static struct gpulat_job mkjob(const struct tj *t, uint64_t seq)
{
	struct gpulat_job j;
	int i;

	memset(&j, 0, sizeof(j));
	j.seq = seq;
	j.id = seq;
	j.dev = "card0";
	j.ring = rings[t->pid % NRING];
	j.pid = 1000 + t->pid;
	j.comm = comms[t->pid];
	j.ctx = j.seqno = j.client_id = NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j.ts[i] = NONE;
		j.cpu[i] = i;
	}
	j.ts[GPULAT_ST_QUEUE] = t->q;
	j.ts[GPULAT_ST_RUN] = t->run;
	j.start_ts = t->start;
	j.ts[GPULAT_ST_DONE] = t->done;
	j.wait = t->run - t->q;
	j.hw_queue = t->start - t->run;
	j.exec = t->done - t->start;
	j.dep_wait = NONE;
	j.total = t->done - t->q;
	j.status = GPULAT_JOB_COMPLETE;
	return j;
}

/*
 * the union of the [start, done] intervals of a process's jobs (@ring < 0) or
 * of a ring's (@pid < 0), computed from the jobs
 */
static uint64_t busy_where(struct tj *jobs, size_t njobs, int pid, int ring)
{
	struct tj **v = calloc(njobs, sizeof(*v));
	uint64_t busy = 0, s = 0, e = 0;
	size_t n = 0, i;

	assert_non_null(v);
	for (i = 0; i < njobs; i++)
		if (jobs[i].pid == pid || (ring >= 0 && jobs[i].pid % NRING == ring))
			v[n++] = &jobs[i];
	qsort(v, n, sizeof(*v), by_start);
	for (i = 0; i < n; i++) {
		if (i && v[i]->start <= e) {
			if (v[i]->done > e)
				e = v[i]->done;
			continue;
		}
		busy += e - s;
		s = v[i]->start;
		e = v[i]->done;
	}
	free(v);
	return busy + e - s;
}

static uint64_t busy_of(struct tj *jobs, size_t njobs, int pid)
{
	return busy_where(jobs, njobs, pid, -1);
}

static bool streq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static const struct gpulat_group *find(const struct gpulat_stats *s, enum gpulat_group_kind k,
				       const struct gpulat_group *like)
{
	size_t i, n = gpulat_stats_ngroups(s, k);

	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(s, k, i);

		if (g->pid == like->pid && streq(g->ring, like->ring) && streq(g->dev, like->dev) &&
		    streq(g->comm, like->comm) && g->client_id == like->client_id)
			return g;
	}
	return NULL;
}
/* the same count and percentiles of every metric */
static void same_metrics(const struct gpulat_group *a, const struct gpulat_group *b)
{
	int m;

	for (m = 0; m < GPULAT_M__COUNT; m++) {
		assert_int_equal(a->m[m].n, b->m[m].n);
		assert_int_equal(a->m[m].p50, b->m[m].p50);
		assert_int_equal(a->m[m].p99, b->m[m].p99);
		assert_int_equal(a->m[m].max, b->m[m].max);
	}
}

static void same_group(const struct gpulat_group *a, const struct gpulat_group *b)
{
	assert_non_null(b);
	assert_int_equal(a->complete, b->complete);
	assert_int_equal(a->busy_ns, b->busy_ns);
	assert_int_equal(a->max_depth, b->max_depth);
	assert_true(a->avg_depth == b->avg_depth);
	assert_int_equal(a->idle_gaps, b->idle_gaps);
	same_metrics(a, b);
}

static int by_stall(const void *a, const void *b)
{
	const struct gpulat_stall *x = *(const struct gpulat_stall *const *)a;
	const struct gpulat_stall *y = *(const struct gpulat_stall *const *)b;

	if (x->start_ts != y->start_ts)
		return (x->start_ts > y->start_ts) - (x->start_ts < y->start_ts);
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return x->pid - y->pid;
}

static const struct gpulat_stall **stalls(const struct gpulat_stats *s, size_t *n)
{
	const struct gpulat_stall **v;
	size_t i;

	*n = gpulat_stats_nstalls(s);
	v = calloc(*n ? *n : 1, sizeof(*v));
	assert_non_null(v);
	for (i = 0; i < *n; i++)
		v[i] = gpulat_stats_stall(s, i);
	qsort(v, *n, sizeof(*v), by_stall);
	return v;
}

/* the two sets kept the same stalls, at least one */
static void same_stalls(const struct gpulat_stats *a, const struct gpulat_stats *b)
{
	const struct gpulat_stall **x, **y;
	size_t nx, ny, i;

	x = stalls(a, &nx);
	y = stalls(b, &ny);
	assert_int_equal(nx, ny);
	assert_true(nx > 0);
	for (i = 0; i < nx; i++) {
		assert_int_equal(x[i]->start_ts, y[i]->start_ts);
		assert_int_equal(x[i]->end_ts, y[i]->end_ts);
		assert_int_equal(x[i]->kind, y[i]->kind);
		assert_int_equal(x[i]->pid, y[i]->pid);
	}
	free(x);
	free(y);
}

/* @n jobs, one submission every SPACING ns by a random process, sorted by done */
static struct tj *mkjobs(size_t n)
{
	struct tj *jobs = calloc(n, sizeof(*jobs));
	size_t i;

	assert_non_null(jobs);
	for (i = 0; i < n; i++) {
		struct tj *t = &jobs[i];

		t->pid = (int)(rnd() % NPROC);
		t->q = 1000000 + i * SPACING;
		t->run = t->q + rnd() % 200000;
		t->start = t->run + rnd() % 20000;
		t->done = t->start + 1 + rnd() % 300000;
	}
	qsort(jobs, n, sizeof(*jobs), by_done);
	return jobs;
}

static void names(void)
{
	int p;

	for (p = 0; p < NPROC; p++)
		snprintf(comms[p], sizeof(comms[p]), "proc%d", p);
	for (p = 0; p < NRING; p++)
		snprintf(rings[p], sizeof(rings[p]), "gfx%d", p);
}

/*
 * @n jobs, one submission every SPACING ns by a random process, overlapping,
 * fed in done order to a set bounded to UNBOUNDED and one to QMAX:
 * their peaks of queued entries into @peak; with @check, the two sets'
 * results compared
 */
static void run(size_t n, size_t peak[2], bool check)
{
	struct tj *jobs = mkjobs(n);
	struct gpulat_stats *s[2] = { gpulat_stats_new(NULL), gpulat_stats_new(NULL) };
	size_t now, held, i, k, ng;
	int g;

	assert_non_null(s[0]);
	assert_non_null(s[1]);
	gpulat__stats_set_queued_max(s[0], UNBOUNDED);
	gpulat__stats_set_queued_max(s[1], QMAX);
	for (i = 0; i < n; i++) {
		struct gpulat_job j = mkjob(&jobs[i], i);

		for (k = 0; k < 2; k++) {
			assert_int_equal(gpulat_stats_add(s[k], &j), 0);
			gpulat__stats_queue_len(s[k], &peak[k], &now, &held);
			if (now != held)
				fail_msg("set %zu, job %zu: %zu entries counted, %zu held", k, i, now,
					 held);
		}
	}
	for (k = 0; k < 2; k++)
		assert_int_equal(gpulat_stats_finish(s[k]), 0);
	for (g = 0; check && g < GPULAT_G__COUNT; g++) {
		ng = gpulat_stats_ngroups(s[0], g);
		assert_int_equal(ng, gpulat_stats_ngroups(s[1], g));
		for (i = 0; i < ng; i++) {
			const struct gpulat_group *a = gpulat_stats_group(s[0], g, i);

			same_group(a, find(s[1], g, a));
			if (g == GPULAT_G_PROCESS && a->busy_ns != busy_of(jobs, n, a->pid - 1000))
				fail_msg("pid %d: busy %" PRIu64 " ns, its jobs' union %" PRIu64,
					 a->pid, a->busy_ns, busy_of(jobs, n, a->pid - 1000));
		}
	}
	if (check)
		same_stalls(s[0], s[1]);
	for (k = 0; k < 2; k++)
		gpulat_stats_free(s[k]);
	free(jobs);
}

static void test_busy_kinds(void **state)
{
	const size_t n = NJOBS / 4;
	struct tj *jobs = mkjobs(n);
	struct gpulat_stats *s[2] = { gpulat_stats_new(NULL), gpulat_stats_new(NULL) };
	size_t peak[2] = { 0, 0 }, now, held, i, k, ng;
	int g, r;

	(void)state;
	names();
	assert_non_null(s[0]);
	assert_non_null(s[1]);
	gpulat__stats_busy_kinds(s[1], 1U << GPULAT_G_RING | 1U << GPULAT_G_DEVICE);
	for (i = 0; i < n; i++) {
		struct gpulat_job j = mkjob(&jobs[i], i);

		j.client_id = 5000 + (uint64_t)jobs[i].pid;
		for (k = 0; k < 2; k++) {
			assert_int_equal(gpulat_stats_add(s[k], &j), 0);
			gpulat__stats_queue_len(s[k], &peak[k], &now, &held);
		}
	}
	for (k = 0; k < 2; k++) {
		/* sorted by done: the last job's done ends the span */
		gpulat_stats_set_span(s[k], 0, jobs[n - 1].done);
		assert_int_equal(gpulat_stats_finish(s[k]), 0);
	}
	assert_int_equal(gpulat_stats_ngroups(s[1], GPULAT_G_RING), NRING);
	/* a client per process (a process may have drawn no job) */
	assert_int_equal(gpulat_stats_ngroups(s[1], GPULAT_G_CLIENT),
			 gpulat_stats_ngroups(s[1], GPULAT_G_PROCESS));
	assert_true(gpulat_stats_ngroups(s[1], GPULAT_G_CLIENT) > NPROC / 2);
	for (r = 0; r < NRING; r++) {
		const struct gpulat_group *b = gpulat_stats_group(s[1], GPULAT_G_RING, (size_t)r);

		/* the rings sort by name: gfx0 .. gfx3 */
		assert_string_equal(b->ring, rings[r]);
		assert_int_equal(b->busy_ns, busy_where(jobs, n, -1, r));
		assert_true(b->max_depth > 1);
	}
	for (g = 0; g < GPULAT_G__COUNT; g++) {
		ng = gpulat_stats_ngroups(s[0], g);
		assert_int_equal(ng, gpulat_stats_ngroups(s[1], g));
		for (i = 0; i < ng; i++) {
			const struct gpulat_group *a = gpulat_stats_group(s[0], g, i);
			const struct gpulat_group *b = find(s[1], g, a);

			if (g == GPULAT_G_RING || g == GPULAT_G_DEVICE) {
				same_group(a, b);
				continue;
			}
			assert_non_null(b);
			/* the set keeping them all has them */
			assert_true(a->busy_ns > 0 && a->busy_pct > 0 && a->max_depth > 0 &&
				    a->avg_depth > 0);
			assert_int_equal(b->busy_ns, 0);
			assert_true(b->busy_pct == 0.0);
			assert_int_equal(b->max_depth, 0);
			assert_true(b->avg_depth == 0.0);
			assert_int_equal(a->jobs, b->jobs);
			assert_int_equal(a->complete, b->complete);
			assert_int_equal(a->idle_gaps, b->idle_gaps);
			same_metrics(a, b);
		}
	}
	same_stalls(s[0], s[1]);
	/* no busy entries for 2 x NPROC groups */
	if (peak[1] >= peak[0])
		fail_msg("queued entries at most %zu, keeping all %zu", peak[1], peak[0]);
	print_message("queued entries at most: %zu busy for all, %zu rings and devices\n", peak[0],
		      peak[1]);
	for (k = 0; k < 2; k++)
		gpulat_stats_free(s[k]);
	free(jobs);
}

static void test_queued(void **state)
{
	size_t half[2], whole[2];

	(void)state;
	names();
	run(NJOBS / 2, half, false);
	run(NJOBS, whole, true);
	/*
	 * Unbounded, each process keeps its jobs' entries to the end: twice the
	 * jobs, about twice the peak. Bounded, what stays queued is the jobs of
	 * the watermark's 50 ms of slack: the same peak whatever the length.
	 */
	if (whole[0] < NJOBS || whole[0] < 18 * half[0] / 10)
		fail_msg("unbounded peaks %zu / %zu: the test does not test", half[0], whole[0]);
	if (whole[1] > 11 * half[1] / 10 + 64 || whole[1] > NJOBS / 4)
		fail_msg("bounded peaks %zu (%d jobs) / %zu (%d jobs)", half[1], NJOBS / 2,
			 whole[1], NJOBS);
	print_message("queued entries at most: %zu / %zu unbounded, %zu / %zu bounded\n",
		      half[0], whole[0], half[1], whole[1]);
}

/*
 * A session keeps busy and depth for the kinds gpulat__report_busy_kinds()
 * gives: exactly those whose report rows have a busy or depth field, found
 * here by name through the public field table, so that no row shows a 0
 * the statistics did not keep.
 */
static void test_busy_kinds_follow_fields(void **state)
{
	static const struct {
		enum gpulat_row row;
		enum gpulat_group_kind kind;
	} rows[] = {
		{ GPULAT_ROW_RING, GPULAT_G_RING },
		{ GPULAT_ROW_PROCESS, GPULAT_G_PROCESS },
		{ GPULAT_ROW_CLIENT, GPULAT_G_CLIENT },
		{ GPULAT_ROW_DEVICE, GPULAT_G_DEVICE },
	};
	static const char * const names[] = { "busy_ns", "busy_pct", "max_depth", "avg_depth" };
	unsigned int kinds = gpulat__report_busy_kinds(), want = 0;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
			if (gpulat_field_find(rows[i].row, names[k]))
				want |= 1u << rows[i].kind;
		}
	}
	assert_int_not_equal(want, 0);
	assert_int_equal(kinds, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queued),
		cmocka_unit_test(test_busy_kinds),
		cmocka_unit_test(test_busy_kinds_follow_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
