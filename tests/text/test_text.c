// SPDX-License-Identifier: LGPL-2.1
/*
 * The text reader line by line: every layout (tracefs with and without the
 * header, irq-info, TGID, latency-format; trace-cmd report with and without
 * our plugin), the print formats of every era, the kernel's refused strings,
 * lost-event markers, and the errors. Each input is written to a pipe.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpulat.h"
#include "gpulat-text.h"
#include "gpulat-int.h"
#include "text-int.h"

#define NONE	GPULAT_NONE
#define MAXJ	16
#define MAXE	64

struct got {
	struct gpulat_job	j[MAXJ];
	int			n;
	struct gpulat_event	e[MAXE];
	int			ne;
	int			warns;
	char			last_warn[512];
	struct gpulat_text_info	info;
	char			err[512];
	int			ret;
	struct gpulat_text	*x;
	/* kept until done(): the jobs' strings are interned by the tracker */
	struct gpulat_tracker	*t;
};

static void on_job(const struct gpulat_job *job, void *data)
{
	struct got *g = data;

	assert_true(g->n < MAXJ);
	g->j[g->n] = *job;
	g->j[g->n].deps = NULL;
	g->n++;
}

static void on_warn(const char *msg, void *data)
{
	struct got *g = data;

	g->warns++;
	snprintf(g->last_warn, sizeof(g->last_warn), "%s", msg);
}

static int on_event(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct got *g = data;

	assert_null(rec);
	assert_int_equal(file, 0);
	if (g->ne < MAXE)
		g->e[g->ne++] = *ev;
	return 0;
}

static int pipe_of(const char *text)
{
	int fd[2];
	size_t n = strlen(text);

	assert_true(n < 60000);	/* fits a pipe: no reader thread needed */
	assert_int_equal(pipe(fd), 0);
	assert_int_equal(write(fd[1], text, n), (ssize_t)n);
	close(fd[1]);
	return fd[0];
}

/* open + run @text; g->x stays open (its strings), freed by done() */
static int run(struct got *g, const char *text)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	struct gpulat_tracker *t;
	int fd = pipe_of(text);

	memset(g, 0, sizeof(*g));
	g->x = gpulat_text_open_fd(fd, "test.log", g->err, sizeof(g->err));
	if (!g->x) {
		close(fd);
		return g->ret = -errno;
	}
	gpulat_text_set_warn(g->x, on_warn, g);
	t = gpulat_tracker_new(&ops, g);
	assert_non_null(t);
	g->ret = gpulat_text_run(g->x, t, on_event, g, g->err, sizeof(g->err));
	gpulat_text_info(g->x, &g->info);
	if (g->ret < 0)
		gpulat_tracker_free(t);	/* nothing to look at; test_errors runs again */
	else
		g->t = t;
	close(fd);
	return g->ret;
}

static void done(struct got *g)
{
	gpulat_text_close(g->x);
	g->x = NULL;
	if (g->t)
		gpulat_tracker_free(g->t);
	g->t = NULL;
}

#define US(s, us)	((uint64_t)(s) * 1000000000ULL + (uint64_t)(us) * 1000ULL)

/* ------------------------------------------------------------------------ */

/* tracefs `trace` of a Debian 6.1 kernel (5.19-6.16 layout): hashed %p, irq-info */
static const char tracefs_61[] =
"# tracer: nop\n"
"#\n"
"# entries-in-buffer/entries-written: 5/5   #P:2\n"
"#\n"
"#                                _-----=> irqs-off/BH-disabled\n"
"#                               / _----=> need-resched\n"
"#                              | / _---=> hardirq/softirq\n"
"#                              || / _--=> preempt-depth\n"
"#                              ||| / _-=> migrate-disable\n"
"#                              |||| /     delay\n"
"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
"#              | |         |   |||||     |         |\n"
"        glxgears-131     [001] .....     5.998040: drm_sched_job: entity=00000000b1e0a8d2, "
	"id=1, fence=000000004b4ec9c5, ring=gfx, job count:0, hw job count:0\n"
"            gfx-127     [001] .....     5.999038: drm_run_job: entity=00000000b1e0a8d2, "
	"id=1, fence=000000004b4ec9c5, ring=gfx, job count:0, hw job count:1\n"
"          <idle>-0       [000] d.h1.     6.001727: drm_sched_process_job: "
	"fence=000000004b4ec9c5 signaled\n"
"          <idle>-0       [000] d.h1.     6.001729: dma_fence_signaled: driver=drm_sched "
	"timeline=gfx context=7 seqno=1\n"
"     kworker/0:1-31      [000] .....     6.002000: sched_switch: prev_comm=kworker/0:1 "
	"prev_pid=31 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120\n";

static void test_tracefs_irq_info(void **state)
{
	struct got g;
	(void)state;

	assert_int_equal(run(&g, tracefs_61), 0);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.j[0].status, GPULAT_JOB_COMPLETE);
	assert_string_equal(g.j[0].ring, "gfx");
	assert_int_equal(g.j[0].id, 1);
	assert_int_equal(g.j[0].fence_ptr, 0x4b4ec9c5);	/* hashed, as printed */
	assert_int_equal(g.j[0].ts[GPULAT_ST_QUEUE], US(5, 998040));
	assert_int_equal(g.j[0].ts[GPULAT_ST_RUN], US(5, 999038));
	assert_int_equal(g.j[0].ts[GPULAT_ST_DONE], US(6, 1727));
	assert_int_equal(g.j[0].cpu[GPULAT_ST_DONE], 0);
	assert_int_equal(g.j[0].pid, 131);
	assert_string_equal(g.j[0].comm, "glxgears");
	assert_int_equal(g.info.layout, GPULAT_TEXT_TRACEFS);
	assert_string_equal(g.info.tracer, "nop");
	assert_true(g.info.hashed);
	assert_true(g.info.irq_info);
	assert_int_equal(g.info.resolution_ns, 1000);
	assert_int_equal(g.info.era, GPULAT_ERA_V519);
	assert_int_equal(g.info.cpus, 2);
	assert_int_equal(g.info.events, 5);
	assert_int_equal(g.info.unparsed, 0);
	/* the done fired in hard irq: "d.h1." */
	assert_int_equal(g.e[2].kind, GPULAT_EV_DONE);
	assert_true(g.e[2].flags & GPULAT_EVF_HARDIRQ);
	assert_false(g.e[0].flags & GPULAT_EVF_HARDIRQ);
	/* sched_switch: the runnable state is 0, I is not */
	assert_int_equal(g.e[4].kind, GPULAT_EV_SCHED_SWITCH);
	assert_int_equal(g.e[4].prev_pid, 31);
	assert_int_equal(g.e[4].next_pid, 0);
	assert_int_not_equal(g.e[4].prev_state, 0);
	assert_int_equal(g.info.missing_stages, 0);
	done(&g);
}

/* trace_pipe: no header, no irq-info, a comm with blanks and a dash, TGID column */
static void test_trace_pipe_layouts(void **state)
{
	static const char pipe_txt[] =
	"  Web Content-x-4410    [003]  1234.000010: drm_sched_job: entity=00000000b1e0a8d2, "
		"id=7, fence=00000000aaaa0001, ring=gfx, job count:2, hw job count:1\n"
	"            gfx-127     (    127) [001]  1234.000020: drm_run_job: entity=00000000b1e0a8d2, "
		"id=7, fence=00000000aaaa0001, ring=gfx, job count:1, hw job count:2\n"
	"          <idle>-0     (-------) [000] d.h.  1234.000050: drm_sched_process_job: "
		"fence=00000000aaaa0001 signaled\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, pipe_txt), 0);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.j[0].comm, "Web Content-x");
	assert_int_equal(g.j[0].pid, 4410);
	assert_int_equal(g.j[0].cpu[GPULAT_ST_QUEUE], 3);
	assert_int_equal(g.j[0].ts[GPULAT_ST_RUN], US(1234, 20));
	assert_int_equal(g.j[0].job_count, 2);
	assert_int_equal(g.j[0].hw_job_count, 2);
	assert_int_equal(g.j[0].wait, 10000);
	assert_int_equal(g.j[0].exec, 30000);
	assert_string_equal(g.info.tracer, "");
	assert_int_equal(g.info.unparsed, 0);
	assert_int_equal(g.info.cpus, 4);
	done(&g);
}

/* latency-format: "%8.8s-%-7d %3d" + flags, then microseconds since the start */
static void test_latency_format(void **state)
{
	static const char lat[] =
	"# tracer: nop\n"
	"#\n"
	"# nop latency trace v1.1.5 on 6.1.0-57-amd64\n"
	"# --------------------------------------------------------------------\n"
	"#  cmd     pid     |||||| time  |   caller\n"
	"#     \\   /        ||||||  \\    |    /\n"
	"glxgears-131       1.....    0us : drm_sched_job: entity=00000000b1e0a8d2, id=1, "
		"fence=000000004b4ec9c5, ring=gfx, job count:0, hw job count:0\n"
	"     gfx-127       1.....  998us+: drm_run_job: entity=00000000b1e0a8d2, id=1, "
		"fence=000000004b4ec9c5, ring=gfx, job count:0, hw job count:1\n"
	"  <idle>-0         0d.h1. 3687us : drm_sched_process_job: fence=000000004b4ec9c5 signaled\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, lat), 0);
	assert_int_equal(g.info.layout, GPULAT_TEXT_LATENCY);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.j[0].comm, "glxgears");
	assert_int_equal(g.j[0].ts[GPULAT_ST_RUN], 998000);
	assert_int_equal(g.j[0].ts[GPULAT_ST_DONE], 3687000);
	assert_int_equal(g.j[0].cpu[GPULAT_ST_DONE], 0);
	assert_int_equal(g.info.resolution_ns, 1000);
	assert_int_equal(g.info.unparsed, 0);
	done(&g);
}

/*
 * 5.12-5.18 tracefs: the `const char *` ring name fails the string check:
 * "(0x<ptr>:<name>)[UNSAFE-MEMORY]", or "(0x<ptr>)[UNSAFE-MEMORY]" when the
 * read faulted; 6.13+ replaces a refused event by "EVENT ...: HAS UNSAFE".
 */
static void test_unsafe_strings(void **state)
{
	static const char cut[] =
	"        glxgears-131     [001] .....     5.000001: drm_sched_job: entity=00000000b1e0a8d2, "
		"id=1, fence=000000004b4ec9c5, ring=(0xffff888103f0a2c8:gfx)[UNSAFE-MEMORY], "
		"job count:0, hw job count:0\n"
	"            gfx-127     [001] .....     5.000002: drm_run_job: entity=00000000b1e0a8d2, "
		"id=1, fence=000000004b4ec9c5, ring=(0xffff888103f0a2c8)[UNSAFE-MEMORY], "
		"job count:0, hw job count:1\n"
	"            gfx-127     [001] .....     5.000003: drm_run_job: EVENT drm_run_job: "
		"HAS UNSAFE POINTER FIELD 'name'\n"
	"          <idle>-0       [000] d.h1.     5.000009: drm_sched_process_job: "
		"fence=000000004b4ec9c5 signaled\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, cut), 0);
	assert_int_equal(g.n, 1);
	/* the label bind.c gives a const char * ring: the same jobs as binary */
	assert_string_equal(g.j[0].ring, "0xffff888103f0a2c8");
	assert_true(g.e[0].flags & GPULAT_EVF_RING_PTR);
	assert_int_equal(g.j[0].ts[GPULAT_ST_RUN], US(5, 2));
	assert_int_equal(g.info.cut, 3);
	assert_int_equal(g.info.first_cut_line, 1);
	assert_int_equal(g.info.era, GPULAT_ERA_V57);
	assert_int_equal(g.info.unparsed, 0);
	assert_int_equal(g.info.bad_args, 0);
	assert_true(g.warns >= 1);
	done(&g);
}

/* 6.17+ formats, a dependency, nanosecond timestamps, the raw clock */
static void test_617(void **state)
{
	static const char t617[] =
	"cpus=4\n"
	"            Xorg-1234  [001]   123.456943001: drm_sched_job_queue:  dev=0000:03:00.0, "
		"fence=1038:1, ring=gfx, job count:0, hw job count:0, client_id:1\n"
	"            Xorg-1234  [001]   123.456943002: drm_sched_job_add_dep: fence=1038:1 "
		"depends on fence=1030:5\n"
	"            Xorg-1234  [001]   123.456943003: drm_sched_job_unschedulable: fence=1038:1 "
		"depends on unsignalled fence=1030:5\n"
	"    kworker/u8:1-131   [003]   123.456960000: drm_sched_job_run:    dev=0000:03:00.0, "
		"fence=1038:1, ring=gfx, job count:0, hw job count:1, client_id:1\n"
	"          <idle>-0     [002]   123.457960000: drm_sched_job_done:   fence=1038:1 signaled\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, t617), 0);
	assert_int_equal(g.info.layout, GPULAT_TEXT_REPORT);
	assert_int_equal(g.info.era, GPULAT_ERA_V617);
	assert_int_equal(g.info.resolution_ns, 1);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.j[0].dev, "0000:03:00.0");
	assert_int_equal(g.j[0].ctx, 1038);
	assert_int_equal(g.j[0].seqno, 1);
	assert_int_equal(g.j[0].client_id, 1);
	assert_int_equal(g.j[0].ts[GPULAT_ST_QUEUE], 123456943001ULL);
	assert_int_equal(g.j[0].n_deps, 1);
	assert_int_equal(g.e[1].kind, GPULAT_EV_DEP);
	assert_int_equal(g.e[1].dep_ctx, 1030);
	assert_int_equal(g.e[1].dep_seqno, 5);
	assert_int_equal(g.e[2].kind, GPULAT_EV_UNSCHED);
	/* no dma_fence_signaled in this log */
	assert_int_equal(g.info.missing_stages, 1u << GPULAT_ST_SIGNAL);
	done(&g);
}

/* trace-cmd report with plugin_gpu_sched loaded: its own vocabulary */
static void test_plugin_vocabulary(void **state)
{
	static const char plug[] =
	"cpus=4\n"
	"         blender-4410  [001]   123.457092: dma_fence_init:       driver=drm_sched "
		"timeline=sdma0 fence=1038:1\n"
	"         blender-4410  [001]   123.457092: amdgpu_cs_ioctl:      ring=sdma0 job=sdma0#1 "
		"finished=1038:1 ibs=2\n"
	"         blender-4410  [001]   123.457093: drm_sched_job:        ring=0xffff888103f0a2c8 "
		"job=0xffff888103f0a2c8#1 fence=b2f8 depth=0 hw=0\n"
	"           sdma0-480   [003]   123.457108: drm_run_job:          ring=0xffff888103f0a2c8 "
		"job=0xffff888103f0a2c8#1 fence=b2f8 depth=0 hw=1 wait=15.000us\n"
	"      comp_1.0.0-481   [003]   123.457112: drm_sched_job_wait_dep: ring=0xffff888103f0d2c8 "
		"job=0xffff888103f0d2c8#1 dep=1038:1\n"
	"          <idle>-0     [003]   123.457500: drm_sched_process_job: ring=0xffff888103f0a2c8 "
		"job=0xffff888103f0a2c8#1 fence=b2f8 finished=1038:1 pid=4410 exec=392.000us\n"
	"\n"
	"gpu_sched: job latency summary, 5.7-6.16 era, 123.457092 - 123.457500\n"
	"  ring           process              jobs\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, plug), 0);
	assert_true(g.info.plugin);
	assert_int_equal(g.info.layout, GPULAT_TEXT_REPORT);
	assert_int_equal(g.info.unparsed, 0);
	assert_int_equal(g.info.bad_args, 0);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.j[0].ring, "0xffff888103f0a2c8");
	assert_int_equal(g.j[0].id, 1);
	assert_int_equal(g.j[0].fence_ptr, 0xb2f8);
	assert_int_equal(g.j[0].ts[GPULAT_ST_DONE], US(123, 457500));
	assert_int_equal(g.j[0].status, GPULAT_JOB_COMPLETE);
	assert_int_equal(g.e[1].kind, GPULAT_EV_AMD_CS);
	assert_int_equal(g.e[1].id, 1);
	assert_true(g.e[1].flags & GPULAT_EVF_FENCE32);
	assert_int_equal(g.e[4].kind, GPULAT_EV_DEP);
	assert_int_equal(g.e[4].dep_ctx, 1038);
	assert_int_equal(g.e[4].id, 1);
	done(&g);
}

/* lines that are neither events nor headers are counted, never dropped silently */
static void test_unparsed_counted(void **state)
{
	static const char bad[] =
	"            Xorg-1234  [001]   123.000001: drm_sched_job_queue:  dev=0000:03:00.0, "
		"fence=1038:1, ring=gfx, job count:0, hw job count:0, client_id:1\n"
	"this line is no event line\n"
	"CPU:1 [LOST 12 EVENTS]\n"
	"            Xorg-1234  [001]   123.000002: drm_sched_job_queue:  dev=0000:03:00.0, "
		"fence=garbage\n"
	"          <idle>-0     [001]   123.000900: drm_sched_job_done:   fence=1038:1 signaled\n"
	"     kworker/0:1-31    [000]   123.001000: drm_sched_job_done:   fence=99:1 sig";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, bad), 0);
	assert_int_equal(g.info.unparsed, 1);
	assert_int_equal(g.info.first_unparsed_line, 2);
	/* the cut last line (no newline, its print format broken) and the garbage */
	assert_int_equal(g.info.bad_args, 2);
	assert_int_equal(g.info.first_bad_line, 4);
	assert_int_equal(g.info.lost_events, 12);
	assert_int_equal(g.info.lost_gaps, 1);
	assert_int_equal(g.info.lines, 6);
	assert_int_equal(g.n, 1);
	/* no run: it may be among the events lost on cpu 1 after the queue */
	assert_int_equal(g.j[0].status, GPULAT_JOB_LOST);
	assert_int_equal(g.j[0].lost_stages, 1u << GPULAT_ST_RUN);
	assert_true(g.warns >= 3);
	done(&g);
}

static void test_errors(void **state)
{
	struct got g;
	(void)state;

	/* not ftrace text */
	assert_int_equal(run(&g, "hello\nworld\n"), -EINVAL);
	assert_non_null(strstr(g.err, "test.log: not a trace-cmd data file nor an ftrace text log"));
	assert_null(strchr(g.err, '\n'));
	/* empty */
	assert_int_equal(run(&g, ""), -ENODATA);
	assert_non_null(strstr(g.err, "empty"));
	/* the function_graph tracer, with and without its header */
	assert_int_equal(run(&g, "# tracer: function_graph\n#\n"
			      " 1)   0.123 us    |  do_sys_open();\n"), -EPROTO);
	assert_non_null(strstr(g.err, "function_graph"));
	assert_int_equal(run(&g, " 0)               |  drm_sched_main() {\n"
			      " 0)   0.301 us    |    drm_sched_select_entity();\n"), -EPROTO);
	assert_non_null(strstr(g.err, "function_graph"));
	/* events, but none of the GPU scheduler: a one-line error */
	assert_int_equal(run(&g, "# tracer: function\n"
			      "            bash-1  [000] ....   1.000001: do_sys_open <-x64_sys_call\n"
			      "            bash-1  [000] ....   1.000002: sched_switch: prev_comm=bash "
			      "prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=a next_pid=2 "
			      "next_prio=120\n"), -ENODATA);
	assert_non_null(strstr(g.err, "no GPU scheduler events"));
	assert_non_null(strstr(g.err, "tracer function"));
	done(&g);
}

/* a grep of one process: only its queue events; run and done are not derivable */
static void test_grep_one_process(void **state)
{
	static const char grep[] =
	"        glxgears-131     [001] .....     5.998040: drm_sched_job: entity=00000000b1e0a8d2, "
		"id=1, fence=000000004b4ec9c5, ring=gfx, job count:0, hw job count:0\n"
	"        glxgears-131     [001] .....     6.003040: drm_sched_job: entity=00000000b1e0a8d2, "
		"id=2, fence=0000000011111111, ring=gfx, job count:0, hw job count:0\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, grep), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.j[0].pid, 131);
	assert_int_equal(g.j[1].status, GPULAT_JOB_INCOMPLETE);
	assert_true(g.info.missing_stages & (1u << GPULAT_ST_DONE));
	done(&g);
}

/* the other print formats: amdgpu (both eras), irq, softirq, cpu_frequency, waking */
static void test_other_formats(void **state)
{
	static const char more[] =
	"         firefox-4102  [001] .....   123.000001: amdgpu_cs_ioctl: sched_job=12, "
		"timeline=gfx_0.0.0, context=1041, seqno=3, ring_name=gfx_0.0.0, num_ibs=2\n"
	"         firefox-4102  [001] .....   123.000002: amdgpu_sched_run_job: timeline=gfx_0.0.0, "
		"fence=1041:3, ring_name=ffff888103f102c8, num_ibs=2\n"
	"          <idle>-0     [000] d.h1.   123.000003: amdgpu_iv: ih:0 client_id:10 src_id:181 "
		"ring:0 vmid:0 timestamp: 1234 pasid:32768 src_data: 00000000 00000000 00000000 00000000\n"
	"          <idle>-0     [000] d.h1.   123.000004: irq_handler_entry: irq=40 name=amdgpu\n"
	"          <idle>-0     [000] ..s1.   123.000005: softirq_entry: vec=9 [action=RCU]\n"
	"          <idle>-0     [000] d..1.   123.000006: cpu_frequency: state=2400000 cpu_id=0\n"
	"          <idle>-0     [000] d..1.   123.000007: sched_waking: comm=Xorg pid=1234 prio=120 "
		"target_cpu=002\n"
	"          <idle>-0     [000] d..1.   123.000008: sched_switch: swapper/0:0 [120] R ==> "
		"kworker/0:1:31 [120]\n"
	"          <idle>-0     [000] d.h1.   123.000009: drm_vblank_event: crtc=1, seq=4711, "
		"time=123000008123, high-prec=true\n"
	"            Xorg-1234  [001] .....   123.000010: drm_vblank_event_queued: "
		"file=000000003c1d2e4f, crtc=1, seq=4712\n";
	struct got g;
	(void)state;

	assert_int_equal(run(&g, more), 0);
	assert_int_equal(g.info.unparsed, 0);
	assert_int_equal(g.info.bad_args, 0);
	assert_int_equal(g.ne, 10);
	assert_int_equal(g.e[0].id, 12);
	assert_string_equal(g.e[0].ring, "gfx_0.0.0");
	assert_true(g.e[0].flags & GPULAT_EVF_FENCE32);
	/* 6.17 amdgpu: u64 fence; a ring_name pointer gives the timeline */
	assert_false(g.e[1].flags & GPULAT_EVF_FENCE32);
	assert_string_equal(g.e[1].ring, "gfx_0.0.0");
	assert_int_equal(g.e[2].irq, 181);
	assert_int_equal(g.e[2].client_id, 10);
	assert_int_equal(g.e[3].irq, 40);
	assert_true(g.e[4].flags & GPULAT_EVF_SOFTIRQ);
	assert_int_equal(g.e[4].irq, 9);
	assert_int_equal(g.e[5].value, 2400000);
	assert_int_equal(g.e[6].next_pid, 1234);
	assert_int_equal(g.e[6].irq, 2);
	assert_int_equal(g.e[7].prev_pid, 0);
	assert_int_equal(g.e[7].next_pid, 31);
	assert_int_equal(g.e[7].prev_state, 0);
	assert_int_equal(g.e[8].kind, GPULAT_EV_VBLANK);
	assert_int_equal(g.e[8].crtc, 1);
	assert_int_equal(g.e[8].vbl_seq, 4711);
	assert_int_equal(g.e[8].vbl_time, 123000008123LL);
	assert_true(g.e[8].flags & GPULAT_EVF_VBL_HIGH_PREC);
	assert_int_equal(g.e[9].vbl_file, 0x3c1d2e4f);
	assert_string_equal(g.e[9].comm, "Xorg");
	done(&g);
}

/* every event of bind.c's list has its print formats here (one list) */
static void test_every_event_has_formats(void **state)
{
	const char *sys, *name;
	enum gpulat_kind kind;
	unsigned int i;
	(void)state;

	for (i = 0; gpulat__event_def(i, &sys, &name, &kind) == 0; i++) {
		if (kind >= GPULAT_EV__COUNT)
			continue;
		if (gpulat__tfmt_family(name) < 0)
			fail_msg("%s:%s has no text print format", sys, name);
	}
	assert_true(i > 30);
}

static void test_probe(void **state)
{
	static const char dat[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', 0 };
	(void)state;

	assert_false(gpulat_text_probe(dat, sizeof(dat)));
	assert_true(gpulat_text_probe(tracefs_61, sizeof(tracefs_61) - 1));
	assert_true(gpulat_text_probe("cpus=2\n", 7));
	assert_false(gpulat_text_probe("{\"json\": 1}\n", 12));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracefs_irq_info),
		cmocka_unit_test(test_trace_pipe_layouts),
		cmocka_unit_test(test_latency_format),
		cmocka_unit_test(test_unsafe_strings),
		cmocka_unit_test(test_617),
		cmocka_unit_test(test_plugin_vocabulary),
		cmocka_unit_test(test_unparsed_counted),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_grep_one_process),
		cmocka_unit_test(test_other_formats),
		cmocka_unit_test(test_every_event_has_formats),
		cmocka_unit_test(test_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
