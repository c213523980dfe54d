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

/*
 * A PCI device as the user may type it: "0000:03:00.0" as 6.17+ events carry
 * it, or "03:00.0" without the PCI domain 0000 (lspci's spelling, and the
 * short form of KernelShark's row labels).
 */
bool gpulat_dev_match(const char *spec, const char *dev)
{
	if (!spec || !dev)
		return false;
	if (!strcmp(spec, dev))
		return true;
	return *spec && !strncmp(dev, "0000:", 5) && !strcmp(dev + 5, spec);
}

/* @name (@n bytes) is the ring's name or, <= 5.18, its address label */
static bool name_is(const char *name, size_t n, const char *ring, const char *ring_ptr)
{
	return (strlen(ring) == n && !strncmp(name, ring, n)) ||
	       (ring_ptr && strlen(ring_ptr) == n && !strncmp(name, ring_ptr, n));
}

bool gpulat_ring_match(const char *spec, const char *dev, const char *ring,
		       const char *ring_ptr)
{
	const char *sep;
	char devpart[128];

	if (!spec || !ring)
		return false;
	if (!strcmp(spec, ring) || (ring_ptr && !strcmp(spec, ring_ptr)))
		return true;
	if (!dev || !*dev)
		return false;
	/* "dev/ring": the label every report prints */
	sep = strchr(spec, '/');
	if (sep && (size_t)(sep - spec) < sizeof(devpart)) {
		snprintf(devpart, sizeof(devpart), "%.*s", (int)(sep - spec), spec);
		return gpulat_dev_match(devpart, dev) &&
		       name_is(sep + 1, strlen(sep + 1), ring, ring_ptr);
	}
	/* "ring@dev": KernelShark's row label of issue 14 (gfx_0.0.0@03:00.0) */
	sep = strrchr(spec, '@');
	if (sep)
		return gpulat_dev_match(sep + 1, dev) &&
		       name_is(spec, (size_t)(sep - spec), ring, ring_ptr);
	return false;
}

bool gpulat_ring_same(const char *dev_a, const char *ring_a, const char *dev_b, const char *ring_b,
		      bool *by_name)
{
	bool a = dev_a && *dev_a, b = dev_b && *dev_b;

	if (by_name)
		*by_name = false;
	if (strcmp(ring_a ? ring_a : "", ring_b ? ring_b : ""))
		return false;
	if (a == b)
		return !a || !strcmp(dev_a, dev_b);
	/* one side before 6.17: its events carry no device, the name decides */
	if (by_name)
		*by_name = true;
	return true;
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
