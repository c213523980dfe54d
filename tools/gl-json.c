// SPDX-License-Identifier: LGPL-2.1
/*
 * --json: the whole report as one JSON document (json-c). Field names follow
 * docs/truth-format.md where the same thing is meant and are documented in
 * docs/gpu-latency.md; they are a stable interface. Nanoseconds everywhere;
 * null means "does not exist".
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "gpulat-report.h"
#include "gpulat-session.h"
#include "gpu-latency.h"

#ifndef GST_VERSION
#define GST_VERSION "0.0"
#endif

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *json_value(const struct gpulat_value *v)
{
	struct json_object *a;
	const char *p;
	size_t i;

	switch (v->type) {
	case GPULAT_V_U64:
		return json_object_new_uint64(v->u);
	case GPULAT_V_I64:
		return json_object_new_int64(v->i);
	case GPULAT_V_DOUBLE:
		return json_object_new_double(v->d);
	case GPULAT_V_STR:
		return json_object_new_string(gpulat_value_str(v));
	case GPULAT_V_BOOL:
		return json_object_new_boolean(v->b);
	case GPULAT_V_LIST:
		a = json_object_new_array();
		for (p = gpulat_value_str(v); *p;) {
			size_t n = strcspn(p, "|");

			json_object_array_add(a, json_object_new_string_len(p, (int)n));
			p += n;
			if (*p)
				p++;
		}
		return a;
	case GPULAT_V_ROWS:
		a = json_object_new_array();
		for (i = 0; i < v->n; i++)
			json_object_array_add(a, gl_json_row(v->rows, gpulat_value_row(v, i)));
		return a;
	default:
		return NULL;
	}
}

/* the value of the field @name of @row in @obj */
static struct json_object *json_field(enum gpulat_row row, const char *name, const void *obj)
{
	const struct gpulat_field *f = gpulat_field_find(row, name);
	struct gpulat_value v = { .sz = sizeof(v) };

	if (!f)
		return NULL;
	gpulat_field_get(f, obj, &v);
	return json_value(&v);
}

/**
 * gl_json_row - a row of the report model as a JSON object
 * @row: its row type
 * @obj: the row object
 *
 * Every field of the row type in table order (gpulat-report.h); optional
 * fields are left out when null. Return: a new object.
 */
struct json_object *gl_json_row(enum gpulat_row row, const void *obj)
{
	struct json_object *o = json_object_new_object();
	const struct gpulat_field *f;
	struct gpulat_value v = { .sz = sizeof(v) };
	size_t i;

	for (i = 0; (f = gpulat_field_at(row, i)); i++) {
		gpulat_field_get(f, obj, &v);
		if (v.type == GPULAT_V_NULL && (gpulat_field_flags(f) & GPULAT_FIELD_OPTIONAL))
			continue;
		add(o, gpulat_field_name(f), json_value(&v));
	}
	return o;
}

struct json_object *gl_json_summary(const struct gpulat_summary *s)
{
	return gl_json_row(GPULAT_ROW_SUMMARY, s);
}

static struct json_object *json_hist(const struct gpulat_hist *h)
{
	struct json_object *a = json_object_new_array();
	int i;

	for (i = 0; i < GPULAT_HIST_BUCKETS; i++) {
		struct json_object *b;

		if (!h->bucket[i])
			continue;
		b = json_object_new_object();
		add(b, "lo", json_object_new_uint64(i ? 1ULL << (i - 1) : 0));
		add(b, "hi", i < GPULAT_HIST_BUCKETS - 1 ? json_object_new_uint64(1ULL << i) :
		    NULL);
		add(b, "count", json_object_new_uint64(h->bucket[i]));
		json_object_array_add(a, b);
	}
	return a;
}

static struct json_object *json_group(const struct gl_run *r, enum gpulat_row row,
				      const struct gpulat_group *g)
{
	struct json_object *o = gl_json_row(row, g);
	struct json_object *hist = NULL;
	int m;

	if (r->opts->hist)
		hist = json_object_new_object();
	for (m = 0; m < GPULAT_M__COUNT; m++) {
		add(o, gpulat_metric_name(m), gl_json_summary(gpulat_report_summary(g, m)));
		if (hist)
			add(hist, gpulat_metric_name(m), json_hist(&g->h[m]));
	}
	if (hist)
		add(o, "hist", hist);
	return o;
}

/* every row of @row type of the report, as an array */
static struct json_object *json_rows(const struct gl_run *r, enum gpulat_row row)
{
	size_t i, n = gpulat_report_nrows(r->rep, row);
	struct json_object *a = json_object_new_array();

	for (i = 0; i < n; i++) {
		const void *obj = gpulat_report_row(r->rep, row, i);

		if (row == GPULAT_ROW_RING || row == GPULAT_ROW_PROCESS ||
		    row == GPULAT_ROW_CLIENT || row == GPULAT_ROW_DEVICE)
			json_object_array_add(a, json_group(r, row, obj));
		else
			json_object_array_add(a, gl_json_row(row, obj));
	}
	return a;
}

static struct json_object *json_filter(const struct gl_filter *f)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a;
	size_t i;

#define STRS(key, list) do {						\
		a = json_object_new_array();				\
		for (i = 0; i < (list).n; i++)				\
			json_object_array_add(a, json_object_new_string((list).v[i])); \
		add(o, key, a);						\
	} while (0)
	STRS("dev", f->devs);
	STRS("ring", f->rings);
	STRS("comm", f->comms);
#undef STRS
	a = json_object_new_array();
	for (i = 0; i < f->npids; i++)
		json_object_array_add(a, json_object_new_int(f->pids[i]));
	add(o, "pid", a);
	add(o, "start_ts", f->start_ns ? json_object_new_uint64(f->start_ns) : NULL);
	add(o, "end_ts", f->end_ns != UINT64_MAX ? json_object_new_uint64(f->end_ns) : NULL);
	return o;
}

/**
 * gl_json_run - the report of one run as a JSON object (without "jobs")
 * @r: a run after gl_run_read()
 *
 * Return: a new object (json_object_put() it), NULL on allocation failure.
 */
struct json_object *gl_json_run(const struct gl_run *r)
{
	struct json_object *o = json_object_new_object();
	const struct gpulat_field *f;
	struct json_object *a, *c;
	struct gpulat_value v = { .sz = sizeof(v) };
	size_t i, n;

#define TRACE(name) json_field(GPULAT_ROW_TRACE, name, r->rep)
	add(o, "tool", json_object_new_string(GL_NAME));
	add(o, "version", json_object_new_string(GST_VERSION));
	a = json_object_new_array();
	for (i = 0; i < r->nfiles; i++)
		json_object_array_add(a, json_object_new_string(r->files[i]));
	add(o, "files", a);
	add(o, "era", TRACE("era"));
	gl_textlog_json(r, o);
	add(o, "first_ts", TRACE("first_ts"));
	add(o, "last_ts", TRACE("last_ts"));
	add(o, "span_ns", TRACE("span_ns"));
	add(o, "cpus", TRACE("cpus"));
	/* rings that stopped completing (a hang), one line each: loud, near the top */
	add(o, "headlines", TRACE("headlines"));

	/* the trace fields that are not top-level members */
	c = json_object_new_object();
	for (i = 0; (f = gpulat_field_at(GPULAT_ROW_TRACE, i)); i++) {
		if (gpulat_field_flags(f) & GPULAT_FIELD_TOP)
			continue;
		gpulat_field_get(f, r->rep, &v);
		/* e.g. the diagnosis' counts without --explain / --fence-path */
		if (v.type == GPULAT_V_NULL && (gpulat_field_flags(f) & GPULAT_FIELD_OPTIONAL))
			continue;
		add(c, gpulat_field_name(f), json_value(&v));
	}
	add(o, "counts", c);

	add(o, "filter", json_filter(&r->opts->filter));
	add(o, "stall_threshold_ns", TRACE("stall_threshold_ns"));
	add(o, "devices", json_rows(r, GPULAT_ROW_DEVICE));
	add(o, "rings", json_rows(r, GPULAT_ROW_RING));
	add(o, "processes", json_rows(r, GPULAT_ROW_PROCESS));
	add(o, "clients", json_rows(r, GPULAT_ROW_CLIENT));
	add(o, "worst_by", json_object_new_string(gpulat_metric_name(r->opts->stats.worst_by)));
	add(o, "worst", json_rows(r, GPULAT_ROW_JOB));
	add(o, "depwaits", json_rows(r, GPULAT_ROW_DEPWAIT));
	add(o, "stalls", json_rows(r, GPULAT_ROW_STALL));
	add(o, "stalls_total", TRACE("stalls_total"));
	add(o, "idle_gaps_total", TRACE("idle_gaps_total"));

	a = json_object_new_array();
	n = gpulat_report_nkept(r->rep);
	for (i = 0; i < n; i++)
		json_object_array_add(a,
				      gl_json_row(GPULAT_ROW_JOB, gpulat_report_kept(r->rep, i)));
	add(o, "incomplete", a);
#undef TRACE
	return o;
}

/*
 * Print @o; with --jobs, splice the streamed job rows in as the last member,
 * "jobs", without ever holding them in memory.
 */
int gl_json_print(const struct gl_run *r, struct json_object *o, FILE *out)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_SPACED |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *end;
	int ret;

	if (!s)
		return -ENOMEM;
	if (!r || !r->jobs_tmp) {
		fprintf(out, "%s\n", s);
		return 0;
	}
	end = strrchr(s, '}');
	if (!end)
		return -EINVAL;
	/* drop the closing brace and the newline before it */
	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	fwrite(s, 1, (size_t)(end - s), out);
	fprintf(out, ",\n  \"jobs\": [");
	ret = gl_jobs_copy(r, out);
	fprintf(out, "\n  ]\n}\n");
	return ret;
}

int gl_json_report(const struct gl_run *r, FILE *out)
{
	struct json_object *o = gl_json_run(r);
	int ret;

	if (!o)
		return -ENOMEM;
	gl_diag_json(r, o);
	gl_frames_json(r, o);
	ret = gl_json_print(r, o, out);
	json_object_put(o);
	return ret;
}
