// SPDX-License-Identifier: LGPL-2.1
/*
 * Binary min-heap of pending simulation actions, ordered by (time, insertion
 * sequence) so that equal times are processed in a deterministic order.
 */
#include <stdlib.h>

#include "gen.h"

static bool act_less(const struct gen_action *a, const struct gen_action *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	return a->seq < b->seq;
}

static void act_swap(struct gen_action *a, struct gen_action *b)
{
	struct gen_action t = *a;

	*a = *b;
	*b = t;
}

int heap_push(struct gen_heap *h, uint64_t t, int kind, int arg)
{
	int i;

	if (h->n == h->cap) {
		int cap = h->cap ? h->cap * 2 : 256;
		struct gen_action *a = realloc(h->a, cap * sizeof(*a));

		if (!a)
			return -1;
		h->a = a;
		h->cap = cap;
	}
	i = h->n++;
	h->a[i].t = t;
	h->a[i].seq = h->seq++;
	h->a[i].kind = kind;
	h->a[i].arg = arg;
	while (i > 0 && act_less(&h->a[i], &h->a[(i - 1) / 2])) {
		act_swap(&h->a[i], &h->a[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

bool heap_pop(struct gen_heap *h, struct gen_action *out)
{
	int i = 0;

	if (!h->n)
		return false;
	*out = h->a[0];
	h->a[0] = h->a[--h->n];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && act_less(&h->a[l], &h->a[m]))
			m = l;
		if (r < h->n && act_less(&h->a[r], &h->a[m]))
			m = r;
		if (m == i)
			break;
		act_swap(&h->a[i], &h->a[m]);
		i = m;
	}
	return true;
}

void heap_free(struct gen_heap *h)
{
	free(h->a);
	h->a = NULL;
	h->n = h->cap = 0;
}
