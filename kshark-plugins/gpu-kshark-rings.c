// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu-kshark-rings - list the GPU rings of traces and write a KernelShark session
 * that shows one row per ring, and one per display CRTC with drm vblank events (used by
 * the gpu-kshark launcher).
 *
 * The rings are found with the core binding, exactly as the gpu_jobs plugin finds them
 * (gpu_rings.c), so the synthetic task ids written into the session's "TaskPlots" are
 * the ids the plugin draws into.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <trace-cmd.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

#include "gpulat.h"
#include "gpulat-read.h"
#include "gpulat-session.h"
#include "gpulat-tracecmd.h"
#include "gpu_jobs.h"
#include "gpu_rings.h"

/* CRTC rows in a session at most (lib/frames.c keeps 64 CRTCs) */
#define GPUJOB_MAX_CRTC_ROWS	64

#define DEFAULT_WIDTH	1200
#define DEFAULT_HEIGHT	800

struct trace_rings {
	const char		*file;
	struct gpulat_session *session; /* owns the keys' strings */
	struct gpujob_ring_key	*keys;
	size_t			n_keys;
	size_t			cap_keys;
	uint64_t first_ts; /* of any record */
	uint64_t last_ts;
	uint64_t gpu_first; /* GPU-active span: first job stage */
	uint64_t gpu_last; /* ... last job stage */
	int			n_cpus;
	int			sd;
	/* pipes with drm_vblank_event records: one CRTC row each (issue 18) */
	int crtcs[GPUJOB_MAX_CRTC_ROWS];
	int n_crtcs;
};

/* How this program names itself in messages (-N: the launcher's name). */
static const char *prog = "gpu-kshark-rings";

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

static void usage(FILE *f, const char *argv0)
{
	fprintf(f,
		"usage: %s [options] TRACE.dat [TRACE.dat...]\n"
		"Print the GPU rings of the traces (stream, synthetic task id, label, device,\n"
		"ring), and optionally write a KernelShark session with one row per ring.\n"
		"  -s FILE    write the session to FILE\n"
		"  -p PLUGIN  plugin file to load in the session (default: %s)\n"
		"  -g WxH     main window size (default %dx%d)\n"
		"  -r T0,T1   visible time range in seconds of trace time, as trace-cmd report\n"
		"             prints them (default: the span with GPU jobs)\n"
		"  -a         show the whole trace, not only the span with GPU jobs\n"
		"  -c LIST    CPU graphs: all (default), none, or a list like 0,2-3\n"
		"  -l         list, without a display, the rows the gpu_jobs plugin draws\n"
		"             and each row's job count, and each CRTC row's vblanks and\n"
		"             judged frames (the plugin loaded through libkshark)\n"
		"  -N NAME    name to use in messages (the launcher's)\n"
		"  -q         quiet: do not print the rings\n"
		"  -h         this help\n",
		argv0, default_plugin(), DEFAULT_WIDTH, DEFAULT_HEIGHT);
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

/* the tracker's job strings are not the binding's: compare the text */
static bool have_key(const struct trace_rings *tr, const char *dev, const char *ring)
{
	size_t i;

	for (i = 0; i < tr->n_keys; i++)
		if (!strcmp(tr->keys[i].dev, dev) && !strcmp(tr->keys[i].ring, ring))
			return true;
	return false;
}

static int ev_cb(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct trace_rings *tr = data;

	(void)rec;
	(void)file;
	if (ev->kind == GPULAT_EV_VBLANK && gpujob_crtc_id(ev->crtc) >= 0) {
		int i;

		for (i = 0; i < tr->n_crtcs && tr->crtcs[i] != ev->crtc; i++)
			;
		if (i == tr->n_crtcs && i < GPUJOB_MAX_CRTC_ROWS)
			tr->crtcs[tr->n_crtcs++] = ev->crtc;
		return 0;
	}
	if (!gpujob_event_names_ring(ev))
		return 0;
	return add_key(tr, ev->dev ? ev->dev : "", ev->ring);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int job_cb(const struct gpulat_job *job, void *data)
{
	struct trace_rings *tr = data;
	enum gpulat_era era = gpulat_session_era(tr->session);
	int s;

	/*
	 * Eras without drm_sched events (amdgpu-only traces, i915 requests)
	 * have no queue or run event naming a ring: the rows are the rings of
	 * the jobs, which the plugin draws into. (Not in the pointer eras:
	 * there the events' keys are the name pointers the plugin uses.)
	 */
	if ((era == GPULAT_ERA_AMDGPU || era == GPULAT_ERA_I915) && job->ring && job->ring[0] &&
	    !have_key(tr, job->dev ? job->dev : "", job->ring) &&
	    add_key(tr, job->dev ? job->dev : "", job->ring))
		return -ENOMEM;

	for (s = 0; s < GPULAT_ST__COUNT; s++) {
		if (job->ts[s] == GPULAT_NONE)
			continue;
		if (tr->gpu_first == GPULAT_NONE || job->ts[s] < tr->gpu_first)
			tr->gpu_first = job->ts[s];
		if (tr->gpu_last == GPULAT_NONE || job->ts[s] > tr->gpu_last)
			tr->gpu_last = job->ts[s];
	}
	return 0;
}

/* The session's messages, as gpu-latency prints them: "PROG: FILE: problem", hints. */
static void msg_cb(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	if (level == GPULAT_MSG_HINT)
		fputs(text, stderr);
	else
		fprintf(stderr, "%s: %s\n", prog, text);
}

/*
 * The rings of one trace, read through a session (lib/session.c) exactly as the
 * plugin and gpu-latency read it: the same checks of the file (missing, damaged, not
 * a trace, no GPU events: one line naming the file, then the record hint) and the same
 * ring set (queue and run events, gpu_rings.c), so the row ids agree with the plugin's.
 */
static int find_rings(struct trace_rings *tr)
{
	struct gpulat_listener l = { .sz = sizeof(l), .event = ev_cb, .job = job_cb };
	struct gpulat_session_counts c = { .sz = sizeof(c) };
	struct gpulat_session_opts o;
	int ret;

	tr->gpu_first = tr->gpu_last = GPULAT_NONE;
	gpulat_session_opts_init(&o);
	o.features = GPULAT_FEAT_NO_STATS;
	o.msg = msg_cb;
	tr->session = gpulat_session_new(&o);
	if (!tr->session) {
		fprintf(stderr, "%s: %s: %s\n", prog, tr->file, strerror(errno));
		return -1;
	}
	ret = gpulat_session_add_listener(tr->session, &l, tr);
	if (!ret)
		ret = gpulat_session_add_file(tr->session, tr->file);
	if (ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, tr->file, strerror(-ret));
		return -1;
	}
	if (gpulat_session_run(tr->session) < 0)
		return -1; /* the session said why */
	if (!gpulat_session_tep(tr->session, 0)) {
		/* a text log: the session reads it, KernelShark does not */
		fprintf(stderr,
			"%s: %s: an ftrace text log; KernelShark needs the trace.dat "
			"(trace-cmd record)\n",
			prog, tr->file);
		return -1;
	}
	gpulat_session_counts(tr->session, &c);
	tr->first_ts = c.first_ts;
	tr->last_ts = c.last_ts;
	gpujob_ring_ids_assign(tr->keys, tr->n_keys);
	qsort(tr->crtcs, tr->n_crtcs, sizeof(tr->crtcs[0]), cmp_int);
	return 0;
}

static void free_rings(struct trace_rings *tr)
{
	free(tr->keys);
	gpulat_session_free(tr->session);
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
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
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
static int write_session(const char *out, const char *plugin, struct trace_rings *trs, int n,
			 int width, int height, const uint64_t *range, const char *cpus)
{
	struct kshark_context *kctx = NULL;
	struct kshark_config_doc *conf;
	json_object *root, *streams, *o, *arr, *jplg;
	int i, ret = -1;
	size_t k;

	if (!kshark_instance(&kctx))
		return -1;

	for (i = 0; i < n; i++) {
		trs[i].sd = kshark_open(kctx, trs[i].file);
		if (trs[i].sd < 0) {
			fprintf(stderr, "%s: %s: libkshark cannot open it\n", prog, trs[i].file);
			goto out;
		}
		trs[i].n_cpus = kshark_get_data_stream(kctx, trs[i].sd)->n_cpus;
	}

	conf = kshark_session_config_new(KS_CONFIG_JSON);
	if (!conf || !kshark_export_all_dstreams(kctx, &conf)) {
		fprintf(stderr, "%s: %s: cannot export the data streams\n", prog, trs[0].file);
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
		/* below the rings: one row per CRTC (vblanks, frames) */
		for (j = 0; j < tr->n_crtcs; j++)
			json_object_array_add(tasks,
					      json_object_new_int(gpujob_crtc_id(tr->crtcs[j])));
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
		o = typed("kshark.config.model");
		arr = json_object_new_array();
		json_object_array_add(arr, json_object_new_int64((int64_t)range[0]));
		json_object_array_add(arr, json_object_new_int64((int64_t)range[1]));
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
		fprintf(stderr, "%s: %s: cannot write the session\n", prog, out);
		goto out_conf;
	}
	ret = 0;

out_conf:
	kshark_free_config_doc(conf);
out:
	kshark_free(kctx);
	return ret;
}

/*
 * -l: what the plugin draws, from the plugin itself: every trace loaded through
 * libkshark with gpu_jobs registered and initialized first (as KernelShark does), then
 * the plugin's own rows and jobs through its exported accessors (its first draw).
 */
static int list_rows(const char *plugin_path, struct trace_rings *trs, int n)
{
	struct kshark_context *kctx = NULL;
	struct kshark_plugin_list *plugin;
	struct kshark_entry **rows = NULL;
	const struct plugin_gpujob_ring *rings;
	const struct plugin_gpujob *jobs;
	plugin_gpujob_get_jobs_fn get_jobs;
	plugin_gpujob_get_rings_fn get_rings;
	plugin_gpujob_get_crtcs_fn get_crtcs;
	const struct plugin_gpujob_crtc *crtcs;
	ssize_t n_rows, nr, nj, k, r;
	int i, ret = 0, saved, null;

	if (!kshark_instance(&kctx))
		return -1;
	/* libkshark announces the plugin on stdout: not part of the listing */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved >= 0 && null >= 0)
		dup2(null, STDOUT_FILENO);
	plugin = kshark_register_plugin(kctx, "gpu_jobs", plugin_path);
	fflush(stdout);
	if (saved >= 0 && null >= 0)
		dup2(saved, STDOUT_FILENO);
	if (saved >= 0)
		close(saved);
	if (null >= 0)
		close(null);
	if (!plugin || !plugin->process_interface || !plugin->handle) {
		fprintf(stderr, "%s: %s: cannot load the KernelShark plugin\n", prog, plugin_path);
		kshark_free(kctx);
		return -1;
	}
	get_jobs = (plugin_gpujob_get_jobs_fn)dlsym(plugin->handle, "plugin_gpujob_get_jobs");
	get_rings = (plugin_gpujob_get_rings_fn)dlsym(plugin->handle, "plugin_gpujob_get_rings");
	get_crtcs = (plugin_gpujob_get_crtcs_fn)dlsym(plugin->handle, "plugin_gpujob_get_crtcs");
	if (!get_jobs || !get_rings) {
		fprintf(stderr, "%s: %s: not the gpu_jobs plugin (no accessors)\n", prog,
			plugin_path);
		kshark_free(kctx);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct kshark_data_stream *stream;
		struct kshark_dpi_list *dpi;

		trs[i].sd = kshark_open(kctx, trs[i].file);
		if (trs[i].sd < 0) {
			fprintf(stderr, "%s: %s: libkshark cannot open it\n", prog, trs[i].file);
			ret = -1;
			goto out;
		}
		stream = kshark_get_data_stream(kctx, trs[i].sd);
		dpi = kshark_register_plugin_to_stream(stream, plugin->process_interface, true);
		kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT);
	}
	n_rows = kshark_load_all_entries(kctx, &rows);

	for (i = 0; i < n; i++) {
		size_t total = 0;

		nr = get_rings(trs[i].sd, &rings);
		nj = get_jobs(trs[i].sd, &jobs);
		if (nr < 0 || nj < 0)
			nr = nj = 0; /* the plugin declined the stream: nothing drawn */
		for (k = 0; k < nr; k++)
			total += rings[k].n_jobs;
		printf("%s: %zd ring rows, %zd jobs", trs[i].file, nr, nj);
		if (trs[i].gpu_first != GPULAT_NONE)
			printf(", GPU active %" PRIu64 ".%06" PRIu64 "-%" PRIu64 ".%06" PRIu64,
			       trs[i].gpu_first / 1000000000, trs[i].gpu_first / 1000 % 1000000,
			       trs[i].gpu_last / 1000000000, trs[i].gpu_last / 1000 % 1000000);
		printf("\n");
		printf("  %-10s  %7s  %s\n", "row id", "jobs", "ring");
		/* in the order of the rows on screen (the session's TaskPlots) */
		for (k = 0; k < (ssize_t)trs[i].n_keys; k++) {
			for (r = 0; r < nr && rings[r].id != trs[i].keys[k].id; r++)
				;
			if (r < nr)
				printf("  %-10d  %7zu  %s\n", rings[r].id, rings[r].n_jobs,
				       rings[r].label);
			else
				printf("  %-10d  %7d  %s (no row drawn)\n", trs[i].keys[k].id, 0,
				       trs[i].keys[k].ring);
		}
		for (r = 0; r < nr; r++) {
			for (k = 0; k < (ssize_t)trs[i].n_keys && rings[r].id != trs[i].keys[k].id;
			     k++)
				;
			if (k == (ssize_t)trs[i].n_keys)
				printf("  %-10d  %7zu  %s (not in the session)\n", rings[r].id,
				       rings[r].n_jobs, rings[r].label);
		}
		/* jobs whose ring is unknown (a done event alone) get no row */
		if ((size_t)nj > total)
			printf("  %-10s  %7zu  %s\n", "-", (size_t)nj - total,
			       "(no ring: not drawn)");
		/* CRTC rows, below the rings: what the plugin has for each */
		nr = get_crtcs ? get_crtcs(trs[i].sd, &crtcs) : 0;
		for (r = 0; r < nr; r++) {
			int c;

			for (c = 0; c < trs[i].n_crtcs && trs[i].crtcs[c] != crtcs[r].crtc; c++)
				;
			printf("  crtc %d: row %d, %zu vblanks (%s), %zu frames, %zu late%s\n",
			       crtcs[r].crtc, crtcs[r].id, crtcs[r].n_vblanks,
			       crtcs[r].vbl_time ? "time" : "record", crtcs[r].n_frames,
			       crtcs[r].n_late, c < trs[i].n_crtcs ? "" : " (not in the session)");
		}
	}

	for (k = 0; k < n_rows; k++)
		free(rows[k]);
	free(rows);
out:
	kshark_close_all(kctx);
	kshark_free(kctx);
	return ret;
}

/* "T0,T1" in seconds (as trace-cmd report prints them) -> ns */
static int parse_range(const char *spec, uint64_t range[2])
{
	double t0, t1;
	char tail;

	if (sscanf(spec, "%lf,%lf%c", &t0, &t1, &tail) != 2 || !(t0 >= 0) || !(t1 > t0) ||
	    t1 > 1.8e10)
		return -1;
	range[0] = (uint64_t)(t0 * 1e9 + 0.5);
	range[1] = (uint64_t)(t1 * 1e9 + 0.5);
	return 0;
}

/*
 * The default view: the span with GPU jobs over all traces, with a margin of 2 % each
 * side, kept inside the traces. Nothing when no trace has jobs (the whole trace).
 */
static bool gpu_span(const struct trace_rings *trs, int n, uint64_t range[2])
{
	uint64_t a = GPULAT_NONE, b = 0, lo = GPULAT_NONE, hi = 0, m;
	int i;

	for (i = 0; i < n; i++) {
		if (trs[i].gpu_first == GPULAT_NONE)
			continue;
		if (trs[i].gpu_first < a)
			a = trs[i].gpu_first;
		if (trs[i].gpu_last > b)
			b = trs[i].gpu_last;
		if (trs[i].first_ts < lo)
			lo = trs[i].first_ts;
		if (trs[i].last_ts > hi && trs[i].last_ts != GPULAT_NONE)
			hi = trs[i].last_ts;
	}
	if (a == GPULAT_NONE)
		return false;
	m = (b - a) / 50 + 1000;
	range[0] = a - lo > m ? a - m : lo;
	range[1] = hi - b > m ? b + m : hi;
	if (range[1] <= range[0])
		range[1] = range[0] + 1000;
	return true;
}

int main(int argc, char **argv)
{
	const char *session = NULL, *plugin = default_plugin();
	const char *cpus = NULL;
	int width = DEFAULT_WIDTH, height = DEFAULT_HEIGHT;
	uint64_t range[2];
	bool quiet = false, list = false, whole = false, have_range = false;
	struct trace_rings *trs;
	int c, i, n, ret = 0;
	size_t k;

	opterr = 0;
	while ((c = getopt(argc, argv, "s:p:g:r:c:N:aqlh")) != -1) {
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
				fprintf(stderr,
					"%s: bad window size '%s' (want WxH, at least "
					"200x150)\n",
					prog, optarg);
				return 2;
			}
			break;
		case 'r':
			if (parse_range(optarg, range)) {
				fprintf(stderr,
					"%s: -r '%s': want T0,T1 in seconds ("
					"T0 < T1, e.g. 124.50,124.75)\n",
					prog, optarg);
				return 2;
			}
			have_range = true;
			break;
		case 'a':
			whole = true;
			break;
		case 'c':
			cpus = optarg;
			break;
		case 'N':
			prog = optarg;
			break;
		case 'l':
			list = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			if (optopt && strchr("spgrcN", optopt))
				fprintf(stderr, "%s: option -%c needs a value (see %s -h)\n", prog,
					optopt, prog);
			else
				fprintf(stderr, "%s: unknown option '%s' (see %s -h)\n", prog,
					argv[optind - 1], prog);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1) {
		fprintf(stderr, "%s: no trace file given (see %s -h)\n", prog, prog);
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
		if (quiet || list)
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

	if (list && list_rows(plugin, trs, n) < 0)
		ret = 1;
	if (!have_range && !whole)
		have_range = gpu_span(trs, n, range);
	if (session && write_session(session, plugin, trs, n, width, height,
				     have_range ? range : NULL, cpus) < 0)
		ret = 1;

out:
	for (i = 0; i < n; i++)
		free_rings(&trs[i]);
	free(trs);
	return ret;
}
