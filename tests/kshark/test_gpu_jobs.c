// SPDX-License-Identifier: LGPL-2.1
/*
 * Headless test of the gpu_jobs KernelShark plugin: load traces through libkshark with
 * the plugin (as KernelShark does), then compare the plugin's jobs with the trace's
 * truth file (sample-traces/NAME.truth.json, docs/truth-format.md) or, for real
 * captures, facts file (sample-traces/real/NAME.facts.json).
 *
 *   test_gpu_jobs PLUGIN.so TRACE.dat EXPECT.json [TRACE.dat EXPECT.json ...]
 *       all traces are loaded together, one stream each (checks that streams do
 *       not mix); EXPECT "-" means "no GPU jobs expected" (plugin may decline).
 *
 * Checked per stream: the number of jobs per ring (device + ring label), and per ring,
 * in queue order, each job's queue/run/done timestamps (and CPUs when given).
 * Exit status: 0 pass, 1 fail, 77 skip.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "libkshark.h"
#include "libkshark-plugin.h"

#include "gpu_jobs.h"

struct exp_job {
	const char	*dev;
	const char	*ring;
	const char	*ring_ptr;	/* before 5.19: the traced address */
	uint64_t	ts[3];
	int		cpu[3];
};

static int failures;

#define FAIL(...) do { fprintf(stderr, "FAIL: " __VA_ARGS__); failures++; } while (0)

static uint64_t jts(json_object *job, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(job, key, &v) || json_object_get_type(v) == json_type_null)
		return GPULAT_NONE;
	return (uint64_t)json_object_get_int64(v);
}

static int jcpu(json_object *job, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(job, key, &v) || json_object_get_type(v) == json_type_null)
		return -1;
	return json_object_get_int(v);
}

static const char *jstr(json_object *o, const char *key, const char *def)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || json_object_get_type(v) != json_type_string)
		return def;
	return json_object_get_string(v);
}

static void lost_stages(json_object *job, struct exp_job *e)
{
	static const char *const names[] = { "queue", "run", "done" };
	json_object *arr;
	size_t i;

	if (!json_object_object_get_ex(job, "lost_stages", &arr) ||
	    json_object_get_type(arr) != json_type_array)
		return;
	for (i = 0; i < json_object_array_length(arr); i++) {
		const char *st = json_object_get_string(json_object_array_get_idx(arr, i));

		for (int s = 0; s < 3; s++) {
			if (st && !strcmp(st, names[s])) {
				e->ts[s] = GPULAT_NONE;
				e->cpu[s] = -1;
			}
		}
	}
}

static int exp_cmp(const void *a, const void *b)
{
	const struct exp_job *ja = a, *jb = b;
	int r = strcmp(ja->dev, jb->dev);

	if (r)
		return r;
	r = strcmp(ja->ring, jb->ring);
	if (r)
		return r;
	for (int s = 0; s < 3; s++)
		if (ja->ts[s] != jb->ts[s])
			return ja->ts[s] < jb->ts[s] ? -1 : 1;
	return 0;
}

/* "dev/ring", or "ring" without a device: spelled out here, not by the library */
static bool label_is(const char *label, const char *dev, const char *ring)
{
	size_t n = strlen(dev);

	if (!n)
		return !strcmp(label, ring);
	return !strncmp(label, dev, n) && label[n] == '/' && !strcmp(label + n + 1, ring);
}

static void ts_str(char *buf, size_t len, uint64_t ts)
{
	if (ts == GPULAT_NONE)
		snprintf(buf, len, "null");
	else
		snprintf(buf, len, "%" PRIu64, ts);
}

/*
 * The ring name the plugin shows for a truth job: before 5.19 the trace holds only the
 * name's address (ring_label); the drm_sched fence timelines name it (the generator's
 * ring) when dma_fence events were recorded. Set per stream from the truth's options.
 */
static bool named_rings;

static const char *shown_ring(json_object *tj)
{
	if (named_rings)
		return jstr(tj, "ring", "?");
	return jstr(tj, "ring_label", jstr(tj, "ring", "?"));
}

/* key of a job for matching: device, ring, queue time */
static bool same_job(json_object *tj, const char *dev, const char *ring, uint64_t q)
{
	return !strcmp(jstr(tj, "dev", ""), dev) && !strcmp(shown_ring(tj), ring) &&
	       jts(tj, "queue_ts") == q;
}

/*
 * Dependencies: every traced producer the truth names for a job must be the producer the
 * plugin links (what the dependency lines are drawn from), and no other.
 */
static void check_deps(const char *trace, json_object *jjobs, const struct plugin_gpujob *jobs,
		       ssize_t n, const struct plugin_gpujob_dep *deps, ssize_t nd)
{
	size_t n_truth = json_object_array_length(jjobs), checked = 0, i;
	json_object **by_index = calloc(n_truth + 1, sizeof(*by_index));

	for (i = 0; i < n_truth; i++) {
		json_object *tj = json_object_array_get_idx(jjobs, i), *v;

		if (json_object_object_get_ex(tj, "index", &v) &&
		    (size_t)json_object_get_int64(v) < n_truth)
			by_index[json_object_get_int64(v)] = tj;
	}

	for (ssize_t k = 0; k < n; k++) {
		const struct plugin_gpujob *job = &jobs[k];
		json_object *tj = NULL, *tdeps;
		size_t want = 0, got = 0;

		if (!job->ring || job->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
			continue;
		for (i = 0; i < n_truth && !tj; i++) {
			json_object *c = json_object_array_get_idx(jjobs, i);

			if (same_job(c, job->dev, job->ring, job->ts[GPULAT_ST_QUEUE]))
				tj = c;
		}
		if (!tj || !json_object_object_get_ex(tj, "deps", &tdeps) ||
		    json_object_get_type(tdeps) != json_type_array)
			continue;

		for (i = 0; i < json_object_array_length(tdeps); i++) {
			json_object *td = json_object_array_get_idx(tdeps, i), *ji;
			json_object *pj;
			bool found = false;

			if (!json_object_object_get_ex(td, "job_index", &ji) ||
			    json_object_get_type(ji) == json_type_null ||
			    (size_t)json_object_get_int64(ji) >= n_truth)
				continue;
			pj = by_index[json_object_get_int64(ji)];
			if (!pj || jts(pj, "queue_ts") == GPULAT_NONE)
				continue;
			want++;
			for (uint32_t d = 0; d < job->n_deps; d++) {
				ssize_t p = deps[job->dep_first + d].producer;

				if (p >= 0 && p < n && jobs[p].ring &&
				    same_job(pj, jobs[p].dev, jobs[p].ring,
					     jobs[p].ts[GPULAT_ST_QUEUE]))
					found = true;
			}
			if (!found)
				FAIL("%s: job q=%" PRIu64 " on %s: dependency on job q=%" PRIu64
				     " not linked\n", trace, job->ts[GPULAT_ST_QUEUE], job->ring,
				     jts(pj, "queue_ts"));
		}
		for (uint32_t d = 0; d < job->n_deps; d++)
			if (deps[job->dep_first + d].producer >= 0)
				got++;
		if (got > want)
			FAIL("%s: job q=%" PRIu64 " on %s: %zu producers linked, truth has %zu\n",
			     trace, job->ts[GPULAT_ST_QUEUE], job->ring, got, want);
		checked += want;
	}
	(void)nd;
	if (checked)
		printf("%s: %zu dependencies checked\n", trace, checked);
	free(by_index);
}

static void check_stream(const char *trace, const char *expect, int sd,
			 plugin_gpujob_get_jobs_fn get_jobs,
			 plugin_gpujob_get_rings_fn get_rings,
			 plugin_gpujob_get_deps_fn get_deps)
{
	const struct plugin_gpujob_dep *deps = NULL;
	ssize_t nd;
	const struct plugin_gpujob *jobs;
	const struct plugin_gpujob_ring *rings;
	struct exp_job *want, *got;
	json_object *root, *jjobs;
	size_t n_want, n_got = 0, i;
	ssize_t n, nr;

	n = get_jobs(sd, &jobs);
	nr = get_rings(sd, &rings);

	if (!strcmp(expect, "-")) {
		if (n > 0)
			FAIL("%s: %zd jobs from a trace without GPU jobs\n", trace, n);
		printf("%s: no GPU jobs, plugin %s\n", trace,
		       n == -ENODEV ? "declined the stream" : "found none");
		return;
	}
	if (n < 0 || nr < 0) {
		FAIL("%s: no plugin context for stream %d (%zd)\n", trace, sd, n);
		return;
	}
	/* gpu_jobs.h: the table is sorted by begin, then seq (the plugin permutes it in place) */
	for (i = 1; i < (size_t)n; i++) {
		if (jobs[i - 1].begin > jobs[i].begin ||
		    (jobs[i - 1].begin == jobs[i].begin && jobs[i - 1].seq >= jobs[i].seq)) {
			FAIL("%s: jobs %zu and %zu out of (begin, seq) order\n", trace, i - 1, i);
			break;
		}
	}

	root = json_object_from_file(expect);
	if (!root || !json_object_object_get_ex(root, "jobs", &jjobs)) {
		FAIL("%s: cannot read %s\n", trace, expect);
		json_object_put(root);
		return;
	}

	{
		json_object *opts, *df;

		named_rings = json_object_object_get_ex(root, "options", &opts) &&
			      json_object_object_get_ex(opts, "dma_fence", &df) &&
			      json_object_get_boolean(df);
	}
	n_want = json_object_array_length(jjobs);
	want = calloc(n_want + 1, sizeof(*want));
	got = calloc(n + 1, sizeof(*got));
	for (i = 0; i < n_want; i++) {
		json_object *j = json_object_array_get_idx(jjobs, i);

		want[i].dev = jstr(j, "dev", "");
		want[i].ring = shown_ring(j);
		want[i].ring_ptr = strcmp(jstr(j, "ring_label", ""), want[i].ring) ?
				   jstr(j, "ring_label", NULL) : NULL;
		want[i].ts[0] = jts(j, "queue_ts");
		want[i].ts[1] = jts(j, "run_ts");
		want[i].ts[2] = jts(j, "done_ts");
		want[i].cpu[0] = jcpu(j, "queue_cpu");
		want[i].cpu[1] = jcpu(j, "run_cpu");
		want[i].cpu[2] = jcpu(j, "done_cpu");
		/* a stage that fell into a lost-events region is not in the trace */
		lost_stages(j, &want[i]);
	}
	for (i = 0; i < (size_t)n; i++) {
		if (!jobs[i].ring || jobs[i].ts[GPULAT_ST_QUEUE] == GPULAT_NONE) {
			/* orphan (e.g. done without queue): no truth job can match it */
			got[n_got].dev = jobs[i].dev ? jobs[i].dev : "";
			got[n_got].ring = jobs[i].ring ? jobs[i].ring : "(none)";
		} else {
			got[n_got].dev = jobs[i].dev;
			got[n_got].ring = jobs[i].ring;
			got[n_got].ring_ptr = jobs[i].ring_ptr;
		}
		for (int s = 0; s < 3; s++) {
			got[n_got].ts[s] = jobs[i].ts[s];
			got[n_got].cpu[s] = jobs[i].cpu[s];
		}
		n_got++;
	}
	qsort(want, n_want, sizeof(*want), exp_cmp);
	qsort(got, n_got, sizeof(*got), exp_cmp);

	/* jobs per ring */
	for (i = 0; i < n_want;) {
		size_t e = i, cw = 0, cg = 0, k;

		while (e < n_want && !strcmp(want[e].dev, want[i].dev) &&
		       !strcmp(want[e].ring, want[i].ring))
			e++;
		cw = e - i;
		for (k = 0; k < n_got; k++)
			if (!strcmp(got[k].dev, want[i].dev) && !strcmp(got[k].ring, want[i].ring))
				cg++;
		if (cw != cg)
			FAIL("%s: ring '%s' dev '%s': %zu jobs, expected %zu\n", trace,
			     want[i].ring, want[i].dev, cg, cw);
		else
			printf("%s: ring '%s%s%s': %zu jobs ok\n", trace, want[i].ring,
			       want[i].dev[0] ? "@" : "", want[i].dev, cg);
		i = e;
	}
	if (n_got != n_want)
		FAIL("%s: %zu jobs in total, expected %zu\n", trace, n_got, n_want);

	/* each job's stage times, in (dev, ring, queue, run, done) order */
	for (i = 0; i < n_want && i < n_got; i++) {
		char a[3][32], b[3][32];
		int bad = 0;

		if (strcmp(want[i].dev, got[i].dev) || strcmp(want[i].ring, got[i].ring))
			bad = 1;
		/* the address the trace holds stays with the job */
		if (!want[i].ring_ptr != !got[i].ring_ptr ||
		    (want[i].ring_ptr && strcmp(want[i].ring_ptr, got[i].ring_ptr)))
			bad = 1;
		for (int s = 0; s < 3; s++) {
			if (want[i].ts[s] != got[i].ts[s])
				bad = 1;
			if (want[i].cpu[s] >= 0 && want[i].ts[s] != GPULAT_NONE &&
			    want[i].cpu[s] != got[i].cpu[s])
				bad = 1;
			ts_str(a[s], sizeof(a[s]), want[i].ts[s]);
			ts_str(b[s], sizeof(b[s]), got[i].ts[s]);
		}
		if (bad) {
			FAIL("%s: job %zu: want %s %s q=%s r=%s d=%s, got %s %s q=%s r=%s d=%s\n",
			     trace, i, want[i].dev, want[i].ring, a[0], a[1], a[2],
			     got[i].dev, got[i].ring, b[0], b[1], b[2]);
			if (failures > 20)
				break;
		}
	}

	/*
	 * every ring row has a synthetic id above any pid and the canonical label of a
	 * truth ring ("dev/ring", gpulat_ring_label), and every truth ring has its row
	 */
	for (i = 0; i < (size_t)nr; i++) {
		size_t k;

		if (rings[i].id <= 4194304 || !rings[i].label) {
			FAIL("%s: ring %zu: bad id %d / label\n", trace, i, rings[i].id);
			continue;
		}
		for (k = 0; k < n_want; k++)
			if (label_is(rings[i].label, want[k].dev, want[k].ring))
				break;
		if (k == n_want && rings[i].n_jobs)
			FAIL("%s: ring row '%s' names no truth ring\n", trace, rings[i].label);
	}
	for (i = 0; i < n_want; i++) {
		ssize_t k;

		for (k = 0; k < nr; k++)
			if (rings[k].label && label_is(rings[k].label, want[i].dev, want[i].ring))
				break;
		if (k == nr) {
			FAIL("%s: no ring row labelled for '%s' dev '%s'\n", trace, want[i].ring,
			     want[i].dev);
			break;
		}
	}

	/* dependency producers are named by truth files (generated traces) only */
	nd = get_deps(sd, &deps);
	if (nd >= 0 && json_object_object_get_ex(root, "generator", NULL))
		check_deps(trace, jjobs, jobs, n, deps, nd);

	printf("%s: %zu jobs, %zd rings checked against %s\n", trace, n_got, nr, expect);
	free(want);
	free(got);
	json_object_put(root);
}

int main(int argc, char **argv)
{
	struct kshark_context *kctx = NULL;
	struct kshark_plugin_list *plugin;
	struct kshark_entry **rows = NULL;
	plugin_gpujob_get_jobs_fn get_jobs;
	plugin_gpujob_get_rings_fn get_rings;
	plugin_gpujob_get_deps_fn get_deps;
	int n_traces, i, *sds;
	ssize_t n_rows, r;

	if (argc < 4 || (argc - 2) % 2) {
		fprintf(stderr, "usage: %s PLUGIN.so TRACE.dat EXPECT.json [TRACE EXPECT]...\n",
			argv[0]);
		return 2;
	}
	n_traces = (argc - 2) / 2;

	if (!kshark_instance(&kctx))
		return 1;

	plugin = kshark_register_plugin(kctx, "gpu_jobs", argv[1]);
	if (!plugin || !plugin->process_interface || !plugin->handle) {
		fprintf(stderr, "FAIL: cannot load plugin %s\n", argv[1]);
		return 1;
	}
	get_jobs = (plugin_gpujob_get_jobs_fn)dlsym(plugin->handle, "plugin_gpujob_get_jobs");
	get_rings = (plugin_gpujob_get_rings_fn)dlsym(plugin->handle, "plugin_gpujob_get_rings");
	get_deps = (plugin_gpujob_get_deps_fn)dlsym(plugin->handle, "plugin_gpujob_get_deps");
	if (!get_jobs || !get_rings || !get_deps) {
		fprintf(stderr, "FAIL: plugin exports no accessor\n");
		return 1;
	}

	sds = calloc(n_traces, sizeof(*sds));
	for (i = 0; i < n_traces; i++) {
		struct kshark_data_stream *stream;
		struct kshark_dpi_list *dpi;

		sds[i] = kshark_open(kctx, argv[2 + 2 * i]);
		if (sds[i] < 0) {
			fprintf(stderr, "FAIL: cannot open %s\n", argv[2 + 2 * i]);
			return 1;
		}
		stream = kshark_get_data_stream(kctx, sds[i]);
		/* the plugin must be registered and initialized BEFORE loading */
		dpi = kshark_register_plugin_to_stream(stream, plugin->process_interface, true);
		r = kshark_handle_dpi(stream, dpi, KSHARK_PLUGIN_INIT);
		printf("%s: stream %d, plugin init -> %zd\n", argv[2 + 2 * i], sds[i], r);
	}

	n_rows = kshark_load_all_entries(kctx, &rows);
	if (n_rows <= 0) {
		fprintf(stderr, "FAIL: no entries loaded (%zd)\n", n_rows);
		return 1;
	}
	printf("%zd entries loaded from %d stream(s)\n", n_rows, n_traces);

	for (i = 0; i < n_traces; i++)
		check_stream(argv[2 + 2 * i], argv[3 + 2 * i], sds[i], get_jobs, get_rings,
			     get_deps);

	/*
	 * KernelShark reloads the data (filters, appended files) without always closing the
	 * plugins: the second load must replace what the first one collected.
	 */
	for (ssize_t k = 0; k < n_rows; k++)
		free(rows[k]);
	free(rows);
	rows = NULL;
	n_rows = kshark_load_all_entries(kctx, &rows);
	printf("reloaded: %zd entries\n", n_rows);
	for (i = 0; i < n_traces; i++)
		check_stream(argv[2 + 2 * i], argv[3 + 2 * i], sds[i], get_jobs, get_rings,
			     get_deps);

	/* close as KernelShark does: plugins first (through the streams), then data */
	for (ssize_t k = 0; k < n_rows; k++)
		free(rows[k]);
	free(rows);
	kshark_close_all(kctx);
	kshark_free(kctx);
	free(sds);

	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("PASS\n");
	return 0;
}
