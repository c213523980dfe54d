/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Small helpers shared by the cmocka unit tests of tests/lib: a fixed-seed
 * xorshift generator (the same sequence on every run) and qsort comparators.
 */
#ifndef _GPULAT_TEST_UTIL_H
#define _GPULAT_TEST_UTIL_H

#include <stdint.h>

static uint64_t rng_state = 88172645463325252ULL;

static inline uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* descending */
static inline int cmp_u64_desc(const void *a, const void *b)
{
	return cmp_u64(b, a);
}

#endif /* _GPULAT_TEST_UTIL_H */
