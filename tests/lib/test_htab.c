// SPDX-License-Identifier: LGPL-2.1
/*
 * lib/htab.c (equal keys newest first) against a plain array model: random
 * inserts and removes over a small key space, so that collisions, removals
 * from the middle of a run, growth and equal keys all happen; after every
 * step each key's nodes must be exactly the model's, in insertion order
 * reversed, and the iterator must visit each node once. gpulat__omap
 * against an array model too (test_omap).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat-int.h"

#define NNODES	3000
#define NKEYS	700

struct obj {
	struct gpulat__hnode	node;
	int			key;		/* index into the key space */
	unsigned long		stamp;		/* insertion order */
	int			in;
	int			seen;
};

static struct obj objs[NNODES];

/* keys that differ in k1 only, in k2 only, and in both */
static void key_of(int k, uint64_t *k1, uint64_t *k2)
{
	*k1 = (uint64_t)(k % 37) << 40 | (uint64_t)(k / 37);
	*k2 = k % 3 ? (uint64_t)k * 0x10001ULL : 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* each key's chain: newest first, exactly the nodes in the table */
static void check_key(const struct gpulat__htab *h, int k)
{
	unsigned long last = ~0UL;
	struct gpulat__hnode *n;
	uint64_t k1, k2;
	size_t want = 0, got = 0;
	int i;

	for (i = 0; i < NNODES; i++)
		want += objs[i].in && objs[i].key == k;
	key_of(k, &k1, &k2);
	for (n = gpulat__htab_find(h, k1, k2); n; n = gpulat__htab_next(n)) {
		struct obj *o = gpulat_container_of(n, struct obj, node);

		assert_int_equal(o->key, k);
		assert_true(o->in);
		assert_true(o->stamp < last);
		last = o->stamp;
		got++;
	}
	assert_int_equal(got, want);
}

static void check_all(const struct gpulat__htab *h)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;
	size_t in = 0, seen = 0;
	int i;

	for (i = 0; i < NKEYS; i++)
		check_key(h, i);
	for (i = 0; i < NNODES; i++) {
		objs[i].seen = 0;
		in += objs[i].in;
	}
	assert_int_equal(h->n, in);
	while ((n = gpulat__htab_iter(h, &it))) {
		struct obj *o = gpulat_container_of(n, struct obj, node);

		assert_true(o->in);
		assert_int_equal(o->seen, 0);
		o->seen = 1;
		seen++;
	}
	assert_int_equal(seen, in);
}

static void test_model(void **state)
{
	struct gpulat__htab h = { 0 };
	unsigned long stamp = 1;
	uint64_t s = 88172645463325252ULL;
	int step;

	(void)state;
	memset(objs, 0, sizeof(objs));
	/* lazily set up by the first insert, like the callers' zeroed tables */
	assert_null(gpulat__htab_find(&h, 1, 2));
	for (step = 0; step < 20000; step++) {
		struct obj *o = &objs[rnd(&s) % NNODES];
		uint64_t k1, k2;

		if (o->in) {
			gpulat__htab_remove(&h, &o->node);
			o->in = 0;
		} else {
			o->key = (int)(rnd(&s) % NKEYS);
			o->stamp = stamp++;
			key_of(o->key, &k1, &k2);
			assert_int_equal(gpulat__htab_insert(&h, &o->node, k1, k2), 0);
			o->in = 1;
		}
		if (step % 997 == 0)
			check_all(&h);
		else
			check_key(&h, o->key);
	}
	check_all(&h);
	gpulat__htab_fini(&h);
}

/* the teardown walk: each node freed as soon as the iterator returned it */
static void test_iter_free(void **state)
{
	struct gpulat__htab h = { 0 };
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;
	size_t i, freed = 0;

	(void)state;
	assert_int_equal(gpulat__htab_init(&h, 16), 0);
	for (i = 0; i < 500; i++) {
		struct gpulat__hnode *m = calloc(1, sizeof(*m));

		assert_non_null(m);
		/* every fifth key shared: chains of equal keys too */
		assert_int_equal(gpulat__htab_insert(&h, m, i % 5 ? i : 5, 7), 0);
	}
	while ((n = gpulat__htab_iter(&h, &it))) {
		free(n);
		freed++;
	}
	assert_int_equal(freed, 500);
	gpulat__htab_fini(&h);
	/* an empty, never used table has nothing to walk */
	it = (struct gpulat__hiter){ 0 };
	assert_null(gpulat__htab_iter(&h, &it));
}

/*
 * gpulat__omap against a plain array model: keys spread over the whole u64
 * range (UINT64_MAX, 0 and near neighbours included), inserts, overwrites
 * through put and through the found pointer, growth from the smallest size.
 */
#define OKEYS	5000

static void test_omap(void **state)
{
	static uint64_t keys[OKEYS], vals[OKEYS];
	static unsigned char in[OKEYS];
	struct gpulat__omap m = { 0 };
	uint64_t s = 0x243f6a8885a308d3ULL, *v;
	size_t i, step, n = 0;

	(void)state;
	assert_null(gpulat__omap_find(&m, 1));	/* never initialised */
	assert_int_equal(gpulat__omap_init(&m, 1), 0);
	assert_null(gpulat__omap_find(&m, UINT64_MAX));
	for (i = 0; i < OKEYS; i++) {
		/* consecutive small keys, file-like high halves, random ones */
		if (i % 3 == 0)
			keys[i] = i;
		else if (i % 3 == 1)
			keys[i] = (uint64_t)(i % 7) << 32 | i;
		else
			keys[i] = rnd(&s);
	}
	keys[1] = UINT64_MAX;
	keys[4] = UINT64_MAX - 1;
	for (step = 0; step < 4 * OKEYS; step++) {
		i = rnd(&s) % OKEYS;
		if (!in[i] || step % 2) {
			vals[i] = rnd(&s);
			assert_int_equal(gpulat__omap_put(&m, keys[i], vals[i]), 0);
			n += !in[i];
			in[i] = 1;
		} else {
			v = gpulat__omap_find(&m, keys[i]);
			assert_non_null(v);
			vals[i] ^= step;
			*v = vals[i];
		}
		assert_int_equal(gpulat__omap_count(&m), n);
	}
	for (i = 0; i < OKEYS; i++) {
		v = gpulat__omap_find(&m, keys[i]);
		if (!in[i]) {
			assert_null(v);
			continue;
		}
		assert_non_null(v);
		assert_true(*v == vals[i]);
	}
	assert_true(in[1] && gpulat__omap_find(&m, UINT64_MAX));
	/* at most half full */
	assert_true(2 * m.n <= m.cap);
	gpulat__omap_fini(&m);
	assert_null(gpulat__omap_find(&m, keys[0]));
	assert_null(gpulat__omap_find(&m, UINT64_MAX));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_iter_free),
		cmocka_unit_test(test_omap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
