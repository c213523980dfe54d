// SPDX-License-Identifier: LGPL-2.1
/*
 * kshark-load - KernelShark's data load, headless (libkshark only)
 *
 *   kshark-load [-p NAME=PLUGIN.so]... TRACE.dat
 *
 * Does what KernelShark does when it opens a file: kshark_open(), the stream's
 * plugins registered and initialized (KSHARK_PLUGIN_INIT) before
 * kshark_load_all_entries(). With no -p no plugin at all is loaded (not even
 * KernelShark's built-in ones), so "with -p gpu_jobs=..." against "without"
 * measures exactly what our plugin adds.
 *
 * Then what KernelShark does before the first picture: the visualization
 * model is filled (ksmodel_fill(), 1000 bins over the whole trace), and a
 * plugin that defers work to its first draw is asked for its data the way a
 * draw would (gpu_jobs: plugin_gpujob_get_jobs(), which decodes and links the
 * records it kept at load time).
 *
 * Prints on stdout
 *   "entries=N load_s=S cpu_s=C load_only_s=L load_only_cpu_s=LC [jobs=J]"
 * S/C: wall/CPU time from kshark_open() to the first picture's data (load +
 * model + plugin's deferred work); L/LC: up to the end of
 * kshark_load_all_entries() only. Process start-up and the dlopen() of the
 * plugin are not counted (inside KernelShark, Qt and libkshark-plot, which the
 * plugin links to, are already loaded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dlfcn.h>
#include <libkshark.h>
#include <libkshark-model.h>
#include <libkshark-plugin.h>

#define MAX_PLUGINS 8
#define MODEL_BINS 1000

/* gpu_jobs' accessor (kshark-plugins/gpu_jobs.h); called as a first draw would */
typedef ssize_t (*get_jobs_fn)(int sd, const void **jobs);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [-p NAME=PLUGIN.so]... TRACE.dat\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	struct kshark_plugin_list *plugins[MAX_PLUGINS];
	struct kshark_context *kctx = NULL;
	struct kshark_data_stream *stream;
	struct kshark_entry **rows = NULL;
	int n_plugins = 0, sd, i;
	const char *file = NULL;
	struct kshark_trace_histo histo;
	ssize_t n_rows, k, jobs = -1;
	double t0, t1, c0, c1, tl, cl;

	if (!kshark_instance(&kctx)) {
		fprintf(stderr, "%s: kshark_instance failed\n", argv[0]);
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc) {
			char *spec = argv[++i], *eq = strchr(spec, '=');

			if (!eq || n_plugins == MAX_PLUGINS)
				usage(argv[0]);
			*eq = '\0';
			plugins[n_plugins] = kshark_register_plugin(kctx, spec, eq + 1);
			if (!plugins[n_plugins] || !plugins[n_plugins]->process_interface) {
				fprintf(stderr, "%s: cannot load plugin %s from %s\n",
					argv[0], spec, eq + 1);
				return 1;
			}
			n_plugins++;
		} else if (argv[i][0] == '-' || file) {
			usage(argv[0]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		usage(argv[0]);

	t0 = now();
	c0 = cpu_now();
	sd = kshark_open(kctx, file);
	if (sd < 0) {
		fprintf(stderr, "%s: cannot open %s (%d)\n", argv[0], file, sd);
		return 1;
	}
	stream = kshark_get_data_stream(kctx, sd);
	for (i = 0; i < n_plugins; i++) {
		struct kshark_dpi_list *dpi;

		dpi = kshark_register_plugin_to_stream(stream,
						       plugins[i]->process_interface, true);
		if (!dpi || kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT) < 0) {
			fprintf(stderr, "%s: plugin %s failed to initialize\n", argv[0],
				plugins[i]->name);
			return 1;
		}
	}
	n_rows = kshark_load_all_entries(kctx, &rows);
	tl = now();
	cl = cpu_now();
	if (n_rows <= 0) {
		fprintf(stderr, "%s: no entries loaded from %s (%zd)\n", argv[0], file, n_rows);
		return 1;
	}
	ksmodel_init(&histo);
	ksmodel_set_bining(&histo, MODEL_BINS, rows[0]->ts, rows[n_rows - 1]->ts);
	ksmodel_fill(&histo, rows, n_rows);
	for (i = 0; i < n_plugins; i++) {
		get_jobs_fn get_jobs;
		const void *j;

		if (!plugins[i]->handle)
			continue;
		get_jobs = (get_jobs_fn)dlsym(plugins[i]->handle, "plugin_gpujob_get_jobs");
		if (get_jobs)
			jobs = get_jobs(sd, &j);
	}
	t1 = now();
	c1 = cpu_now();
	printf("entries=%zd load_s=%.6f cpu_s=%.6f load_only_s=%.6f load_only_cpu_s=%.6f",
	       n_rows, t1 - t0, c1 - c0, tl - t0, cl - c0);
	if (jobs >= 0)
		printf(" jobs=%zd", jobs);
	printf("\n");
	ksmodel_clear(&histo);

	for (k = 0; k < n_rows; k++)
		free(rows[k]);
	free(rows);
	kshark_close_all(kctx);
	kshark_free(kctx);
	return 0;
}
