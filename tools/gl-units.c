// SPDX-License-Identifier: LGPL-2.1
/*
 * Durations and timestamps: parsing options, printing like trace-cmd report.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gpu-latency.h"

/*
 * Parse "123", "123.456" into an integer part and a fraction scaled to
 * @scale (so "1.5" with scale 1000 gives 1500). Exact: no floating point.
 */
static int parse_fixed(const char *s, uint64_t scale, uint64_t *out, const char **end)
{
	uint64_t ipart = 0, frac = 0, div = 1;
	const char *p = s;
	bool digits = false;

	while (isdigit((unsigned char)*p)) {
		uint64_t d = (uint64_t)(*p - '0');

		/* exact: 18446744073709551614 still fits */
		if (ipart > (UINT64_MAX - d) / 10)
			return -ERANGE;
		ipart = ipart * 10 + d;
		digits = true;
		p++;
	}
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			/* digits beyond the scale's precision are dropped */
			if (div < scale) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				div *= 10;
			}
			digits = true;
			p++;
		}
	}
	if (!digits)
		return -EINVAL;
	frac *= scale / div;
	/* the fraction too: "18446744073.999999999" seconds does not fit */
	if (ipart > (UINT64_MAX - frac) / scale)
		return -ERANGE;
	*out = ipart * scale + frac;
	*end = p;
	return 0;
}

/**
 * gl_parse_duration - parse "5ms", "12.5us", "250ns", "1.5s" or a bare number of ns
 * @s: the text
 * @ns: the result
 *
 * Return: 0, or -EINVAL / -ERANGE.
 */
int gl_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char	*unit;
		uint64_t	scale;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
		{ "", 1 },
	};
	const char *end;
	size_t i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t v;
		int ret;

		ret = parse_fixed(s, units[i].scale, &v, &end);
		if (ret < 0)
			return ret;
		if (strcmp(end, units[i].unit) == 0) {
			/* UINT64_MAX is GPULAT_NONE ("no value") everywhere */
			if (v == GPULAT_NONE)
				return -ERANGE;
			*ns = v;
			return 0;
		}
	}
	return -EINVAL;
}

/* "1234.567890" seconds, as trace-cmd report prints them, to ns */
int gl_parse_seconds(const char *s, uint64_t *ns)
{
	const char *end;
	int ret;

	ret = parse_fixed(s, 1000000000ULL, ns, &end);
	if (ret < 0)
		return ret;
	/* GPULAT_NONE is "no timestamp" (gl_fmt_ts prints "-"): out of range */
	if (*ns == GPULAT_NONE)
		return -ERANGE;
	return *end ? -EINVAL : 0;
}

/* @n in decimal, at least @width digits (zero-padded), ending at @end; the start */
static char *put_dec(char *end, uint64_t n, int width)
{
	do {
		*--end = (char)('0' + n % 10);
		n /= 10;
		width--;
	} while (n || width > 0);
	return end;
}

/* @s (@n bytes) into @buf truncated like snprintf */
static const char *put_buf(char *buf, size_t len, const char *s, size_t n)
{
	if (!len)
		return buf;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/*
 * "SEC.USEC [CPU]" ("%llu.%06llu [%03d]") without snprintf: the text report
 * prints one per group and job row (10^4 processes: 3 % of the run)
 */
static const char *fmt_ts(char *buf, size_t len, uint64_t ts, int cpu)
{
	char tmp[48], *end = tmp + sizeof(tmp), *p = end;

	if (cpu >= 0) {
		*--p = ']';
		p = put_dec(p, (uint64_t)cpu, 3);
		*--p = '[';
		*--p = ' ';
	}
	p = put_dec(p, ts % 1000000000ULL / 1000, 6);
	*--p = '.';
	p = put_dec(p, ts / 1000000000ULL, 1);
	return put_buf(buf, len, p, (size_t)(end - p));
}

/* seconds.microseconds, the way trace-cmd report prints a timestamp */
const char *gl_fmt_ts(char *buf, size_t len, uint64_t ts)
{
	if (ts == GPULAT_NONE)
		return put_buf(buf, len, "-", 1);
	return fmt_ts(buf, len, ts, -1);
}

const char *gl_fmt_dur(char *buf, size_t len, uint64_t ns)
{
	if (ns == GPULAT_NONE) {
		snprintf(buf, len, "-");
		return buf;
	}
	return gpulat_fmt_duration(buf, len, ns);
}

/* "1234.567890 [003]" like trace-cmd report; "-" when not seen, no "[cpu]" for cpu < 0 */
const char *gl_fmt_ts_cpu(char *buf, size_t len, uint64_t ts, int cpu)
{
	if (ts == GPULAT_NONE)
		return put_buf(buf, len, "-", 1);
	return fmt_ts(buf, len, ts, cpu);
}

/*
 * A ring as the report names it: with several input files the ring of each
 * file is its own ring (jobs never link across files), "FILE:ring".
 */
const char *gl_ring_label(const struct gl_run *r, int file, const char *dev, const char *ring,
			  char *buf, size_t len)
{
	char tmp[256];
	const char *base;

	if (r->nfiles < 2 || file < 0 || (size_t)file >= r->nfiles)
		return gpulat_ring_label(buf, len, dev, ring);
	base = strrchr(r->files[file], '/');
	base = base ? base + 1 : r->files[file];
	snprintf(buf, len, "%s:%s", base, gpulat_ring_label(tmp, sizeof(tmp), dev, ring));
	return buf;
}
