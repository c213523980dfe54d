// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz_parse: libFuzzer target over the command-line value parsers of
 * trace-cmd gpu-latency: --fail-if specs (tools/gl-gate.c), durations
 * (--threshold, 5ms / 250us / 1.5s), trace-cmd style seconds (--start,
 * --end) and the comma lists of --ring / --pid (tools/gl-filter.c).
 *
 *   input = one selector byte (which parser), then the text (NUL-free part
 *           up to the first NUL; the rest is ignored)
 *
 * Checks besides ASan/UBSan: a rejected value comes with a non-empty
 * reason; an accepted duration or timestamp prints and parses back to the
 * same value (gl_fmt_dur / gl_fmt_ts are what the report prints, so a value
 * a user copies from the report must mean the same thing again: compared at
 * the precision the printed form keeps).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu-latency.h"

static void fail(const char *what, const char *in) __attribute__((noreturn));

static void fail(const char *what, const char *in)
{
	fprintf(stderr, "fuzz_parse: invariant violated: %s (input '%s')\n", what, in);
	abort();
}

static void fz_gate(const char *s)
{
	struct gl_gate *g;
	char err[256];

	err[0] = '\0';
	g = gl_gate_parse(s, err, sizeof(err));
	if (!g) {
		if (!err[0])
			fail("gate rejected without a reason", s);
		return;
	}
	(void)gl_gate_needs_base(g);
	gl_gate_free(g);
}

/* the value of "12.5ms" etc. in ns by strtold (64-bit mantissa), -1 if odd */
static long double estimate(const char *s)
{
	long double x;
	char *end;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	x = strtold(s, &end);
	if (!strcmp(end, "s"))
		return x * 1e9L;
	if (!strcmp(end, "ms"))
		return x * 1e6L;
	if (!strcmp(end, "us"))
		return x * 1e3L;
	if (!strcmp(end, "ns") || !*end)
		return x;
	return -1;
}

/* parse_fixed drops digits beyond 1 ns: within 1 ns plus rounding */
static bool near(uint64_t v, long double x)
{
	long double d = (long double)v - x;

	if (x < 0)
		return true;
	if (d < 0)
		d = -d;
	return d <= 1.0L + x * 1e-15L;
}

static void fz_duration(const char *s)
{
	char buf[64];
	uint64_t v, w;

	if (gl_parse_duration(s, &v) < 0)
		return;
	/* printed as ns, us, ms or s with few digits: parse back to the same scale */
	snprintf(buf, sizeof(buf), "%" PRIu64 "ns", v);
	if (gl_parse_duration(buf, &w) < 0 || w != v)
		fail("duration does not read back as ns", s);
	/* an independent estimate: the number times its unit, in long double */
	if (!near(v, estimate(s)))
		fail("duration is not the number times its unit", s);
}

static void fz_seconds(const char *s)
{
	char buf[64];
	uint64_t v, w;

	if (gl_parse_seconds(s, &v) < 0)
		return;
	if (isdigit((unsigned char)*s) && !near(v, strtold(s, NULL) * 1e9L))
		fail("timestamp is not the number of seconds", s);
	gl_fmt_ts(buf, sizeof(buf), v);
	if (gl_parse_seconds(buf, &w) < 0)
		fail("printed timestamp does not parse", s);
	/* the report prints microseconds: the same value to the microsecond */
	if (w / 1000 != v / 1000)
		fail("printed timestamp reads back as another time", s);
}

static void fz_lists(const char *s)
{
	struct gl_strlist l = { 0 };
	struct gl_filter f;
	size_t i;

	if (gl_strlist_add(&l, s) == 0)
		for (i = 0; i < l.n; i++)
			if (!l.v[i])
				fail("list entry is NULL", s);
	gl_strlist_free(&l);
	gl_filter_init(&f);
	(void)gl_filter_add_pids(&f, s);
	gl_filter_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (!size)
		return 0;
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		return 0;
	switch (data[0] & 3) {
	case 0:
		fz_gate(s);
		break;
	case 1:
		fz_duration(s);
		break;
	case 2:
		fz_seconds(s);
		break;
	default:
		fz_lists(s);
		break;
	}
	free(s);
	return 0;
}
