// SPDX-License-Identifier: LGPL-2.1
/*
 * Many small groups past their stats set's budget (lib/stats.c): the coarse
 * histogram bounds their memory, and its quantiles are within
 * GPULAT_COARSE_ERROR of the exact ones computed here from the values fed.
 *
 *  1. two "big" processes get 2048 jobs each (exact: the budget lasts);
 *  2. NMANY processes get a job each per round, ROUNDS rounds, on NRINGS
 *     rings of one device: their arrays spend the budget at 64 values and
 *     go coarse; NTINY processes get TINY_JOBS jobs in the first rounds;
 *  3. after round BIG_AT the big ones get BIG_MORE jobs more: past the
 *     budget with GPULAT_FINE_FROM values or more, to the fine histogram.
 *
 * Memory: each coarse metric takes at most 4 bytes a bucket its values
 * fill (counted here from the values: 16 buckets per power of two) and one
 * malloc step more, whatever its number of values; all groups' values
 * (gpulat__stats_value_bytes()) at most twice what they took after
 * ROUNDS / 4 rounds (16-bit entries widen once), where the exact values fed
 * grew fourfold. At the end, every metric: n, min, max exact; the tiny ones
 * exact; the many coarse, marked "~", every quantile at most 1/16 below the
 * nearest rank and its log2 histogram the exact one; the big ones fine,
 * within 1/128.
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
#include "gpulat-report.h"
#include "test-util.h"

#define NONE	  GPULAT_NONE
#define NMANY	  1024
#define ROUNDS	  1200
#define NTINY	  32
#define TINY_JOBS 10
#define NBIG	  2
#define BIG_JOBS  2048
#define BIG_MORE  100
#define BIG_AT	  200
#define NRINGS	  4
#define NPROC	  (NMANY + NTINY + NBIG)
#define MAXV	  (BIG_JOBS + BIG_MORE) /* values of one process at most */
#define NMET	  4 /* wait, hw_queue, exec, total: dep_wait none */

static const int mets[NMET] = { GPULAT_M_WAIT, GPULAT_M_HW_QUEUE, GPULAT_M_EXEC, GPULAT_M_TOTAL };
static char comms[NPROC][16], rings[NRINGS][16];
/* every value fed, per process and metric (in mets[] order) */
static uint32_t *vals[NPROC][NMET];
static size_t nvals[NPROC];
static uint64_t seq;

/* process p: many 0 .. NMANY - 1, then tiny, then big */
static int pid_of(int p)
{
	return 1000 + p;
}

/*
 * A latency of a few buckets' spread (a process's jobs look alike):
 * wait 20-80 us, hw_queue 1-3 us, exec 200-900 us; total their sum:
 * ~35 coarse buckets each, all seen in the first ROUNDS / 4 values
 */
static void feed(struct gpulat_stats *s, int p)
{
	uint64_t v[NMET];
	struct gpulat_job j;
	int i;

	v[0] = 20000 + rnd() % 60000;
	v[1] = 1000 + rnd() % 2000;
	v[2] = 200000 + rnd() % 700000;
	v[3] = v[0] + v[1] + v[2];
	memset(&j, 0, sizeof(j));
	j.seq = j.id = seq;
	j.dev = "card0";
	j.ring = rings[p % NRINGS];
	j.pid = pid_of(p);
	j.comm = comms[p];
	j.ctx = j.seqno = j.client_id = NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j.ts[i] = NONE;
		j.cpu[i] = i;
	}
	j.wait = v[0];
	j.hw_queue = v[1];
	j.exec = v[2];
	j.total = v[3];
	j.dep_wait = NONE;
	j.ts[GPULAT_ST_QUEUE] = 1000000 + seq * 1000;
	j.ts[GPULAT_ST_RUN] = j.ts[GPULAT_ST_QUEUE] + j.wait;
	j.start_ts = j.ts[GPULAT_ST_RUN] + j.hw_queue;
	j.ts[GPULAT_ST_DONE] = j.start_ts + j.exec;
	j.status = GPULAT_JOB_COMPLETE;
	seq++;
	assert_int_equal(gpulat_stats_add(s, &j), 0);
	assert_true(nvals[p] < MAXV);
	for (i = 0; i < NMET; i++)
		vals[p][i][nvals[p]] = (uint32_t)v[i];
	nvals[p]++;
}

/* nearest rank v[ceil(p n) - 1] of sorted @v, p in parts per million */
static uint64_t rank(const uint64_t *v, size_t n, uint64_t ppm)
{
	uint64_t k = (ppm * n + 999999) / 1000000;

	return v[(k ? k : 1) - 1];
}

/* the process a group is, -1 for a ring or device */
static int proc_of(const struct gpulat_group *g)
{
	return g->kind == GPULAT_G_PROCESS ? g->pid - 1000 : -1;
}

/*
 * the log-linear buckets of 16 per power of two @v[0..n-1] (sorted) fill:
 * below 32 one per value, above each [2^e, 2^(e+1)) split in 16 of 2^e / 16
 */
static size_t buckets(const uint64_t *v, size_t n)
{
	uint64_t prev = NONE, b;
	size_t i, d = 0;

	for (i = 0; i < n; i++) {
		if (v[i] < 32) {
			b = v[i];
		} else {
			unsigned int e = 63 - __builtin_clzll(v[i]);
			uint64_t w = (1ULL << e) / 16;

			b = ((uint64_t)e << 32) | ((v[i] - (1ULL << e)) / w);
		}
		d += b != prev;
		prev = b;
	}
	return d;
}

/* one metric of process @p against what was fed: @err 0 for exact */
static void check_metric(const struct gpulat_group *g, int p, int mi, double err, size_t qbytes)
{
	static const uint64_t ppm[4] = { 500000, 900000, 990000, 999000 };
	const struct gpulat_summary *sm = &g->m[mets[mi]];
	uint64_t got[4] = { sm->p50, sm->p90, sm->p99, sm->p999 }, *v;
	struct gpulat_hist h, want_h;
	size_t n = nvals[p], i;
	int q;

	v = malloc(n * sizeof(*v));
	assert_non_null(v);
	memset(&want_h, 0, sizeof(want_h));
	for (i = 0; i < n; i++) {
		v[i] = vals[p][mi][i];
		want_h.bucket[gpulat__hist_bucket(v[i])]++;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	/* coarse: bounded by the buckets filled, not by the values */
	if (err == GPULAT_COARSE_ERROR && qbytes > 4 * buckets(v, n) + 16)
		fail_msg("pid %d metric %d: %zu bytes for %zu values in %zu buckets", g->pid,
			 mets[mi], qbytes, n, buckets(v, n));
	assert_int_equal(sm->n, n);
	assert_int_equal(sm->min, v[0]);
	assert_int_equal(sm->max, v[n - 1]);
	/* the mark and JSON's "exact" say what the quantiles are */
	assert_int_equal(sm->exact, err == 0);
	assert_string_equal(gpulat_quantile_mark(sm), err == 0 ? "" : "~");
	for (q = 0; q < 4; q++) {
		uint64_t want = rank(v, n, ppm[q]);

		if (err == 0) {
			assert_int_equal(got[q], want);
			continue;
		}
		/* the bucket's lower bound: never above, at most @err below */
		if (got[q] > want || (double)(want - got[q]) > err * (double)want)
			fail_msg("pid %d metric %d p%d: %" PRIu64 " for %" PRIu64 " (bound %g)",
				 g->pid, mets[mi], q, got[q], want, err);
	}
	/* --hist: the log2 counts of a histogram are the exact ones */
	assert_int_equal(gpulat_group_hist(g, mets[mi], &h), 0);
	assert_memory_equal(&h, &want_h, sizeof(h));
	free(v);
}

static void test_coarse(void **state)
{
	size_t bytes_quarter = 0, bytes_end, gi, ncoarse = 0, nfine = 0, nexact = 0;
	struct gpulat_stats *s = gpulat_stats_new(NULL);
	int p, r, i, m;

	(void)state;
	assert_non_null(s);
	for (p = 0; p < NPROC; p++) {
		snprintf(comms[p], sizeof(comms[p]), "proc%d", p);
		for (m = 0; m < NMET; m++) {
			vals[p][m] = malloc(MAXV * sizeof(uint32_t));
			assert_non_null(vals[p][m]);
		}
	}
	for (i = 0; i < NRINGS; i++)
		snprintf(rings[i], sizeof(rings[i]), "gfx%d", i);

	for (p = NMANY + NTINY; p < NPROC; p++)
		for (i = 0; i < BIG_JOBS; i++)
			feed(s, p);
	for (r = 0; r < ROUNDS; r++) {
		for (p = 0; p < NMANY; p++)
			feed(s, p);
		for (p = NMANY; r < TINY_JOBS && p < NMANY + NTINY; p++)
			feed(s, p);
		for (p = NMANY + NTINY; r >= BIG_AT && r < BIG_AT + BIG_MORE && p < NPROC; p++)
			feed(s, p);
		if (r + 1 == ROUNDS / 4)
			bytes_quarter = gpulat__stats_value_bytes(s);
	}
	bytes_end = gpulat__stats_value_bytes(s);
	print_message("value bytes after %d rounds %zu, after %d %zu\n", ROUNDS / 4, bytes_quarter,
		      ROUNDS, bytes_end);
	/* four times the values, at most twice the memory (exact arrays: ~4x) */
	if (bytes_end > 2 * bytes_quarter)
		fail_msg("value bytes grew %zu -> %zu from %d to %d rounds", bytes_quarter,
			 bytes_end, ROUNDS / 4, ROUNDS);

	assert_int_equal(gpulat_stats_finish(s), 0);
	for (gi = 0; gi < gpulat_stats_ngroups(s, GPULAT_G_PROCESS); gi++) {
		const struct gpulat_group *g = gpulat_stats_group(s, GPULAT_G_PROCESS, gi);

		p = proc_of(g);
		assert_true(p >= 0 && p < NPROC);
		for (m = 0; m < NMET; m++) {
			size_t qbytes;
			int mode = gpulat__group_qmode(g, mets[m], &qbytes);

			if (p < NMANY) {
				assert_int_equal(mode, GPULAT_QM_COARSE);
				check_metric(g, p, m, GPULAT_COARSE_ERROR, qbytes);
				ncoarse++;
			} else if (p < NMANY + NTINY) {
				assert_false(gpulat__qmode_hist(mode));
				check_metric(g, p, m, 0, qbytes);
				nexact++;
			} else {
				assert_int_equal(mode, GPULAT_QM_HIST);
				check_metric(g, p, m, GPULAT_REL_ERROR, qbytes);
				nfine++;
			}
		}
		/* none fed: none held */
		assert_int_equal(g->m[GPULAT_M_DEP_WAIT].n, 0);
	}
	assert_int_equal(ncoarse, NMANY * NMET);
	assert_int_equal(nexact, NTINY * NMET);
	assert_int_equal(nfine, NBIG * NMET);
	gpulat_stats_free(s);
	for (p = 0; p < NPROC; p++)
		for (m = 0; m < NMET; m++)
			free(vals[p][m]);
}

/*
 * The coarse histogram's counts past its entries' widths: a bucket reaching
 * 63 values (16-bit entries widen), one passing 2^22 - 1 (a second 32-bit
 * entry of the same bucket); quantiles and log2 counts against the values
 */
static void test_coarse_counts(void **state)
{
	/* value, how many: in the order added, 100 first to stay exact */
	static const struct {
		uint64_t v, n;
	} runs[] = {
		{ 100, 16 }, { 5000, 70 },   { 70000, (1u << 22) + 5 },
		{ 3, 2 },    { 900000, 50 }, { 100, 1 },
	};
	struct gpulat__qacc q;
	struct gpulat_summary sm;
	struct gpulat_hist h;
	uint64_t n = 0, i, k;
	size_t r;

	(void)state;
	gpulat__qacc_init(&q);
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		for (i = 0; i < runs[r].n; i++)
			assert_int_equal(gpulat__qacc_add(&q, runs[r].v, i, 0, i), 0);
		n += runs[r].n;
		if (!r) {
			assert_int_equal(gpulat__qacc_to_coarse(&q), 0);
			assert_int_equal(q.mode, GPULAT_QM_COARSE);
		}
	}
	/* five buckets, the one of 70000 in two 32-bit entries */
	assert_int_equal(q.wide, 1);
	assert_int_equal(q.nv, 6);
	assert_true(gpulat__qacc_bytes(&q) <= 4 * 6 + 16);
	gpulat__qacc_summary(&q, &sm);
	assert_int_equal(sm.n, n);
	assert_false(sm.exact);
	assert_int_equal(sm.min, 3);
	assert_int_equal(sm.max, 900000);
	/* p50 .. p99: 70000's bucket (within 1/16 below), p999 too (50 of 4 M) */
	for (k = 0; k < 4; k++) {
		uint64_t got[4] = { sm.p50, sm.p90, sm.p99, sm.p999 };

		assert_true(got[k] <= 70000 && 70000 - got[k] <= 70000 / 16);
	}
	gpulat__qacc_hist(&q, &h);
	assert_int_equal(h.bucket[gpulat__hist_bucket(3)], 2);
	assert_int_equal(h.bucket[gpulat__hist_bucket(100)], 17);
	assert_int_equal(h.bucket[gpulat__hist_bucket(5000)], 70);
	assert_int_equal(h.bucket[gpulat__hist_bucket(70000)], (1u << 22) + 5);
	assert_int_equal(h.bucket[gpulat__hist_bucket(900000)], 50);
	gpulat__qacc_fini(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coarse),
		cmocka_unit_test(test_coarse_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
