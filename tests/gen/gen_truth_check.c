// SPDX-License-Identifier: LGPL-2.1
/*
 * gen_truth_check TRACE.dat TRACE.truth.json
 *
 * Reads a generated trace with libtracecmd and compares every GPU event
 * (gpu_scheduler, dma_fence, amdgpu, i915, xe, msm, v3d) with the truth file's "events" array:
 * same per-CPU order, timestamp, CPU, pid, event name and every field value
 * (read by name from the trace's own format). Also checks the event counts,
 * the number of events reported lost and that per-CPU time never goes back.
 * Exit 0 when everything matches, 1 otherwise (first mismatches printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#define MAX_CPUS	64
#define MAX_ERRORS	20

struct check {
	struct tep_handle	*tep;
	json_object		*events;	/* may be NULL */
	int			*queue[MAX_CPUS];	/* truth event indexes per CPU */
	int			nq[MAX_CPUS], pos[MAX_CPUS];
	unsigned long long	last_ts[MAX_CPUS];
	long long		total, gpu, lost;
	int			errors;
};

static void err(struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void err(struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->errors++ >= MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static bool is_gpu(const char *system)
{
	return !strcmp(system, "gpu_scheduler") || !strcmp(system, "dma_fence") ||
	       !strcmp(system, "amdgpu") || !strcmp(system, "i915") || !strcmp(system, "xe") ||
	       !strcmp(system, "drm_msm_gpu") || !strcmp(system, "v3d");
}

static const char *field_str(struct check *c, struct tep_format_field *f,
			     struct tep_record *rec)
{
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long v = tep_read_number(c->tep,
				(char *)rec->data + f->offset, f->size);

		return (char *)rec->data + (v & 0xffff);
	}
	if (f->flags & TEP_FIELD_IS_STRING || f->flags & TEP_FIELD_IS_ARRAY)
		return (char *)rec->data + f->offset;
	return NULL;
}

static void check_field(struct check *c, struct tep_event *ev, struct tep_record *rec,
			const char *key, json_object *want)
{
	struct tep_format_field *f = tep_find_field(ev, key);
	unsigned long long v = 0, w;
	const char *s;
	int i;

	if (!f) {
		err(c, "%s: no field %s in the trace format", ev->name, key);
		return;
	}
	switch (json_object_get_type(want)) {
	case json_type_string:
		s = field_str(c, f, rec);
		if (s && !(f->flags & TEP_FIELD_IS_POINTER)) {
			if (strcmp(s, json_object_get_string(want)))
				err(c, "%s@%llu: %s '%s' != truth '%s'", ev->name, rec->ts,
				    key, s, json_object_get_string(want));
			return;
		}
		/* pointers are hex strings in the truth */
		w = strtoull(json_object_get_string(want), NULL, 16);
		tep_read_number_field(f, rec->data, &v);
		if (v != w)
			err(c, "%s@%llu: %s 0x%llx != truth 0x%llx", ev->name, rec->ts, key, v, w);
		return;
	case json_type_array:
		for (i = 0; i < (int)json_object_array_length(want); i++) {
			v = tep_read_number(c->tep, (char *)rec->data + f->offset + 4 * i, 4);
			w = json_object_get_uint64(json_object_array_get_idx(want, i));
			if (v != w)
				err(c, "%s@%llu: %s[%d] %llu != truth %llu", ev->name,
				    rec->ts, key, i, v, w);
		}
		return;
	default:
		w = json_object_get_uint64(want);
		tep_read_number_field(f, rec->data, &v);
		if (f->size < 8)
			w &= (1ULL << (8 * f->size)) - 1;
		if (v != w)
			err(c, "%s@%llu: %s %llu != truth %llu", ev->name, rec->ts, key, v, w);
	}
}

static void check_event(struct check *c, struct tep_event *ev, struct tep_record *rec)
{
	int cpu = rec->cpu;
	json_object *t, *o;

	if (!c->events)
		return;
	if (c->pos[cpu] >= c->nq[cpu]) {
		err(c, "CPU %d: %s@%llu not in the truth", cpu, ev->name, rec->ts);
		return;
	}
	t = json_object_array_get_idx(c->events, c->queue[cpu][c->pos[cpu]++]);
	if (json_object_object_get_ex(t, "ts", &o) && json_object_get_uint64(o) != rec->ts)
		err(c, "CPU %d: %s ts %llu != truth %llu", cpu, ev->name, rec->ts,
		    (unsigned long long)json_object_get_uint64(o));
	if (json_object_object_get_ex(t, "name", &o) && strcmp(json_object_get_string(o), ev->name))
		err(c, "CPU %d @%llu: event %s != truth %s", cpu, rec->ts, ev->name,
		    json_object_get_string(o));
	if (json_object_object_get_ex(t, "pid", &o) &&
	    json_object_get_int(o) != tep_data_pid(c->tep, rec))
		err(c, "CPU %d @%llu: pid %d != truth %d", cpu, rec->ts,
		    tep_data_pid(c->tep, rec), json_object_get_int(o));
	if (json_object_object_get_ex(t, "fields", &o)) {
		json_object_object_foreach(o, key, val)
			check_field(c, ev, rec, key, val);
	}
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct check *c = data;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);

	(void)h;
	if (cpu >= MAX_CPUS || !ev) {
		err(c, "record on CPU %d without an event format", cpu);
		return 0;
	}
	if (rec->ts < c->last_ts[cpu])
		err(c, "CPU %d: time goes backwards at %llu", cpu, rec->ts);
	c->last_ts[cpu] = rec->ts;
	if (rec->missed_events > 0)
		c->lost += rec->missed_events;
	c->total++;
	if (!is_gpu(ev->system))
		return 0;
	c->gpu++;
	check_event(c, ev, rec);
	return 0;
}

static void queue_truth(struct check *c)
{
	int i, n = c->events ? (int)json_object_array_length(c->events) : 0;

	for (i = 0; i < n; i++) {
		json_object *o;
		int cpu;

		json_object_object_get_ex(json_object_array_get_idx(c->events, i), "cpu", &o);
		cpu = json_object_get_int(o);
		if (cpu < 0 || cpu >= MAX_CPUS)
			continue;
		c->queue[cpu] = realloc(c->queue[cpu], sizeof(int) * (c->nq[cpu] + 1));
		c->queue[cpu][c->nq[cpu]++] = i;
	}
}

static long long count(json_object *truth, const char *key)
{
	json_object *counts, *o;

	if (!json_object_object_get_ex(truth, "counts", &counts) ||
	    !json_object_object_get_ex(counts, key, &o))
		return -1;
	return json_object_get_int64(o);
}

int main(int argc, char **argv)
{
	struct check c = { 0 };
	struct tracecmd_input *h;
	json_object *truth;
	int cpu;

	if (argc != 3) {
		fprintf(stderr, "usage: gen_truth_check TRACE.dat TRACE.truth.json\n");
		return 2;
	}
	truth = json_object_from_file(argv[2]);
	h = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!truth || !h) {
		fprintf(stderr, "cannot open %s or %s\n", argv[1], argv[2]);
		return 2;
	}
	c.tep = tracecmd_get_tep(h);
	json_object_object_get_ex(truth, "events", &c.events);
	queue_truth(&c);
	tracecmd_iterate_events(h, NULL, 0, on_record, &c);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (c.pos[cpu] < c.nq[cpu])
			err(&c, "CPU %d: %d truth events not in the trace", cpu,
			    c.nq[cpu] - c.pos[cpu]);
		free(c.queue[cpu]);
	}
	if (c.total != count(truth, "events"))
		err(&c, "events: trace %lld != truth %lld", c.total, count(truth, "events"));
	if (c.gpu != count(truth, "gpu_events"))
		err(&c, "gpu_events: trace %lld != truth %lld", c.gpu, count(truth, "gpu_events"));
	if (c.lost != count(truth, "lost_events"))
		err(&c, "lost_events: trace %lld != truth %lld", c.lost, count(truth, "lost_events"));
	tracecmd_close(h);
	json_object_put(truth);
	printf("%s: %lld events, %lld GPU, %lld lost: %s (%d errors)\n", argv[1],
	       c.total, c.gpu, c.lost, c.errors ? "MISMATCH" : "ok", c.errors);
	return c.errors ? 1 : 0;
}
