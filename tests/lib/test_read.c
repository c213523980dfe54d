// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader tests: one-line errors naming the file and the problem, the
 * per-event hook, counts and span, several files merged in time, handle
 * reopening and page dropping changing nothing.
 *
 *   test_read SAMPLES_DIR [GPU-TRACE-GEN]
 *
 * Tests that need a sample trace skip when sample-traces/ has none yet; the
 * "no GPU events" and "unknown layout" cases need the generator (an
 * uncompressed v6 trace is patched) and skip without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <event-parse.h>

#include "gpulat.h"
#include "gpulat-read.h"
#include "gpulat-session.h"

static const char *samples;
static const char *gen;
/* under $TMPDIR: ctest sets it to the build tree (cmake/GstTesting.cmake) */
static char tmpdir[192];

static void sample(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", samples, name);
	if (access(buf, R_OK))
		skip();
}

static void tmpfile_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc(n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, fp), (size_t)n);
	fclose(fp);
	*len = n;
	return buf;
}

static void expect_error(const char *path, const char *needle, int err_no)
{
	struct gpulat_reader *r;
	char err[1024] = "";

	errno = 0;
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	if (r)
		fail_msg("%s opened, expected '%s'", path, needle);
	if (!strstr(err, needle) || !strstr(err, path))
		fail_msg("error '%s' should name %s and say '%s'", err, path, needle);
	assert_null(strchr(err, '\n'));
	if (err_no)
		assert_int_equal(errno, err_no);
}

static void test_missing_file(void **state)
{
	char p[512];

	(void)state;
	tmpfile_path(p, sizeof(p), "does-not-exist.dat");
	expect_error(p, "No such file or directory", ENOENT);
}

static void test_not_a_trace(void **state)
{
	char p[512];

	(void)state;
	tmpfile_path(p, sizeof(p), "text.dat");
	write_bytes(p, "hello, world\n", 13);
	expect_error(p, "not a trace-cmd data file", EINVAL);
	tmpfile_path(p, sizeof(p), "empty.dat");
	write_bytes(p, "", 0);
	expect_error(p, "not a trace-cmd data file", EINVAL);
	expect_error(tmpdir, "not a trace-cmd data file", 0);
}

static void test_truncated(void **state)
{
	char p[512], t[512];
	size_t len;
	char *buf;

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	buf = read_all(p, &len);
	tmpfile_path(t, sizeof(t), "truncated.dat");
	write_bytes(t, buf, len > 3000 ? 3000 : len / 2);
	expect_error(t, "truncated or damaged", EINVAL);
	free(buf);
}

/* a v6 (uncompressed) trace from the generator, patched */
static char *gen_v6(size_t *len)
{
	char cmd[1024], p[512];

	if (!gen || access(gen, X_OK))
		skip();
	tmpfile_path(p, sizeof(p), "v6.dat");
	snprintf(cmd, sizeof(cmd), "'%s' -q -s steady -o '%s' --file-version 6", gen, p);
	if (system(cmd))
		skip();
	return read_all(p, len);
}

static void replace_all(char *buf, size_t len, const char *from, const char *to)
{
	size_t n = strlen(from), i;

	assert_int_equal(n, strlen(to));
	for (i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, from, n))
			memcpy(buf + i, to, n);
}

static size_t find_bytes(const char *buf, size_t len, const char *what, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, what, n))
			return i;
	fail_msg("'%s' not in the file", what);
	return 0;
}

/*
 * Counts and sizes libtracecmd would trust (lib/read-check.c): a CPU count
 * of 16,777,217 (libtracecmd callocs 184 bytes per CPU), a page whose commit
 * size exceeds the page (kbuffer reads past it), a format text whose print
 * fmt crashes libtraceevent 1.7.1 (FINDINGS T1). Each is the one-line error
 * before libtracecmd sees the file (so nothing is leaked: ASan checks it).
 */
static void test_hostile_sizes(void **state)
{
	char t[512];
	size_t len, at, fly;
	uint64_t off;
	char *buf, *b;

	(void)state;
	buf = gen_v6(&len);
	tmpfile_path(t, sizeof(t), "hostile.dat");

	/* the u32 CPU count just before the "options  " or "flyrecord" label */
	b = malloc(len);
	memcpy(b, buf, len);
	fly = find_bytes(b, len, "flyrecord", 10);
	at = fly;
	for (size_t i = 0; i + 10 <= fly; i++)
		if (!memcmp(b + i, "options  ", 10)) {
			at = i;
			break;
		}
	b[at - 4] = 0x01;
	b[at - 3] = 0x00;
	b[at - 2] = 0x00;
	b[at - 1] = 0x01;
	write_bytes(t, b, len);
	expect_error(t, "CPU count 16777217 larger than the file can hold", EINVAL);

	/* CPU 0's first page: commit (u64 at offset 8) of 0xfff0 bytes in a 4 KiB page */
	memcpy(b, buf, len);
	memcpy(&off, b + fly + 10, 8);
	assert_true(off + 16 <= len);
	b[off + 8] = (char)0xf0;
	b[off + 9] = (char)0xff;
	write_bytes(t, b, len);
	expect_error(t, "commit size larger than the page", EINVAL);

	/* the first event format's print fmt ends in an unbalanced ')' (T1) */
	memcpy(b, buf, len);
	at = find_bytes(b, len, "print fmt: \"", 12);
	b[at + 11] = ')';
	write_bytes(t, b, len);
	expect_error(t, "unbalanced print fmt", EINVAL);
	free(b);
	free(buf);
}

static void test_no_gpu_events(void **state)
{
	char p[512];
	size_t len;
	char *buf;

	(void)state;
	buf = gen_v6(&len);
	replace_all(buf, len, "gpu_scheduler", "gpu_schedulez");
	replace_all(buf, len, "dma_fence", "dma_fencz");
	tmpfile_path(p, sizeof(p), "nogpu.dat");
	write_bytes(p, buf, len);
	expect_error(p, "no GPU scheduler events", ENODATA);
	expect_error(p, gpulat_record_line(GPULAT_ERA_V617), 0);
	expect_error(p, gpulat_record_line(GPULAT_ERA_V519), 0);
	free(buf);
}

static void test_unknown_layout(void **state)
{
	char p[512];
	size_t len;
	char *buf;

	(void)state;
	buf = gen_v6(&len);
	replace_all(buf, len, "struct dma_fence * fence;", "struct dma_fence * fencx;");
	tmpfile_path(p, sizeof(p), "layout.dat");
	write_bytes(p, buf, len);
	expect_error(p, "layout is unknown", 0);
	expect_error(p, "'fence' missing", 0);
	free(buf);
}

struct seen {
	uint64_t	hooked;
	uint64_t	sched;
	uint64_t	jobs;
	uint64_t	files[2];
	uint64_t	last_ts;
	bool		ordered;
	int		stop_after;
};

static int hook(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct seen *s = data;

	assert_non_null(rec);
	s->hooked++;
	if (ev->kind == GPULAT_EV_SCHED_SWITCH)
		s->sched++;
	if (ev->ts < s->last_ts)
		s->ordered = false;
	s->last_ts = ev->ts;
	s->files[file & 1]++;
	if (s->stop_after && s->hooked == (uint64_t)s->stop_after)
		return -ECANCELED;
	return 0;
}

static void on_job(const struct gpulat_job *job, void *data)
{
	struct seen *s = data;

	s->jobs++;
	s->files[job->file & 1] += 1000000;
}

static void test_run(void **state)
{
	struct gpulat_tracker_ops ops = { .job = on_job };
	struct seen s = { .ordered = true };
	struct gpulat_reader_counts c;
	struct gpulat_tracker *t;
	struct gpulat_reader *r;
	char p[512], err[512];
	const char *path = p;
	uint64_t first, last;

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	assert_non_null(r);
	t = gpulat_tracker_new(&ops, &s);
	assert_int_equal(gpulat_reader_era(r), GPULAT_ERA_V519);
	assert_true(gpulat_reader_has_signals(r));
	assert_int_equal(gpulat_reader_nfiles(r), 1);
	assert_true(gpulat_reader_cpus(r, 0) > 0);
	assert_non_null(gpulat_reader_tep(r, 0));
	assert_non_null(gpulat_reader_binding(r, 0));
	assert_null(gpulat_reader_tep(r, 1));
	assert_string_equal(gpulat_reader_path(r, 0), p);
	assert_int_equal(gpulat_reader_run(r, t, hook, &s, err, sizeof(err)), 0);
	gpulat_reader_counts(r, &c);
	gpulat_reader_span(r, &first, &last);
	assert_true(c.events > c.gpu_events);
	assert_true(c.gpu_events > 0);
	assert_true(s.sched > 0);		/* the hook sees context events too */
	assert_true(s.ordered);
	assert_true(s.jobs > 0);
	assert_true(first < last);
	assert_int_equal(c.kind[GPULAT_EV_SCHED_SWITCH], s.sched);
	/* a reader runs once */
	assert_true(gpulat_reader_run(r, t, NULL, NULL, err, sizeof(err)) < 0);
	gpulat_tracker_free(t);
	gpulat_reader_close(r);
}

static void test_hook_stops(void **state)
{
	struct seen s = { .ordered = true, .stop_after = 100 };
	struct gpulat_reader *r;
	char p[512], err[512];
	const char *path = p;

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(gpulat_reader_run(r, NULL, hook, &s, err, sizeof(err)), -ECANCELED);
	assert_int_equal(s.hooked, 100);
	gpulat_reader_close(r);
}

/* the same trace twice: merged in time, jobs never linked across files */
static void test_multi_file(void **state)
{
	struct gpulat_tracker_ops ops = { .job = on_job };
	struct seen one = { .ordered = true }, two = { .ordered = true };
	struct gpulat_reader_counts c1, c2;
	struct gpulat_tracker *t;
	struct gpulat_reader *r;
	char p[512], err[512];
	const char *paths[2] = { p, p };

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	r = gpulat_reader_open(paths, 1, err, sizeof(err));
	assert_non_null(r);
	t = gpulat_tracker_new(&ops, &one);
	assert_int_equal(gpulat_reader_run(r, t, NULL, NULL, err, sizeof(err)), 0);
	gpulat_reader_counts(r, &c1);
	gpulat_tracker_free(t);
	gpulat_reader_close(r);

	r = gpulat_reader_open(paths, 2, err, sizeof(err));
	assert_non_null(r);
	assert_int_equal(gpulat_reader_cpus(r, -1), 2 * gpulat_reader_cpus(r, 0));
	assert_int_equal(gpulat_reader_cpu_base(r, 1), gpulat_reader_cpus(r, 0));
	t = gpulat_tracker_new(&ops, &two);
	assert_int_equal(gpulat_reader_run(r, t, hook, &two, err, sizeof(err)), 0);
	gpulat_reader_counts(r, &c2);
	assert_int_equal(c2.events, 2 * c1.events);
	assert_int_equal(two.jobs, 2 * one.jobs);
	assert_true(two.ordered);
	/* each file's hook events and jobs are its own */
	assert_int_equal(two.files[0], two.files[1]);
	gpulat_tracker_free(t);
	gpulat_reader_close(r);
}

/*
 * Reopening libtracecmd handles and dropping read pages (lib/read-merge.c,
 * lib/read-drop.c) must not change a single event: digest every decoded
 * event and every job of a run with the defaults, then again with a reopen
 * after every ring-buffer page (GPULAT_REOPEN_BYTES=1) or every 16, and with
 * reopening off. The reopened run must really have reopened.
 */
struct digest {
	uint64_t	h;
	uint64_t	n;
};

static void mix(struct digest *d, uint64_t v)
{
	d->h = (d->h ^ v) * 0x100000001b3ULL;
	d->n++;
}

static int digest_hook(const struct gpulat_event *ev, struct tep_record *rec, int file,
		       void *data)
{
	struct digest *d = data;

	mix(d, ev->ts);
	mix(d, (uint64_t)ev->kind | (uint64_t)(uint32_t)ev->cpu << 16 | (uint64_t)file << 48);
	mix(d, ev->fence_ptr ^ ev->id ^ ev->dep_ptr ^ (uint64_t)(uint32_t)ev->pid);
	mix(d, (uint64_t)rec->missed_events);
	return 0;
}

static void digest_job(const struct gpulat_job *job, void *data)
{
	struct digest *d = data;

	mix(d, job->seq);
	mix(d, job->ts[GPULAT_ST_QUEUE] ^ job->ts[GPULAT_ST_DONE] ^ job->start_ts);
	mix(d, job->wait ^ job->exec ^ job->total ^ job->dep_wait);
	mix(d, (uint64_t)job->status);
}

/* what one run saw: every event, every job, the counts */
struct run {
	struct digest			ev, jobs;
	struct gpulat_reader_counts	c;
};

static void run_digest_env(const char *path, const char *var, const char *env, struct run *o)
{
	struct gpulat_tracker_ops ops = { .job = digest_job };
	struct gpulat_tracker *t;
	struct gpulat_reader *r;
	char err[512];

	if (env)
		setenv(var, env, 1);
	else
		unsetenv(var);
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	memset(o, 0, sizeof(*o));
	t = gpulat_tracker_new(&ops, &o->jobs);
	assert_non_null(t);
	assert_int_equal(gpulat_reader_run(r, t, digest_hook, &o->ev, err, sizeof(err)), 0);
	unsetenv(var);
	gpulat_reader_counts(r, &o->c);
	gpulat_tracker_free(t);
	gpulat_reader_close(r);
}

/* GPULAT_REOPEN_BYTES=@env, with libtracecmd reading the CPU data */
static void run_digest(const char *path, const char *env, struct run *o)
{
	setenv("GPULAT_ZSTD_READER", "0", 1);
	run_digest_env(path, "GPULAT_REOPEN_BYTES", env, o);
	unsetenv("GPULAT_ZSTD_READER");
}

/* @b saw exactly what @a saw: the same events, jobs, record and lost counts */
static void assert_same_run(const struct run *a, const struct run *b)
{
	assert_true(a->ev.n > 0 && a->jobs.n > 0);
	assert_int_equal(b->ev.n, a->ev.n);
	assert_int_equal(b->ev.h, a->ev.h);
	assert_int_equal(b->jobs.n, a->jobs.n);
	assert_int_equal(b->jobs.h, a->jobs.h);
	assert_int_equal(b->c.events, a->c.events);
	assert_int_equal(b->c.lost_events, a->c.lost_events);
	assert_int_equal(b->c.lost_gaps, a->c.lost_gaps);
}

static void check_reopen(const char *path, const char *bytes)
{
	struct run r0, r1, r2;

	run_digest(path, NULL, &r0);
	run_digest(path, bytes, &r1);
	run_digest(path, "0", &r2);
	if (r1.c.reopens < 2)
		fail_msg("%s: only %llu reopens with GPULAT_REOPEN_BYTES=%s", path,
			 (unsigned long long)r1.c.reopens, bytes);
	assert_int_equal(r2.c.reopens, 0);
	assert_same_run(&r0, &r1);
	assert_same_run(&r0, &r2);
}

static void test_reopen_same_events(void **state)
{
	static const char *const names[] = {
		"steady.dat", "lost-events.dat", "two-gpus.dat", "deps-617.dat", "era-pre57.dat",
	};
	char p[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		sample(p, sizeof(p), names[i]);
		/* after every page on the trace with lost events, else every 16 */
		check_reopen(p, i == 1 ? "1" : "65536");
	}
}

/* an uncompressed file: libtracecmd maps it, the reader drops what it read */
static void test_drop_mapped_pages(void **state)
{
	struct run r0, r1;
	char cmd[1024], p[512];

	(void)state;
	if (!gen || access(gen, X_OK))
		skip();
	tmpfile_path(p, sizeof(p), "v6-big.dat");
	snprintf(cmd, sizeof(cmd), "'%s' -q -s steady -o '%s' --file-version 6 --events 200000",
		 gen, p);
	if (system(cmd))
		skip();
	run_digest(p, NULL, &r0);
	/* 200 k events are some 9 MB: most of it must have been given back */
	if (r0.c.dropped_bytes < (4u << 20))
		fail_msg("%s: only %llu bytes dropped", p, (unsigned long long)r0.c.dropped_bytes);
	assert_int_equal(r0.c.reopens, 0);
	run_digest(p, "262144", &r1);
	assert_true(r1.c.reopens > 2);
	assert_same_run(&r0, &r1);
}

/*
 * zstd-compressed files (every sample) have their CPU data decompressed by
 * lib/read-zstd.c, not libtracecmd: the same events, the same jobs.
 */
static void test_zstd_reader_same_events(void **state)
{
	static const char *const names[] = {
		"steady.dat", "lost-events.dat", "two-gpus.dat", "deps-617.dat", "era-pre57.dat",
		"amdgpu.dat", "signal-ooo.dat", "real/deps.dat", "real/stall.dat",
	};
	struct run r0, r1;
	char p[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		sample(p, sizeof(p), names[i]);
		run_digest_env(p, "GPULAT_ZSTD_READER", "0", &r0);
		run_digest_env(p, "GPULAT_ZSTD_READER", NULL, &r1);
		assert_int_equal(r0.c.zstd_files, 0);
		if (r1.c.zstd_files != 1)
			fail_msg("%s: not read by the zstd reader", p);
		assert_same_run(&r0, &r1);
	}
}

/*
 * Uncompressed v6 files have their pages read by lib/read-zstd.c with
 * pread() too (libtracecmd's mappings stayed resident and grew with the
 * trace): the same events, jobs and lost counts as libtracecmd's reading,
 * and no page of the file dropped (nothing read through a mapping).
 */
static void test_v6_reader_same_events(void **state)
{
	static const struct {
		const char *scen;
		const char *events;
	} gens[] = {
		{ "steady", NULL },	{ "lost-events", NULL }, { "era-pre57", NULL },
		{ "two-gpus", NULL },	{ "amdgpu", NULL },	 { "steady", "200000" },
	};
	struct run r0, r1;
	char cmd[1024], p[512];
	size_t i;

	(void)state;
	if (!gen || access(gen, X_OK))
		skip();
	for (i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		tmpfile_path(p, sizeof(p), "v6-own.dat");
		snprintf(cmd, sizeof(cmd), "'%s' -q -s %s -o '%s' --file-version 6%s%s", gen,
			 gens[i].scen, p, gens[i].events ? " --events " : "",
			 gens[i].events ? gens[i].events : "");
		if (system(cmd))
			fail_msg("%s failed", cmd);
		run_digest(p, NULL, &r0);
		run_digest_env(p, "GPULAT_ZSTD_READER", NULL, &r1);
		assert_int_equal(r0.c.zstd_files, 0);
		if (r1.c.zstd_files != 1)
			fail_msg("%s (%s): not read by lib/read-zstd.c", p, gens[i].scen);
		assert_int_equal(r1.c.dropped_bytes, 0);
		assert_same_run(&r0, &r1);
		if (!strcmp(gens[i].scen, "lost-events"))
			assert_true(r1.c.lost_gaps > 0);
	}
}

static uint64_t le(const char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | (unsigned char)p[n];
	return v;
}

/*
 * Zero 256 bytes in the middle of the compressed data of CPU 0's second
 * chunk of a v7 file (uncompressed options sections, as trace-cmd writes
 * them): the chunk headers stay intact (man 5 trace-cmd.dat.v7).
 */
static void damage_chunk_data(char *b, size_t len)
{
	const char *z = memchr(b + 18, '\0', 64);
	uint64_t opt;

	assert_non_null(z);
	z = memchr(z + 1, '\0', 64);
	assert_non_null(z);
	opt = le(z + 1, 8);
	while (opt && opt + 16 <= len) {
		uint64_t size = le(b + opt + 8, 8), pos = opt + 16, end = pos + size, next = 0;

		assert_int_equal(le(b + opt + 2, 2) & 1, 0);
		while (pos + 6 <= end) {
			unsigned int id = (unsigned int)le(b + pos, 2);
			uint64_t sz = le(b + pos + 2, 4), q = pos + 6 + 8, off, n, zs;

			if (id == 0) {
				next = le(b + pos + 6, 8);
				break;
			}
			if (id == 3) {
				q += strlen(b + q) + 1;			/* name */
				q += strlen(b + q) + 1;			/* clock */
				off = le(b + q + 8 + 4, 8);		/* CPU 0 */
				n = le(b + off, 4);
				assert_true(n >= 2);
				zs = le(b + off + 4, 4);
				off += 4 + 8 + zs;			/* chunk 1 */
				zs = le(b + off, 4);
				assert_true(zs > 600);
				memset(b + off + 8 + zs / 2 - 128, 0, 256);
				return;
			}
			pos += 6 + sz;
		}
		opt = next;
	}
	fail_msg("no BUFFER option found");
}

/* a chunk cut short: one line naming the file, not a silent partial report */
static void test_zstd_truncated_chunk(void **state)
{
	struct gpulat_tracker_ops ops = { .job = NULL };
	struct gpulat_tracker *t;
	struct gpulat_reader *r;
	char p[512], tp[512], err[512] = "";
	const char *path = tp;
	size_t len;
	char *buf;
	int ret;

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	buf = read_all(p, &len);
	tmpfile_path(tp, sizeof(tp), "zstd-cut.dat");
	/* the options section is the file's tail: zero a stretch of CPU data instead */
	memset(buf + len / 3, 0, 4096);
	write_bytes(tp, buf, len);
	free(buf);
	/* the zeroed stretch holds a chunk header: the open's checks see it (read-check.c) */
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	assert_null(r);
	assert_non_null(strstr(err, tp));
	assert_non_null(strstr(err, "truncated or damaged trace-cmd data file (CPU "));
	assert_null(strchr(err, '\n'));

	/* the same chunk's data damaged, its header intact: reading stops at it */
	buf = read_all(p, &len);
	damage_chunk_data(buf, len);
	write_bytes(tp, buf, len);
	free(buf);
	r = gpulat_reader_open(&path, 1, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	t = gpulat_tracker_new(&ops, NULL);
	ret = gpulat_reader_run(r, t, NULL, NULL, err, sizeof(err));
	assert_int_equal(ret, -EIO);
	assert_non_null(strstr(err, tp));
	assert_non_null(strstr(err, "compressed CPU data damaged or cut short"));
	assert_null(strchr(err, '\n'));
	gpulat_tracker_free(t);
	gpulat_reader_close(r);
}

/*
 * Of two files, the second's chunk damaged: the error names the second, not
 * the first (read.c named the first file for every -EIO), with one thread
 * and with two.
 */
static void test_zstd_damaged_second_file(void **state)
{
	struct gpulat_tracker_ops ops = { .job = NULL };
	struct gpulat_tracker *t;
	struct gpulat_reader *r;
	char p[512], tp[512], err[512];
	const char *paths[2] = { p, tp };
	unsigned int j;
	size_t len;
	char *buf;

	(void)state;
	sample(p, sizeof(p), "steady.dat");
	tmpfile_path(tp, sizeof(tp), "zstd-second.dat");
	buf = read_all(p, &len);
	damage_chunk_data(buf, len);
	write_bytes(tp, buf, len);
	free(buf);
	for (j = 1; j <= 2; j++) {
		err[0] = '\0';
		r = gpulat_reader_open(paths, 2, err, sizeof(err));
		if (!r)
			fail_msg("%s", err);
		gpulat_reader_set_threads(r, j);
		t = gpulat_tracker_new(&ops, NULL);
		assert_int_equal(gpulat_reader_run(r, t, NULL, NULL, err, sizeof(err)), -EIO);
		if (strncmp(err, tp, strlen(tp)) || err[strlen(tp)] != ':')
			fail_msg("-j%u: the error does not name the damaged file: '%s'", j, err);
		assert_non_null(strstr(err, "compressed CPU data damaged or cut short"));
		gpulat_tracker_free(t);
		gpulat_reader_close(r);
	}
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_not_a_trace),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_hostile_sizes),
		cmocka_unit_test(test_no_gpu_events),
		cmocka_unit_test(test_unknown_layout),
		cmocka_unit_test(test_run),
		cmocka_unit_test(test_hook_stops),
		cmocka_unit_test(test_multi_file),
		cmocka_unit_test(test_reopen_same_events),
		cmocka_unit_test(test_drop_mapped_pages),
		cmocka_unit_test(test_zstd_reader_same_events),
		cmocka_unit_test(test_v6_reader_same_events),
		cmocka_unit_test(test_zstd_truncated_chunk),
		cmocka_unit_test(test_zstd_damaged_second_file),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_read SAMPLES_DIR [GPU-TRACE-GEN]\n");
		return 2;
	}
	samples = argv[1];
	gen = argc > 2 ? argv[2] : NULL;
	if ((size_t)snprintf(tmpdir, sizeof(tmpdir), "%s/gpulat-test-read.XXXXXX",
			     getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp") >= sizeof(tmpdir) ||
	    !mkdtemp(tmpdir)) {
		fprintf(stderr, "test_read: cannot make a directory under $TMPDIR\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, teardown);
}
