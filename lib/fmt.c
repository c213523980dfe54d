// SPDX-License-Identifier: LGPL-2.1
/*
 * Human-readable durations.
 */
#include <stdio.h>

#include "gpulat-int.h"

/**
 * gpulat_fmt_duration - format a duration for humans
 * @buf: output buffer
 * @len: its size
 * @ns: the duration in ns; GPULAT_NONE prints "-"
 *
 * Three significant digits: "812ns", "12.4us", "3.21ms", "1.500s" (seconds
 * keep millisecond resolution).
 *
 * Return: @buf.
 */
char *gpulat_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	double v;

	if (!buf || !len)
		return buf;
	if (ns == GPULAT_NONE) {
		snprintf(buf, len, "-");
	} else if (ns < 1000) {
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	} else if (ns < 1000000) {
		v = ns / 1e3;
		snprintf(buf, len, v < 10 ? "%.2fus" : v < 100 ? "%.1fus" : "%.0fus", v);
	} else if (ns < 1000000000) {
		v = ns / 1e6;
		snprintf(buf, len, v < 10 ? "%.2fms" : v < 100 ? "%.1fms" : "%.0fms", v);
	} else {
		snprintf(buf, len, "%.3fs", ns / 1e9);
	}
	return buf;
}
