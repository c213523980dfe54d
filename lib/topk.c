// SPDX-License-Identifier: LGPL-2.1
/*
 * Bounded top-K: keep the @max "largest" of a stream of fixed-size elements
 * under a caller's order, in O(max) memory (the stalls of lib/stats.c, the
 * stall explanations of lib/diag-explain.c). Until it is full the array is
 * in arrival order; when it fills up it becomes a min-heap under @less (the
 * element that goes first on top), and from then on an element enters only
 * in place of the top.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-int.h"

#define TOPK_CAP0	64

int gpulat__topk_init(struct gpulat__topk *k, size_t esz, size_t max,
		      bool (*less)(const void *a, const void *b))
{
	memset(k, 0, sizeof(*k));
	k->esz = esz;
	k->max = max ? max : 1;
	k->less = less;
	k->tmp = malloc(esz);
	return k->tmp ? 0 : -ENOMEM;
}

void gpulat__topk_fini(struct gpulat__topk *k)
{
	free(k->v);
	free(k->tmp);
	memset(k, 0, sizeof(*k));
}

static void *at(const struct gpulat__topk *k, size_t i)
{
	return (unsigned char *)k->v + i * k->esz;
}

/* sift v[i] down: its smaller child moves up while it is less than v[i] */
static void sift_down(struct gpulat__topk *k, size_t i)
{
	memcpy(k->tmp, at(k, i), k->esz);
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const void *best = k->tmp;

		if (l < k->n && k->less(at(k, l), best)) {
			m = l;
			best = at(k, l);
		}
		if (r < k->n && k->less(at(k, r), best))
			m = r;
		if (m == i)
			break;
		memcpy(at(k, i), at(k, m), k->esz);
		i = m;
	}
	memcpy(at(k, i), k->tmp, k->esz);
}

/**
 * gpulat__topk_add - offer one element
 * @k: the set
 * @e: the element (copied)
 *
 * Return: 1 when kept, 0 when the set is full and @e is not above its
 * smallest, -ENOMEM (not kept).
 */
int gpulat__topk_add(struct gpulat__topk *k, const void *e)
{
	size_t i;

	if (k->n == k->max) {
		if (!k->less(k->v, e))
			return 0;
		memcpy(k->v, e, k->esz);
		sift_down(k, 0);
		return 1;
	}
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : TOPK_CAP0;
		void *nv;

		if (cap > k->max)
			cap = k->max;
		nv = realloc(k->v, cap * k->esz);
		if (!nv)
			return -ENOMEM;
		k->v = nv;
		k->cap = cap;
	}
	memcpy(at(k, k->n++), e, k->esz);
	if (k->n == k->max) {
		for (i = k->n / 2; i-- > 0;)
			sift_down(k, i);
	}
	return 1;
}
