// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-job output (--jobs with --json or --csv) and the bounded sample of
 * incomplete / lost / orphan jobs the reports list.
 *
 * Job rows are streamed into a temporary file while the trace is read (so
 * memory does not grow with the number of jobs) and copied into the report
 * once reading succeeded: stdout never sees a partial report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "gpu-latency.h"

const char *gl_status_name(enum gpulat_job_status st)
{
	switch (st) {
	case GPULAT_JOB_COMPLETE:
		return "complete";
	case GPULAT_JOB_INCOMPLETE:
		return "incomplete";
	case GPULAT_JOB_LOST:
		return "lost";
	case GPULAT_JOB_ORPHAN:
		return "orphan";
	}
	return "?";
}

const char *gl_stage_name(enum gpulat_stage st)
{
	static const char * const names[GPULAT_ST__COUNT] = {
		[GPULAT_ST_QUEUE]	= "queue",
		[GPULAT_ST_RUN]		= "run",
		[GPULAT_ST_DONE]	= "done",
		[GPULAT_ST_SIGNAL]	= "signal",
	};

	return (unsigned int)st < GPULAT_ST__COUNT ? names[st] : "?";
}

/* ------------------------------------------------------------------------ */
/* JSON rows                                                                  */

static struct json_object *j_u64(uint64_t v)
{
	return v == GPULAT_NONE ? NULL : json_object_new_uint64(v);
}

static struct json_object *j_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static struct json_object *j_hex(uint64_t v)
{
	char buf[32];

	if (!v || v == GPULAT_NONE)
		return NULL;
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
	return json_object_new_string(buf);
}

/* the job object of --json --jobs; field names are part of the interface */
struct json_object *gl_json_job(const struct gpulat_job *job)
{
	struct json_object *o = json_object_new_object();
	struct json_object *lost = json_object_new_array();
	struct json_object *deps = json_object_new_array();
	struct json_object *hang = json_object_new_array();
	unsigned int i;
	int st;

	json_object_object_add(o, "index", json_object_new_uint64(job->seq));
	json_object_object_add(o, "dev", json_object_new_string(job->dev ? job->dev : ""));
	json_object_object_add(o, "ring", j_str(job->ring));
	if (job->ring_ptr)
		json_object_object_add(o, "ring_ptr", j_str(job->ring_ptr));
	json_object_object_add(o, "file", json_object_new_int(job->file));
	json_object_object_add(o, "pid", json_object_new_int(job->pid));
	json_object_object_add(o, "comm", j_str(job->comm));
	json_object_object_add(o, "client_id", j_u64(job->client_id));
	json_object_object_add(o, "id", j_u64(job->id));
	json_object_object_add(o, "fence_ptr", j_hex(job->fence_ptr));
	json_object_object_add(o, "fence_ctx", j_u64(job->ctx));
	json_object_object_add(o, "fence_seqno", j_u64(job->ctx == GPULAT_NONE ?
							GPULAT_NONE : job->seqno));
	json_object_object_add(o, "status", json_object_new_string(gl_status_name(job->status)));
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		char key[32];

		snprintf(key, sizeof(key), "%s_ts", gl_stage_name(st));
		json_object_object_add(o, key, j_u64(job->ts[st]));
		snprintf(key, sizeof(key), "%s_cpu", gl_stage_name(st));
		json_object_object_add(o, key, job->ts[st] == GPULAT_NONE ? NULL :
				       json_object_new_int(job->cpu[st]));
	}
	json_object_object_add(o, "start_ts", j_u64(job->start_ts));
	json_object_object_add(o, "wait", j_u64(job->wait));
	json_object_object_add(o, "hw_queue", j_u64(job->hw_queue));
	json_object_object_add(o, "exec", j_u64(job->exec));
	json_object_object_add(o, "total", j_u64(job->total));
	json_object_object_add(o, "dep_wait", j_u64(job->dep_wait));
	/* measured or inferred start, exact or late done (lib: gpulat_timing_*) */
	json_object_object_add(o, "start_timing",
			       job->start_ts == GPULAT_NONE ?
				       NULL :
				       json_object_new_string(gpulat_timing_start(job)));
	json_object_object_add(o, "done_timing",
			       job->ts[GPULAT_ST_DONE] == GPULAT_NONE ?
				       NULL :
				       json_object_new_string(gpulat_timing_done(job)));
	for (i = 0; gpulat_hang_name(i); i++)
		if (job->hang & (1u << i))
			json_object_array_add(hang, json_object_new_string(gpulat_hang_name(i)));
	json_object_object_add(o, "hang", hang);
	json_object_object_add(o, "job_count", json_object_new_uint64(job->job_count));
	json_object_object_add(o, "hw_job_count", json_object_new_int(job->hw_job_count));
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (job->lost_stages & (1u << st))
			json_object_array_add(lost, json_object_new_string(gl_stage_name(st)));
	}
	json_object_object_add(o, "lost_stages", lost);
	for (i = 0; job->deps && i < job->n_deps; i++) {
		const struct gpulat_dep *d = &job->deps[i];
		struct json_object *jd = json_object_new_object();

		json_object_object_add(jd, "fence_ctx", j_u64(d->ctx));
		json_object_object_add(jd, "fence_seqno", j_u64(d->seqno));
		json_object_object_add(jd, "fence_ptr", j_hex(d->ptr));
		json_object_object_add(jd, "job_index", j_u64(d->job_seq));
		json_object_object_add(jd, "dev", j_str(d->dev));
		json_object_object_add(jd, "ring", j_str(d->ring));
		json_object_object_add(jd, "signal_ts", j_u64(d->signal_ts));
		json_object_object_add(jd, "unschedulable",
				       json_object_new_boolean(d->unschedulable));
		json_object_array_add(deps, jd);
	}
	json_object_object_add(o, "n_deps", json_object_new_uint64(job->n_deps));
	json_object_object_add(o, "deps", deps);
	return o;
}

/*
 * The same object written directly (--json --jobs streams one per job: no
 * json-c objects, no allocation). Keep the members and their order in step
 * with gl_json_job(); tests/tools compares both.
 */
static void jw_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void jw_u64(FILE *out, uint64_t v)
{
	if (v == GPULAT_NONE)
		fputs("null", out);
	else
		fprintf(out, "%llu", (unsigned long long)v);
}

static void jw_hex(FILE *out, uint64_t v)
{
	if (!v || v == GPULAT_NONE)
		fputs("null", out);
	else
		fprintf(out, "\"0x%llx\"", (unsigned long long)v);
}

#define JW_KEY(out, k)	fputs(",\"" k "\":", out)

static void job_json_row(FILE *out, const struct gpulat_job *job)
{
	bool first = true;
	unsigned int i;
	int st;

	fprintf(out, "{\"index\":%llu", (unsigned long long)job->seq);
	JW_KEY(out, "dev");
	jw_str(out, job->dev ? job->dev : "");
	JW_KEY(out, "ring");
	jw_str(out, job->ring);
	if (job->ring_ptr) {
		JW_KEY(out, "ring_ptr");
		jw_str(out, job->ring_ptr);
	}
	fprintf(out, ",\"file\":%d,\"pid\":%d", job->file, job->pid);
	JW_KEY(out, "comm");
	jw_str(out, job->comm);
	JW_KEY(out, "client_id");
	jw_u64(out, job->client_id);
	JW_KEY(out, "id");
	jw_u64(out, job->id);
	JW_KEY(out, "fence_ptr");
	jw_hex(out, job->fence_ptr);
	JW_KEY(out, "fence_ctx");
	jw_u64(out, job->ctx);
	JW_KEY(out, "fence_seqno");
	jw_u64(out, job->ctx == GPULAT_NONE ? GPULAT_NONE : job->seqno);
	fprintf(out, ",\"status\":\"%s\"", gl_status_name(job->status));
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		fprintf(out, ",\"%s_ts\":", gl_stage_name(st));
		jw_u64(out, job->ts[st]);
		fprintf(out, ",\"%s_cpu\":", gl_stage_name(st));
		if (job->ts[st] == GPULAT_NONE)
			fputs("null", out);
		else
			fprintf(out, "%d", job->cpu[st]);
	}
	JW_KEY(out, "start_ts");
	jw_u64(out, job->start_ts);
	JW_KEY(out, "wait");
	jw_u64(out, job->wait);
	JW_KEY(out, "hw_queue");
	jw_u64(out, job->hw_queue);
	JW_KEY(out, "exec");
	jw_u64(out, job->exec);
	JW_KEY(out, "total");
	jw_u64(out, job->total);
	JW_KEY(out, "dep_wait");
	jw_u64(out, job->dep_wait);
	JW_KEY(out, "start_timing");
	jw_str(out, job->start_ts == GPULAT_NONE ? NULL : gpulat_timing_start(job));
	JW_KEY(out, "done_timing");
	jw_str(out, job->ts[GPULAT_ST_DONE] == GPULAT_NONE ? NULL : gpulat_timing_done(job));
	fputs(",\"hang\":[", out);
	for (i = 0; gpulat_hang_name(i); i++) {
		if (!(job->hang & (1u << i)))
			continue;
		fprintf(out, "%s\"%s\"", first ? "" : ",", gpulat_hang_name(i));
		first = false;
	}
	first = true;
	fputs("]", out);
	fprintf(out, ",\"job_count\":%u,\"hw_job_count\":%d,\"lost_stages\":[",
		job->job_count, job->hw_job_count);
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (!(job->lost_stages & (1u << st)))
			continue;
		fprintf(out, "%s\"%s\"", first ? "" : ",", gl_stage_name(st));
		first = false;
	}
	fprintf(out, "],\"n_deps\":%u,\"deps\":[", job->n_deps);
	for (i = 0; job->deps && i < job->n_deps; i++) {
		const struct gpulat_dep *d = &job->deps[i];

		fputs(i ? ",{\"fence_ctx\":" : "{\"fence_ctx\":", out);
		jw_u64(out, d->ctx);
		JW_KEY(out, "fence_seqno");
		jw_u64(out, d->seqno);
		JW_KEY(out, "fence_ptr");
		jw_hex(out, d->ptr);
		JW_KEY(out, "job_index");
		jw_u64(out, d->job_seq);
		JW_KEY(out, "dev");
		jw_str(out, d->dev);
		JW_KEY(out, "ring");
		jw_str(out, d->ring);
		JW_KEY(out, "signal_ts");
		jw_u64(out, d->signal_ts);
		fprintf(out, ",\"unschedulable\":%s}", d->unschedulable ? "true" : "false");
	}
	fputs("]}", out);
}

/* ------------------------------------------------------------------------ */
/* CSV rows                                                                   */

/* RFC 4180: quote fields with a comma, quote or line break */
void gl_csv_str(FILE *out, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* empty for "does not exist" */
void gl_csv_u64(FILE *out, uint64_t v)
{
	if (v != GPULAT_NONE)
		fprintf(out, "%llu", (unsigned long long)v);
}

#define GL_JOB_CSV_HEADER \
	"index,dev,ring,pid,comm,client_id,id,fence_ptr,fence_ctx,fence_seqno,status," \
	"queue_ts,queue_cpu,run_ts,run_cpu,done_ts,done_cpu,signal_ts,signal_cpu," \
	"start_ts,wait,hw_queue,exec,total,dep_wait,job_count,hw_job_count,n_deps," \
	"lost_stages\n"

void gl_job_csv_header(FILE *out)
{
	fputs(GL_JOB_CSV_HEADER, out);
}

static void job_csv(FILE *out, const struct gpulat_job *job)
{
	bool first = true;
	int st;

	fprintf(out, "%llu,", (unsigned long long)job->seq);
	gl_csv_str(out, job->dev);
	fputc(',', out);
	gl_csv_str(out, job->ring);
	fprintf(out, ",%d,", job->pid);
	gl_csv_str(out, job->comm);
	fputc(',', out);
	gl_csv_u64(out, job->client_id);
	fputc(',', out);
	gl_csv_u64(out, job->id);
	fputc(',', out);
	if (job->fence_ptr && job->fence_ptr != GPULAT_NONE)
		fprintf(out, "0x%llx", (unsigned long long)job->fence_ptr);
	fputc(',', out);
	gl_csv_u64(out, job->ctx);
	fputc(',', out);
	gl_csv_u64(out, job->ctx == GPULAT_NONE ? GPULAT_NONE : job->seqno);
	fprintf(out, ",%s", gl_status_name(job->status));
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		fputc(',', out);
		gl_csv_u64(out, job->ts[st]);
		fputc(',', out);
		if (job->ts[st] != GPULAT_NONE)
			fprintf(out, "%d", job->cpu[st]);
	}
	fputc(',', out);
	gl_csv_u64(out, job->start_ts);
	fputc(',', out);
	gl_csv_u64(out, job->wait);
	fputc(',', out);
	gl_csv_u64(out, job->hw_queue);
	fputc(',', out);
	gl_csv_u64(out, job->exec);
	fputc(',', out);
	gl_csv_u64(out, job->total);
	fputc(',', out);
	gl_csv_u64(out, job->dep_wait);
	fprintf(out, ",%u,%d,%u,", job->job_count, job->hw_job_count, job->n_deps);
	for (st = 0; st < GPULAT_ST__COUNT; st++) {
		if (!(job->lost_stages & (1u << st)))
			continue;
		fprintf(out, "%s%s", first ? "" : "|", gl_stage_name(st));
		first = false;
	}
	fputc('\n', out);
}

/* ------------------------------------------------------------------------ */

int gl_jobs_open(struct gl_run *r)
{
	r->jobs_tmp = tmpfile();
	return r->jobs_tmp ? 0 : -errno;
}

int gl_jobs_write(struct gl_run *r, const struct gpulat_job *job)
{
	if (r->opts->format == GL_FMT_CSV) {
		job_csv(r->jobs_tmp, job);
	} else {
		fputs(r->jobs_rows ? ",\n    " : "\n    ", r->jobs_tmp);
		job_json_row(r->jobs_tmp, job);
	}
	r->jobs_rows++;
	return ferror(r->jobs_tmp) ? -EIO : 0;
}

/* copy the streamed rows into the report */
int gl_jobs_copy(const struct gl_run *r, FILE *out)
{
	char buf[65536];
	size_t len;

	if (!r->jobs_tmp)
		return 0;
	if (fflush(r->jobs_tmp) || fseek(r->jobs_tmp, 0, SEEK_SET))
		return -errno;
	while ((len = fread(buf, 1, sizeof(buf), r->jobs_tmp)) > 0) {
		if (fwrite(buf, 1, len, out) != len)
			return -EIO;
	}
	return ferror(r->jobs_tmp) ? -EIO : 0;
}
