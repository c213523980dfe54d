// SPDX-License-Identifier: LGPL-2.1
/*
 * Emit one trace event: clamp its time so that each CPU's clock never goes
 * backwards, drop it when it falls into a lost-events window, encode it into
 * the CPU's page stream and record GPU events for the truth file.
 */
#include <stdlib.h>

#include <json-c/json.h>

#include "gen.h"

static bool in_lost_window(const struct gen_sim *s, int cpu, uint64_t t)
{
	int i;

	for (i = 0; i < s->sc->nlost; i++) {
		const struct gen_lost_cfg *l = &s->sc->lost[i];
		uint64_t a = s->t0 + l->start;

		if (l->cpu == cpu && t >= a && t < a + l->len)
			return true;
	}
	return false;
}

static json_object *fval_json(const struct gen_fval *v)
{
	char buf[32];
	json_object *a;
	int i;

	switch (v->kind) {
	case FK_NUM:
		return json_object_new_uint64(v->num);
	case FK_PTR:
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v->num);
		return json_object_new_string(buf);
	case FK_STR:
		return json_object_new_string(v->str);
	case FK_U32ARR:
		a = json_object_new_array();
		for (i = 0; i < v->n; i++)
			json_object_array_add(a, json_object_new_uint64(v->arr[i]));
		return a;
	}
	return NULL;
}

static void truth_line(struct gen_sim *s, const struct gen_format *fmt, int cpu,
		       uint64_t ts, int pid, uint8_t flags,
		       const struct gen_fval *v, int nv)
{
	json_object *o = json_object_new_object();
	json_object *f = json_object_new_object();
	int i;

	json_object_object_add(o, "ts", json_object_new_uint64(ts));
	json_object_object_add(o, "cpu", json_object_new_int(cpu));
	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "flags", json_object_new_int(flags));
	json_object_object_add(o, "system", json_object_new_string(fmt->system));
	json_object_object_add(o, "name", json_object_new_string(fmt->name));
	for (i = 0; i < nv; i++)
		json_object_object_add(f, v[i].name, fval_json(&v[i]));
	json_object_object_add(o, "fields", f);
	fprintf(s->ev_truth, "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

bool gen_emit(struct gen_sim *s, enum gen_ev ev, int cpu, uint64_t want,
	      int pid, uint8_t flags, const struct gen_fval *v, int nv,
	      uint64_t *ts)
{
	const struct gen_format *fmt = s->fmts->ev[ev];
	uint8_t buf[512];
	uint64_t t;
	bool drop;
	int len;

	t = want > s->cpu_last[cpu] ? want : s->cpu_last[cpu];
	if (ts)
		*ts = t;
	s->last_dropped = false;
	if (!fmt)
		return false;
	s->cpu_last[cpu] = t;
	drop = in_lost_window(s, cpu, t);
	s->last_dropped = drop;
	len = gen_encode(fmt, flags, (flags & 0x08) ? 1 : 0, pid, v, nv,
			 buf, sizeof(buf));
	if (len < 0) {
		fprintf(stderr, "gpu-trace-gen: cannot encode %s\n", fmt->name);
		abort();
	}
	if (s->pages && gen_pages_write(s->pages, cpu, t, buf, len, drop)) {
		fprintf(stderr, "gpu-trace-gen: page write failed (%s)\n", fmt->name);
		abort();
	}
	if (drop) {
		s->lost_events++;
		return false;
	}
	s->events++;
	diag_account(s, ev, cpu, t);
	if (fmt->gpu) {
		s->gpu_events++;
		if (s->ev_truth)
			truth_line(s, fmt, cpu, t, pid, flags, v, nv);
	}
	return true;
}
