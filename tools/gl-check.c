// SPDX-License-Identifier: LGPL-2.1
/*
 * A structural check of version 6 trace.dat files before libtracecmd opens
 * them (trace-cmd.dat.v6(5)): walk the header sections by their sizes, without
 * parsing them, and check that every CPU's flyrecord data lies inside the file.
 *
 * Why here: libtracecmd 1.3.1 crashes (SIGSEGV in tracecmd_close() inside
 * tracecmd_open()) on a v6 file whose CPU data is cut short, so a truncated
 * download or a full disk would kill the tool instead of giving one error
 * line. Version 7 files fail cleanly inside libtracecmd and are not checked.
 * This belongs in the core reader (lib/read.c) eventually.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu-latency.h"

struct v6 {
	FILE	*fp;
	bool	big;		/* file is big-endian */
	bool	eof;
};

static bool rd(struct v6 *v, void *buf, size_t len)
{
	if (fread(buf, 1, len, v->fp) != len) {
		v->eof = true;
		return false;
	}
	return true;
}

static uint64_t rd_u(struct v6 *v, size_t size)
{
	uint64_t x = 0;
	uint32_t y = 0;
	uint16_t z = 0;

	switch (size) {
	case 2:
		if (!rd(v, &z, 2))
			return 0;
		return v->big ? be16toh(z) : le16toh(z);
	case 4:
		if (!rd(v, &y, 4))
			return 0;
		return v->big ? be32toh(y) : le32toh(y);
	default:
		if (!rd(v, &x, 8))
			return 0;
		return v->big ? be64toh(x) : le64toh(x);
	}
}

static bool skip(struct v6 *v, uint64_t len, uint64_t fsize)
{
	long pos = ftell(v->fp);

	if (pos < 0 || len > fsize || (uint64_t)pos + len > fsize) {
		v->eof = true;
		return false;
	}
	return fseek(v->fp, (long)len, SEEK_CUR) == 0;
}

static bool skip_str(struct v6 *v)
{
	int c;

	while ((c = fgetc(v->fp)) != EOF) {
		if (!c)
			return true;
	}
	v->eof = true;
	return false;
}

/* walk a v6 file; false when something lies beyond its end */
static bool v6_complete(struct v6 *v, uint64_t fsize)
{
	char tag[16];
	uint64_t i, j, n, m;
	int cpus;

	/* header_page, header_event */
	if (!rd(v, tag, 12) || !skip(v, rd_u(v, 8), fsize))
		return false;
	if (!rd(v, tag, 13) || !skip(v, rd_u(v, 8), fsize))
		return false;
	/* ftrace formats */
	n = rd_u(v, 4);
	for (i = 0; i < n && !v->eof; i++)
		skip(v, rd_u(v, 8), fsize);
	/* event systems */
	n = rd_u(v, 4);
	for (i = 0; i < n && !v->eof; i++) {
		if (!skip_str(v))
			return false;
		m = rd_u(v, 4);
		for (j = 0; j < m && !v->eof; j++)
			skip(v, rd_u(v, 8), fsize);
	}
	/* kallsyms, printk formats, saved cmdlines */
	skip(v, rd_u(v, 4), fsize);
	skip(v, rd_u(v, 4), fsize);
	skip(v, rd_u(v, 8), fsize);
	cpus = (int)rd_u(v, 4);
	if (v->eof || !rd(v, tag, 10))
		return false;
	if (!memcmp(tag, "options  ", 10)) {
		for (;;) {
			uint16_t id = (uint16_t)rd_u(v, 2);

			if (v->eof)
				return false;
			if (!id)
				break;
			if (!skip(v, rd_u(v, 4), fsize))
				return false;
		}
		if (!rd(v, tag, 10))
			return false;
	}
	if (!memcmp(tag, "latency  ", 10))
		return true;
	if (memcmp(tag, "flyrecord", 10))
		return true;		/* not understood: let libtracecmd judge */
	for (i = 0; i < (uint64_t)cpus; i++) {
		uint64_t off = rd_u(v, 8), size = rd_u(v, 8);

		if (v->eof || off > fsize || size > fsize - off)
			return false;
	}
	return true;
}

/**
 * gl_check_truncated - is @path a version 6 trace.dat cut short?
 * @path: the file
 *
 * Return: 1 when the file is a v6 trace whose headers or CPU data extend past
 * its end, 0 otherwise (including every file this check does not understand;
 * the reader reports those).
 */
int gl_check_truncated(const char *path)
{
	struct v6 v = { 0 };
	char head[16], version[8];
	unsigned char flags[2];
	struct stat st;
	size_t i;
	bool ok;

	v.fp = fopen(path, "rb");
	if (!v.fp)
		return 0;
	if (fstat(fileno(v.fp), &st) || !rd(&v, head, 10) ||
	    memcmp(head, "\x17\x08\x44tracing", 10))
		goto not_ours;
	for (i = 0; i < sizeof(version); i++) {
		if (!rd(&v, &version[i], 1) || !version[i])
			break;
	}
	if (i != 1 || version[0] != '6')
		goto not_ours;
	if (!rd(&v, flags, 2) || !rd(&v, head, 4)) {
		fclose(v.fp);
		return 1;
	}
	v.big = flags[0] == 1;
	ok = v6_complete(&v, (uint64_t)st.st_size);
	fclose(v.fp);
	return ok ? 0 : 1;
 not_ours:
	fclose(v.fp);
	return 0;
}
