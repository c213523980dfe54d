// SPDX-License-Identifier: LGPL-2.1
/*
 * Background CPU activity (scheduler switches and wakeups, interrupts,
 * softirqs, frequency changes) so that GPU events are a minority of the
 * trace, as in a real capture.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "gen.h"

struct bg_task {
	int		pid;
	const char	*comm;
	int		prio;
};

/* index 0 is the idle task; its comm is per CPU (swapper/N) */
static const struct bg_task tasks[] = {
	{ 0, "swapper", 120 },
	{ 1, "systemd", 120 },
	{ 15, "rcu_preempt", 120 },
	{ 612, "systemd-journal", 120 },
	{ 845, "dbus-daemon", 120 },
	{ 1502, "pipewire", 109 },
	{ 1510, "wireplumber", 120 },
	{ 2101, "gnome-shell", 120 },
	{ 2240, "ibus-daemon", 120 },
	{ 3307, "bash", 120 },
	{ 3390, "kworker/1:2", 120 },
	{ 3391, "kworker/0:0", 120 },
	{ 4102, "firefox", 120 },
	{ 4150, "Socket Thread", 120 },
};

#define NTASKS ((int)(sizeof(tasks) / sizeof(tasks[0])))

static const struct { int irq; const char *name; } irqs[] = {
	{ 24, "nvme0q1" }, { 27, "enp5s0-rx-0" }, { 16, "i801_smbus" }, { 40, "xhci_hcd" },
};

static const uint32_t freqs[] = { 800000, 1400000, 2200000, 3000000, 3600000 };

static void task_set(struct gen_task *t, int cpu, int idx)
{
	t->pid = tasks[idx].pid;
	t->prio = tasks[idx].prio;
	if (idx)
		snprintf(t->comm, sizeof(t->comm), "%s", tasks[idx].comm);
	else
		snprintf(t->comm, sizeof(t->comm), "swapper/%d", cpu);
}

void bg_init(struct gen_sim *s)
{
	int c;

	for (c = 0; c < s->sc->cpus; c++) {
		task_set(&s->bg[c].cur, c, 1 + (int)rng_range(&s->rng, 0, NTASKS - 2));
		s->bg[c].freq = freqs[rng_range(&s->rng, 0, 4)];
	}
}

int bg_current_pid(struct gen_sim *s, int cpu)
{
	return s->bg[cpu].cur.pid;
}

static void emit(struct gen_sim *s, enum gen_ev ev, int cpu, uint8_t flags,
		 const struct gen_fval *v, int nv, uint64_t *t)
{
	uint64_t ts;

	gen_emit(s, ev, cpu, *t, bg_current_pid(s, cpu), flags, v, nv, &ts);
	*t = ts + rng_range(&s->rng, 300, 2500);
}

/* sched_waking of TASK, traced on CPU by whoever runs there */
void bg_wake(struct gen_sim *s, int cpu, const struct gen_task *task,
	     int target_cpu, uint64_t *t)
{
	struct gen_fval w[] = {
		FV_STR("comm", task->comm),
		FV_NUM("pid", (uint64_t)task->pid),
		FV_NUM("prio", (uint64_t)task->prio),
		FV_NUM("target_cpu", (uint64_t)target_cpu),
	};

	emit(s, EV_SCHED_WAKING, cpu, 0x01, w, 4, t);
}

/* sched_switch from the running task to NEXT (SLEEP: the previous one blocks) */
void bg_switch(struct gen_sim *s, int cpu, const struct gen_task *next,
	       bool sleep, uint64_t *t)
{
	struct gen_task *prev = &s->bg[cpu].cur;
	struct gen_fval v[] = {
		FV_STR("prev_comm", prev->comm),
		FV_NUM("prev_pid", (uint64_t)prev->pid),
		FV_NUM("prev_prio", (uint64_t)prev->prio),
		FV_NUM("prev_state", prev->pid && sleep ? 1 : 0),
		FV_STR("next_comm", next->comm),
		FV_NUM("next_pid", (uint64_t)next->pid),
		FV_NUM("next_prio", (uint64_t)next->prio),
	};

	if (prev->pid == next->pid)
		return;
	emit(s, EV_SCHED_SWITCH, cpu, 0x01, v, 7, t);
	*prev = *next;
}

void bg_switch_idle(struct gen_sim *s, int cpu, uint64_t *t)
{
	struct gen_task idle;

	task_set(&idle, cpu, 0);
	bg_switch(s, cpu, &idle, true, t);
}

static void wake_and_switch(struct gen_sim *s, int cpu, uint64_t t)
{
	int next = rng_pct(&s->rng, 25) ? 0 : 1 + (int)rng_range(&s->rng, 0, NTASKS - 2);
	struct gen_task task;

	task_set(&task, cpu, next);
	if (task.pid == bg_current_pid(s, cpu))
		task_set(&task, cpu, task.pid ? 0 : 1);
	if (task.pid)
		bg_wake(s, cpu, &task, cpu, &t);
	bg_switch(s, cpu, &task, rng_pct(&s->rng, 70), &t);
}

void bg_irq_entry(struct gen_sim *s, int cpu, int irq, const char *name, uint64_t *t)
{
	struct gen_fval v[] = {
		FV_NUM("irq", (uint64_t)irq),
		FV_STR("name", name),
	};

	emit(s, EV_IRQ_ENTRY, cpu, 0x09, v, 2, t);
}

void bg_irq_exit(struct gen_sim *s, int cpu, int irq, uint64_t *t)
{
	struct gen_fval v[] = {
		FV_NUM("irq", (uint64_t)irq),
		FV_NUM("ret", 1),
	};

	emit(s, EV_IRQ_EXIT, cpu, 0x09, v, 2, t);
}

static void softirq(struct gen_sim *s, int cpu, unsigned int vec, uint64_t *t)
{
	struct gen_fval v[] = { FV_NUM("vec", vec) };

	emit(s, EV_SOFTIRQ_ENTRY, cpu, 0x10, v, 1, t);
	*t += rng_range(&s->rng, 1000, 15000);
	emit(s, EV_SOFTIRQ_EXIT, cpu, 0x10, v, 1, t);
}

static void device_irq(struct gen_sim *s, int cpu, uint64_t t)
{
	int i = (int)rng_range(&s->rng, 0, 3);

	bg_irq_entry(s, cpu, irqs[i].irq, irqs[i].name, &t);
	t += rng_range(&s->rng, 500, 6000);
	bg_irq_exit(s, cpu, irqs[i].irq, &t);
	if (i < 2)
		softirq(s, cpu, i == 0 ? 4 : 3, &t);	/* BLOCK / NET_RX */
}

static void freq_change(struct gen_sim *s, int cpu, uint64_t t)
{
	struct gen_fval v[] = {
		FV_NUM("state", freqs[rng_range(&s->rng, 0, 4)]),
		FV_NUM("cpu_id", (uint64_t)cpu),
	};

	s->bg[cpu].freq = (uint32_t)v[0].num;
	emit(s, EV_CPU_FREQ, cpu, 0x01, v, 2, &t);
}

void bg_step(struct gen_sim *s, int cpu, uint64_t t)
{
	int r = (int)rng_range(&s->rng, 0, 99);

	if (r < 50)
		wake_and_switch(s, cpu, t);
	else if (r < 72)
		device_irq(s, cpu, t);
	else if (r < 94)
		softirq(s, cpu, rng_pct(&s->rng, 60) ? 1 : 9, &t);	/* TIMER / RCU */
	else
		freq_change(s, cpu, t);
}

/* saved_cmdlines: "pid comm" of every task that appears in the trace */
char *bg_cmdlines(const struct gen_sim *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int i;

	if (!fp)
		return NULL;
	for (i = 1; i < NTASKS; i++)
		fprintf(fp, "%d %s\n", tasks[i].pid, tasks[i].comm);
	for (i = 0; i < s->nprocs; i++)
		fprintf(fp, "%d %s\n", s->pcfg[i].pid, s->pcfg[i].comm);
	diag_cmdlines(s, fp);
	for (i = 0; i < s->sc->nrings; i++) {
		const struct gen_ring *r = &s->rings[i];
		int j, dup = 0;

		for (j = 0; j < i; j++)
			dup |= s->rings[j].worker_pid == r->worker_pid;
		if (!dup)
			fprintf(fp, "%d %s\n", r->worker_pid, r->worker_comm);
	}
	fclose(fp);
	return buf;
}
