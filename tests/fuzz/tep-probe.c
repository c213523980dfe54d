// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz-tep-probe FLAGS < SECTION: parse a fuzz input's format section with
 * libtraceevent and exit 0. Dies with libtraceevent when it crashes (see
 * fuzz-formats.c). Built without sanitizers on purpose.
 */
#include <stdio.h>
#include <stdlib.h>

#include <traceevent/event-parse.h>

#include "fuzz-formats.h"

/* in a GST_SANITIZE build: libtraceevent leaks on bad formats, that is not a crash */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

int main(int argc, char **argv)
{
	struct fz_formats fm = { 0 };
	size_t len = 0, cap = 1 << 16, n;
	uint8_t *buf = malloc(cap);

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
