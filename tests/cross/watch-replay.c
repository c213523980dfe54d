// SPDX-License-Identifier: LGPL-2.1
/*
 * watch-replay RAWDIR: --watch's input path on recorded pages, one row per ring.
 *
 * RAWDIR holds cpuN.raw (a trace's per-CPU ring-buffer pages, as
 * trace_pipe_raw gives them) and tracing/ (a tracefs lookalike with the
 * formats): made by tests/cross/datpages.py from any trace.dat. The pages go
 * through the session's live input as tools/gl-watch.c feeds it:
 *   - the formats of gpulat_session_live_systems() read from tracing/ with
 *     libtracefs (gl-watch.c setup_reading),
 *   - a tick every 100 ms of trace time (gl-watch.c read_all, every 100 ms):
 *     every CPU drained up to the tick's time, as a live read gives a page
 *     that is still filling (its events so far; the rest comes as a page of
 *     its own at the next read), then gpulat_session_live_flush(); so the
 *     merge across CPUs and flushes is the live one, nothing older than a
 *     flushed event comes later,
 *   - at the end gpulat_session_finish() (the open jobs become incomplete, as
 *     at the end of `--watch -`) and one gpulat_session_live_cut().
 * Printed (exact ns, "-" for a metric without values):
 *   watch-replay: C cpus, P pages, F flushes, J jobs
 *   ring LABEL jobs J complete C incomplete I lost L wait P50 MAX exec P50 MAX total P50 MAX
 * Exit 0, 1 on an error (one line), 2 usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "gpulat.h"
#include "gpulat-session.h"

#define MAX_CPUS 256
#define TICK_NS	 100000000ULL /* gl-watch.c W_TICK_NS */

struct pev {
	uint64_t ts;
	int idx; /* its header's offset in the data */
	unsigned int delta; /* its time delta (to the one before) */
};

struct page {
	unsigned char *data;
	struct pev *ev;
	size_t nev;
	int size; /* data bytes */
	uint64_t flags; /* missed-events bits of the commit word */
};

struct cpu {
	struct page *p;
	size_t n, next; /* pages, the next one to push */
};

#define RB_MISSED_EVENTS (1ULL << 31)
#define RB_MISSED_STORED (1ULL << 30)

static int page_size;
static const int data_start = 16; /* u64 timestamp, u64 commit */

static void msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	if (level == GPULAT_MSG_ERROR)
		fprintf(stderr, "watch-replay: %s\n", text);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static int index_page(struct page *p, struct kbuffer *kb)
{
	unsigned long long ts = 0;
	uint32_t hdr;
	void *ev;

	p->nev = 0;
	p->ev = NULL;
	if (kbuffer_load_subbuffer(kb, p->data) < 0 || kbuffer_start_of_data(kb) != data_start)
		return 0; /* pushed whole as it is */
	p->size = kbuffer_subbuffer_size(kb);
	p->flags = get64(p->data + 8) & (RB_MISSED_EVENTS | RB_MISSED_STORED);
	for (ev = kbuffer_read_event(kb, &ts); ev; ev = kbuffer_next_event(kb, &ts)) {
		struct pev *v = realloc(p->ev, (p->nev + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->ev = v;
		v[p->nev].ts = ts;
		v[p->nev].idx = kbuffer_curr_index(kb);
		/* the header's time_delta: bits 5-31 (little endian, checked in main) */
		memcpy(&hdr, p->data + data_start + v[p->nev].idx, sizeof(hdr));
		v[p->nev].delta = hdr >> 5;
		p->nev++;
	}
	return 0;
}

static int load_cpu(const char *dir, int n, struct cpu *c, struct kbuffer *kb)
{
	char path[4096];
	unsigned char *buf;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/cpu%d.raw", dir, n);
	f = fopen(path, "r");
	if (!f)
		return -ENOENT;
	memset(c, 0, sizeof(*c));
	for (;;) {
		struct page *p;

		buf = malloc((size_t)page_size);
		if (!buf || fread(buf, 1, (size_t)page_size, f) != (size_t)page_size)
			break;
		p = realloc(c->p, (c->n + 1) * sizeof(*p));
		if (!p)
			break;
		c->p = p;
		p = &c->p[c->n++];
		p->data = buf;
		buf = NULL;
		ret = index_page(p, kb);
		if (ret < 0)
			break;
	}
	free(buf);
	fclose(f);
	return ret;
}

/*
 * What trace_pipe_raw gives when a page is read while it fills: @p's events
 * before @k as one page (the missed-events flags and stored count stay with
 * it), and @p becomes the rest, a page of its own whose timestamp is the one
 * its first event's delta counts from.
 */
static int split_page(struct page *p, size_t k, unsigned char *head)
{
	int cut = p->ev[k].idx;
	unsigned char *rest = calloc(1, (size_t)page_size);
	size_t i;

	if (!rest)
		return -ENOMEM;
	memset(head, 0, (size_t)page_size);
	memcpy(head, p->data, (size_t)(data_start + cut));
	put64(head + 8, (uint64_t)cut | p->flags);
	if (p->flags & RB_MISSED_STORED)
		memcpy(head + data_start + cut, p->data + data_start + p->size, 8);
	put64(rest, p->ev[k].ts - p->ev[k].delta);
	put64(rest + 8, (uint64_t)(p->size - cut));
	memcpy(rest + data_start, p->data + data_start + cut, (size_t)(p->size - cut));
	free(p->data);
	p->data = rest;
	p->size -= cut;
	p->flags = 0;
	for (i = k; i < p->nev; i++) {
		p->ev[i - k] = p->ev[i];
		p->ev[i - k].idx -= cut;
	}
	p->nev -= k;
	return 0;
}

/* a drain of every CPU at trace time @t (gl-watch.c read_all), then a flush */
static int tick(struct gpulat_session *s, struct cpu *cpus, int ncpus, uint64_t t,
		unsigned char *head, size_t *pushed)
{
	int c, ret;

	for (c = 0; c < ncpus; c++) {
		struct cpu *x = &cpus[c];

		while (x->next < x->n) {
			struct page *p = &x->p[x->next];
			size_t k = 0;

			if (!p->nev || p->ev[p->nev - 1].ts <= t) {
				ret = gpulat_session_push_page(s, c, p->data, (size_t)page_size);
				x->next++;
				(*pushed)++;
				if (ret < 0)
					return ret;
				continue;
			}
			while (p->ev[k].ts <= t)
				k++;
			if (k) {
				ret = split_page(p, k, head);
				if (ret == 0)
					ret = gpulat_session_push_page(s, c, head,
								       (size_t)page_size);
				(*pushed)++;
				if (ret < 0)
					return ret;
			}
			break;
		}
	}
	return gpulat_session_live_flush(s);
}

/* the first event not pushed yet, UINT64_MAX: all pushed */
static uint64_t next_ts(const struct cpu *cpus, int ncpus)
{
	uint64_t t = UINT64_MAX;
	size_t i;
	int c;

	for (c = 0; c < ncpus; c++)
		for (i = cpus[c].next; i < cpus[c].n; i++)
			if (cpus[c].p[i].nev) {
				if (cpus[c].p[i].ev[0].ts < t)
					t = cpus[c].p[i].ev[0].ts;
				break;
			}
	return t;
}

static void metric(const struct gpulat_summary *m, const char *name)
{
	if (m->n)
		printf(" %s %" PRIu64 " %" PRIu64, name, m->p50, m->max);
	else
		printf(" %s - -", name);
}

static int replay(const char *dir, struct tep_handle *tep, struct cpu *cpus, int ncpus)
{
	struct gpulat_live_opts lo = { .sz = sizeof(lo), .cpus = ncpus, .page_size = page_size };
	struct gpulat_session_counts cn = { .sz = sizeof(cn) };
	struct gpulat_session_opts o;
	const struct gpulat_stats *st;
	struct gpulat_session *s;
	unsigned char *head = malloc((size_t)page_size);
	size_t i, n, pushed = 0;
	uint64_t t, flushes = 0;
	char ring[256];
	int ret;

	gpulat_session_opts_init(&o);
	o.msg = msg;
	s = gpulat_session_new(&o);
	if (!head || !s || gpulat_session_live_pages(s, tep, &lo) < 0) {
		fprintf(stderr, "watch-replay: %s: no live session: %s\n", dir, strerror(errno));
		gpulat_session_free(s);
		free(head);
		return 1;
	}
	/* a tick every TICK_NS of trace time; idle gaps are skipped */
	for (t = next_ts(cpus, ncpus); t != UINT64_MAX;) {
		uint64_t nx;

		t += TICK_NS;
		ret = tick(s, cpus, ncpus, t, head, &pushed);
		if (ret < 0)
			goto err;
		flushes++;
		nx = next_ts(cpus, ncpus);
		if (nx == UINT64_MAX)
			break;
		if (nx > t)
			t = nx;
	}
	/* the empty pages left at the ends */
	ret = tick(s, cpus, ncpus, UINT64_MAX, head, &pushed);
	if (ret < 0)
		goto err;
	ret = gpulat_session_finish(s);
	if (ret < 0)
		goto err;
	st = gpulat_session_live_cut(s, NULL);
	if (!st) {
		ret = -errno;
		goto err;
	}
	gpulat_session_counts(s, &cn);
	printf("watch-replay: %d cpus, %zu pages, %" PRIu64 " flushes, %" PRIu64 " jobs\n", ncpus,
	       pushed, flushes, cn.jobs);
	n = gpulat_stats_ngroups(st, GPULAT_G_RING);
	for (i = 0; i < n; i++) {
		const struct gpulat_group *g = gpulat_stats_group(st, GPULAT_G_RING, i);

		printf("ring %s jobs %" PRIu64 " complete %" PRIu64 " incomplete %" PRIu64
		       " lost %" PRIu64,
		       gpulat_ring_label(ring, sizeof(ring), g->dev, g->ring), g->jobs, g->complete,
		       g->incomplete, g->lost);
		metric(&g->m[GPULAT_M_WAIT], "wait");
		metric(&g->m[GPULAT_M_EXEC], "exec");
		metric(&g->m[GPULAT_M_TOTAL], "total");
		putchar('\n');
	}
	gpulat_session_free(s);
	free(head);
	return 0;
err:
	fprintf(stderr, "watch-replay: %s: %s\n", dir, strerror(-ret));
	gpulat_session_free(s);
	free(head);
	return 1;
}

int main(int argc, char **argv)
{
	const char *systems[64];
	struct cpu cpus[MAX_CPUS];
	struct kbuffer *kb;
	struct tep_handle *tep;
	char dir[4096];
	int ncpus, ret = 0, c;
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: watch-replay RAWDIR\n");
		return 2;
	}
	if (gpulat_session_live_systems(systems, 64) >= 64) {
		fprintf(stderr, "watch-replay: more than 63 event systems\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%s/tracing", argv[1]);
	tracefs_set_loglevel(TEP_LOG_NONE);
	tep = tracefs_local_events_system(dir, systems);
	if (!tep) {
		fprintf(stderr, "watch-replay: %s: cannot read the formats: %s\n", dir,
			strerror(errno));
		return 1;
	}
	tracefs_load_cmdlines(dir, tep);
	page_size = tep_get_page_size(tep) > 0 ? tep_get_page_size(tep) : 4096;
	kb = kbuffer_alloc(tep_get_long_size(tep) == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			   tep_is_file_bigendian(tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!kb) {
		tep_free(tep);
		return 1;
	}
	if (tep_get_long_size(tep) != 8 || tep_is_file_bigendian(tep)) {
		/* the split pages are written with a little-endian 64-bit commit word */
		fprintf(stderr, "watch-replay: %s: not a 64-bit little-endian kernel's pages\n",
			argv[1]);
		kbuffer_free(kb);
		tep_free(tep);
		return 1;
	}
	for (ncpus = 0; ncpus < MAX_CPUS; ncpus++) {
		ret = load_cpu(argv[1], ncpus, &cpus[ncpus], kb);
		if (ret < 0)
			break;
	}
	kbuffer_free(kb);
	if (ret == -ENOMEM) {
		fprintf(stderr, "watch-replay: out of memory\n");
		ret = 1;
	} else if (!ncpus) {
		fprintf(stderr, "watch-replay: %s: no cpu0.raw\n", argv[1]);
		ret = 1;
	} else {
		ret = replay(argv[1], tep, cpus, ncpus);
	}
	for (c = 0; c < ncpus; c++) {
		for (i = 0; i < cpus[c].n; i++) {
			free(cpus[c].p[i].data);
			free(cpus[c].p[i].ev);
		}
		free(cpus[c].p);
	}
	tep_free(tep);
	return ret;
}
