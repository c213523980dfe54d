/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat ring names: the one spelling of a GPU ring that every front end
 * prints (text report, JSON, plugin summary, KernelShark rows, --watch), and
 * the one rule for --ring / ring= selectors. Included by gpulat.h.
 *
 * A ring is (dev, ring). @dev is "" before 6.17 (the events carry no device).
 * @ring is the ring's name: before 5.19 the trace holds only the address of
 * the scheduler's `const char *name` ("0xffff888103f0a2c8"), and the tracker
 * names it from the drm_sched dma_fence timelines of its jobs (the timeline
 * of a scheduler fence is the ring's name); the address stays available as
 * gpulat_job.ring_ptr / gpulat_group.ring_ptr.
 */
#ifndef _GPULAT_RING_H
#define _GPULAT_RING_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * gpulat_ring_label - the canonical label of a ring
 * @buf: output
 * @len: size of @buf
 * @dev: device ("" or NULL: none)
 * @ring: ring name (NULL: "?")
 *
 * "dev/ring" (e.g. "0000:03:00.0/gfx_0.0.0"), or "ring" without a device.
 * Return: @buf.
 */
char *gpulat_ring_label(char *buf, size_t len, const char *dev, const char *ring);

/**
 * gpulat_ring_match - does a user's ring selector name this ring
 * @spec: what the user typed (--ring SPEC, ring=SPEC)
 * @dev: the ring's device
 * @ring: its name
 * @ring_ptr: its traced address label before 5.19, or NULL
 *
 * A ring is selected by its name ("gfx_0.0.0"), by its label
 * ("0000:03:00.0/gfx_0.0.0") or, before 5.19, by the address the trace holds.
 */
bool gpulat_ring_match(const char *spec, const char *dev, const char *ring,
		       const char *ring_ptr);

/* true when @ring is the "0x..." address label of a const char * name (<= 5.18) */
bool gpulat_ring_is_ptr(const char *ring);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_RING_H */
