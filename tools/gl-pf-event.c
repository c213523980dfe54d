// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto: packets of the track model. Track descriptors, track events
 * (slices, instants, counter values) with their arguments, and the interned
 * names every later packet refers to; all go to gl-pf-write.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl-pf-int.h"

static const char * const pf_names[PN__COUNT] = {
	[PN_WAIT]	= "wait",
	[PN_HW_QUEUE]	= "hw_queue",
	[PN_EXEC]	= "exec",
	[PN_SUBMIT]	= "submit",
	[PN_DEP]	= "dep",
};

static const char * const pf_argnames[PA__COUNT] = {
	[PA_JOB] = "job",
	[PA_PID] = "pid",
	[PA_COMM] = "comm",
	[PA_CLIENT] = "client_id",
	[PA_ID] = "id",
	[PA_FENCE_PTR] = "fence_ptr",
	[PA_CTX] = "fence_ctx",
	[PA_SEQNO] = "fence_seqno",
	[PA_WAIT] = "wait_ns",
	[PA_HW_QUEUE] = "hw_queue_ns",
	[PA_EXEC] = "exec_ns",
	[PA_TOTAL] = "total_ns",
	[PA_DEP_WAIT] = "dep_wait_ns",
	[PA_JOB_COUNT] = "job_count",
	[PA_HW_JOB_COUNT] = "hw_job_count",
	[PA_STATUS] = "status",
	[PA_LOST] = "lost_stages",
	[PA_QUEUE_CPU] = "queue_cpu",
	[PA_RUN_CPU] = "run_cpu",
	[PA_DONE_CPU] = "done_cpu",
	[PA_SIGNAL_TS] = "signal_ts",
	[PA_RING_NAME] = "ring_name",
	[PA_DEP] = "dep",
	[PA_DUR] = "dur_ns",
	[PA_START] = "start_ts",
	[PA_END] = "end_ts",
	[PA_DEPS] = "deps",
	[PA_CRTC] = "crtc",
	[PA_MISSED] = "missed_vblanks",
	[PA_CAUSE] = "cause",
	[PA_REQUEST_TS] = "request_ts",
	[PA_READY_TS] = "ready_ts",
	[PA_PRESENTED_TS] = "presented_ts",
	[PA_JOBS] = "jobs",
	[PA_VBL_SEQ] = "vblank_seq",
	[PA_RECORD_TS] = "record_ts",
};

int pf_emit(struct gl_pf *pf, pf_packet *p)
{
	int ret = gl_pfw_packet(&pf->w, p);

	if (ret < 0)
		pf->err = ret;
	return ret;
}

int pf_emit_track(struct gl_pf *pf, pf_track *t)
{
	pf_packet p = GST__PERFETTO__TRACE_PACKET__INIT;

	p.data_case = GST__PERFETTO__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
	p.track_descriptor = t;
	pf->c.tracks++;
	return pf_emit(pf, &p);
}

/* a named track under @parent (0: top level) */
uint64_t pf_new_track(struct gl_pf *pf, uint64_t parent, const char *name,
		      const char *description, bool counter)
{
	Gst__Perfetto__CounterDescriptor cd = GST__PERFETTO__COUNTER_DESCRIPTOR__INIT;
	pf_track t = GST__PERFETTO__TRACK_DESCRIPTOR__INIT;
	uint64_t uuid = pf->next_uuid++;

	t.has_uuid = true;
	t.uuid = uuid;
	if (parent) {
		t.has_parent_uuid = true;
		t.parent_uuid = parent;
	}
	t.static_or_dynamic_name_case = GST__PERFETTO__TRACK_DESCRIPTOR__STATIC_OR_DYNAMIC_NAME_NAME;
	t.name = (char *)name;
	t.description = (char *)description;
	if (counter) {
		cd.has_unit = true;
		cd.unit = GST__PERFETTO__COUNTER_DESCRIPTOR__UNIT__UNIT_COUNT;
		t.counter = &cd;
	}
	if (pf_emit_track(pf, &t) < 0)
		return 0;
	return uuid;
}

/* the interned names: the first packet of the sequence */
int pf_emit_interned(struct gl_pf *pf)
{
	Gst__Perfetto__EventName en[PN__COUNT], *enp[PN__COUNT];
	Gst__Perfetto__DebugAnnotationName an[PA__COUNT], *anp[PA__COUNT];
	Gst__Perfetto__InternedData id = GST__PERFETTO__INTERNED_DATA__INIT;
	pf_packet p = GST__PERFETTO__TRACE_PACKET__INIT;
	size_t i;

	for (i = 0; i < PN__COUNT; i++) {
		gst__perfetto__event_name__init(&en[i]);
		en[i].has_iid = true;
		en[i].iid = i + 1;
		en[i].name = (char *)pf_names[i];
		enp[i] = &en[i];
	}
	for (i = 0; i < PA__COUNT; i++) {
		gst__perfetto__debug_annotation_name__init(&an[i]);
		an[i].has_iid = true;
		an[i].iid = i + 1;
		an[i].name = (char *)pf_argnames[i];
		anp[i] = &an[i];
	}
	id.n_event_names = PN__COUNT;
	id.event_names = enp;
	id.n_debug_annotation_names = PA__COUNT;
	id.debug_annotation_names = anp;
	p.interned_data = &id;
	return pf_emit(pf, &p);
}

pf_arg *arg_new(struct pf_args *as, enum pf_argname name)
{
	pf_arg *a;

	if (as->n >= PF_MAX_ARGS)
		return NULL;
	a = &as->a[as->n];
	gst__perfetto__debug_annotation__init(a);
	a->name_field_case = GST__PERFETTO__DEBUG_ANNOTATION__NAME_FIELD_NAME_IID;
	a->name_iid = (uint64_t)name + 1;
	as->p[as->n] = a;
	as->n++;
	return a;
}

/* an unsigned value; GPULAT_NONE (not known) is left out */
void arg_u64(struct pf_args *as, enum pf_argname name, uint64_t v)
{
	pf_arg *a;

	if (v == GPULAT_NONE || !(a = arg_new(as, name)))
		return;
	a->value_case = GST__PERFETTO__DEBUG_ANNOTATION__VALUE_UINT_VALUE;
	a->uint_value = v;
}

void arg_int(struct pf_args *as, enum pf_argname name, int64_t v)
{
	pf_arg *a = arg_new(as, name);

	if (!a)
		return;
	a->value_case = GST__PERFETTO__DEBUG_ANNOTATION__VALUE_INT_VALUE;
	a->int_value = v;
}

void arg_ptr(struct pf_args *as, enum pf_argname name, uint64_t v)
{
	pf_arg *a;

	if (!v || v == GPULAT_NONE || !(a = arg_new(as, name)))
		return;
	a->value_case = GST__PERFETTO__DEBUG_ANNOTATION__VALUE_POINTER_VALUE;
	a->pointer_value = v;
}

/* @s must live until the event is emitted */
void arg_str(struct pf_args *as, enum pf_argname name, const char *s)
{
	pf_arg *a;

	if (!s || !(a = arg_new(as, name)))
		return;
	a->value_case = GST__PERFETTO__DEBUG_ANNOTATION__VALUE_STRING_VALUE;
	a->string_value = (char *)s;
}

/*
 * An upper bound of the packed size of a track event packet, from what it
 * holds: a varint takes at most 10 bytes, a tag here at most 2, a length at
 * most 5. Cheaper than protobuf-c's own walk (gl_pfw_event()).
 */
size_t ev_bound(const struct pf_ev *e)
{
	size_t n = 64 + 2 * (2 + 8);	/* fixed fields, two flow ids */
	size_t i;

	if (e->name)
		n += 7 + strlen(e->name);
	for (i = 0; e->args && i < e->args->n; i++) {
		const pf_arg *a = e->args->p[i];

		n += 7 + 11 + 11;
		if (a->value_case == GST__PERFETTO__DEBUG_ANNOTATION__VALUE_STRING_VALUE)
			n += 7 + strlen(a->string_value);
	}
	return n;
}

int pf_emit_event(struct gl_pf *pf, const struct pf_ev *e)
{
	Gst__Perfetto__TrackEventPacket p = GST__PERFETTO__TRACK_EVENT_PACKET__INIT;
	pf_event te = GST__PERFETTO__TRACK_EVENT__INIT;
	uint64_t flow = e->flow, term = e->term_flow;
	int ret;

	if ((e->type == PF_EV_END || e->type == PF_EV_COUNTER) && !e->args && !flow && !term) {
		Gst__Perfetto__TrackEventCorePacket cp =
			GST__PERFETTO__TRACK_EVENT_CORE_PACKET__INIT;
		Gst__Perfetto__TrackEventCore ce = GST__PERFETTO__TRACK_EVENT_CORE__INIT;

		cp.has_timestamp = true;
		cp.timestamp = e->ts;
		cp.track_event = &ce;
		ce.has_type = true;
		ce.type = e->type;
		ce.has_track_uuid = true;
		ce.track_uuid = e->track;
		if (e->counter) {
			ce.has_counter_value = true;
			ce.counter_value = e->value;
		}
		ret = gl_pfw_core(&pf->w, &cp);
		if (ret < 0)
			pf->err = ret;
		return ret;
	}

	p.has_timestamp = true;
	p.timestamp = e->ts;
	p.track_event = &te;
	te.has_type = true;
	te.type = e->type;
	te.has_track_uuid = true;
	te.track_uuid = e->track;
	if (e->iid) {
		te.name_field_case = GST__PERFETTO__TRACK_EVENT__NAME_FIELD_NAME_IID;
		te.name_iid = (uint64_t)e->iid;
	} else if (e->name) {
		te.name_field_case = GST__PERFETTO__TRACK_EVENT__NAME_FIELD_NAME;
		te.name = (char *)e->name;
	}
	if (e->args && e->args->n) {
		te.n_debug_annotations = e->args->n;
		te.debug_annotations = e->args->p;
	}
	if (flow) {
		te.n_flow_ids = 1;
		te.flow_ids = &flow;
	}
	if (term) {
		te.n_terminating_flow_ids = 1;
		te.terminating_flow_ids = &term;
	}
	if (e->counter) {
		te.counter_value_field_case =
			GST__PERFETTO__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
		te.counter_value = e->value;
	}
	/* interned: an iid name, or argument names (always iids) */
	ret = gl_pfw_event(&pf->w, &p, ev_bound(e), e->iid || (e->args && e->args->n));
	if (ret < 0)
		pf->err = ret;
	return ret;
}

int pf_slice(struct gl_pf *pf, uint64_t track, uint64_t b, uint64_t e, int iid,
	     const char *name, struct pf_args *args, uint64_t term_flow)
{
	struct pf_ev ev = {
		.ts = b, .track = track, .type = PF_EV_BEGIN, .iid = iid, .name = name,
		.args = args, .term_flow = term_flow,
	};

	if (pf_emit_event(pf, &ev) < 0)
		return -1;
	return pf_emit_event(pf, &(struct pf_ev){ .ts = e, .track = track, .type = PF_EV_END });
}
