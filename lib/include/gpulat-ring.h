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
 * A ring is selected by every spelling the project prints: its name
 * ("gfx_0.0.0"), its label ("0000:03:00.0/gfx_0.0.0", also with the short
 * device "03:00.0/gfx_0.0.0"), KernelShark's "gfx_0.0.0@03:00.0" or, before
 * 5.19, the address the trace holds ("0xffff888103f0a2c8").
 */
bool gpulat_ring_match(const char *spec, const char *dev, const char *ring,
		       const char *ring_ptr);

/*
 * gpulat_dev_match - does a user's device selector name @dev: the device as
 * the events carry it ("0000:03:00.0") or without PCI domain 0 ("03:00.0").
 */
bool gpulat_dev_match(const char *spec, const char *dev);

/**
 * gpulat_ring_same - are rings of two traces the same ring (--compare)
 * @by_name: set when they match by name only, because one side carries no
 *	device (kernels before 6.17) and the other does; may be NULL
 *
 * Same name and same device, or same name when one side has no device.
 */
bool gpulat_ring_same(const char *dev_a, const char *ring_a, const char *dev_b, const char *ring_b,
		      bool *by_name);

/* true when @ring is the "0x..." address label of a const char * name (<= 5.18) */
bool gpulat_ring_is_ptr(const char *ring);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_RING_H */
