// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto-sched: sched_switch and sched_waking as Perfetto ftrace event
 * bundles, one bundle per CPU every PF_SCHED_BATCH events (in time order per
 * CPU, as Perfetto's ftrace importer expects), so that the CPU timeline sits
 * beside the GPU tracks. Thread names come from the trace's saved cmdlines.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl-pf-int.h"

static struct pf_cpu *pf_cpu(struct gl_pf *pf, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((size_t)cpu >= pf->ncpus) {
		size_t n = (size_t)cpu + 1;
		struct pf_cpu **tmp = realloc(pf->cpus, n * sizeof(*tmp));

		if (!tmp) {
			pf->err = -ENOMEM;
			return NULL;
		}
		memset(tmp + pf->ncpus, 0, (n - pf->ncpus) * sizeof(*tmp));
		pf->cpus = tmp;
		pf->ncpus = n;
	}
	if (!pf->cpus[cpu]) {
		pf->cpus[cpu] = calloc(1, sizeof(struct pf_cpu));
		if (!pf->cpus[cpu])
			pf->err = -ENOMEM;
	}
	return pf->cpus[cpu];
}

static int sched_flush(struct gl_pf *pf, int cpu, struct pf_cpu *c)
{
	Gst__Perfetto__FtraceEventBundle b = GST__PERFETTO__FTRACE_EVENT_BUNDLE__INIT;
	pf_packet p = GST__PERFETTO__TRACE_PACKET__INIT;
	int ret;

	if (!c->n)
		return 0;
	b.has_cpu = true;
	b.cpu = (uint32_t)cpu;
	b.n_event = c->n;
	b.event = c->evp;
	p.data_case = GST__PERFETTO__TRACE_PACKET__DATA_FTRACE_EVENTS;
	p.ftrace_events = &b;
	ret = pf_emit(pf, &p);
	c->n = 0;
	return ret;
}

static const char *comm_of(struct gl_pf *pf, int file, int pid)
{
	const char *c = pf->opts.comm ? pf->opts.comm(pf->opts.data, file, pid) : NULL;

	return c ? c : "";
}

int pf_sched_event(struct gl_pf *pf, const struct gpulat_event *ev, int file)
{
	struct pf_cpu *c = pf_cpu(pf, ev->cpu);
	Gst__Perfetto__FtraceEvent *fe;

	if (!c)
		return pf->err;
	fe = &c->ev[c->n];
	gst__perfetto__ftrace_event__init(fe);
	fe->has_timestamp = true;
	fe->timestamp = ev->ts;
	fe->has_pid = true;
	fe->pid = (uint32_t)ev->pid;
	if (ev->kind == GPULAT_EV_SCHED_SWITCH) {
		Gst__Perfetto__SchedSwitchFtraceEvent *sw = &c->data[c->n].sw;

		gst__perfetto__sched_switch_ftrace_event__init(sw);
		sw->prev_comm = (char *)comm_of(pf, file, ev->prev_pid);
		sw->has_prev_pid = true;
		sw->prev_pid = ev->prev_pid;
		sw->has_prev_state = true;
		sw->prev_state = ev->prev_state;
		sw->next_comm = (char *)comm_of(pf, file, ev->next_pid);
		sw->has_next_pid = true;
		sw->next_pid = ev->next_pid;
		fe->event_case = GST__PERFETTO__FTRACE_EVENT__EVENT_SCHED_SWITCH;
		fe->sched_switch = sw;
	} else {
		Gst__Perfetto__SchedWakingFtraceEvent *wk = &c->data[c->n].wk;

		gst__perfetto__sched_waking_ftrace_event__init(wk);
		wk->comm = (char *)comm_of(pf, file, ev->next_pid);
		wk->has_pid = true;
		wk->pid = ev->next_pid;
		wk->has_success = true;
		wk->success = 1;
		if (ev->irq >= 0) {
			wk->has_target_cpu = true;
			wk->target_cpu = ev->irq;
		}
		fe->event_case = GST__PERFETTO__FTRACE_EVENT__EVENT_SCHED_WAKING;
		fe->sched_waking = wk;
	}
	c->evp[c->n] = fe;
	pf->c.sched_events++;
	if (++c->n == PF_SCHED_BATCH)
		return sched_flush(pf, ev->cpu, c);
	return 0;
}

/* the batches still open, at the end of the export */
void pf_sched_flush_all(struct gl_pf *pf)
{
	size_t i;

	for (i = 0; i < pf->ncpus; i++)
		if (pf->cpus[i])
			sched_flush(pf, (int)i, pf->cpus[i]);
}

void pf_sched_free(struct gl_pf *pf)
{
	size_t i;

	for (i = 0; i < pf->ncpus; i++)
		free(pf->cpus[i]);
	free(pf->cpus);
	pf->cpus = NULL;
	pf->ncpus = 0;
}
