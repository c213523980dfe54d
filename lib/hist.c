// SPDX-License-Identifier: LGPL-2.1
/*
 * log2 histograms (struct gpulat_hist): bucket i counts 2^(i-1) <= v < 2^i,
 * bucket 0 counts v == 0; the last bucket also takes everything larger.
 */
#include "gpulat-int.h"

unsigned int gpulat__hist_bucket(uint64_t v)
{
	unsigned int b;

	if (!v)
		return 0;
	b = 64 - __builtin_clzll(v);
	return b < GPULAT_HIST_BUCKETS ? b : GPULAT_HIST_BUCKETS - 1;
}

void gpulat__hist_add(struct gpulat_hist *h, uint64_t v)
{
	h->bucket[gpulat__hist_bucket(v)]++;
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
