// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_rings - stable synthetic task ids for GPU rings (see gpu_rings.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat.h"
#include "gpu_rings.h"

bool gpujob_event_names_ring(const struct gpulat_event *ev)
{
	if (!ev->ring || !ev->ring[0])
		return false;

	switch (ev->kind) {
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_RUN:
		return true;
	default:
		return false;
	}
}

static uint32_t fnv1a(uint32_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	/* the terminating NUL separates dev from ring */
	h *= 16777619u;
	return h;
}

int gpujob_ring_id_hash(const char *dev, const char *ring)
{
	uint32_t h = 2166136261u;

	h = fnv1a(h, dev ? dev : "");
	h = fnv1a(h, ring ? ring : "");
	return GPUJOB_RING_ID_BASE + (int)(h % GPUJOB_RING_ID_SPAN);
}

static int key_cmp(const void *a, const void *b)
{
	const struct gpujob_ring_key *ka = a, *kb = b;
	int r;

	r = strcmp(ka->dev ? ka->dev : "", kb->dev ? kb->dev : "");
	if (r)
		return r;
	return strcmp(ka->ring ? ka->ring : "", kb->ring ? kb->ring : "");
}

void gpujob_ring_ids_assign(struct gpujob_ring_key *keys, size_t n)
{
	size_t i, j;
	int id;

	if (!n)
		return;
	qsort(keys, n, sizeof(*keys), key_cmp);
	for (i = 0; i < n; i++) {
		id = gpujob_ring_id_hash(keys[i].dev, keys[i].ring);
again:
		for (j = 0; j < i; j++) {
			if (keys[j].id == id) {
				id++;
				if (id >= GPUJOB_RING_ID_BASE + GPUJOB_RING_ID_SPAN)
					id = GPUJOB_RING_ID_BASE;
				goto again;
			}
		}
		keys[i].id = id;
	}
}
