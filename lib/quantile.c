// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-metric accumulators: n, min, max, mean, population stddev and
 * nearest-rank quantiles (docs/truth-format.md).
 *
 * Exact while at most GPULAT_EXACT_MAX values were added (kept as 32-bit
 * numbers while every value fits, which latencies up to 4.29 s do: half the
 * memory) and, for the statistics' groups, while their stats set's budget of
 * exact values lasts (stats.c, gpulat__qacc_to_hist()); beyond that the
 * values move into a log-linear histogram (GPULAT_QSUB buckets per power of
 * two) and every quantile is within GPULAT_REL_ERROR (1/128) of the exact
 * one, relative: a value v >= 2 * QSUB lies in a bucket [lo, lo + w) with
 * w = 2^floor(log2 v) / QSUB <= lo / QSUB, and the reported value is lo
 * clamped to [min, max]. min, max, mean and n stay exact; stddev is computed
 * with Welford's method (double) in histogram mode.
 *
 * The coarse histogram (stats.c: a small group past its set's budget) is the
 * same with GPULAT_CSUB (16) buckets per power of two, so within
 * GPULAT_COARSE_ERROR (1/16) by the same argument, and stored sparse: one
 * entry per bucket holding a value, sorted by bucket (nv entries, room for
 * cap). An entry is 16 bits (bucket << CN_BITS | count) until a bucket holds
 * CN_MAX values, then all are 32 bits (bucket << CW_BITS | count): so at
 * most 4 bytes a bucket, 2 while the counts are small. A metric of a group
 * on shape-procs10k at 50 M events fills ~40 buckets (185 values), ~90 bytes
 * where its exact values took 4 bytes each for as long as the trace ran.
 *
 * Also the log2 histograms (struct gpulat_hist) of the reports, from the
 * accumulator when asked (gpulat__qacc_hist()): bucket i counts
 * 2^(i-1) <= v < 2^i, bucket 0 counts v == 0; the last bucket also takes
 * everything larger.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-int.h"

#define QSHIFT	7			/* log2(GPULAT_QSUB) */
#define NEXP	(64 - QSHIFT - 1)	/* exponents QSHIFT+1 .. 63 */

#define CSHIFT	4 /* log2(GPULAT_CSUB) */
#define CN_BITS 6 /* a narrow coarse entry: bucket << CN_BITS | count */
#define CN_MAX	((1u << CN_BITS) - 1)
#define CW_BITS 22 /* a wide one: bucket << CW_BITS | count */
#define CW_MAX	((1u << CW_BITS) - 1)

_Static_assert((1u << QSHIFT) == GPULAT_QSUB && (1u << CSHIFT) == GPULAT_CSUB,
	       "the shifts are the sub-bucket counts");

/* every coarse bucket fits either entry's upper bits */
_Static_assert(2 * GPULAT_CSUB + (64 - CSHIFT - 1) * GPULAT_CSUB <= (1u << (16 - CN_BITS)),
	       "coarse buckets overflow an entry");

size_t gpulat__qbuckets(void)
{
	return 2 * GPULAT_QSUB + (size_t)NEXP * GPULAT_QSUB;
}

/*
 * The log-linear bucket of @v with 2^@shift sub-buckets per power of two:
 * values below 2^(shift + 1) have a bucket each, then each power of two is
 * cut in 2^shift equal parts. The fine histogram has shift QSHIFT, the
 * coarse one CSHIFT.
 */
static inline size_t loglin_bucket(uint64_t v, unsigned int shift)
{
	size_t sub = (size_t)1 << shift;
	unsigned int e;

	if (v < 2 * sub)
		return v;
	e = 63 - __builtin_clzll(v); /* >= shift + 1 */
	return 2 * sub + (size_t)(e - shift - 1) * sub + ((v >> (e - shift)) & (sub - 1));
}

/* the lowest value of loglin_bucket() @b */
static inline uint64_t loglin_low(size_t b, unsigned int shift)
{
	size_t sub = (size_t)1 << shift, e;

	if (b < 2 * sub)
		return b;
	b -= 2 * sub;
	e = b / sub + shift + 1;
	return (1ULL << e) + ((uint64_t)(b % sub) << (e - shift));
}

size_t gpulat__qbucket(uint64_t v)
{
	return loglin_bucket(v, QSHIFT);
}

uint64_t gpulat__qbucket_low(size_t b)
{
	return loglin_low(b, QSHIFT);
}

/* the coarse bucket of @v: GPULAT_CSUB per power of two */
static uint32_t cbucket(uint64_t v)
{
	return (uint32_t)loglin_bucket(v, CSHIFT);
}

static uint64_t cbucket_low(uint32_t b)
{
	return loglin_low(b, CSHIFT);
}

/* ceil(p * n) computed exactly with p in parts per million */
static uint64_t rank_of(uint64_t n, double p)
{
	unsigned __int128 ppm = (unsigned __int128)llround(p * 1e6);
	uint64_t k = (uint64_t)((ppm * n + 999999) / 1000000);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return k;
}

uint64_t gpulat__nearest_rank(const uint64_t *v, uint64_t n, double p)
{
	if (!n)
		return GPULAT_NONE;
	return v[rank_of(n, p) - 1];
}

void gpulat__qacc_init(struct gpulat__qacc *q)
{
	memset(q, 0, sizeof(*q));
	q->min = GPULAT_NONE;
	q->max_ts = GPULAT_NONE;
	q->max_cpu = -1;
	q->max_seq = GPULAT_NONE;
}

/* the histogram: one block of QSUB buckets per power of two actually seen */
static size_t nblocks(void)
{
	return gpulat__qbuckets() / GPULAT_QSUB;
}

static inline int hist_add(struct gpulat__qacc *q, uint64_t v)
{
	size_t b = gpulat__qbucket(v), k = b / GPULAT_QSUB;

	if (!q->hb[k]) {
		q->hb[k] = calloc(GPULAT_QSUB, sizeof(**q->hb));
		if (!q->hb[k])
			return -ENOMEM;
	}
	q->hb[k][b % GPULAT_QSUB]++;
	return 0;
}

static inline uint32_t ce_bucket(const struct gpulat__qacc *q, uint32_t i)
{
	return q->wide ? q->c32[i] >> CW_BITS : (uint32_t)q->c16[i] >> CN_BITS;
}

static inline uint32_t ce_count(const struct gpulat__qacc *q, uint32_t i)
{
	return q->wide ? q->c32[i] & CW_MAX : q->c16[i] & CN_MAX;
}

/*
 * Room for @n coarse entries of @esz bytes or a few more: malloc's chunks
 * hold 16 k + 8 bytes, so the array grows 16 bytes at a time (a bucket not
 * seen yet is rare once a group's values have spread) and wastes none
 */
static uint32_t ce_room(uint32_t n, size_t esz)
{
	size_t bytes = n * esz, k = bytes > 24 ? (bytes - 8 + 15) / 16 : 1;

	return (uint32_t)((16 * k + 8) / esz);
}

/* a bucket holds CN_MAX values: every entry to 32 bits, the counts kept */
static int ce_widen(struct gpulat__qacc *q)
{
	uint32_t cap = ce_room(q->nv + 1, sizeof(*q->c32)), i;
	uint32_t *w = malloc(cap * sizeof(*w));

	if (!w)
		return -ENOMEM;
	for (i = 0; i < q->nv; i++)
		w[i] = ce_bucket(q, i) << CW_BITS | ce_count(q, i);
	free(q->c16);
	q->c32 = w;
	q->cap = cap;
	q->wide = 1;
	return 0;
}

/*
 * One value into the coarse histogram: a binary search for its bucket's
 * entry; a bucket not seen yet gets one in its place. In 32-bit entries, a
 * count that would pass CW_MAX (4 M values in one bucket) starts a second
 * entry of the same bucket right after it: the entries stay in bucket order.
 */
static int coarse_add(struct gpulat__qacc *q, uint64_t v)
{
	uint32_t b = cbucket(v), lo = 0, hi = q->nv;
	size_t esz;

	/* lo: the first entry of a later bucket */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ce_bucket(q, mid) <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && ce_bucket(q, lo - 1) == b) {
		if (!q->wide && ce_count(q, lo - 1) < CN_MAX) {
			q->c16[lo - 1]++;
			return 0;
		}
		if (q->wide && ce_count(q, lo - 1) < CW_MAX) {
			q->c32[lo - 1]++;
			return 0;
		}
		if (!q->wide)
			return ce_widen(q) ? -ENOMEM : coarse_add(q, v);
	}
	esz = q->wide ? sizeof(*q->c32) : sizeof(*q->c16);
	if (q->nv == q->cap) {
		uint32_t cap = ce_room(q->nv + 1, esz);
		void *nc = realloc(q->c16, cap * esz);

		if (!nc)
			return -ENOMEM;
		q->c16 = nc;
		q->cap = cap;
	}
	if (q->wide) {
		memmove(q->c32 + lo + 1, q->c32 + lo, (q->nv - lo) * esz);
		q->c32[lo] = b << CW_BITS | 1;
	} else {
		memmove(q->c16 + lo + 1, q->c16 + lo, (q->nv - lo) * esz);
		q->c16[lo] = (uint16_t)(b << CN_BITS | 1);
	}
	q->nv++;
	return 0;
}

/* a value into whichever histogram @q is */
static inline int any_hist_add(struct gpulat__qacc *q, uint64_t v)
{
	return q->mode == GPULAT_QM_COARSE ? coarse_add(q, v) : hist_add(q, v);
}

void gpulat__qacc_fini(struct gpulat__qacc *q)
{
	size_t k;

	for (k = 0; q->mode == GPULAT_QM_HIST && q->hb && k < nblocks(); k++)
		free(q->hb[k]);
	free(q->v);	/* whichever array the union holds */
	q->v = NULL;
	q->nv = q->cap = 0;
	q->mode = GPULAT_QM_V32;
}

/* exact value @i, whichever array holds it */
static inline uint64_t val(const struct gpulat__qacc *q, size_t i)
{
	return q->mode == GPULAT_QM_V64 ? q->v[i] : q->v32[i];
}

/* the first value that needs 64 bits: move the exact values to q->v */
static int widen(struct gpulat__qacc *q)
{
	uint64_t *nv = malloc((q->cap ? q->cap : 1) * sizeof(*nv));
	size_t i;

	if (!nv)
		return -ENOMEM;
	for (i = 0; i < q->nv; i++)
		nv[i] = q->v32[i];
	free(q->v32);
	q->v = nv;
	q->mode = GPULAT_QM_V64;
	return 0;
}

/* Welford's update for one more value (@q->n already counts it) */
static void welford(struct gpulat__qacc *q, uint64_t v)
{
	double d = (double)v - q->wmean;

	q->wmean += d / (double)q->n;
	q->wm2 += d * ((double)v - q->wmean);
}

/*
 * The exact values into a histogram (@mode): past GPULAT_EXACT_MAX, or when
 * the stats set's budget of exact values is spent (stats.c). A no-op in
 * either histogram mode. On -ENOMEM before the move @q is unchanged.
 */
static int to_histogram(struct gpulat__qacc *q, enum gpulat__qmode mode)
{
	struct gpulat__qacc ex = *q;	/* the exact values (the union changes) */
	uint64_t n = q->n, **hb = NULL;
	uint16_t *ce = NULL;
	size_t i;

	if (gpulat__qmode_hist(q->mode))
		return 0;
	if (mode == GPULAT_QM_HIST)
		hb = calloc(nblocks(), sizeof(*hb));
	else
		ce = malloc(ce_room(1, sizeof(*ce)) * sizeof(*ce));
	if (!hb && !ce)
		return -ENOMEM;
	/*
	 * Exact mode needs no running stddev: replay Welford over the values in
	 * the order they came (the same operations, so the same bits, as
	 * updating it on every add).
	 */
	q->wmean = q->wm2 = 0;
	for (i = 0; i < ex.nv; i++) {
		q->n = i + 1;
		welford(q, val(&ex, i));
	}
	q->n = n;
	q->nv = q->cap = 0;
	if (hb) {
		q->hb = hb;
	} else {
		q->c16 = ce;
		q->cap = ce_room(1, sizeof(*ce));
		q->wide = 0;
	}
	q->mode = mode;
	for (i = 0; i < ex.nv; i++)
		if (any_hist_add(q, val(&ex, i))) {
			free(ex.v);
			return -ENOMEM;
		}
	free(ex.v);
	return 0;
}

int gpulat__qacc_to_hist(struct gpulat__qacc *q)
{
	return to_histogram(q, GPULAT_QM_HIST);
}

int gpulat__qacc_to_coarse(struct gpulat__qacc *q)
{
	return to_histogram(q, GPULAT_QM_COARSE);
}

size_t gpulat__qacc_bytes(const struct gpulat__qacc *q)
{
	size_t n, k;

	switch (q->mode) {
	case GPULAT_QM_V32:
		return q->cap * sizeof(*q->v32);
	case GPULAT_QM_V64:
		return q->cap * sizeof(*q->v);
	case GPULAT_QM_COARSE:
		return q->cap * (q->wide ? sizeof(*q->c32) : sizeof(*q->c16));
	default:
		n = nblocks() * sizeof(*q->hb);
		for (k = 0; k < nblocks(); k++)
			if (q->hb[k])
				n += GPULAT_QSUB * sizeof(**q->hb);
		return n;
	}
}

/*
 * A value in histogram mode: gpulat__qacc_add() calls this directly, without
 * gpulat__qacc_add_slow()'s exact-mode prologue, and so does the latter once
 * the accumulator is (or has just become) a histogram.
 * callgrind -j1, mx6_dense 2 M events (the rings and the device past 8192
 * jobs): gpulat__qacc_add_slow 173.2 M -> this 106.6 M instructions.
 */
int gpulat__qacc_add_hist(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu, uint64_t seq)
{
	if (v == GPULAT_NONE)
		return 0;
	if (any_hist_add(q, v))
		return -ENOMEM;
	gpulat__qacc_account(q, v, ts, cpu, seq);
	welford(q, v);
	return 0;
}

/* everything but an exact 32-bit value with room (gpulat__qacc_add()) */
int gpulat__qacc_add_slow(struct gpulat__qacc *q, uint64_t v, uint64_t ts, int cpu, uint64_t seq)
{
	if (v == GPULAT_NONE)
		return 0;
	if (gpulat__qmode_hist(q->mode))
		return gpulat__qacc_add_hist(q, v, ts, cpu, seq);
	if (q->nv == q->cap) {
		/* small first: 10^4 processes have a few jobs each */
		size_t cap = q->cap ? q->cap * 2 : 4;
		void *nv;

		if (q->nv >= GPULAT_EXACT_MAX) {
			if (gpulat__qacc_to_hist(q))
				return -ENOMEM;
			return gpulat__qacc_add_hist(q, v, ts, cpu, seq);
		}
		if (cap > GPULAT_EXACT_MAX)
			cap = GPULAT_EXACT_MAX;
		if (q->mode == GPULAT_QM_V64)
			nv = realloc(q->v, cap * sizeof(*q->v));
		else
			nv = realloc(q->v32, cap * sizeof(*q->v32));
		if (!nv)
			return -ENOMEM;
		if (q->mode == GPULAT_QM_V64)
			q->v = nv;
		else
			q->v32 = nv;
		q->cap = (uint32_t)cap;
	}
	if (q->mode == GPULAT_QM_V32 && v > UINT32_MAX && widen(q))
		return -ENOMEM;
	if (q->mode == GPULAT_QM_V64)
		q->v[q->nv++] = v;
	else
		q->v32[q->nv++] = (uint32_t)v;
	/* exact mode keeps no running stddev: gpulat__qacc_to_hist() replays it */
	gpulat__qacc_account(q, v, ts, cpu, seq);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void insertion_sort(uint64_t *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		uint64_t x = v[i];

		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

#define RADIX_BITS	8
#define RADIX_BINS	(1 << RADIX_BITS)
#define RADIX_DIGITS	(64 / RADIX_BITS)
#define RADIX_MIN	64	/* below this, insertion sort is cheaper */

/*
 * Sort @v[0..n-1] ascending: LSD radix sort, one byte per pass, skipping
 * the bytes in which all values agree (latencies rarely use more than four
 * of them), so about 2 * 4 * n memory accesses and no comparison calls.
 * Falls back to qsort when the scratch buffer cannot be allocated. A sort of
 * plain integers has a single result, so every method gives the same array.
 */
static void sort_u64(uint64_t *v, size_t n)
{
	uint32_t cnt[RADIX_DIGITS][RADIX_BINS];
	uint64_t all_or = 0, all_and = ~0ULL, *tmp, *src = v, *dst, *swp;
	unsigned int d;
	size_t i;

	if (n < RADIX_MIN) {
		insertion_sort(v, n);
		return;
	}
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp || n > UINT32_MAX) {
		free(tmp);
		qsort(v, n, sizeof(*v), cmp_u64);
		return;
	}
	for (i = 0; i < n; i++) {
		all_or |= v[i];
		all_and &= v[i];
	}
	/*
	 * Count only the bytes in which the values differ (a pass over the
	 * others would not move anything): 3-4 of 8 for latencies (callgrind,
	 * shape-dense 200 k events: sort_u64 17.4 -> 7.5 M instructions).
	 */
	memset(cnt, 0, sizeof(cnt));
	for (d = 0; d < RADIX_DIGITS; d++) {
		unsigned int sh = d * RADIX_BITS;

		if (!(((all_or ^ all_and) >> sh) & (RADIX_BINS - 1)))
			continue;
		for (i = 0; i < n; i++)
			cnt[d][(v[i] >> sh) & (RADIX_BINS - 1)]++;
	}
	dst = tmp;
	for (d = 0; d < RADIX_DIGITS; d++) {
		unsigned int sh = d * RADIX_BITS;
		uint32_t pos = 0, c;
		size_t b;

		/* every value has the same byte here: the pass would not move anything */
		if (!(((all_or ^ all_and) >> sh) & (RADIX_BINS - 1)))
			continue;
		for (b = 0; b < RADIX_BINS; b++) {
			c = cnt[d][b];
			cnt[d][b] = pos;
			pos += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[d][(src[i] >> sh) & (RADIX_BINS - 1)]++] = src[i];
		swp = src;
		src = dst;
		dst = swp;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
}

static uint64_t hist_rank(const struct gpulat__qacc *q, double p)
{
	uint64_t k, seen = 0, v;
	size_t b, nb = gpulat__qbuckets();

	k = rank_of(q->n, p);
	for (b = 0; b < nb; b++) {
		const uint64_t *blk = q->hb[b / GPULAT_QSUB];

		if (!blk) {
			b += GPULAT_QSUB - 1;	/* no value in this power of two */
			continue;
		}
		seen += blk[b % GPULAT_QSUB];
		if (seen >= k)
			break;
	}
	v = gpulat__qbucket_low(b < nb ? b : nb - 1);
	if (v < q->min)
		v = q->min;
	if (v > q->max)
		v = q->max;
	return v;
}

/* the same from the coarse histogram: its bucket's lower bound, clamped */
static uint64_t coarse_rank(const struct gpulat__qacc *q, double p)
{
	uint64_t k = rank_of(q->n, p), seen = 0, v = q->max;
	uint32_t i;

	for (i = 0; i < q->nv; i++) {
		seen += ce_count(q, i);
		if (seen >= k) {
			v = cbucket_low(ce_bucket(q, i));
			break;
		}
	}
	if (v < q->min)
		v = q->min;
	if (v > q->max)
		v = q->max;
	return v;
}

/* a sorted copy of this many exact values on the stack (10^4 small groups) */
#define SUMMARY_BUF	64

void gpulat__qacc_summary(struct gpulat__qacc *q, struct gpulat_summary *s)
{
	static const double ps[4] = { 0.5, 0.9, 0.99, 0.999 };
	uint64_t r[4];
	double acc = 0, mean;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = q->n;
	s->max_ts = q->max_ts;
	s->max_cpu = q->max_cpu;
	s->max_job_seq = q->max_seq;
	s->exact = !gpulat__qmode_hist(q->mode);
	if (!q->n) {
		s->min = s->max = s->mean = GPULAT_NONE;
		s->p50 = s->p90 = s->p99 = s->p999 = GPULAT_NONE;
		s->exact = true;
		return;
	}
	s->min = q->min;
	s->max = q->max;
	s->mean = (uint64_t)(q->sum / q->n);
	if (gpulat__qmode_hist(q->mode)) {
		for (i = 0; i < 4; i++)
			r[i] = q->mode == GPULAT_QM_COARSE ? coarse_rank(q, ps[i]) :
							     hist_rank(q, ps[i]);
		s->stddev = sqrt(q->wm2 / (double)q->n);
		/*
		 * every value the same (the dep_wait of jobs without
		 * dependencies): each quantile is that value, exactly
		 */
		if (q->min == q->max) {
			for (i = 0; i < 4; i++)
				r[i] = q->min;
			s->exact = true;
		}
	} else {
		/*
		 * A full sort rather than a selection of the four ranks: the
		 * stddev below is a double sum whose rounding depends on the
		 * order of its terms, and the reports print it to 17 digits,
		 * so the ascending order is part of the output. A sorted copy:
		 * @q keeps its values in the order they came
		 * (gpulat__qacc_to_hist()).
		 */
		uint64_t buf[SUMMARY_BUF], *v = buf;

		if (q->nv > SUMMARY_BUF)
			v = malloc(q->nv * sizeof(*v));
		for (i = 0; v && i < q->nv; i++)
			v[i] = val(q, i);
		if (!v) {
			for (i = 0; i < 4; i++)
				r[i] = GPULAT_NONE;
		} else {
			sort_u64(v, q->nv);
			for (i = 0; i < 4; i++)
				r[i] = gpulat__nearest_rank(v, q->nv, ps[i]);
			/* two passes over exact values: mean as a long double */
			mean = (double)((long double)q->sum / (long double)q->n);
			for (i = 0; i < q->nv; i++) {
				double d = (double)v[i] - mean;

				acc += d * d;
			}
		}
		s->stddev = sqrt(acc / (double)q->n);
		if (v != buf)
			free(v);
	}
	s->p50 = r[0];
	s->p90 = r[1];
	s->p99 = r[2];
	s->p999 = r[3];
}

unsigned int gpulat__hist_bucket(uint64_t v)
{
	unsigned int b;

	if (!v)
		return 0;
	b = 64 - __builtin_clzll(v);
	return b < GPULAT_HIST_BUCKETS ? b : GPULAT_HIST_BUCKETS - 1;
}

/*
 * The log2 histogram of the values @q holds, computed when asked for rather
 * than counted at every add (2.5 KB per group, 5 x 64 counters, and a store
 * per metric and group of every job). The same counts: a log-linear bucket
 * lies within one power of two (values below 2 * QSUB have a bucket each),
 * so all its values have the log2 bucket of its lower bound.
 */
void gpulat__qacc_hist(const struct gpulat__qacc *q, struct gpulat_hist *h)
{
	size_t i, b, nb = gpulat__qbuckets();

	memset(h, 0, sizeof(*h));
	if (!gpulat__qmode_hist(q->mode)) {
		for (i = 0; i < q->nv; i++)
			h->bucket[gpulat__hist_bucket(val(q, i))]++;
		return;
	}
	/* a coarse bucket, too, lies within one power of two */
	if (q->mode == GPULAT_QM_COARSE) {
		for (i = 0; i < q->nv; i++)
			h->bucket[gpulat__hist_bucket(cbucket_low(ce_bucket(q, i)))] += ce_count(q,
												 i);
		return;
	}
	for (b = 0; b < nb; b += GPULAT_QSUB) {
		const uint64_t *blk = q->hb[b / GPULAT_QSUB];

		for (i = 0; blk && i < GPULAT_QSUB; i++) {
			uint64_t lo = gpulat__qbucket_low(b + i);

			h->bucket[gpulat__hist_bucket(lo)] += blk[i];
		}
	}
}

/**
 * gpulat_hist_bucket_low - smallest value counted in log2 bucket @i
 * @i: bucket index (0 .. GPULAT_HIST_BUCKETS - 1)
 *
 * Return: 0 for bucket 0, else 2^(i-1).
 */
uint64_t gpulat_hist_bucket_low(unsigned int i)
{
	if (i == 0 || i > GPULAT_HIST_BUCKETS)
		return 0;
	return 1ULL << (i - 1);
}
