// SPDX-License-Identifier: LGPL-2.1
/*
 * Reader threads (lib/read-par.c): with 2 and 4 threads every sample trace
 * gives the hook the very events of one thread, in the same order, with
 * the same records (timestamp, CPU, offset, payload bytes), and the same
 * counts and span; with context events on too. The threads decode the
 * events themselves (binding clones): every field of every event is the
 * one thread's, and its strings are the file binding's own interned copies
 * (interning one again gives the same pointer), not a thread's. The
 * threads must really be used: gpulat_reader_threads() says how many
 * decoded.
 *
 *   test_read_par SAMPLES_DIR
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>

#include "gpulat.h"
#include "gpulat-int.h"
#include "gpulat-read.h"

static const char *samples;

struct seen {
	uint64_t n;
	uint64_t hash;
	struct gpulat_reader *r;
	uint64_t foreign;	/* strings not the binding's own */
	bool nodata;		/* gpulat__reader_set_records(false): no data hashed */
	uint64_t withdata;	/* ... and the records that came with it anyway */
};

static uint64_t mix(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--) {
		h ^= *c++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* one string of @ev: its bytes, and whether it is the binding's interned copy */
static void str_hash(struct seen *s, int file, const char *str)
{
	struct gpulat_binding *b = gpulat_reader_binding(s->r, file);

	if (!str) {
		s->hash = mix(s->hash, "\1", 1);
		return;
	}
	s->hash = mix(s->hash, str, strlen(str) + 1);
	if (gpulat_binding_intern(b, str) != str)
		s->foreign++;
}

/* every field the binding decodes */
static void event_hash(struct seen *s, int file, const struct gpulat_event *ev)
{
	/* clang-format off */
	uint64_t v[] = {
		(uint64_t)ev->pid, ev->flags, ev->id, ev->fence_ptr, ev->ctx, ev->seqno,
		ev->dep_ptr, ev->dep_ctx, ev->dep_seqno, ev->client_id, ev->job_count,
		(uint64_t)ev->hw_job_count, (uint64_t)ev->irq, (uint64_t)ev->prev_pid,
		(uint64_t)ev->next_pid, (uint64_t)ev->prev_state, ev->value, ev->guc_id,
		ev->lrc_seqno, (uint64_t)ev->crtc, ev->vbl_seq, (uint64_t)ev->vbl_time,
		ev->vbl_file, ev->ticks, ev->ticks_end,
	};
	/* clang-format on */

	s->hash = mix(s->hash, v, sizeof(v));
	str_hash(s, file, ev->dev);
	str_hash(s, file, ev->ring);
	str_hash(s, file, ev->comm);
	str_hash(s, file, ev->driver);
	str_hash(s, file, ev->timeline);
}

static int hook(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct seen *s = data;
	uint64_t v[6];

	v[0] = ev->ts;
	v[1] = (uint64_t)ev->kind;
	v[2] = (uint64_t)ev->cpu;
	v[3] = (uint64_t)file;
	v[4] = rec->offset;
	v[5] = s->nodata ? 0 : (uint64_t)rec->size;
	s->n++;
	s->hash = mix(s->hash, v, sizeof(v));
	s->hash = mix(s->hash, &rec->missed_events, sizeof(rec->missed_events));
	if (s->nodata)
		s->withdata += rec->data != NULL;
	else if (rec->size > 0)
		s->hash = mix(s->hash, rec->data, (size_t)rec->size);
	event_hash(s, file, ev);
	return 0;
}

struct result {
	struct seen seen;
	struct gpulat_reader_counts c;
	uint64_t first, last;
	unsigned int threads;
};

static void read_one(const char *path, unsigned int threads, bool context, bool nodata,
		     struct result *out)
{
	const char *paths[1] = { path };
	struct gpulat_reader *r;
	char err[512];
	int i;

	memset(out, 0, sizeof(*out));
	out->seen.hash = 0xcbf29ce484222325ULL;
	r = gpulat_reader_open(paths, 1, err, sizeof(err));
	if (!r)
		fail_msg("%s: %s", path, err);
	for (i = 0; context && i < gpulat_reader_nfiles(r); i++)
		gpulat_binding_set_context(gpulat_reader_binding(r, i), true);
	gpulat_reader_set_threads(r, threads);
	gpulat__reader_set_records(r, !nodata);
	out->seen.r = r;
	out->seen.nodata = nodata;
	assert_int_equal(gpulat_reader_run(r, NULL, hook, &out->seen, err, sizeof(err)), 0);
	gpulat_reader_counts(r, &out->c);
	gpulat_reader_span(r, &out->first, &out->last);
	out->threads = gpulat_reader_threads(r);
	gpulat_reader_close(r);
}

static void same_all(void **state)
{
	struct result one, par;
	struct dirent *de;
	unsigned int threads[] = { 2, 4 };
	int files = 0, threaded = 0;
	char path[4096];
	DIR *d;

	(void)state;
	d = opendir(samples);
	if (!d)
		skip();
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		int ctx;
		size_t k;

		if (len < 5 || strcmp(de->d_name + len - 4, ".dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", samples, de->d_name);
		files++;
		/*
		 * ctx 0, 1: without and with context events; 2: with them and
		 * no record data (no listener reads it): the threads copy none
		 */
		for (ctx = 0; ctx < 3; ctx++) {
			read_one(path, 1, ctx, ctx == 2, &one);
			assert_int_equal(one.threads, 1);
			for (k = 0; k < sizeof(threads) / sizeof(threads[0]); k++) {
				read_one(path, threads[k], ctx, ctx == 2, &par);
				if (par.threads > 1 && par.seen.withdata)
					fail_msg("%s, %u threads: %llu records copied, none read",
						 path, threads[k],
						 (unsigned long long)par.seen.withdata);
				if (par.seen.n != one.seen.n || par.seen.hash != one.seen.hash)
					fail_msg("%s, %u threads, context %d: %llu events "
						 "(one thread: %llu) or not the same",
						 path, threads[k], ctx,
						 (unsigned long long)par.seen.n,
						 (unsigned long long)one.seen.n);
				if (par.seen.foreign || one.seen.foreign)
					fail_msg("%s, %u threads: %llu strings not the binding's",
						 path, threads[k],
						 (unsigned long long)par.seen.foreign);
				if (memcmp(&par.c, &one.c, sizeof(par.c)))
					fail_msg("%s, %u threads: counts differ", path, threads[k]);
				assert_true(par.first == one.first && par.last == one.last);
				/* zstd files are read by the threads, others by one */
				if (one.c.zstd_files) {
					assert_true(par.threads > 1);
					threaded++;
				} else {
					assert_int_equal(par.threads, 1);
				}
			}
		}
	}
	closedir(d);
	if (!files)
		skip();
	/* the samples are trace-cmd's default, zstd: the threads were used */
	assert_true(threaded > 0);
	printf("%d traces, %d threaded runs, the same events as one thread\n", files, threaded);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_all),
	};

	samples = argc > 1 ? argv[1] : "sample-traces";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
