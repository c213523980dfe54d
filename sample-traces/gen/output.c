// SPDX-License-Identifier: LGPL-2.1
/*
 * Write the trace.dat file with libtracecmd's output API, the same code path
 * `trace-cmd record` and `trace-cmd restore` use. These functions are exported
 * by libtracecmd.so.1 but declared only in trace-cmd's private header; the
 * prototypes are in lib/private/gpulat-tracecmd.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "gen.h"
#include "gpulat-tracecmd.h"

/*
 * libtracecmd 1.3.1 never frees the path given to tracecmd_output_set_kallsyms():
 * tell LeakSanitizer (sanitizer builds only, unused otherwise).
 */
const char *__lsan_default_suppressions(void);
__attribute__((used)) const char *__lsan_default_suppressions(void)
{
	return "leak:tracecmd_output_set_kallsyms\n";
}

static int setup(struct tracecmd_output *h, const char *fakedir, int file_version)
{
	char *kallsyms;
	int ret;

	tracecmd_set_quiet(h, 1);
	if (tracecmd_output_set_version(h, file_version))
		return -EINVAL;
	if (file_version >= 7 && tracecmd_output_set_compression(h, "zstd")) {
		fprintf(stderr, "gpu-trace-gen: zstd compression not available\n");
		return -ENOTSUP;
	}
	if (tracecmd_output_set_trace_dir(h, fakedir))
		return -EINVAL;
	if (asprintf(&kallsyms, "%s/kallsyms", fakedir) < 0)
		return -ENOMEM;
	ret = tracecmd_output_set_kallsyms(h, kallsyms);
	free(kallsyms);
	return ret ? -EINVAL : 0;
}

/* TRACECMD_OPTION_TRACECLOCK of trace-cmd's private enum tracecmd_file_options */
#define GEN_OPTION_TRACECLOCK	4

/*
 * trace-cmd record saves tracefs' trace_clock as a TRACECLOCK option in
 * every file (trace-record.c add_options()). Only a version 6 file needs it:
 * libtracecmd reads the "[clock]" saved after its flyrecord CPU table only
 * when the option is there (init_data_v6()); version 7 keeps the clock in
 * each BUFFER option. Without it a v6 trace_clock=mono trace reads as clock
 * unknown, and its vblanks are judged by their record times.
 */
static int add_clock_option(struct tracecmd_output *h, const char *fakedir)
{
	char text[256], *p;
	size_t n = 0;
	FILE *fp;

	if (asprintf(&p, "%s/trace_clock", fakedir) < 0)
		return -ENOMEM;
	fp = fopen(p, "r");
	free(p);
	if (fp) {
		n = fread(text, 1, sizeof(text) - 1, fp);
		fclose(fp);
	}
	if (!n)
		return -EIO;
	text[n] = '\0';
	if (!tracecmd_add_option(h, GEN_OPTION_TRACECLOCK, (int)strlen(text) + 1, text))
		return -EIO;
	return 0;
}

int gen_write_dat(const char *out, const char *fakedir, int cpus,
		  int file_version, const char *rawdir)
{
	struct tracecmd_event_list all = { .next = NULL, .glob = "all" };
	struct tracecmd_output *h;
	char *files[GEN_MAX_CPUS] = { 0 };
	int ret, i;

	/*
	 * Version 6 has no buffer descriptions for the top instance: the writer
	 * warns "Cannot find description for buffer" and goes on (that is what
	 * trace-cmd record does too). Keep errors only.
	 */
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	h = tracecmd_output_create(out);
	if (!h)
		return -EIO;
	ret = setup(h, fakedir, file_version);
	if (!ret && tracecmd_output_write_headers(h, &all))
		ret = -EIO;
	if (!ret && file_version == 6)
		ret = add_clock_option(h, fakedir);
	if (!ret && tracecmd_write_cmdlines(h))
		ret = -EIO;
	for (i = 0; !ret && i < cpus; i++)
		if (asprintf(&files[i], "%s/cpu%d.raw", rawdir, i) < 0)
			ret = -ENOMEM;
	if (!ret && tracecmd_append_cpu_data(h, cpus, files))
		ret = -EIO;
	tracecmd_output_close(h);
	for (i = 0; i < cpus; i++)
		free(files[i]);
	return ret;
}
