// SPDX-License-Identifier: LGPL-2.1
/*
 * live-pages RAWDIR TRACE.dat: the live input of --watch (lib/session-live.c)
 * against the file input of the same data.
 *
 * RAWDIR is what gpu-trace-gen --raw-dir keeps: cpuN.raw (the per-CPU
 * ring-buffer pages TRACE.dat was written from, by libtracecmd) and tracing/
 * (a tracefs lookalike with the event formats). The pages are pushed through
 * gpulat_session_push_page() as trace_pipe_raw would give them; the formats
 * come from tracing/ through libtracefs, as --watch reads them from tracefs.
 *
 * 1. one flush: every ring's jobs, statuses, busy %, depth and p50/p99/max of
 *    each metric, and the input counts equal those of TRACE.dat read by the
 *    file reader (libtracecmd, an independent decoder and merge).
 * 2. a flush and an interval cut every few pages per CPU: every record is
 *    counted in exactly one interval, every finished job once, and each
 *    interval's statistics hold its jobs.
 * No root, no tracefs: everything is read from files under the build tree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

#include "gpulat.h"
#include "gpulat-session.h"

#define MAX_CPUS 256

static int fails;

#define CHECK(cond, ...)                                       \
	do {                                                   \
		if (!(cond)) {                                 \
			fprintf(stderr, "FAIL: " __VA_ARGS__); \
			fputc('\n', stderr);                   \
			fails++;                               \
		}                                              \
	} while (0)

static void msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	fprintf(stderr, "%s%s\n", level == GPULAT_MSG_ERROR ? "error: " : "", text);
}

struct cpufile {
	FILE *f;
	bool done;
};

static int open_cpus(const char *dir, struct cpufile *c)
{
	char path[4096];
	int n;

	for (n = 0; n < MAX_CPUS; n++) {
		snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, n);
		c[n].f = fopen(path, "r");
		c[n].done = false;
		if (!c[n].f)
			break;
	}
	return n;
}

/* push up to @pages pages per cpu; 0 when every file is at its end */
static int push_round(struct gpulat_session *s, struct cpufile *c, int ncpus, int page_size,
		      unsigned char *buf, int pages)
{
	int cpu, k, more = 0, ret;

	for (cpu = 0; cpu < ncpus; cpu++) {
		for (k = 0; k < pages && !c[cpu].done; k++) {
			size_t n = fread(buf, 1, (size_t)page_size, c[cpu].f);

			if (n != (size_t)page_size) {
				c[cpu].done = true;
				break;
			}
			ret = gpulat_session_push_page(s, cpu, buf, n);
			if (ret < 0) {
				fprintf(stderr, "push_page cpu %d: %s\n", cpu, strerror(-ret));
				return ret;
			}
		}
		if (!c[cpu].done)
			more = 1;
	}
	return more;
}

static struct gpulat_session *new_session(void)
{
	struct gpulat_session_opts o;

	gpulat_session_opts_init(&o);
	o.msg = msg;
	return gpulat_session_new(&o);
}

static void compare_summary(const char *ring, const char *metric, const struct gpulat_summary *a,
			    const struct gpulat_summary *b)
{
	CHECK(a->n == b->n && a->p50 == b->p50 && a->p99 == b->p99 && a->max == b->max,
	      "%s %s: live n %" PRIu64 " p50 %" PRIu64 " p99 %" PRIu64 " max %" PRIu64
	      ", file n %" PRIu64 " p50 %" PRIu64 " p99 %" PRIu64 " max %" PRIu64,
	      ring, metric, a->n, a->p50, a->p99, a->max, b->n, b->p50, b->p99, b->max);
}

static void compare(const struct gpulat_session *live, const struct gpulat_session *file)
{
	const struct gpulat_stats *a = gpulat_session_stats(live), *b = gpulat_session_stats(file);
	struct gpulat_session_counts ca = { .sz = sizeof(ca) }, cb = { .sz = sizeof(cb) };
	size_t i, n = gpulat_stats_ngroups(b, GPULAT_G_RING);
	int m;

	gpulat_session_counts(live, &ca);
	gpulat_session_counts(file, &cb);
	CHECK(ca.events == cb.events, "events: live %" PRIu64 ", file %" PRIu64, ca.events,
	      cb.events);
	CHECK(ca.gpu_events == cb.gpu_events, "gpu events: live %" PRIu64 ", file %" PRIu64,
	      ca.gpu_events, cb.gpu_events);
	CHECK(ca.jobs == cb.jobs && ca.incomplete == cb.incomplete && ca.lost == cb.lost &&
		      ca.orphan == cb.orphan,
	      "jobs: live %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", file %" PRIu64
	      "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 " (all/incomplete/lost/orphan)",
	      ca.jobs, ca.incomplete, ca.lost, ca.orphan, cb.jobs, cb.incomplete, cb.lost,
	      cb.orphan);
	CHECK(ca.lost_events == cb.lost_events && ca.lost_gaps == cb.lost_gaps,
	      "lost: live %" PRIu64 " in %" PRIu64 ", file %" PRIu64 " in %" PRIu64, ca.lost_events,
	      ca.lost_gaps, cb.lost_events, cb.lost_gaps);
	CHECK(ca.first_ts == cb.first_ts && ca.last_ts == cb.last_ts, "span differs");
	CHECK(ca.era == cb.era, "era: live %s, file %s", gpulat_era_name(ca.era),
	      gpulat_era_name(cb.era));
	CHECK(n > 0, "the file report has no rings");
	CHECK(gpulat_stats_ngroups(a, GPULAT_G_RING) == n, "rings: live %zu, file %zu",
	      gpulat_stats_ngroups(a, GPULAT_G_RING), n);
	for (i = 0; i < n && i < gpulat_stats_ngroups(a, GPULAT_G_RING); i++) {
		const struct gpulat_group *x = gpulat_stats_group(a, GPULAT_G_RING, i);
		const struct gpulat_group *y = gpulat_stats_group(b, GPULAT_G_RING, i);
		char ring[128];

		gpulat_ring_label(ring, sizeof(ring), y->dev, y->ring);
		CHECK(!strcmp(x->ring, y->ring) &&
			      !strcmp(x->dev ? x->dev : "", y->dev ? y->dev : ""),
		      "ring %zu: live %s, file %s", i, x->ring, ring);
		CHECK(x->jobs == y->jobs && x->complete == y->complete &&
			      x->incomplete == y->incomplete && x->lost == y->lost,
		      "%s: jobs live %" PRIu64 ", file %" PRIu64, ring, x->jobs, y->jobs);
		CHECK(x->busy_ns == y->busy_ns && x->busy_pct == y->busy_pct &&
			      x->max_depth == y->max_depth,
		      "%s: busy %.3f%% depth %u live, %.3f%% %u file", ring, x->busy_pct,
		      x->max_depth, y->busy_pct, y->max_depth);
		for (m = 0; m < GPULAT_M__COUNT; m++)
			compare_summary(ring, gpulat_metric_name(m), &x->m[m], &y->m[m]);
	}
	printf("one flush: %zu rings, %" PRIu64 " jobs, %" PRIu64 " events: as the file report\n",
	       n, cb.jobs, cb.events);
}

static uint64_t group_jobs(const struct gpulat_stats *st)
{
	size_t i, n = gpulat_stats_ngroups(st, GPULAT_G_RING);
	uint64_t jobs = 0;

	for (i = 0; i < n; i++)
		jobs += gpulat_stats_group(st, GPULAT_G_RING, i)->jobs;
	return jobs;
}

int main(int argc, char **argv)
{
	static const char *systems[] = { "gpu_scheduler", "gpu_sched", "dma_fence", "amdgpu",
					 "irq",		  "sched",     "power",	    "drm",
					 "i915",	  "xe",	       NULL };
	struct gpulat_session *live = NULL, *file = NULL, *cut = NULL;
	struct cpufile cpus[MAX_CPUS];
	struct gpulat_live_opts lo = { .sz = sizeof(lo) };
	struct gpulat_session_counts cc = { .sz = sizeof(cc) };
	uint64_t ev_sum = 0, job_sum = 0, intervals = 0;
	char dir[4096];
	unsigned char *buf;
	struct tep_handle *tep;
	int ncpus, page_size, ret, c;

	if (argc != 3) {
		fprintf(stderr, "usage: live-pages RAWDIR TRACE.dat\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/tracing", argv[1]);
	tep = tracefs_local_events_system(dir, systems);
	if (!tep) {
		fprintf(stderr, "%s: cannot read the formats: %s\n", dir, strerror(errno));
		return 2;
	}
	tracefs_load_cmdlines(dir, tep);
	page_size = tep_get_page_size(tep) > 0 ? tep_get_page_size(tep) : 4096;
	buf = malloc((size_t)page_size);

	/* the file report */
	file = new_session();
	if (!file || gpulat_session_add_file(file, argv[2]) < 0 || gpulat_session_run(file) < 0) {
		fprintf(stderr, "%s: the file report failed\n", argv[2]);
		return 2;
	}

	/* 1. every page, one flush */
	ncpus = open_cpus(argv[1], cpus);
	CHECK(ncpus > 0, "no cpuN.raw in %s", argv[1]);
	lo.cpus = ncpus;
	live = new_session();
	ret = live ? gpulat_session_live_pages(live, tep, &lo) : -ENOMEM;
	CHECK(ret == 0, "live_pages: %s", strerror(-ret));
	CHECK(gpulat_session_live_pages(live, tep, &lo) == -EBUSY, "a second input is refused");
	while ((ret = push_round(live, cpus, ncpus, page_size, buf, 1 << 30)) > 0)
		;
	CHECK(ret == 0, "pushing failed");
	CHECK(gpulat_session_push_page(live, ncpus, buf, (size_t)page_size) == -EINVAL,
	      "a cpu beyond cpus is refused");
	CHECK(gpulat_session_push_page(live, 0, buf, (size_t)page_size + 1) == -EINVAL,
	      "a page longer than the page size is refused");
	CHECK(gpulat_session_live_flush(live) == 0, "flush failed");
	CHECK(gpulat_session_finish(live) == 0, "finish failed");
	compare(live, file);
	for (c = 0; c < ncpus; c++)
		fclose(cpus[c].f);

	/* 2. intervals: a flush and a cut every 4 pages per cpu */
	ncpus = open_cpus(argv[1], cpus);
	cut = new_session();
	ret = cut ? gpulat_session_live_pages(cut, tep, &lo) : -ENOMEM;
	CHECK(ret == 0, "live_pages (intervals): %s", strerror(-ret));
	do {
		struct gpulat_live_interval iv = { .sz = sizeof(iv) };
		const struct gpulat_stats *st;

		ret = push_round(cut, cpus, ncpus, page_size, buf, 4);
		if (ret < 0 || gpulat_session_live_flush(cut) < 0) {
			fails++;
			break;
		}
		st = gpulat_session_live_cut(cut, &iv);
		CHECK(st != NULL, "cut: %s", strerror(errno));
		if (!st)
			break;
		CHECK(group_jobs(st) == iv.jobs,
		      "interval %" PRIu64 ": stats hold %" PRIu64 " jobs, the interval %" PRIu64,
		      intervals, group_jobs(st), iv.jobs);
		CHECK(iv.events == 0 || (iv.first_ts != GPULAT_NONE && iv.first_ts <= iv.last_ts),
		      "interval %" PRIu64 ": bad span", intervals);
		ev_sum += iv.events;
		job_sum += iv.jobs;
		intervals++;
	} while (ret > 0);
	gpulat_session_counts(cut, &cc);
	CHECK(intervals > 2, "only %" PRIu64 " intervals", intervals);
	{
		struct gpulat_session_counts cf = { .sz = sizeof(cf) };

		gpulat_session_counts(file, &cf);
		CHECK(ev_sum == cc.events && cc.events == cf.events,
		      "events in intervals %" PRIu64 ", in all %" PRIu64 ", in the file %" PRIu64,
		      ev_sum, cc.events, cf.events);
	}
	CHECK(job_sum == cc.jobs, "jobs in intervals %" PRIu64 ", in all %" PRIu64, job_sum,
	      cc.jobs);
	printf("%" PRIu64 " intervals: %" PRIu64 " events, %" PRIu64 " jobs, each counted once\n",
	       intervals, ev_sum, job_sum);
	for (c = 0; c < ncpus; c++)
		fclose(cpus[c].f);

	gpulat_session_free(cut);
	gpulat_session_free(live);
	gpulat_session_free(file);
	tep_free(tep);
	free(buf);
	if (fails)
		printf("%d check(s) failed\n", fails);
	return fails ? 1 : 0;
}
