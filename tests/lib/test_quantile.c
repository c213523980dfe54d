// SPDX-License-Identifier: LGPL-2.1
/*
 * Quantiles and histograms against a brute-force computation, through the
 * public statistics API: exact mode (<= GPULAT_EXACT_MAX values) must match
 * exactly, histogram mode within GPULAT_REL_ERROR. The exact mode sorts with
 * an insertion sort below 64 values and a radix sort above: sizes on both
 * sides, sorted / reversed / equal inputs and values using every byte.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat.h"
#include "test-util.h"

static void job_with_total(struct gpulat_job *j, uint64_t seq, uint64_t total)
{
	int i;

	memset(j, 0, sizeof(*j));
	j->seq = seq;
	j->dev = "";
	j->ring = "gfx";
	j->comm = "t";
	j->pid = 1;
	j->id = seq;
	j->ctx = j->seqno = j->client_id = GPULAT_NONE;
	for (i = 0; i < GPULAT_ST__COUNT; i++) {
		j->ts[i] = GPULAT_NONE;
		j->cpu[i] = -1;
	}
	j->start_ts = j->wait = j->hw_queue = j->exec = j->dep_wait = GPULAT_NONE;
	j->total = total;
	j->status = GPULAT_JOB_COMPLETE;
}

/* v[ceil(p * n) - 1] with p in permille, as the truth generator computes it */
static uint64_t brute(const uint64_t *sorted, uint64_t n, unsigned int pm)
{
	return sorted[(pm * n + 999) / 1000 - 1];
}

static const struct gpulat_summary *run(uint64_t *v, size_t n, struct gpulat_stats **sp)
{
	struct gpulat_stats *s = gpulat_stats_new(NULL);
	struct gpulat_job j;
	size_t i;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		job_with_total(&j, i, v[i]);
		assert_int_equal(gpulat_stats_add(s, &j), 0);
	}
	gpulat_stats_finish(s);
	assert_int_equal(gpulat_stats_ngroups(s, GPULAT_G_RING), 1);
	*sp = s;
	return &gpulat_stats_group(s, GPULAT_G_RING, 0)->m[GPULAT_M_TOTAL];
}

/* @v[0..n-1] (n >= 1) through the stats in exact mode, against a qsort */
static void check_exact_v(const uint64_t *v, size_t n)
{
	uint64_t *sorted = malloc(n * sizeof(*v));
	const struct gpulat_summary *s;
	struct gpulat_stats *st;
	unsigned __int128 sum = 0;
	long double var = 0, mean;
	size_t i;

	assert_non_null(sorted);
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = 0; i < n; i++)
		sum += sorted[i];
	mean = (long double)sum / n;
	for (i = 0; i < n; i++)
		var += (sorted[i] - mean) * (sorted[i] - mean);

	s = run((uint64_t *)v, n, &st);
	assert_true(s->exact);
	assert_int_equal(s->n, n);
	assert_int_equal(s->min, sorted[0]);
	assert_int_equal(s->max, sorted[n - 1]);
	assert_int_equal(s->mean, (uint64_t)(sum / n));
	assert_true(fabs(s->stddev - (double)sqrtl(var / n)) <= 1e-6 * (s->stddev + 1));
	assert_int_equal(s->p50, brute(sorted, n, 500));
	assert_int_equal(s->p90, brute(sorted, n, 900));
	assert_int_equal(s->p99, brute(sorted, n, 990));
	assert_int_equal(s->p999, brute(sorted, n, 999));
	gpulat_stats_free(st);
	free(sorted);
}

/* @n random values below @mod (0: any u64) */
static void check_exact(size_t n, uint64_t mod)
{
	uint64_t *v = malloc(n * sizeof(*v));
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = mod ? rnd() % mod : rnd();
	check_exact_v(v, n);
	free(v);
}

/* ascending, descending, constant and two-valued inputs of @n values */
static void check_patterns(size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	size_t i;

	assert_non_null(v);
	for (i = 0; i < n; i++)
		v[i] = 1000 + 3 * i;
	check_exact_v(v, n);
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)(n - i) << 40;	/* only the high bytes differ */
	check_exact_v(v, n);
	for (i = 0; i < n; i++)
		v[i] = 123456789;
	check_exact_v(v, n);
	for (i = 0; i < n; i++)
		v[i] = i % 3 ? UINT64_MAX - 1 : 0;
	check_exact_v(v, n);
	free(v);
}

static void test_exact_small(void **state)
{
	size_t n;

	(void)state;
	for (n = 1; n <= 70; n++)
		check_exact(n, 1000);
	check_exact(1000, 10);		/* many ties */
	check_exact(1001, 1ULL << 40);
	check_exact(5000, 0);		/* every byte differs: eight radix passes */
	check_exact(GPULAT_EXACT_MAX, 5000000);	/* the largest exact size */
	check_exact(GPULAT_EXACT_MAX, 0);
	check_patterns(63);		/* insertion sort */
	check_patterns(64);		/* radix sort */
	check_patterns(GPULAT_EXACT_MAX);
}

/* @n values in histogram mode: n, min, max, mean exact, quantiles within 1/128 */
/*
 * The log2 histogram of @g's total (gpulat_group_hist()) against the counts
 * of @v[0..n-1] computed here: bucket i holds 2^(i-1) <= v < 2^i (the last
 * one everything larger), bucket 0 the zeros. Exact even in histogram mode.
 */
static void check_log2(const struct gpulat_group *g, const uint64_t *v, size_t n)
{
	uint64_t want[GPULAT_HIST_BUCKETS] = { 0 };
	struct gpulat_hist h;
	size_t i;
	int b;

	for (i = 0; i < n; i++) {
		for (b = 0; b < GPULAT_HIST_BUCKETS - 1 && v[i] >= (1ULL << b); b++)
			;
		want[b]++;
	}
	assert_int_equal(gpulat_group_hist(g, GPULAT_M_TOTAL, &h), 0);
	for (b = 0; b < GPULAT_HIST_BUCKETS; b++)
		assert_int_equal(h.bucket[b], want[b]);
	/* no wait was given: an empty histogram; a bad metric is refused */
	assert_int_equal(gpulat_group_hist(g, GPULAT_M_WAIT, &h), 0);
	for (b = 0; b < GPULAT_HIST_BUCKETS; b++)
		assert_int_equal(h.bucket[b], 0);
	assert_int_equal(gpulat_group_hist(g, GPULAT_M__COUNT, &h), -EINVAL);
}

/* @shift: values up to 1000 << @shift (> 12: some need 64 bits) */
static void check_hist(size_t n, unsigned int shift)
{
	uint64_t *v = malloc(n * sizeof(*v)), *sorted = malloc(n * sizeof(*v));
	const struct gpulat_summary *s;
	struct gpulat_stats *st;
	unsigned __int128 sum = 0;
	const unsigned int pm[4] = { 500, 900, 990, 999 };
	uint64_t got[4];
	size_t i;

	for (i = 0; i < n; i++) {
		/* log-uniform-ish: 1 ns .. ~1 s (shift 20) */
		v[i] = sorted[i] = (rnd() % 1000) << (rnd() % shift);
		sum += v[i];
	}
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	s = run(v, n, &st);
	assert_false(s->exact);
	assert_int_equal(s->n, n);
	assert_int_equal(s->min, sorted[0]);
	assert_int_equal(s->max, sorted[n - 1]);
	assert_int_equal(s->mean, (uint64_t)(sum / n));
	got[0] = s->p50;
	got[1] = s->p90;
	got[2] = s->p99;
	got[3] = s->p999;
	for (i = 0; i < 4; i++) {
		double want = (double)brute(sorted, n, pm[i]);

		assert_true(fabs((double)got[i] - want) <= GPULAT_REL_ERROR * want + 0.5);
	}
	check_log2(gpulat_stats_group(st, GPULAT_G_RING, 0), v, n);
	gpulat_stats_free(st);
	free(v);
	free(sorted);
}

static void test_histogram_mode(void **state)
{
	(void)state;
	check_hist(GPULAT_EXACT_MAX + 1, 20);	/* the smallest histogram size */
	check_hist(GPULAT_EXACT_MAX * 3 + 17, 20);
	/* 64-bit exact values first (up to ~2^50 ns), then the histogram */
	check_hist(GPULAT_EXACT_MAX * 2 + 5, 41);
}

static void test_log2_hist(void **state)
{
	uint64_t v[] = { 0, 1, 2, 3, 4, 1023, 1024, UINT64_MAX - 1 };
	const struct gpulat_group *g;
	struct gpulat_stats *st;
	struct gpulat_hist h;

	(void)state;
	run(v, sizeof(v) / sizeof(v[0]), &st);
	g = gpulat_stats_group(st, GPULAT_G_RING, 0);
	assert_int_equal(gpulat_group_hist(g, GPULAT_M_TOTAL, &h), 0);
	assert_int_equal(h.bucket[0], 1);	/* 0 */
	assert_int_equal(h.bucket[1], 1);	/* 1 */
	assert_int_equal(h.bucket[2], 2);	/* 2, 3 */
	assert_int_equal(h.bucket[3], 1);	/* 4 */
	assert_int_equal(h.bucket[10], 1);	/* 1023 */
	assert_int_equal(h.bucket[11], 1);	/* 1024 */
	assert_int_equal(h.bucket[GPULAT_HIST_BUCKETS - 1], 1);
	check_log2(g, v, sizeof(v) / sizeof(v[0]));
	assert_int_equal(gpulat_hist_bucket_low(11), 1024);
	assert_int_equal(gpulat_hist_bucket_low(0), 0);
	gpulat_stats_free(st);
}

/* the rule as printf says it, of the double (what the report printed first) */
static void printf_duration(char *buf, size_t len, uint64_t ns)
{
	double v;

	if (ns < 1000) {
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	} else if (ns < 1000000) {
		v = ns / 1e3;
		snprintf(buf, len, v < 10 ? "%.2fus" : v < 100 ? "%.1fus" : "%.0fus", v);
	} else if (ns < 1000000000) {
		v = ns / 1e6;
		snprintf(buf, len, v < 10 ? "%.2fms" : v < 100 ? "%.1fms" : "%.0fms", v);
	} else {
		snprintf(buf, len, "%.3fs", ns / 1e9);
	}
}

static void check_duration(uint64_t ns, size_t len)
{
	char want[48], got[48];

	printf_duration(want, len, ns);
	memset(got, 'x', sizeof(got));
	gpulat_fmt_duration(got, len, ns);
	if (strcmp(want, got))
		fail_msg("%llu ns (len %zu): \"%s\", printf says \"%s\"", (unsigned long long)ns,
			 len, got, want);
}

/*
 * gpulat_fmt_duration() prints without the double: the same text as printf
 * of it for every duration below 2 ms, around every decade and every tie up
 * to 10^4 s, for random durations of every magnitude, and truncated alike
 */
static void fmt_duration_printf(void)
{
	uint64_t ns, d, x = 0x2545f4914f6cdd1dULL;
	int i, k;

	for (ns = 0; ns < 2000000; ns += ns < 200000 ? 1 : 7)
		check_duration(ns, 48);
	for (d = 1000; d <= 10000000000000ULL; d *= 10) {
		for (ns = d - 1200; ns < d + 1200; ns++)
			check_duration(ns, 48);
		for (k = 1; k < 2000; k++) {
			/* the ties of each precision: 5 followed by zeros */
			check_duration(d / 1000 * (uint64_t)k + d / 2000, 48);
			check_duration(d / 100 * (uint64_t)k + d / 200, 48);
			check_duration(d / 10 * (uint64_t)k + d / 20, 48);
		}
	}
	for (i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ns = x >> (x % 64);
		if (ns != GPULAT_NONE)
			check_duration(ns, 48);
	}
	for (i = 1; i < 12; i++) {
		check_duration(12345, (size_t)i);
		check_duration(1234567890123ULL, (size_t)i);
	}
}

static void test_fmt_duration(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 812), "812ns");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 12400), "12.4us");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 3210000), "3.21ms");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 1500000000), "1.500s");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), GPULAT_NONE), "-");
	/* ties at the printed digits round as printf rounds the double */
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 1005), "1.00us");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 100500), "100us");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 101500), "102us");
	assert_string_equal(gpulat_fmt_duration(b, sizeof(b), 9996), "10.00us");
	fmt_duration_printf();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_small),
		cmocka_unit_test(test_histogram_mode),
		cmocka_unit_test(test_log2_hist),
		cmocka_unit_test(test_fmt_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
