// SPDX-License-Identifier: LGPL-2.1
/*
 * The reader's main loop: every CPU of every file merged in time order, in
 * the same order as tracecmd_iterate_events_multi() (smallest timestamp
 * first; on a tie the first file, then the lowest CPU), through handles that
 * are replaced by fresh ones as the reading goes on.
 *
 * zstd-compressed files are normally read by read-zstd.c; uncompressed ones
 * have their read pages dropped by read-drop.c. What is left here is the
 * fallback for compressed files read-zstd.c does not take (other
 * compressors, timestamp conversions): libtracecmd 1.3.1 keeps every chunk
 * it decompressed until the handle is closed (free_zpage() never finds the
 * chunk it should release; fixed upstream by "libtracecmd: Fix free_zpage()
 * offset", libtracecmd 1.5) and walks all of them for every new chunk.
 * So after GPULAT_REOPEN_BYTES of ring-buffer pages have been read through a
 * handle, the file is opened again, every CPU of the new handle is put on the
 * record the old one would have returned next (tracecmd_set_cursor()), the
 * new position is checked (same offset, timestamp, size and missed-events
 * count) and only then is the old handle closed. Reopening parses the
 * headers again (kallsyms, event formats, the chunk table of a compressed
 * file), so it is only done when the reading since the last open took at
 * least REOPEN_COST_RATIO times as long as that open did. The first handle
 * (rf->h) stays open for its tep and binding. If a reopen fails, reading
 * goes on with the handle it has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "read-int.h"

#define REOPEN_COST_RATIO	1.0

struct stream {
	struct rfile		*f;
	int			cpu;
	struct tep_record	*rec;		/* peeked head, owned by f->dh */
	struct tep_record	*pending;	/* head on the new handle during a reopen */
	uint64_t		ts;		/* rec->ts, kept here for the merge scan */
	uint64_t		page;		/* file offset of the page last read */
	uint64_t		off;		/* file offset of the record last read */
	struct gpulat__window	w;		/* its pages in a file mapping */
};

struct merge {
	struct stream		*s;
	int			ns;
	void			**act;		/* streams with a head, in stream order */
	int			nact;
};

/*
 * Drop @p from the @*n pointers of @act, keeping their order (the merge's
 * tie rule is "lowest stream first"); read-par.c's merge uses it too.
 */
void gpulat__act_drop(void **act, int *n, const void *p)
{
	int k;

	for (k = 0; k < *n; k++) {
		if (act[k] == p) {
			memmove(&act[k], &act[k + 1], (size_t)(*n - k - 1) * sizeof(*act));
			(*n)--;
			return;
		}
	}
}

static bool reopen_due(const struct gpulat_reader *r, const struct rfile *f)
{
	/* a mapped file's pages are dropped instead (read-drop.c) */
	if (f->mapped != GPULAT_MAP_NONE && !r->reopen_forced)
		return false;
	if (!r->reopen_bytes || f->no_reopen)
		return false;
	/*
	 * The first handle stays open to the end (tep, binding), and so does
	 * what was read through it: leave it at once, unless the file is so
	 * small that all of it costs less than the reopen.
	 */
	if (f->dh == f->h)
		return f->size >= r->reopen_bytes / 4 || f->since_open >= r->reopen_bytes;
	if (f->since_open < r->reopen_bytes)
		return false;
	if (r->reopen_forced)
		return true;
	return gpulat__now() - f->opened_at >= REOPEN_COST_RATIO * f->open_cost;
}

/*
 * Replace @f's data handle by a fresh one positioned where the old one is.
 * Return 0, or -1 with the old handle still in use.
 */
static int reopen(struct merge *m, struct rfile *f)
{
	struct tracecmd_input *nh, *old;
	struct tep_record *rec;
	double t0 = gpulat__now();
	int i;

	nh = gpulat__open_trace(f->path);
	if (!nh)
		goto fail;
	if (tracecmd_cpus(nh) != f->cpus || tracecmd_page_size(nh) != f->page_size)
		goto fail_close;
	for (i = 0; i < m->ns; i++) {
		struct stream *s = &m->s[i];

		s->pending = NULL;
		if (s->f != f || !s->rec)
			continue;
		if (tracecmd_set_cursor(nh, s->cpu, s->rec->offset) < 0)
			goto fail_close;
		rec = tracecmd_peek_data(nh, s->cpu);
		if (!rec || rec->offset != s->rec->offset || rec->ts != s->rec->ts ||
		    rec->missed_events != s->rec->missed_events || rec->size != s->rec->size)
			goto fail_close;
		s->pending = rec;
	}
	for (i = 0; i < m->ns; i++) {
		if (m->s[i].f == f && m->s[i].rec)
			m->s[i].rec = m->s[i].pending;
	}
	old = f->dh;
	f->dh = nh;
	/* the peeked heads of @old are freed with it, its pages unmapped */
	if (old != f->h)
		gpulat__maps_close(f->dmaps, f, old);
	f->since_open = 0;
	f->opened_at = gpulat__now();
	f->open_cost = f->opened_at - t0;
	f->r->c.reopens++;
	return 0;
fail_close:
	tracecmd_close(nh);
fail:
	f->no_reopen = true;
	return -1;
}

/*
 * A zstd (or whole-page v6) file is read by read-zstd.c unless
 * GPULAT_ZSTD_READER=0. Called at open, from the headers alone: libtracecmd's
 * CPU data is then never loaded (read.c open_data()), so no record is
 * compared with libtracecmd's here (F6 was such a check); tests/lib/test_read
 * runs both readers over the same files and compares every event.
 */
void gpulat__reader_try_zstd(struct rfile *f)
{
	const char *env = getenv("GPULAT_ZSTD_READER");

	if (f->ztried)
		return;
	f->ztried = true;
	if (env && !strcmp(env, "0"))
		goto libtracecmd;
	f->z = gpulat__zfile_open(f);
	if (!f->z)
		goto libtracecmd;
	f->r->c.zstd_files++;
	return;

libtracecmd:
	/*
	 * libtracecmd decompresses a zstd file's later chunks itself, and a
	 * damaged page header in one is a SIGSEGV in kbuffer (T15): every
	 * chunk's pages are checked first (read-check.c checked chunk 0)
	 */
	if (!f->span) {	/* v7: no v6 CPU table */
		char why[160];

		if (gpulat__check_chunks(f->path, why, sizeof(why)))
			f->zwhy = strdup(why);
	}
}

static struct tep_record *head(struct rfile *f, int cpu)
{
	return f->z ? gpulat__zfile_head(f->z, cpu) : tracecmd_peek_data(f->dh, cpu);
}

static int merge_init(struct gpulat_reader *r, struct merge *m)
{
	int i, cpu, n = 0;

	for (i = 0; i < r->n; i++)
		n += r->f[i].cpus;
	m->s = calloc(n ? n : 1, sizeof(*m->s));
	m->act = calloc(n ? n : 1, sizeof(*m->act));
	if (!m->s || !m->act)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		struct rfile *f = &r->f[i];

		gpulat__reader_try_zstd(f);
		if (f->zwhy)
			return -EIO;	/* gpulat_reader_run() says why */
		for (cpu = 0; cpu < f->cpus; cpu++) {
			struct stream *s = &m->s[m->ns];

			s->f = f;
			s->cpu = cpu;
			s->page = GPULAT_NONE;
			s->off = GPULAT_NONE;
			s->rec = head(f, cpu);
			if (s->rec) {
				s->ts = s->rec->ts;
				m->act[m->nact++] = s;
			}
			m->ns++;
		}
	}
	return 0;
}

/* @rec is the new head of @s; NULL: its CPU is read to the end */
static void set_head(struct merge *m, struct stream *s, struct tep_record *rec)
{
	s->rec = rec;
	if (rec)
		s->ts = rec->ts;
	else
		gpulat__act_drop(m->act, &m->nact, s);
}

/* consume the head of @s: the record, then the next head */
static int consume(struct gpulat_reader *r, struct merge *m, struct stream *s)
{
	struct rfile *f = s->f;
	struct tep_record *rec;
	uint64_t page;
	int ret;

	if (f->z) {
		ret = gpulat__reader_record(r, f, s->rec);
		gpulat__zfile_next(f->z, s->cpu);
		set_head(m, s, gpulat__zfile_head(f->z, s->cpu));
		return ret;
	}
	/* the peeked head, now ours to free */
	rec = tracecmd_read_data(f->dh, s->cpu);
	if (!rec) {
		set_head(m, s, NULL);
		return 0;
	}
	page = rec->offset & ~((uint64_t)f->page_size - 1);
	/*
	 * Records of one page come at rising offsets. A damaged length
	 * (libtracecmd 1.3.1 takes a negative one) sends kbuffer back on its
	 * page for ever, plain trace-cmd report too (F7): stop the file.
	 */
	if (page == s->page && s->off != GPULAT_NONE && rec->offset <= s->off) {
		tracecmd_free_record(rec);
		r->looped = f->path;
		return -ELOOP;
	}
	s->off = rec->offset;
	if (page != s->page) {
		s->page = page;
		f->since_open += (uint64_t)f->page_size;
		gpulat__drop_behind(f, &s->w, rec->data);
		/* the page map it lies in, for the unmapping at close (F12) */
		gpulat__maps_see(f->dh == f->h ? f->hmaps : f->dmaps, f->dh, rec);
	}
	ret = gpulat__reader_record(r, f, rec);
	tracecmd_free_record(rec);
	set_head(m, s, tracecmd_peek_data(f->dh, s->cpu));
	if (ret >= 0 && reopen_due(r, f))
		reopen(m, f);
	return ret;
}

int gpulat__reader_merge(struct gpulat_reader *r)
{
	struct merge m = { 0 };
	int ret = 0;

	/* -j N: zstd files are read by threads (read-par.c); 1: not taken */
	ret = gpulat__reader_par(r);
	if (ret != 1)
		return ret;
	ret = 0;
	r->threads_used = 1;
	ret = merge_init(r, &m);
	if (ret)
		goto out;
	while (m.nact > 0 && ret >= 0) {
		struct stream *s = m.act[0], *b = NULL;
		int k, si = 0, bi = -1;

		/*
		 * the smallest (ts, stream order) head @s and the next smallest
		 * @b: strict < keeps the first (file, cpu) of equal timestamps
		 */
		for (k = 1; k < m.nact; k++) {
			struct stream *x = m.act[k];

			if (x->ts < s->ts) {
				b = s;
				bi = si;
				s = x;
				si = k;
			} else if (!b || x->ts < b->ts) {
				b = x;
				bi = k;
			}
		}
		/*
		 * Then @s again while its next head still comes before @b's:
		 * the other heads did not move, and a CPU's records often come
		 * in runs. This scan was 80 % of this loop's cycles, ~5 % of
		 * the run, on 8 CPUs (perf annotate, shape-backlog 5.75 M events).
		 */
		do {
			ret = consume(r, &m, s);
		} while (ret >= 0 && s->rec &&
			 (!b || s->ts < b->ts || (s->ts == b->ts && si < bi)));
	}
	if (ret >= 0)
		ret = gpulat__zfile_result(r);
out:
	free(m.s);
	free(m.act);
	return ret;
}
