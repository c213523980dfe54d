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

/* ---- open-addressing u64 -> u64 map --------------------------------------- */

#define OMAP_EMPTY	UINT64_MAX

/*
 * murmur3's 64-bit finalizer: fence contexts are small consecutive numbers
 * with the file index in the high half, so every input bit must reach the
 * low bits the slot is taken from.
 */
static inline uint64_t omap_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

static struct gpulat__oslot *omap_alloc(size_t cap)
{
	struct gpulat__oslot *s = malloc(cap * sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < cap; i++)
		s[i].key = OMAP_EMPTY;
	return s;
}

int gpulat__omap_init(struct gpulat__omap *m, size_t cap)
{
	size_t n = 16;

	while (n < cap)
		n <<= 1;
	m->s = omap_alloc(n);
	if (!m->s)
		return -ENOMEM;
	m->cap = n;
	m->n = 0;
	m->has_max = false;
	m->max_val = 0;
	return 0;
}

void gpulat__omap_fini(struct gpulat__omap *m)
{
	free(m->s);
	m->s = NULL;
	m->cap = 0;
	m->n = 0;
	m->has_max = false;
}

/* @key's slot, or the empty slot where it would go; the map is never full */
static struct gpulat__oslot *omap_slot(const struct gpulat__omap *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = (size_t)omap_hash(key) & mask;

	while (m->s[i].key != key && m->s[i].key != OMAP_EMPTY)
		i = (i + 1) & mask;
	return &m->s[i];
}

uint64_t *gpulat__omap_find(struct gpulat__omap *m, uint64_t key)
{
	struct gpulat__oslot *s;

	if (key == OMAP_EMPTY)
		return m->has_max ? &m->max_val : NULL;
	if (!m->cap)
		return NULL;
	s = omap_slot(m, key);
	return s->key == key ? &s->val : NULL;
}

static int omap_grow(struct gpulat__omap *m)
{
	struct gpulat__omap nm = { .cap = m->cap ? m->cap * 2 : 16 };
	size_t i;

	nm.s = omap_alloc(nm.cap);
	if (!nm.s)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->s[i].key != OMAP_EMPTY)
			*omap_slot(&nm, m->s[i].key) = m->s[i];
	free(m->s);
	m->s = nm.s;
	m->cap = nm.cap;
	return 0;
}

int gpulat__omap_put(struct gpulat__omap *m, uint64_t key, uint64_t val)
{
	struct gpulat__oslot *s;

	if (key == OMAP_EMPTY) {
		m->max_val = val;
		m->has_max = true;
		return 0;
	}
	if (m->cap) {
		s = omap_slot(m, key);
		if (s->key == key) {
			s->val = val;
			return 0;
		}
	}
	/* at most half full: probe runs stay short and an empty slot exists */
	if (2 * (m->n + 1) > m->cap) {
		if (omap_grow(m))
			return -ENOMEM;
	}
	s = omap_slot(m, key);
	s->key = key;
	s->val = val;
	m->n++;
	return 0;
}
