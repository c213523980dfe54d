// SPDX-License-Identifier: LGPL-2.1
/*
 * iterate-floor - the floor for reading a trace.dat with libtracecmd: open it
 * without plugins and walk every record of every CPU in time order with an
 * empty callback. Nothing a real reader does can be cheaper than this.
 *
 *   iterate-floor [-c] [-m] TRACE.dat
 *	-c  count the records and print the count on stdout (the callback then
 *	    does one increment; without -c it does nothing at all)
 *	-m  iterate with tracecmd_iterate_events_multi() on the one handle
 *	    (what a reader that merges several files does) instead of
 *	    tracecmd_iterate_events(handle, NULL, 0, ...)
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
	int (*cb)(struct tracecmd_input *, struct tep_record *, int, void *) = empty_cb;
	struct tracecmd_input *handle;
	const char *file = NULL;
	int count = 0, multi = 0, head = 0;
	int ret, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-c"))
			count = 1;
		else if (!strcmp(argv[i], "-m"))
			multi = 1;
		else if (!strcmp(argv[i], "-H"))
			head = 1;
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			file = NULL, i = argc;
	}
	if (!file) {
		fprintf(stderr, "usage: %s [-c] [-m] TRACE.dat\n", argv[0]);
		return 2;
	}
	if (count)
		cb = count_cb;

	if (head) {
		handle = tracecmd_open_head(file, TRACECMD_FL_LOAD_NO_PLUGINS);
		if (handle && tracecmd_init_data(handle) < 0)
			handle = NULL;
	} else {
		handle = tracecmd_open(file, TRACECMD_FL_LOAD_NO_PLUGINS);
	}
	if (!handle) {
		fprintf(stderr, "%s: cannot open %s\n", argv[0], file);
		return 1;
	}
	if (multi)
		ret = tracecmd_iterate_events_multi(&handle, 1, cb, NULL);
	else
		ret = tracecmd_iterate_events(handle, NULL, 0, cb, NULL);
	tracecmd_close(handle);
	if (ret < 0) {
		fprintf(stderr, "%s: iterating %s failed (%d)\n", argv[0], file, ret);
		return 1;
	}
	if (count)
		printf("%llu\n", nr_records);
	return 0;
}
