// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz_reader: libFuzzer target over the trace.dat reader.
 *
 *   input bytes = a whole trace.dat (v6, or v7 with zstd sections)
 *   memfd --gpulat_reader_open()--> checks, libtracecmd, bindings
 *         --gpulat_reader_run()---> read-merge.c (CPU merge), read-zstd.c
 *           (our zstd chunk reader), read-drop.c (page dropping)
 *         --> tracker --> statistics --> every accessor
 *
 * fuzz_core.c fuzzes the core from format text and records; this target
 * reaches what sits in front of it: the project's own parsing of the file
 * (section headers, compressed blocks, page headers, the CPU merge). The
 * input is put in a memfd so the reader opens, maps and drops pages exactly
 * as it does for a file on disk.
 *
 * Checks besides ASan/UBSan: a failed open gives one non-empty line naming
 * the file; a warning is one line; counters add up (decoded events <= all
 * events, per-kind counts <= GPU events); every group and job string is
 * readable; no duration longer than the trace span.
 *
 * Built with -fsanitize=fuzzer (GST_FUZZ=ON) and, with replay.c as main(),
 * by the normal compiler for the default suite (fuzz/reader-replay).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FZ_TARGET "fuzz_reader"
#include "fuzz-check.h"
#include "gpulat.h"
#include "gpulat-read.h"

/* trace.dat files above this are skipped: libtracecmd maps whole CPUs */
#define FZR_MAX_LEN	(4u << 20)

struct fzr {
	struct gpulat_stats	*s;
	uint64_t		jobs;
	uint64_t		warnings;
};

static void on_warn(const char *msg, void *data)
{
	struct fzr *z = data;

	fz_one_line("warning", msg);
	z->warnings++;
}

static void on_job(const struct gpulat_job *j, void *data)
{
	struct fzr *z = data;

	z->jobs++;
	fz_touch(j->dev);
	fz_touch(j->ring);
	fz_touch(j->comm);
	fz_touch(j->ring_name);
	if (gpulat_stats_add(z->s, j) < 0)
		fz_fail("gpulat_stats_add failed on job %" PRIu64, j->seq);
}

static void check_groups(const struct gpulat_stats *s, uint64_t span)
{
	size_t i, n;
	int k, m;

	for (k = 0; k < GPULAT_G__COUNT; k++) {
		n = gpulat_stats_ngroups(s, k);
		for (i = 0; i < n; i++) {
			const struct gpulat_group *g = gpulat_stats_group(s, k, i);

			fz_touch(g->dev);
			fz_touch(g->ring);
			fz_touch(g->comm);
			fz_touch(g->ring_name);
			if (g->busy_ns > span)
				fz_fail("group busy %" PRIu64 " > span %" PRIu64, g->busy_ns, span);
			for (m = 0; m < GPULAT_M__COUNT; m++) {
				const struct gpulat_summary *q = &g->m[m];

				if (q->n && (q->min > q->max || q->p50 > q->max ||
					     q->p50 < q->min || q->max > span))
					fz_fail("group %zu metric %d: min %" PRIu64 " p50 %" PRIu64
						" max %" PRIu64 " span %" PRIu64,
						i, m, q->min, q->p50, q->max, span);
			}
		}
	}
	n = gpulat_stats_nstalls(s);
	for (i = 0; i < n; i++) {
		const struct gpulat_stall *st = gpulat_stats_stall(s, i);

		fz_touch(st->comm);
		fz_touch(st->ring);
		if (st->end_ts < st->start_ts)
			fz_fail("stall %zu ends before it starts", i);
	}
	n = gpulat_stats_nworst(s);
	for (i = 0; i < n; i++)
		fz_touch(gpulat_stats_worst(s, i)->job.comm);
}

static void run_reader(const char *path)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	struct gpulat_stats_opts so;
	struct gpulat_reader_counts c;
	struct gpulat_reader *r;
	struct gpulat_tracker *t;
	struct fzr z = { 0 };
	uint64_t first, last;
	char err[512];
	int k, ret;

	err[0] = '\0';
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	if (!r) {
		/* one line, naming the file */
		if (!err[0] || strchr(err, '\n') || !strstr(err, path))
			fz_fail("open error is not one line naming the file: '%s'", err);
		return;
	}
	gpulat_reader_set_warn(r, on_warn, &z);
	gpulat_stats_opts_init(&so);
	z.s = gpulat_stats_new(&so);
	t = gpulat_tracker_new(&ops, &z);
	if (!z.s || !t)
		fz_fail("out of memory");

	err[0] = '\0';
	ret = gpulat_reader_run(r, t, NULL, NULL, err, sizeof(err));
	if (ret < 0 && (!err[0] || strchr(err, '\n')))
		fz_fail("run error %d is not one line: '%s'", ret, err);

	gpulat_reader_counts(r, &c);
	if (c.gpu_events + c.damaged > c.events)
		fz_fail("counts: events %" PRIu64 " gpu %" PRIu64 " damaged %" PRIu64, c.events,
			c.gpu_events, c.damaged);
	for (k = 0; k < GPULAT_EV__COUNT; k++)
		if (c.kind[k] > c.events)
			fz_fail("kind %d counted %" PRIu64 " > events %" PRIu64, k, c.kind[k],
				c.events);
	if (ret == 0) {
		gpulat_reader_span(r, &first, &last);
		if (first != GPULAT_NONE && last < first)
			fz_fail("span ends before it starts");
		if (first != GPULAT_NONE) {
			gpulat_stats_set_span(z.s, first, last);
			if (gpulat_stats_finish(z.s) < 0)
				fz_fail("gpulat_stats_finish failed");
			check_groups(z.s, last - first);
		}
	}
	gpulat_tracker_free(t);
	gpulat_stats_free(z.s);
	gpulat_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (size > FZR_MAX_LEN)
		return 0;
	fz_pick_reader(size);
	fd = fz_memfd(data, size, path, sizeof(path));
	run_reader(path);
	close(fd);
	return 0;
}
