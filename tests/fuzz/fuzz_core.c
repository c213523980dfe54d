// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz_core: libFuzzer target over the gpulat core.
 *
 *   format text --tep_parse_event()--> fresh tep_handle --gpulat_binding_new()
 *   records --gpulat_binding_decode()--> gpulat_tracker_feed() --> jobs
 *   jobs --gpulat_stats_add()--> gpulat_stats_finish() --> every accessor
 *
 * The input format is described in fuzz-input.h. Besides crashes (ASan,
 * UBSan) the harness checks invariants that catch silently wrong numbers:
 * every duration a job or a group reports must agree with its timestamps and
 * fit in the span of the timestamps fed; quantiles must be ordered; counts
 * must add up. A violation aborts with one line naming the invariant.
 *
 * Built two ways: with -fsanitize=fuzzer (clang, GST_FUZZ=ON), and with the
 * normal compiler plus replay.c as main() for the default test suite.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "gpulat.h"
#include "fuzz-input.h"
#include "fuzz-formats.h"

#define MAX_RECORDS	100000

struct fz {
	struct fz_formats	fm;
	struct gpulat_binding	*b;
	struct gpulat_tracker	*t;
	struct gpulat_stats	*s;
	uint64_t		min_ts, max_ts;	/* of the events fed to the tracker */
	bool			any_ts;
	uint64_t		jobs;		/* job callbacks */
	uint64_t		warnings;
	uint64_t		decoded, damaged;
	bool			verbose;
};

static bool fz_verbose(void)
{
	static int v = -1;

	if (v < 0)
		v = getenv("FUZZ_CORE_VERBOSE") != NULL;
	return v;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * Open findings (FINDINGS.md) the fuzzer should step over to look for new
 * ones: FUZZ_CORE_ALLOW="F2,F5" (run-fuzz reads tests/fuzz/known-open).
 * The default test suite sets nothing: every invariant is enforced.
 */
static bool allowed(const char *id)
{
	const char *a = getenv("FUZZ_CORE_ALLOW");
	size_t n = strlen(id);

	for (; a && *a; a++) {
		if (!strncmp(a, id, n) && (a[n] == '\0' || a[n] == ',' || a[n] == ' '))
			return true;
		a = strpbrk(a, ", ");
		if (!a)
			break;
	}
	return false;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz_core: invariant violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

static uint64_t rd_le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void on_warn(const char *msg, void *data)
{
	struct fz *z = data;

	/* a warning is one line: no newline inside, never empty */
	if (!msg || !*msg || strchr(msg, '\n'))
		fail("warning is not one non-empty line: '%s'", msg ? msg : "(null)");
	z->warnings++;
	if (z->verbose)
		fprintf(stderr, "warn: %s\n", msg);
}

/* every string the library hands out must be readable (ASan checks it) */
static void touch(const char *s)
{
	volatile size_t n;

	if (s)
		n = strlen(s);
	(void)n;
}

static uint64_t span(const struct fz *z)
{
	return z->any_ts ? z->max_ts - z->min_ts : 0;
}

static void check_ts(const struct fz *z, uint64_t ts, const char *what, uint64_t seq)
{
	if (ts == GPULAT_NONE)
		return;
	if (!z->any_ts || ts < z->min_ts || ts > z->max_ts)
		fail("job %" PRIu64 ": %s timestamp %" PRIu64 " was never fed", seq, what, ts);
}

static void check_job(struct fz *z, const struct gpulat_job *j)
{
	uint64_t q = j->ts[GPULAT_ST_QUEUE], r = j->ts[GPULAT_ST_RUN];
	uint64_t d = j->ts[GPULAT_ST_DONE], st = j->start_ts;
	uint64_t sp = span(z);
	unsigned int i;
	char buf[64];

	touch(j->dev);
	touch(j->ring);
	touch(j->comm);
	for (i = 0; i < GPULAT_ST__COUNT; i++)
		check_ts(z, j->ts[i], gpulat_stage_name(i), j->seq);
	check_ts(z, st, "start", j->seq);
	if ((unsigned int)j->status > GPULAT_JOB_ORPHAN)
		fail("job %" PRIu64 ": status %d out of range", j->seq, (int)j->status);
	touch(gpulat_status_name(j->status));
	if (j->status == GPULAT_JOB_COMPLETE && d == GPULAT_NONE)
		fail("job %" PRIu64 ": complete without a done stage", j->seq);
	if (j->wait != GPULAT_NONE &&
	    (q == GPULAT_NONE || r == GPULAT_NONE || r < q || j->wait != r - q))
		fail("job %" PRIu64 ": wait %" PRIu64 " != run %" PRIu64 " - queue %" PRIu64,
		     j->seq, j->wait, r, q);
	if (j->total != GPULAT_NONE &&
	    (q == GPULAT_NONE || d == GPULAT_NONE || d < q || j->total != d - q))
		fail("job %" PRIu64 ": total %" PRIu64 " != done %" PRIu64 " - queue %" PRIu64,
		     j->seq, j->total, d, q);
	if (j->exec != GPULAT_NONE &&
	    (st == GPULAT_NONE || d == GPULAT_NONE || d < st || j->exec != d - st))
		fail("job %" PRIu64 ": exec %" PRIu64 " != done %" PRIu64 " - start %" PRIu64,
		     j->seq, j->exec, d, st);
	/* F2: done before run (timestamps going backwards) underflows hw_queue */
	if (j->hw_queue != GPULAT_NONE && !(allowed("F2") && st < r) &&
	    (st == GPULAT_NONE || r == GPULAT_NONE || st < r || j->hw_queue != st - r))
		fail("job %" PRIu64 ": hw_queue %" PRIu64 " != start %" PRIu64 " - run %" PRIu64,
		     j->seq, j->hw_queue, st, r);
	if (j->dep_wait != GPULAT_NONE && j->dep_wait > sp)
		fail("job %" PRIu64 ": dep_wait %" PRIu64 " longer than the trace (%" PRIu64 ")",
		     j->seq, j->dep_wait, sp);
	if (j->n_deps && !j->deps)
		fail("job %" PRIu64 ": %u deps but no array", j->seq, j->n_deps);
	for (i = 0; i < j->n_deps; i++) {
		touch(j->deps[i].dev);
		touch(j->deps[i].ring);
	}
	gpulat_fmt_duration(buf, sizeof(buf), j->total);
	gpulat_fmt_duration(buf, sizeof(buf), j->exec);
}

static void on_job(const struct gpulat_job *j, void *data)
{
	struct fz *z = data;

	z->jobs++;
	check_job(z, j);
	if (z->s && gpulat_stats_add(z->s, j) < 0)
		fail("gpulat_stats_add: out of memory on a tiny input");
}

static void check_summary(const struct fz *z, const struct gpulat_group *g, int m)
{
	const struct gpulat_summary *s = &g->m[m];
	uint64_t sp = span(z);

	if (!s->n)
		return;
	if (s->n > g->complete)
		fail("group %s/%s: %s n %" PRIu64 " > complete %" PRIu64, g->dev ? g->dev : "",
		     g->ring ? g->ring : "", gpulat_metric_name(m), s->n, g->complete);
	if (!(s->min <= s->p50 && s->p50 <= s->p90 && s->p90 <= s->p99 &&
	      s->p99 <= s->p999 && s->p999 <= s->max))
		fail("%s quantiles out of order: min %" PRIu64 " p50 %" PRIu64 " p90 %" PRIu64
		     " p99 %" PRIu64 " p999 %" PRIu64 " max %" PRIu64, gpulat_metric_name(m),
		     s->min, s->p50, s->p90, s->p99, s->p999, s->max);
	if (s->mean < s->min || s->mean > s->max)
		fail("%s mean %" PRIu64 " outside [%" PRIu64 ", %" PRIu64 "]",
		     gpulat_metric_name(m), s->mean, s->min, s->max);
	if (s->max > sp && !(m == GPULAT_M_HW_QUEUE && allowed("F2")))
		fail("%s max %" PRIu64 " longer than the trace span %" PRIu64,
		     gpulat_metric_name(m), s->max, sp);
	if (!(s->stddev >= 0.0) ||
	    (s->stddev > (double)sp + 1.0 && !(m == GPULAT_M_HW_QUEUE && allowed("F2"))))
		fail("%s stddev %g out of range", gpulat_metric_name(m), s->stddev);
}

static void check_stats(struct fz *z, const struct gpulat_tracker_counters *c)
{
	struct gpulat_stats *s = z->s;
	uint64_t sp = span(z), ring_jobs = 0, prev = GPULAT_NONE;
	size_t i, n;
	int k, m;

	if (gpulat_stats_finish(s) < 0)
		fail("gpulat_stats_finish failed");
	for (k = 0; k < GPULAT_G__COUNT; k++) {
		n = gpulat_stats_ngroups(s, k);
		for (i = 0; i < n; i++) {
			const struct gpulat_group *g = gpulat_stats_group(s, k, i);
			struct gpulat_hist h;
			uint64_t hsum = 0;
			int b;

			if (!g)
				fail("group %zu of %zu is NULL", i, n);
			touch(g->dev);
			touch(g->ring);
			touch(g->comm);
			if (g->jobs != g->complete + g->incomplete + g->lost)
				fail("group jobs %" PRIu64 " != %" PRIu64 " + %" PRIu64 " + %" PRIu64,
				     g->jobs, g->complete, g->incomplete, g->lost);
			if (g->busy_ns > sp)
				fail("busy %" PRIu64 " > span %" PRIu64, g->busy_ns, sp);
			if (!(g->busy_pct >= 0.0 && g->busy_pct <= 100.0001))
				fail("busy %% %g out of range", g->busy_pct);
			if (g->max_depth > g->jobs)
				fail("max depth %u > jobs %" PRIu64, g->max_depth, g->jobs);
			if (!(g->avg_depth >= 0.0 && g->avg_depth <= (double)g->max_depth + 1e-6))
				fail("avg depth %g outside [0, %u]", g->avg_depth, g->max_depth);
			for (m = 0; m < GPULAT_M__COUNT; m++) {
				check_summary(z, g, m);
				hsum = 0;
				if (gpulat_group_hist(g, m, &h))
					fail("%s: no histogram", gpulat_metric_name(m));
				for (b = 0; b < GPULAT_HIST_BUCKETS; b++)
					hsum += h.bucket[b];
				if (hsum != g->m[m].n)
					fail("%s histogram holds %" PRIu64 " values, n is %" PRIu64,
					     gpulat_metric_name(m), hsum, g->m[m].n);
			}
			if (k == GPULAT_G_RING)
				ring_jobs += g->jobs;
		}
		if (gpulat_stats_group(s, k, n))
			fail("group past the end is not NULL");
	}
	if (ring_jobs != z->jobs || c->jobs != z->jobs)
		fail("jobs: rings %" PRIu64 ", counter %" PRIu64 ", callbacks %" PRIu64,
		     ring_jobs, c->jobs, z->jobs);

	n = gpulat_stats_nworst(s);
	for (i = 0; i < n; i++) {
		const struct gpulat_worst *w = gpulat_stats_worst(s, i);

		if (!w)
			fail("worst %zu is NULL", i);
		touch(w->job.dev);
		touch(w->job.ring);
		touch(w->job.comm);
		touch(w->dep_ring);
		if (w->job.status != GPULAT_JOB_COMPLETE)
			fail("worst job %" PRIu64 " is not complete", w->job.seq);
		if (w->job.total != GPULAT_NONE && w->job.total > sp)
			fail("worst job total %" PRIu64 " > span", w->job.total);
		(void)prev;
	}
	n = gpulat_stats_nstalls(s);
	if (n > gpulat_stats_stalls_total(s))
		fail("stalls kept %zu > found %" PRIu64, n, gpulat_stats_stalls_total(s));
	for (i = 0; i < n; i++) {
		const struct gpulat_stall *st = gpulat_stats_stall(s, i);

		if (!st)
			fail("stall %zu is NULL", i);
		touch(st->dev);
		touch(st->ring);
		touch(st->comm);
		if (st->start_ts > st->end_ts)
			fail("stall ends (%" PRIu64 ") before it starts (%" PRIu64 ")",
			     st->end_ts, st->start_ts);
	}
	n = gpulat_stats_ndepwaits(s);
	for (i = 0; i < n; i++) {
		const struct gpulat_depwait *d = gpulat_stats_depwait(s, i);

		if (!d)
			fail("depwait %zu is NULL", i);
		touch(d->dev);
		touch(d->ring);
		touch(d->dep_dev);
		touch(d->dep_ring);
		if (!d->count || d->max_ns > d->total_ns || d->max_ns > sp)
			fail("depwait count %" PRIu64 " max %" PRIu64 " total %" PRIu64,
			     d->count, d->max_ns, d->total_ns);
	}
}

static void feed_ts(struct fz *z, uint64_t ts)
{
	if (!z->any_ts || ts < z->min_ts)
		z->min_ts = ts;
	if (!z->any_ts || ts > z->max_ts)
		z->max_ts = ts;
	z->any_ts = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpulat_tracker_ops ops = { .job = on_job, .warn = on_warn };
	struct gpulat_tracker_counters c;
	struct gpulat_stats_opts so;
	const struct fz_formats *fm;
	struct fz z;
	const uint8_t *hdr, *p, *end, *nul;
	uint64_t ts;
	unsigned int nrec = 0;
	int i;

	if (size < FZ_HDR_LEN)
		return 0;
	memset(&z, 0, sizeof(z));
	z.verbose = fz_verbose();
	hdr = data;
	p = data + FZ_HDR_LEN;
	end = data + size;

	nul = memchr(p, '\0', end - p);
	if (!fz_tep_survives(hdr[0], p, (nul ? nul : end) - p)) {
		if (z.verbose)
			fprintf(stderr, "fuzz_core: libtraceevent dies parsing these formats; "
				"input skipped (third-party, FINDINGS.md)\n");
		return 0;
	}
	/* the same handle for the same section (fuzz-formats.c: per-input cost) */
	fm = fz_formats_get(hdr[0], p, (nul ? nul : end) - p);
	if (!fm)
		return 0;
	z.fm = *fm;
	p = nul ? nul + 1 : end;

	z.b = gpulat_binding_new(z.fm.tep);
	if (!z.b)
		fail("gpulat_binding_new failed on a valid tep handle");
	if (!(hdr[0] & FZ_F_LATEWARN))
		gpulat_binding_set_warn(z.b, on_warn, &z);
	touch(gpulat_era_name(gpulat_binding_era(z.b)));
	for (i = 0; i < GPULAT_EV__COUNT; i++)
		(void)gpulat_binding_has(z.b, i);
	(void)gpulat_binding_has(z.b, GPULAT_EV__COUNT + 3);
	for (i = 0; i < z.fm.nids; i++) {
		const char *sys, *name;

		(void)gpulat_binding_kind_of(z.b, z.fm.ids[i]);
		if (gpulat_binding_event_name(z.b, z.fm.ids[i], &sys, &name) == 0) {
			touch(sys);
			touch(name);
		}
	}

	z.t = gpulat_tracker_new(&ops, &z);
	if (!z.t)
		fail("gpulat_tracker_new failed");
	if (hdr[0] & FZ_F_MAXOPEN)
		gpulat_tracker_set_max_open(z.t, hdr[1]);
	gpulat_tracker_set_signal_expected(z.t, hdr[0] & FZ_F_SIGNALS);
	if (hdr[0] & FZ_F_ERA_AUTO)
		gpulat_tracker_set_era(z.t, gpulat_binding_era(z.b));
	if (hdr[0] & FZ_F_ERA)
		gpulat_tracker_set_era(z.t, (enum gpulat_era)(hdr[6] % 8));
	if (hdr[5])
		gpulat_tracker_set_linger(z.t, 1ULL << (hdr[5] & 63));
	if (!(hdr[0] & FZ_F_NOSTATS)) {
		gpulat_stats_opts_init(&so);
		if (hdr[2])
			so.stall_threshold_ns = 1ULL << (hdr[2] & 63);
		so.top_n = hdr[3];
		so.worst_by = (enum gpulat_metric)(hdr[4] % 8);
		z.s = gpulat_stats_new(&so);
		if (!z.s)
			fail("gpulat_stats_new failed");
	}

	ts = rd_le(hdr + 8, 8);
	while (end - p >= FZ_REC_HDR_LEN && nrec++ < MAX_RECORDS) {
		unsigned int op = p[0], len;
		int cpu = p[1] & 0x80 ? -1 - (p[1] & 0x7f) : p[1];
		int64_t delta = (int32_t)rd_le(p + 2, 4);
		struct gpulat_event ev;
		struct tep_record rec;
		uint8_t *payload;
		int r;

		len = rd_le(p + 6, 2);
		p += FZ_REC_HDR_LEN;
		if (len > (size_t)(end - p))
			len = end - p;
		ts += (uint64_t)delta;	/* wraps: hostile timestamps are welcome */

		switch (op & 7) {
		case FZ_OP_LOST:
			gpulat_tracker_lost(z.t, cpu, ts, len);
			p += len;
			continue;
		case FZ_OP_LOST_RANGE:
			gpulat_tracker_lost_range(z.t, cpu, ts - len, ts, 0);
			p += len;
			continue;
		case FZ_OP_SKIP:
			p += len;
			continue;
		}
		/* an exactly sized heap copy: any read past the record is caught */
		payload = malloc(len ? len : 1);
		if (!payload)
			break;
		memcpy(payload, p, len);
		p += len;
		if ((op & FZ_OP_SETID) && z.fm.nids && len >= 2) {
			int id = z.fm.ids[(op >> 4) % z.fm.nids];

			payload[0] = id & 0xff;
			payload[1] = (id >> 8) & 0xff;
			if (hdr[0] & FZ_F_BIGENDIAN) {
				payload[0] = (id >> 8) & 0xff;
				payload[1] = id & 0xff;
			}
		}
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.cpu = cpu;
		rec.size = len;
		rec.data = payload;
		r = gpulat_binding_decode(z.b, &rec, &ev);
		if (r < -1 || r > 1)
			fail("gpulat_binding_decode returned %d", r);
		if (r < 0)
			z.damaged++;
		if (r == 1) {
			z.decoded++;
			if (ev.ts != ts || ev.cpu != cpu)
				fail("decoded ts/cpu differ from the record's");
			if ((unsigned int)ev.kind >= GPULAT_EV__COUNT || ev.kind == GPULAT_EV_NONE)
				fail("decoded kind %d", (int)ev.kind);
			touch(gpulat_kind_name(ev.kind));
			touch(ev.dev);
			touch(ev.ring);
			touch(ev.comm);
			touch(ev.driver);
			touch(ev.timeline);
			if (!ev.dev)
				fail("decoded event without dev (must be \"\")");
			/* negative cpus too: the API takes an int */
			feed_ts(&z, ts);
			if (gpulat_tracker_feed(z.t, &ev) < 0 && cpu >= 0)
				fail("gpulat_tracker_feed: error on a tiny input");
		}
		free(payload);
	}
	if (hdr[0] & FZ_F_LATEWARN)
		gpulat_binding_set_warn(z.b, on_warn, &z);
	(void)gpulat_binding_problems(z.b);

	gpulat_tracker_flush(z.t, z.max_ts);
	gpulat_tracker_counters(z.t, &c);
	if (c.open)
		fail("%" PRIu64 " jobs still open after flush", c.open);
	if (c.jobs != z.jobs)
		fail("counter jobs %" PRIu64 " != callbacks %" PRIu64, c.jobs, z.jobs);
	if (z.verbose)
		fprintf(stderr, "fuzz_core: %d formats, era %s, %" PRIu64 " decoded, %" PRIu64
			" damaged, %" PRIu64 " jobs, %" PRIu64 " warnings\n", z.fm.nids,
			gpulat_era_name(gpulat_binding_era(z.b)), z.decoded, z.damaged, z.jobs,
			z.warnings);
	if (z.s) {
		if (z.any_ts)
			gpulat_stats_set_span(z.s, z.min_ts, z.max_ts);
		check_stats(&z, &c);
	}
	gpulat_stats_free(z.s);
	gpulat_tracker_free(z.t);
	gpulat_binding_free(z.b);
	return 0;
}
