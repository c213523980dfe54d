// SPDX-License-Identifier: LGPL-2.1
/*
 * Deterministic pseudo random numbers (splitmix64): the same seed gives the
 * same trace on every machine.
 */
#include <math.h>

#include "gen.h"

void rng_seed(struct gen_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 0x2545f4914f6cdd1dULL;
}

uint64_t rng_next(struct gen_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
uint64_t rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	return lo + rng_next(r) % (hi - lo + 1);
}

/* true with probability pct/100 */
int rng_pct(struct gen_rng *r, int pct)
{
	return (int)(rng_next(r) % 100) < pct;
}

/* exponential with the given mean, capped at 8 means */
uint64_t rng_exp(struct gen_rng *r, uint64_t mean)
{
	double u = (double)((rng_next(r) >> 11) + 1) / 9007199254740993.0;
	double v = -log(u) * (double)mean;

	if (v > 8.0 * (double)mean)
		v = 8.0 * (double)mean;
	return (uint64_t)v + 1;
}
