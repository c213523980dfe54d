// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu-kshark-rings - list the GPU rings of traces and write a KernelShark session
 * that shows one row per ring (used by the gpu-kshark launcher).
 *
 * The rings are found with the core binding, exactly as the gpu_jobs plugin finds them
 * (gpu_rings.c), so the synthetic task ids written into the session's "TaskPlots" are
 * the ids the plugin draws into.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>
#include <trace-cmd.h>

#include "libkshark.h"
#include "libkshark-tepdata.h"

#include "gpulat.h"
#include "gpulat-read.h"
#include "gpulat-tracecmd.h"
#include "gpu_rings.h"

#define DEFAULT_WIDTH	1200
#define DEFAULT_HEIGHT	800

struct trace_rings {
	const char		*file;
	struct tracecmd_input	*handle;
	struct gpulat_binding	*binding;
	struct gpujob_ring_key	*keys;
	size_t			n_keys;
	size_t			cap_keys;
	int			n_cpus;
	int			sd;
};

/*
 * The default plugin: this install's, found relative to this program (so a relocated
 * install, an extracted .deb or the build tree use their own); GST_KSHARK_REL_PLUGIN is
 * relative to the install's bindir (absolute when configured so).
 */
static const char *default_plugin(void)
{
	static const char * const rel[] = { GST_KSHARK_REL_PLUGIN, "plugin-gpu_jobs.so" };
	static char path[PATH_MAX];
	char self[PATH_MAX], *slash;
	size_t i;
	int n;

	if (GST_KSHARK_REL_PLUGIN[0] == '/')
		return GST_KSHARK_REL_PLUGIN;
	if (!realpath("/proc/self/exe", self))
		return rel[0];
	slash = strrchr(self, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char cand[PATH_MAX];

		n = snprintf(cand, sizeof(cand), "%s/%s", self, rel[i]);
		if (n > 0 && (size_t)n < sizeof(cand) && realpath(cand, path))
			return path;
	}
	n = snprintf(path, sizeof(path), "%s/%s", self, rel[0]);
	return n > 0 && (size_t)n < sizeof(path) ? path : rel[0];
}

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [options] TRACE.dat [TRACE.dat...]\n"
		"Print the GPU rings of the traces (stream, synthetic task id, label, device,\n"
		"ring), and optionally write a KernelShark session with one row per ring.\n"
		"  -s FILE    write the session to FILE\n"
		"  -p PLUGIN  plugin file to load in the session (default: %s)\n"
		"  -g WxH     main window size (default %dx%d)\n"
		"  -r T0,T1   visible time range in ns of trace time (default: all)\n"
		"  -c LIST    CPU graphs: all (default), none, or a list like 0,2-3\n"
		"  -q         quiet: do not print the rings\n"
		"  -h         this help\n",
		prog, default_plugin(), DEFAULT_WIDTH, DEFAULT_HEIGHT);
}

static int add_key(struct trace_rings *tr, const char *dev, const char *ring)
{
	struct gpujob_ring_key *tmp;
	size_t i;

	for (i = 0; i < tr->n_keys; i++) {
		/* interned by the binding: equal strings, equal pointers */
		if (tr->keys[i].dev == dev && tr->keys[i].ring == ring)
			return 0;
	}
	if (tr->n_keys == tr->cap_keys) {
		size_t cap = tr->cap_keys ? tr->cap_keys * 2 : 16;

		tmp = realloc(tr->keys, cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		tr->keys = tmp;
		tr->cap_keys = cap;
	}
	tr->keys[tr->n_keys].dev = dev;
	tr->keys[tr->n_keys].ring = ring;
	tr->keys[tr->n_keys].id = 0;
	tr->keys[tr->n_keys].user = tr->n_keys;
	tr->n_keys++;
	return 0;
}

static int ring_cb(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct trace_rings *tr = data;
	struct gpulat_event ev;
	enum gpulat_kind kind;

	(void)handle;
	(void)cpu;
	kind = gpulat_binding_kind_of(tr->binding,
				      tep_data_type(tracecmd_get_tep(tr->handle), rec));
	if (kind != GPULAT_EV_QUEUE && kind != GPULAT_EV_RUN)
		return 0;
	/* a damaged length reaching past the record's page: not decoded */
	if (!gpulat_record_bytes(rec, tracecmd_page_size(tr->handle)))
		return 0;
	if (gpulat_binding_decode(tr->binding, rec, &ev) != 1 || !gpujob_event_names_ring(&ev))
		return 0;
	return add_key(tr, ev.dev ? ev.dev : "", ev.ring) < 0 ? -1 : 0;
}

static int find_rings(struct trace_rings *tr)
{
	char err[512];

	/*
	 * lib's open: the file's structure is checked before libtracecmd reads it,
	 * and a half-built handle is never closed (tracecmd_open() closes it on
	 * error and crashes in libtracecmd 1.3). A file that passes is also one
	 * kshark_open() can read.
	 */
	tr->handle = gpulat_trace_open(tr->file, TRACECMD_FL_LOAD_NO_PLUGINS, err, sizeof(err));
	if (!tr->handle) {
		fprintf(stderr, "gpu-kshark-rings: %s\n", err);
		return -1;
	}
	tr->binding = gpulat_binding_new(tracecmd_get_tep(tr->handle));
	if (!tr->binding) {
		fprintf(stderr, "gpu-kshark-rings: %s: %s\n", tr->file, strerror(errno));
		return -1;
	}
	if (!gpulat_binding_has(tr->binding, GPULAT_EV_QUEUE) &&
	    !gpulat_binding_has(tr->binding, GPULAT_EV_RUN))
		return 0;	/* no GPU scheduler events: no rings */
	if (tracecmd_iterate_events(tr->handle, NULL, 0, ring_cb, tr) < 0 && errno == ENOMEM)
		return -1;
	gpujob_ring_ids_assign(tr->keys, tr->n_keys);
	return 0;
}

static void free_rings(struct trace_rings *tr)
{
	gpulat_binding_free(tr->binding);
	if (tr->handle)
		tracecmd_close(tr->handle);
	free(tr->keys);
}

/* "0,2-3" -> json array of CPUs below n_cpus; "all", "none" */
static json_object *cpu_list(const char *spec, int n_cpus)
{
	json_object *arr = json_object_new_array();
	char *s, *tok, *save = NULL, *dup;
	int a, b, c;

	if (!spec || !strcmp(spec, "all")) {
		for (c = 0; c < n_cpus; c++)
			json_object_array_add(arr, json_object_new_int(c));
		return arr;
	}
	if (!strcmp(spec, "none"))
		return arr;

	dup = strdup(spec);
	for (s = dup; dup && (tok = strtok_r(s, ",", &save)); s = NULL) {
		if (sscanf(tok, "%d-%d", &a, &b) != 2) {
			if (sscanf(tok, "%d", &a) != 1)
				continue;
			b = a;
		}
		for (c = a; c <= b && c < n_cpus; c++)
			if (c >= 0)
				json_object_array_add(arr, json_object_new_int(c));
	}
	free(dup);
	return arr;
}

static json_object *file_obj(const char *type, const char *file, const char *name)
{
	char path[PATH_MAX];
	json_object *o;
	struct stat st;

	if (stat(file, &st) || !realpath(file, path)) {
		fprintf(stderr, "gpu-kshark-rings: %s: %s\n", file, strerror(errno));
		return NULL;
	}
	o = json_object_new_object();
	if (type)
		json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "file", json_object_new_string(path));
	json_object_object_add(o, "name", json_object_new_string(name));
	/* KernelShark skips an entry whose time is not the file's st_mtime */
	json_object_object_add(o, "time", json_object_new_int64(st.st_mtime));
	return o;
}

static json_object *typed(const char *type)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	return o;
}

/* Everything KernelShark 2.2 reads from a session (KsSession.cpp). */
static int write_session(const char *out, const char *plugin, struct trace_rings *trs,
			 int n, int width, int height, const char *range, const char *cpus)
{
	struct kshark_context *kctx = NULL;
	struct kshark_config_doc *conf;
	json_object *root, *streams, *o, *arr, *jplg;
	long long t0, t1;
	int i, ret = -1;
	size_t k;

	if (!kshark_instance(&kctx))
		return -1;

	for (i = 0; i < n; i++) {
		trs[i].sd = kshark_open(kctx, trs[i].file);
		if (trs[i].sd < 0) {
			fprintf(stderr, "gpu-kshark-rings: libkshark cannot open %s\n", trs[i].file);
			goto out;
		}
		trs[i].n_cpus = kshark_get_data_stream(kctx, trs[i].sd)->n_cpus;
	}

	conf = kshark_session_config_new(KS_CONFIG_JSON);
	if (!conf || !kshark_export_all_dstreams(kctx, &conf)) {
		fprintf(stderr, "gpu-kshark-rings: cannot export the data streams\n");
		goto out;
	}
	root = conf->conf_doc;

	/* per stream: the default plugins plus gpu_jobs, all CPUs, one row per ring */
	if (!json_object_object_get_ex(root, "data streams", &streams))
		goto out_conf;
	for (i = 0; i < (int)json_object_array_length(streams); i++) {
		json_object *js = json_object_array_get_idx(streams, i), *jsd, *jp, *tasks;
		struct trace_rings *tr = NULL;
		const char *names[] = { "sched_events", "missed_events", "kvm_combo", "gpu_jobs" };
		size_t p;
		int j;

		if (!json_object_object_get_ex(js, "stream id", &jsd))
			continue;
		for (j = 0; j < n; j++)
			if (trs[j].sd == json_object_get_int(jsd))
				tr = &trs[j];
		if (!tr)
			continue;

		if (json_object_object_get_ex(js, "plugins", &jp)) {
			arr = json_object_new_array();
			for (p = 0; p < sizeof(names) / sizeof(names[0]); p++) {
				jplg = json_object_new_array();
				json_object_array_add(jplg, json_object_new_string(names[p]));
				json_object_array_add(jplg, json_object_new_boolean(1));
				json_object_array_add(arr, jplg);
			}
			json_object_object_add(jp, "registered", arr);
		}

		json_object_object_add(js, "CPUPlots", cpu_list(cpus, tr->n_cpus));
		tasks = json_object_new_array();
		for (k = 0; k < tr->n_keys; k++)
			json_object_array_add(tasks, json_object_new_int(tr->keys[k].id));
		json_object_object_add(js, "TaskPlots", tasks);
	}

	/* the plugin object file */
	o = typed("kshark.config.plugins");
	arr = json_object_new_array();
	jplg = file_obj("kshark.config.library", plugin, "gpu_jobs");
	if (!jplg) {
		json_object_put(o);
		json_object_put(arr);
		goto out_conf;
	}
	json_object_array_add(arr, jplg);
	json_object_object_add(o, "obj. files", arr);
	json_object_object_add(root, "User Plugins", o);

	if (range) {
		if (sscanf(range, "%lld,%lld", &t0, &t1) != 2 || t1 <= t0) {
			fprintf(stderr, "gpu-kshark-rings: bad range '%s' (want T0,T1 in ns)\n",
				range);
			goto out_conf;
		}
		o = typed("kshark.config.model");
		arr = json_object_new_array();
		json_object_array_add(arr, json_object_new_int64(t0));
		json_object_array_add(arr, json_object_new_int64(t1));
		json_object_object_add(o, "range", arr);
		json_object_object_add(o, "bins", json_object_new_int(width > 300 ? width - 250 : 100));
		json_object_object_add(root, "Model", o);
	}

	o = typed("kshark.config.markers");
	json_object_object_add(o, "markA", json_object_new_object());
	json_object_object_add(json_object_object_get(o, "markA"), "isSet",
			       json_object_new_boolean(0));
	json_object_object_add(o, "markB", json_object_new_object());
	json_object_object_add(json_object_object_get(o, "markB"), "isSet",
			       json_object_new_boolean(0));
	json_object_object_add(o, "Active", json_object_new_string("A"));
	json_object_object_add(root, "Markers", o);

	arr = json_object_new_array();
	json_object_array_add(arr, json_object_new_int(width));
	json_object_array_add(arr, json_object_new_int(height));
	json_object_object_add(root, "MainWindow", arr);

	/* graphs get most of the window, the list view the rest */
	arr = json_object_new_array();
	json_object_array_add(arr, json_object_new_int(height * 3 / 4));
	json_object_array_add(arr, json_object_new_int(height / 4));
	json_object_object_add(root, "Splitter", arr);

	json_object_object_add(root, "ViewTop", json_object_new_int64(0));
	json_object_object_add(root, "ColorScheme", json_object_new_double(0.75));

	if (!kshark_save_config_file(out, conf)) {
		fprintf(stderr, "gpu-kshark-rings: cannot write %s\n", out);
		goto out_conf;
	}
	ret = 0;

out_conf:
	kshark_free_config_doc(conf);
out:
	kshark_free(kctx);
	return ret;
}

int main(int argc, char **argv)
{
	const char *session = NULL, *plugin = default_plugin();
	const char *range = NULL, *cpus = NULL;
	int width = DEFAULT_WIDTH, height = DEFAULT_HEIGHT;
	struct trace_rings *trs;
	bool quiet = false;
	int c, i, n, ret = 0;
	size_t k;

	while ((c = getopt(argc, argv, "s:p:g:r:c:qh")) != -1) {
		switch (c) {
		case 's':
			session = optarg;
			break;
		case 'p':
			plugin = optarg;
			break;
		case 'g':
			if (sscanf(optarg, "%dx%d", &width, &height) != 2 ||
			    width < 200 || height < 150) {
				fprintf(stderr, "gpu-kshark-rings: bad geometry '%s'\n", optarg);
				return 2;
			}
			break;
		case 'r':
			range = optarg;
			break;
		case 'c':
			cpus = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1) {
		usage(stderr, argv[0]);
		return 2;
	}

	trs = calloc(n, sizeof(*trs));
	if (!trs)
		return 1;

	for (i = 0; i < n; i++) {
		trs[i].file = argv[optind + i];
		trs[i].sd = i;
		if (find_rings(&trs[i]) < 0) {
			ret = 1;
			goto out;
		}
		if (quiet)
			continue;
		for (k = 0; k < trs[i].n_keys; k++) {
			char label[256];

			/* the binding's names are in their escaped form: one line per ring */
			gpulat_ring_label(label, sizeof(label), trs[i].keys[k].dev,
					  trs[i].keys[k].ring);
			printf("%d\t%d\t%s\t%s\t%s\n", i, trs[i].keys[k].id, label,
			       trs[i].keys[k].dev, trs[i].keys[k].ring);
		}
	}

	if (session && write_session(session, plugin, trs, n, width, height, range, cpus) < 0)
		ret = 1;

out:
	for (i = 0; i < n; i++)
		free_rings(&trs[i]);
	free(trs);
	return ret;
}
