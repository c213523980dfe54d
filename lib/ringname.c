// SPDX-License-Identifier: LGPL-2.1
/*
 * Ring names (gpulat-ring.h): the canonical label, the selector rule, and how
 * an address label of a 5.7-5.18 (and 4.16-5.6) ring gets its real name.
 */
#include <stdio.h>
#include <string.h>

#include "gpulat-int.h"

char *gpulat_ring_label(char *buf, size_t len, const char *dev, const char *ring)
{
	if (!ring)
		ring = "?";
	if (dev && *dev)
		snprintf(buf, len, "%s/%s", dev, ring);
	else
		snprintf(buf, len, "%s", ring);
	return buf;
}

bool gpulat_ring_is_ptr(const char *ring)
{
	/* the binding prints a const char * name as "0x%llx" (GPULAT_EVF_RING_PTR) */
	return ring && ring[0] == '0' && ring[1] == 'x';
}

bool gpulat_ring_match(const char *spec, const char *dev, const char *ring,
		       const char *ring_ptr)
{
	size_t n;

	if (!spec || !ring)
		return false;
	if (!strcmp(spec, ring) || (ring_ptr && !strcmp(spec, ring_ptr)))
		return true;
	/* "dev/ring": the label as every report prints it */
	if (!dev || !*dev)
		return false;
	n = strlen(dev);
	return !strncmp(spec, dev, n) && spec[n] == '/' && !strcmp(spec + n + 1, ring);
}

/**
 * gpulat__ring_alias - the name of an address-labelled ring
 * @buf: output
 * @len: size of @buf
 * @ptr: the ring's address label ("0xffff888103f102c8")
 * @timeline: the timeline of one of its jobs' drm_sched fences ("gfx_0.0.0")
 * @taken: another ring of the same trace already has that name (two GPUs:
 *	before 6.17 the events carry no device)
 *
 * The timeline, or "timeline@TAIL" with the last four hex digits of the
 * address when the name is taken (the first ring named keeps it plain).
 * Return: @buf.
 */
char *gpulat__ring_alias(char *buf, size_t len, const char *ptr, const char *timeline,
			 bool taken)
{
	size_t n = strlen(ptr);

	if (!taken)
		snprintf(buf, len, "%s", timeline);
	else
		snprintf(buf, len, "%s@%s", timeline, n > 6 ? ptr + n - 4 : ptr);
	return buf;
}
