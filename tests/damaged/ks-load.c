// SPDX-License-Identifier: LGPL-2.1
/*
 * ks-load: load one trace through libkshark the way KernelShark does, with
 * the gpu_jobs plugin or without it (plain KernelShark), for the damage
 * sweep (damaged.py). Nothing is compared: the sweep checks that it neither
 * dies nor hangs where plain KernelShark does not.
 *
 *   ks-load [-p PLUGIN.so] TRACE.dat
 *
 * Prints "entries N" and, with the plugin, "jobs N rings N" (the plugin's
 * lazy second pass runs through its accessors, as on the first draw).
 * Exit status: 0 loaded, 1 libkshark could not open or load the file.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

#include "gpu_jobs.h"

int main(int argc, char **argv)
{
	struct kshark_context *kctx = NULL;
	struct kshark_plugin_list *plugin = NULL;
	struct kshark_entry **rows = NULL;
	const struct plugin_gpujob_ring *rings;
	const struct plugin_gpujob *jobs;
	plugin_gpujob_get_jobs_fn get_jobs;
	plugin_gpujob_get_rings_fn get_rings;
	const char *plugin_path = NULL;
	ssize_t n, k, nj, nr;
	int c, sd;

	while ((c = getopt(argc, argv, "p:")) != -1) {
		if (c != 'p')
			return 2;
		plugin_path = optarg;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: %s [-p PLUGIN.so] TRACE.dat\n", argv[0]);
		return 2;
	}
	if (!kshark_instance(&kctx))
		return 1;
	if (plugin_path) {
		plugin = kshark_register_plugin(kctx, "gpu_jobs", plugin_path);
		if (!plugin || !plugin->process_interface || !plugin->handle) {
			fprintf(stderr, "ks-load: cannot load plugin %s\n", plugin_path);
			return 2;
		}
	}
	sd = kshark_open(kctx, argv[optind]);
	if (sd < 0) {
		fprintf(stderr, "ks-load: libkshark cannot open %s\n", argv[optind]);
		kshark_free(kctx);
		return 1;
	}
	if (plugin) {
		struct kshark_data_stream *stream = kshark_get_data_stream(kctx, sd);
		struct kshark_dpi_list *dpi;

		/* as KernelShark: registered and initialized before the data is loaded */
		dpi = kshark_register_plugin_to_stream(stream, plugin->process_interface, true);
		kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT);
	}
	n = kshark_load_all_entries(kctx, &rows);
	printf("entries %zd\n", n);
	if (plugin) {
		get_jobs = (plugin_gpujob_get_jobs_fn)dlsym(plugin->handle,
							    "plugin_gpujob_get_jobs");
		get_rings = (plugin_gpujob_get_rings_fn)dlsym(plugin->handle,
							      "plugin_gpujob_get_rings");
		if (get_jobs && get_rings) {
			nj = get_jobs(sd, &jobs);
			nr = get_rings(sd, &rings);
			printf("jobs %zd rings %zd\n", nj, nr);
		}
	}
	for (k = 0; k < n; k++)
		free(rows[k]);
	free(rows);
	kshark_close_all(kctx);
	kshark_free(kctx);
	return n < 0 ? 1 : 0;
}
