// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz-tep-probe FLAGS < SECTION: parse a fuzz input's format section with
 * libtraceevent and exit 0. Dies with libtraceevent when it crashes (see
 * fuzz-formats.c). Built without sanitizers on purpose.
 *
 * fuzz-tep-probe --serve: the same for every request on stdin (a socket):
 * u32 flags, u32 length, the section; each parsed into a fresh tep_handle,
 * answered with one byte 'k'. Exits at end of input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fuzz-formats.h"

/* in a GST_SANITIZE build: libtraceevent leaks on bad formats, that is not a crash */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

static int serve(void)
{
	uint32_t hdr[2];
	uint8_t *buf = NULL;
	size_t cap = 0;

	while (fz_xfer_all(0, hdr, sizeof(hdr), false)) {
		struct fz_formats fm = { 0 };

		if (hdr[1] > cap) {
			free(buf);
			cap = hdr[1];
			buf = malloc(cap);
			if (!buf)
				return 2;
		}
		if (!fz_xfer_all(0, buf, hdr[1], false))
			return 2;
		fm.tep = fz_new_tep((uint8_t)hdr[0]);
		if (!fm.tep)
			return 2;
		fz_parse_formats(&fm, buf, hdr[1]);
		tep_free(fm.tep);
		if (write(0, "k", 1) != 1)
			return 2;
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	struct fz_formats fm = { 0 };
	size_t len = 0, cap = 1 << 16, n;
	uint8_t *buf = malloc(cap);

	if (argc == 2 && !strcmp(argv[1], "--serve"))
		return serve();
	if (!buf || argc < 2)
		return 2;
	while ((n = fread(buf + len, 1, cap - len, stdin)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				return 2;
		}
	}
	fm.tep = fz_new_tep((uint8_t)atoi(argv[1]));
	if (!fm.tep)
		return 2;
	fz_parse_formats(&fm, buf, len);
	tep_free(fm.tep);
	free(buf);
	return 0;
}
