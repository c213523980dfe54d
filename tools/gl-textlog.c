// SPDX-License-Identifier: LGPL-2.1
/*
 * What the report says about a text-log input (lib/read-text.c): that the
 * input was text, its layout, the resolution of its timestamps, the job
 * stages absent from it (a grep-filtered log keeps only one process's queue
 * events) and the metrics those stages make underivable, and the lines it
 * could not use. Nothing is printed for a trace.dat.
 */
#include <json-c/json.h>

#include "gpulat-text.h"
#include "gpu-latency.h"

/* metrics that need a stage: wait (queue, run), hw_queue (run), exec, total (done) */
static const char *lost_metrics(unsigned int missing)
{
	bool q = missing & (1u << GPULAT_ST_QUEUE), r = missing & (1u << GPULAT_ST_RUN);
	bool d = missing & (1u << GPULAT_ST_DONE);

	if (d && (q || r))
		return "no wait, hw_queue, exec or total";
	if (d)
		return "no exec or total";
	if (q && r)
		return "no wait, hw_queue or total";
	if (q)
		return "no wait or total";
	if (r)
		return "no wait or hw_queue";
	return NULL;
}

static void stage_list(unsigned int missing, char *buf, size_t len)
{
	size_t off = 0;
	int st;

	buf[0] = '\0';
	for (st = 0; st < GPULAT_ST__COUNT && off < len; st++) {
		int w;

		if (!(missing & (1u << st)))
			continue;
		w = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", gpulat_stage_name(st));
		if (w < 0)
			break;
		off += (size_t)w;
	}
}

/* "  input        text log (tracefs), timestamps to 1 us; ..." */
void gl_textlog_header(const struct gl_run *r, FILE *out)
{
	struct gpulat_text_info in;
	char res[32], stages[64];
	const char *m;

	if (gpulat_text_session_info(r->session, &in) < 0)
		return;
	fprintf(out, "  %-12s text log (%s%s%s), timestamps to %s%s", "input",
		gpulat_text_layout_name(in.layout), in.plugin ? ", gpu_sched plugin" : "",
		in.hashed ? ", hashed pointers" : "", gpulat_text_resolution(in.resolution_ns,
									  res, sizeof(res)),
		in.raw_clock ? " (raw clock counter, not seconds)" : "");
	if (in.layout == GPULAT_TEXT_LATENCY)
		fprintf(out, ", counted from the buffer's start");
	if (in.era_guessed)
		fprintf(out, "; era guessed (queue events only)");
	fputc('\n', out);
	/* the finished-fence signal is optional: only the job stages matter here */
	in.missing_stages &= ~(1u << GPULAT_ST_SIGNAL);
	if (in.missing_stages) {
		stage_list(in.missing_stages, stages, sizeof(stages));
		m = lost_metrics(in.missing_stages);
		fprintf(out, "  %-12s %s (not in the log%s%s)\n", "not derived", stages,
			m ? ": " : "", m ? m : "");
	}
	if (in.unparsed || in.bad_args || in.cut)
		fprintf(out, "  %-12s %llu lines not parsed, %llu GPU lines of no known format, "
			"%llu refused by the kernel's string check\n", "text lines",
			(unsigned long long)in.unparsed, (unsigned long long)in.bad_args,
			(unsigned long long)in.cut);
}

/* "input": {"format": "text", ...} in --json; nothing for a trace.dat */
void gl_textlog_json(const struct gl_run *r, struct json_object *o)
{
	struct gpulat_text_info in;
	struct json_object *t, *a;
	int st;

	if (gpulat_text_session_info(r->session, &in) < 0)
		return;
	t = json_object_new_object();
	json_object_object_add(t, "format", json_object_new_string("text"));
	json_object_object_add(t, "layout",
			       json_object_new_string(gpulat_text_layout_name(in.layout)));
	json_object_object_add(t, "plugin", json_object_new_boolean(in.plugin));
	json_object_object_add(t, "hashed_pointers", json_object_new_boolean(in.hashed));
	json_object_object_add(t, "resolution_ns", json_object_new_uint64(in.resolution_ns));
	json_object_object_add(t, "raw_clock", json_object_new_boolean(in.raw_clock));
	json_object_object_add(t, "era_guessed", json_object_new_boolean(in.era_guessed));
	a = json_object_new_array();
	for (st = 0; st < GPULAT_ST__COUNT; st++)
		if (in.missing_stages & (1u << st))
			json_object_array_add(a, json_object_new_string(gpulat_stage_name(st)));
	json_object_object_add(t, "missing_stages", a);
	json_object_object_add(t, "lines", json_object_new_uint64(in.lines));
	json_object_object_add(t, "unparsed_lines", json_object_new_uint64(in.unparsed));
	json_object_object_add(t, "unknown_format_lines", json_object_new_uint64(in.bad_args));
	json_object_object_add(t, "refused_strings", json_object_new_uint64(in.cut));
	json_object_object_add(o, "input", t);
}
