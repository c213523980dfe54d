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

/*
 * What the library's JSON writer (report-write.c, the one writer of a row's
 * values: --jobs streams its rows) wrote, read back as json-c objects to
 * assemble the document; @write writes into @f.
 */
static struct json_object *json_read(int (*write)(FILE *f, const void *a, const void *b),
				     const void *a, const void *b)
{
	struct json_object *o = NULL;
	enum json_tokener_error err = json_tokener_error_parse_eof;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (write(f, a, b) == 0 && fclose(f) == 0)
		o = json_tokener_parse_verbose(buf, &err);
	else
		err = json_tokener_error_parse_eof;
	/* "null" parses to NULL without an error */
	if (!o && err != json_tokener_success)
		fprintf(stderr, "%s: internal error: the report's JSON %.60s: %s\n", GL_NAME,
			buf ? buf : "", json_tokener_error_desc(err));
	free(buf);
	return o;
}

static int write_row(FILE *f, const void *row, const void *obj)
{
	return gpulat_report_json_row(f, *(const enum gpulat_row *)row, obj);
}

static int write_value(FILE *f, const void *field, const void *obj)
{
	return gpulat_report_json_value(f, field, obj);
}

/* the value of the field @name of @row in @obj */
static struct json_object *json_field(enum gpulat_row row, const char *name, const void *obj)
{
	const struct gpulat_field *f = gpulat_field_find(row, name);

	return f ? json_read(write_value, f, obj) : NULL;
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
	struct json_object *o = json_read(write_row, &row, obj);

	return o ? o : json_object_new_object();
}

struct json_object *gl_json_summary(const struct gpulat_summary *s)
{
	return gl_json_row(GPULAT_ROW_SUMMARY, s);
}

static struct json_object *json_hist(const struct gpulat_group *g, enum gpulat_metric m)
{
	struct json_object *a = json_object_new_array();
	struct gpulat_hist hist, *h = &hist;
	int i;

	gpulat_group_hist(g, m, h);
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
			add(hist, gpulat_metric_name(m), json_hist(g, m));
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
		struct json_object *v;

		if (gpulat_field_flags(f) & GPULAT_FIELD_TOP)
			continue;
		v = json_read(write_value, f, r->rep);
		/* e.g. the diagnosis' counts without --explain / --fence-path */
		if (!v && (gpulat_field_flags(f) & GPULAT_FIELD_OPTIONAL))
			continue;
		add(c, gpulat_field_name(f), v);
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
