/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * What the whole-file fuzz targets (fuzz_reader.c, fuzz_session.c) share:
 * the failure report, the string probe, the one-line message check and the
 * memfd the input is put in. Define FZ_TARGET ("fuzz_reader") first.
 */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef FZ_TARGET
#error "define FZ_TARGET before including fuzz-check.h"
#endif

/* an invariant does not hold: say which, and abort (libFuzzer keeps the input) */
static inline void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static inline void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, FZ_TARGET ": invariant violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* read every byte of @s: ASan reports a string that is not readable */
static inline void fz_touch(const char *s)
{
	volatile size_t n;

	if (s)
		n = strlen(s);
	(void)n;
}

/* @msg is one non-empty line (the project's rule for errors and warnings) */
static inline void fz_one_line(const char *what, const char *msg)
{
	if (!msg || !*msg || strchr(msg, '\n'))
		fz_fail("%s is not one non-empty line: '%s'", what, msg ? msg : "(null)");
}

/*
 * @size bytes of @data in a memfd, its /proc/self/fd path in @path: the
 * reader opens, maps and drops pages as for a file on disk. Return the fd.
 */
static inline int fz_memfd(const uint8_t *data, size_t size, char *path, size_t len)
{
	size_t off = 0;
	int fd;

	fd = memfd_create(FZ_TARGET, 0);
	if (fd < 0) {
		perror(FZ_TARGET ": memfd_create");
		abort();
	}
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);

		if (w <= 0) {
			perror(FZ_TARGET ": write");
			abort();
		}
		off += (size_t)w;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * Which reader reads the CPU data of the input's file: lib/read-zstd.c
 * (zstd v7 and, since it reads them too, uncompressed v6 files: what the
 * tools run) for a file of even size, libtracecmd's own reading
 * (GPULAT_ZSTD_READER=0: read-merge.c, read-drop.c, read-unmap.c's page
 * maps) for an odd size, so that mutations reach both. The seeds are of
 * even size; the F7 reproducer is kept in both sizes.
 */
static inline void fz_pick_reader(size_t size)
{
	if (size & 1)
		setenv("GPULAT_ZSTD_READER", "0", 1);
	else
		unsetenv("GPULAT_ZSTD_READER");
}

#endif
