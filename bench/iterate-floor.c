// SPDX-License-Identifier: LGPL-2.1
/*
 * iterate-floor - the floor for reading a trace.dat with libtracecmd: open it
 * without plugins and walk every record of every CPU in time order with an
 * empty callback. Nothing a real reader does can be cheaper than this.
 *
 *   iterate-floor [-c] TRACE.dat
 *	-c  count the records and print the count on stdout (the callback then
 *	    does one increment; without -c it does nothing at all)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

static unsigned long long nr_records;

static int empty_cb(struct tracecmd_input *handle, struct tep_record *record,
		    int cpu, void *data)
{
	(void)handle; (void)record; (void)cpu; (void)data;
	return 0;
}

static int count_cb(struct tracecmd_input *handle, struct tep_record *record,
		    int cpu, void *data)
{
	(void)handle; (void)record; (void)cpu; (void)data;
	nr_records++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	const char *file;
	int count = 0;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "-c")) {
		count = 1;
		file = argv[2];
	} else if (argc == 2 && argv[1][0] != '-') {
		file = argv[1];
	} else {
		fprintf(stderr, "usage: %s [-c] TRACE.dat\n", argv[0]);
		return 2;
	}

	handle = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "%s: cannot open %s\n", argv[0], file);
		return 1;
	}
	ret = tracecmd_iterate_events(handle, NULL, 0, count ? count_cb : empty_cb, NULL);
	tracecmd_close(handle);
	if (ret < 0) {
		fprintf(stderr, "%s: iterating %s failed (%d)\n", argv[0], file, ret);
		return 1;
	}
	if (count)
		printf("%llu\n", nr_records);
	return 0;
}
