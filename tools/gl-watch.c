// SPDX-License-Identifier: LGPL-2.1
/* --watch: placeholder, replaced by the live implementation */
#include "gpu-latency.h"

int gl_watch_main(const struct gl_opts *o)
{
	(void)o;
	fprintf(stderr, "%s: --watch is not available in this build\n", GL_NAME);
	return GL_EXIT_ERROR;
}
