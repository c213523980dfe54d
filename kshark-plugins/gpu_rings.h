/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpu_rings - stable synthetic task ids for GPU rings.
 *
 * KernelShark draws only CPU and Task graphs. The gpu_jobs plugin gets one row per
 * GPU ring by asking for Task graphs of ids that no task can have (above PID_MAX_LIMIT)
 * and drawing the ring's jobs into them. The launcher helper (gpu-kshark-rings) writes
 * those ids into the session; the plugin computes them again from the same trace. Both
 * use this file, so the ids always agree.
 */
#ifndef _GPU_RINGS_H
#define _GPU_RINGS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpulat_event;

/* Synthetic ids live in [BASE, BASE + SPAN): 10 digits, above PID_MAX_LIMIT (2^22). */
#define GPUJOB_RING_ID_BASE	1000000000
#define GPUJOB_RING_ID_SPAN	1000000000

/*
 * CRTC rows (drm vblank events, issue 18): ids above the rings' span, one per pipe index
 * (a pipe index is small: lib/frames.c keeps at most 64 CRTCs).
 */
#define GPUJOB_CRTC_ID_BASE	2100000000
#define GPUJOB_CRTC_ID_SPAN	1000

/* the synthetic task id of CRTC @crtc's row, -1 when out of range */
static inline int gpujob_crtc_id(int crtc)
{
	return crtc >= 0 && crtc < GPUJOB_CRTC_ID_SPAN ? GPUJOB_CRTC_ID_BASE + crtc : -1;
}

/** struct gpujob_ring_key - one (device, ring) pair and its synthetic id */
struct gpujob_ring_key {
	const char	*dev;	/* "" when the trace has no device field */
	const char	*ring;
	int		id;	/* out: gpujob_ring_ids_assign() */
	size_t		user;	/* caller's index, carried along by the sort */
};

/* true when @ev names the (dev, ring) of a job: queue and run events */
bool gpujob_event_names_ring(const struct gpulat_event *ev);

/* FNV-1a of dev '\0' ring, mapped into the synthetic id range */
int gpujob_ring_id_hash(const char *dev, const char *ring);

/*
 * Sort @keys by (dev, ring) and give each its id: the hash, or on a collision with a
 * ring sorted before it, the next free id. Same set of rings -> same ids.
 */
void gpujob_ring_ids_assign(struct gpujob_ring_key *keys, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* _GPU_RINGS_H */
