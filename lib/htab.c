// SPDX-License-Identifier: LGPL-2.1
/*
 * Intrusive chained hash table keyed by two u64 values.
 *
 * Nodes live inside the caller's objects; several nodes with equal keys may
 * coexist (newest first), which is how fence-pointer reuse is modelled.
 */
#include <errno.h>
#include <stdlib.h>

#include "gpulat-int.h"

static size_t slot(const struct gpulat__htab *h, uint64_t k1, uint64_t k2)
{
	return (size_t)gpulat__hash2(k1, k2) & (h->nb - 1);
}

uint64_t gpulat__hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; s && *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int gpulat__htab_init(struct gpulat__htab *h, size_t nb)
{
	size_t n = 16;

	while (n < nb)
		n <<= 1;
	h->b = calloc(n, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	h->nb = n;
	h->n = 0;
	return 0;
}

void gpulat__htab_fini(struct gpulat__htab *h)
{
	free(h->b);
	h->b = NULL;
	h->nb = 0;
	h->n = 0;
}

static void grow(struct gpulat__htab *h)
{
	struct gpulat__hnode **nb, *n, *next, **tail;
	struct gpulat__htab nh;
	size_t i;

	nb = calloc(h->nb * 2, sizeof(*nb));
	if (!nb)
		return;		/* keep working with longer chains */
	nh.b = nb;
	nh.nb = h->nb * 2;
	/* keep relative order inside a chain: newest stays first */
	for (i = 0; i < h->nb; i++) {
		for (n = h->b[i]; n; n = next) {
			next = n->next;
			tail = &nb[slot(&nh, n->k1, n->k2)];
			while (*tail)
				tail = &(*tail)->next;
			n->next = NULL;
			*tail = n;
		}
	}
	free(h->b);
	h->b = nb;
	h->nb = nh.nb;
}

int gpulat__htab_insert(struct gpulat__htab *h, struct gpulat__hnode *n,
			uint64_t k1, uint64_t k2)
{
	size_t i;

	if (!h->b && gpulat__htab_init(h, 16))
		return -ENOMEM;
	if (h->n >= h->nb)
		grow(h);
	n->k1 = k1;
	n->k2 = k2;
	i = slot(h, k1, k2);
	n->next = h->b[i];
	h->b[i] = n;
	h->n++;
	return 0;
}

struct gpulat__hnode *gpulat__htab_find(const struct gpulat__htab *h, uint64_t k1, uint64_t k2)
{
	struct gpulat__hnode *n;

	if (!h->b)
		return NULL;
	for (n = h->b[slot(h, k1, k2)]; n; n = n->next)
		if (n->k1 == k1 && n->k2 == k2)
			return n;
	return NULL;
}

struct gpulat__hnode *gpulat__htab_next(const struct gpulat__hnode *n)
{
	struct gpulat__hnode *m;

	for (m = n->next; m; m = m->next)
		if (m->k1 == n->k1 && m->k2 == n->k2)
			return m;
	return NULL;
}

void gpulat__htab_remove(struct gpulat__htab *h, struct gpulat__hnode *n)
{
	struct gpulat__hnode **p;

	if (!h->b)
		return;
	for (p = &h->b[slot(h, n->k1, n->k2)]; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			n->next = NULL;
			h->n--;
			return;
		}
	}
}

struct gpulat__hnode *gpulat__htab_iter(const struct gpulat__htab *h, struct gpulat__hiter *it)
{
	struct gpulat__hnode *n = it->next;

	while (!n && it->i < h->nb)
		n = h->b[it->i++];
	if (n)
		it->next = n->next;	/* read now: the caller may free @n */
	return n;
}

/* start loading the bucket @k1/@k2 hashes to; no effect on the table */
void gpulat__htab_prefetch_slot(const struct gpulat__htab *h, uint64_t k1, uint64_t k2)
{
	if (h->b)
		__builtin_prefetch(&h->b[slot(h, k1, k2)], 1);
}

/*
 * start loading node @skip (0 = the first) of that bucket's chain: the nodes
 * before it are read, so they should be in cache by now (see the callers)
 */
void gpulat__htab_prefetch_chain(const struct gpulat__htab *h, uint64_t k1, uint64_t k2,
				 unsigned int skip)
{
	struct gpulat__hnode *n;

	if (!h->b)
		return;
	for (n = h->b[slot(h, k1, k2)]; n && skip; skip--)
		n = n->next;
	if (n)
		__builtin_prefetch(n, 1);
}
