// SPDX-License-Identifier: LGPL-2.1
/*
 * One budget of exact values per stats set (lib/stats.c): more than
 * GPULAT_EXACT_BUDGET values over many groups, checked against percentiles
 * computed here from the values fed.
 *
 *  1. 8 "big" units (one device, ring and process each: 3 groups) of 6000
 *     jobs, shuffled with 100 small processes (30 jobs) and 50 tiny ones
 *     (10 jobs, rows only): 120 metrics pass GPULAT_EXACT_KEEP values, which
 *     the budget cannot all keep exact;
 *  2. then 26 "mid" units of 3000 jobs: 390 metrics that start after the
 *     budget is spent: the processes' go to the coarse histogram past
 *     GPULAT_EXACT_KEEP, the rings' and devices' stay exact up to
 *     GPULAT_FINE_FROM and then go to the fine one (never coarse: they are
 *     few whatever the trace's length).
 *
 * After every job: the set's count of exact slots is what its groups hold
 * and the arrays past GPULAT_EXACT_KEEP hold at most the budget, plus what
 * rings and devices hold below GPULAT_FINE_FROM values. At the end:
 * metrics under GPULAT_EXACT_KEEP values are exact and equal to the nearest
 * ranks; every metric flagged approximate has at least GPULAT_EXACT_KEEP
 * values and percentiles below the exact ones, within GPULAT_REL_ERROR from
 * the fine histogram and within GPULAT_COARSE_ERROR from the coarse one
 * (gpulat__group_qmode() says which); some metrics between GPULAT_FINE_FROM
 * and GPULAT_EXACT_MAX values stayed exact (the budget lasted for them),
 * some went to the fine histogram (it did not), and the mid ones coarse.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat-int.h"
#include "test-util.h"

#define NONE		GPULAT_NONE
#define NBIG		8
#define BIG_JOBS	6000
#define NSMALL		100
#define SMALL_JOBS	30
#define NTINY		50
#define TINY_JOBS	10
#define NMID		26
#define MID_JOBS	3000
#define NUNITS		(NBIG + NMID)
#define NJOBS		(NBIG * BIG_JOBS + NSMALL * SMALL_JOBS + NTINY * TINY_JOBS + \
			 NMID * MID_JOBS)

struct tjob {
	uint64_t	v[GPULAT_M__COUNT];
	int		unit;		/* device cardU, ring gfxU */
	int		pid;
};

static char devs[NUNITS][16], rings[NUNITS][16], comms[NUNITS + NSMALL + NTINY][16];

static int comm_idx(int pid)
{
	return pid < 2000 ? pid - 1000 : pid < 3000 ? NUNITS + pid - 2000 :
	       NUNITS + NSMALL + pid - 3000;
}

/* a latency from 1 ns to ~97 ms, now and then over 32 bits (5 s) */
static uint64_t rnd_ns(void)
{
	uint64_t v = rnd() % 1000000 + 1;

	if (rnd() % 3 == 0)
		v *= 97;
	if (rnd() % 20000 == 0)
		v = 5000000000ULL + rnd() % 1000;
	return v;
}

static void shuffle(struct tjob *j, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t k = rnd() % i;
		struct tjob t = j[i - 1];

		j[i - 1] = j[k];
		j[k] = t;
	}
}

static struct gpulat_job mkjob(const struct tjob *t, uint64_t seq)
{
	struct gpulat_job j;
	int i;

	memset(&j, 0, sizeof(j));
	j.seq = seq;
	j.id = seq;
	j.dev = devs[t->unit];
	j.ring = rings[t->unit];
	j.pid = t->pid;
	j.comm = comms[comm_idx(t->pid)];
	j.ctx = j.seqno = j.client_id = NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j.ts[i] = NONE;
		j.cpu[i] = i;
	}
	j.wait = t->v[GPULAT_M_WAIT];
	j.hw_queue = t->v[GPULAT_M_HW_QUEUE];
	j.exec = t->v[GPULAT_M_EXEC];
	j.dep_wait = t->v[GPULAT_M_DEP_WAIT];
	j.total = t->v[GPULAT_M_TOTAL];
	j.ts[GPULAT_ST_QUEUE] = 1000000 + seq * 10000;
	j.ts[GPULAT_ST_RUN] = j.ts[GPULAT_ST_QUEUE] + j.wait;
	j.start_ts = j.ts[GPULAT_ST_RUN] + j.hw_queue;
	j.ts[GPULAT_ST_DONE] = j.start_ts + j.exec;
	j.status = GPULAT_JOB_COMPLETE;
	return j;
}

/* nearest rank v[ceil(p n) - 1] of sorted @v, p in parts per million */
static uint64_t rank(const uint64_t *v, size_t n, uint64_t ppm)
{
	uint64_t k = (ppm * n + 999999) / 1000000;

	return v[(k ? k : 1) - 1];
}

static bool in_group(const struct gpulat_group *g, const struct tjob *t)
{
	switch (g->kind) {
	case GPULAT_G_RING:
		return !strcmp(g->ring, rings[t->unit]) && !strcmp(g->dev, devs[t->unit]);
	case GPULAT_G_PROCESS:
		return g->pid == t->pid;
	case GPULAT_G_DEVICE:
		return !strcmp(g->dev, devs[t->unit]);
	default:
		return false;
	}
}

/* a group of a mid unit (device, ring or process) */
static bool mid_group(const struct gpulat_group *g)
{
	int u;

	for (u = NBIG; u < NUNITS; u++) {
		struct tjob t = { .unit = u, .pid = 1000 + u };

		if (in_group(g, &t))
			return true;
	}
	return false;
}

static void test_budget(void **state)
{
	static const uint64_t ppm[4] = { 500000, 900000, 990000, 999000 };
	size_t n = 0, i, gi, counted, held, big, nbig, kept_big = 0, conv = 0, nsmall = 0;
	size_t nmetrics = 0, ncoarse = 0;
	struct tjob *jobs = calloc(NJOBS, sizeof(*jobs));
	uint64_t *v = calloc(NJOBS, sizeof(*v));
	struct gpulat_stats *s = gpulat_stats_new(NULL);
	int u, k, p, m;

	(void)state;
	assert_non_null(jobs);
	assert_non_null(v);
	assert_non_null(s);
	for (u = 0; u < NUNITS; u++) {
		snprintf(devs[u], sizeof(devs[u]), "card%d", u);
		snprintf(rings[u], sizeof(rings[u]), "gfx%d", u);
		snprintf(comms[u], sizeof(comms[u]), "unit%d", u);
	}
	for (p = 0; p < NSMALL + NTINY; p++)
		snprintf(comms[NUNITS + p], sizeof(comms[0]), "small%d", p);

	/* phase 1: big units, small and tiny processes on their rings, shuffled */
	for (u = 0; u < NBIG; u++)
		for (i = 0; i < BIG_JOBS; i++)
			jobs[n++] = (struct tjob){ .unit = u, .pid = 1000 + u };
	for (p = 0; p < NSMALL; p++)
		for (i = 0; i < SMALL_JOBS; i++)
			jobs[n++] = (struct tjob){ .unit = p % NBIG, .pid = 2000 + p };
	for (p = 0; p < NTINY; p++)
		for (i = 0; i < TINY_JOBS; i++)
			jobs[n++] = (struct tjob){ .unit = p % NBIG, .pid = 3000 + p };
	shuffle(jobs, n);
	/* phase 2: the mid units, once the big ones took what the budget had */
	nbig = n;
	for (u = NBIG; u < NUNITS; u++)
		for (i = 0; i < MID_JOBS; i++)
			jobs[n++] = (struct tjob){ .unit = u, .pid = 1000 + u };
	shuffle(jobs + nbig, n - nbig);
	assert_int_equal(n, NJOBS);

	for (i = 0; i < n; i++) {
		struct gpulat_job j;

		for (m = 0; m < GPULAT_M__COUNT; m++)
			jobs[i].v[m] = rnd_ns();
		jobs[i].v[GPULAT_M_TOTAL] = jobs[i].v[GPULAT_M_WAIT] + jobs[i].v[GPULAT_M_HW_QUEUE] +
					    jobs[i].v[GPULAT_M_EXEC];
		j = mkjob(&jobs[i], i);
		assert_int_equal(gpulat_stats_add(s, &j), 0);
		/* (c) what the budget counts is what the arrays hold; past KEEP, within it */
		gpulat__stats_exact_slots(s, &counted, &held, &big);
		assert_int_equal(counted, held);
		/* a ring's or device's array below FINE_FROM values: at most FINE_FROM slots */
		if (big > GPULAT_EXACT_BUDGET + 2 * NUNITS * GPULAT_FINE_FROM)
			fail_msg("job %zu: %zu exact slots in arrays past %d values, budget %u "
				 "+ %d rings and devices of %d",
				 i, big, GPULAT_EXACT_KEEP, GPULAT_EXACT_BUDGET, 2 * NUNITS,
				 GPULAT_FINE_FROM);
	}
	assert_int_equal(gpulat_stats_finish(s), 0);
	gpulat__stats_exact_slots(s, &counted, &held, &big);
	assert_int_equal(counted, held);

	for (k = 0; k < GPULAT_G__COUNT; k++)
		for (gi = 0; gi < gpulat_stats_ngroups(s, k); gi++) {
			const struct gpulat_group *g = gpulat_stats_group(s, k, gi);

			for (m = 0; m < GPULAT_M__COUNT; m++) {
				const struct gpulat_summary *sm = &g->m[m];
				uint64_t got[4] = { sm->p50, sm->p90, sm->p99, sm->p999 };
				size_t qbytes;
				int mode = gpulat__group_qmode(g, m, &qbytes);
				double err = mode == GPULAT_QM_COARSE ? GPULAT_COARSE_ERROR :
									GPULAT_REL_ERROR;
				size_t nv = 0;

				for (i = 0; i < n; i++)
					if (in_group(g, &jobs[i]))
						v[nv++] = jobs[i].v[m];
				qsort(v, nv, sizeof(*v), cmp_u64);
				assert_int_equal(sm->n, nv);
				assert_int_equal(sm->min, v[0]);
				assert_int_equal(sm->max, v[nv - 1]);
				nmetrics++;
				if (nv < GPULAT_EXACT_KEEP)
					nsmall++;
				/* (a) under KEEP values: always exact, whatever the budget */
				if (nv < GPULAT_EXACT_KEEP && !sm->exact)
					fail_msg("kind %d group %zu metric %d: %zu values, not exact",
						 k, gi, m, nv);
				/* the summary says approximate where a histogram holds them */
				assert_int_equal(sm->exact, !gpulat__qmode_hist(mode));
				if (nv > GPULAT_EXACT_MAX)
					assert_false(sm->exact);
				else if (nv >= GPULAT_FINE_FROM && sm->exact)
					kept_big++;
				else if (mode == GPULAT_QM_HIST)
					conv++;
				if (mode == GPULAT_QM_COARSE)
					ncoarse++;
				/* rings and devices are never coarse */
				if (k == GPULAT_G_RING || k == GPULAT_G_DEVICE)
					assert_int_not_equal(mode, GPULAT_QM_COARSE);
				/*
				 * the mid units start past the budget: a process goes
				 * coarse past its rows, a ring or device (3000 values)
				 * to the fine histogram at FINE_FROM
				 */
				if (mid_group(g))
					assert_int_equal(mode, k == GPULAT_G_PROCESS ?
								       GPULAT_QM_COARSE :
								       GPULAT_QM_HIST);
				for (p = 0; p < 4; p++) {
					uint64_t want = rank(v, nv, ppm[p]);

					if (sm->exact) {
						assert_int_equal(got[p], want);
						continue;
					}
					/* (b) the bucket's lower bound: at most 1/128 (1/16) below */
					if (got[p] > want ||
					    (double)(want - got[p]) > err * (double)want)
						fail_msg("kind %d group %zu metric %d p%d: %" PRIu64
							 " for %" PRIu64 " (mode %d)",
							 k, gi, m, p, got[p], want, mode);
				}
			}
		}
	/* the budget both kept and converted metrics between KEEP and MAX values */
	print_message("%zu metrics (%zu under %d values), %zu past %d exact, %zu converted, "
		      "%zu coarse; %zu exact slots at the end\n",
		      nmetrics, nsmall, GPULAT_EXACT_KEEP, kept_big, GPULAT_FINE_FROM, conv,
		      ncoarse, counted);
	assert_true(kept_big > 0);
	assert_true(conv > 0);
	/* the mid processes, at least (rings and devices never) */
	assert_true(ncoarse >= NMID * GPULAT_M__COUNT);
	assert_true(nsmall >= NTINY * GPULAT_M__COUNT);
	gpulat_stats_free(s);
	free(jobs);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
