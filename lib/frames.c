// SPDX-License-Identifier: LGPL-2.1
/*
 * Frames: GPU jobs judged against the display's vblanks.
 *
 * The definitions (frame, deadline, presented, late, missed, cause) are in
 * include/gpulat-frames.h and docs/frames.md. Streaming: vblank events come
 * in time order through gpulat_frames_event(), jobs later (at their done, or
 * at the end) through gpulat_frames_job(). A frame is judged once the jobs
 * counted at their queue events have all arrived and the vblank it was
 * presented at was traced. Memory: a window of the last VBL_WIN vblanks per
 * CRTC, at most MAX_OPEN frames per client, PROC_WIN interval sums per
 * process; quantiles through the bounded accumulator of quantile.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-frames.h"
#include "gpulat-int.h"

#define VBL_WIN		4096	/* vblanks kept per CRTC (68 s at 60 Hz) */
#define EARLY_N		16	/* intervals for the early refresh estimate */
#define MAX_OPEN	64	/* frames waiting for their jobs, per client */
#define PROC_WIN	256	/* per-vblank GPU time sums kept per process */
#define FRAME_JOBS	8	/* jobs remembered per open frame */
#define GAP_SCAN	8	/* counts looked back to extrapolate a missing vblank */
/* bounds for damaged input (linear lookups): more are ignored, counted */
#define MAX_CRTCS	64
#define MAX_CLIENTS	4096
#define MAX_PROCS	4096
#define FLIP_VOTES	8 /* processes a page-flip client's flips vote for */

struct vbl {
	uint64_t	seq;		/* GPULAT_NONE: empty slot */
	uint64_t	t;
};

struct crtc {
	struct gpulat_crtc_report r;
	struct vbl	*win;
	bool		any;
	uint64_t	last_seq;
	uint64_t	last_t;
	struct gpulat__qacc iv;
	uint64_t	early[EARLY_N];
	unsigned int	nearly;
	uint64_t	early_refresh;
	uint64_t	delay_sum;
	uint64_t	delay_n;
};

struct fjob {
	uint64_t	seq;
	const char	*dev, *ring;
	uint64_t	q, run, start, done, exec, dep_wait;
	uint64_t	dep_ctx, dep_seqno, dep_signal;
	const char	*dep_ring;
};

struct frame {
	uint64_t	win_start;	/* previous request ts; jobs queued after it */
	uint64_t	req_ts;		/* GPULAT_NONE while still collecting */
	uint64_t	target, deadline;
	unsigned int	expected;	/* queue events seen of the client's pid */
	unsigned int	received;	/* their jobs arrived */
	bool		incomplete;	/* a job that never completed */
	uint64_t	last_done;
	uint64_t	first_q, last_q;
	uint64_t	gpu;		/* sum of exec */
	unsigned int	nj;
	struct fjob	jobs[FRAME_JOBS];	/* the latest done */
};

struct client {
	struct gpulat_frame_client r;
	struct crtc	*c;
	struct frame	*fr;		/* ring of MAX_OPEN + 1 */
	unsigned int	head, n;
	bool		have_prev;
	uint64_t	prev_target;	/* max(target, presented) of the last judged */
	bool		have_presented;
	uint64_t	last_presented;
	struct gpulat__qacc ft, gt;
	struct gpulat_late_frame *late;
	size_t late_cap;
	/* page-flip client: the previous flip, votes for its process */
	bool flip_any;
	uint64_t last_flip;
	struct {
		struct proc *p;
		uint64_t n;
	} vote[FLIP_VOTES];
};

struct proc {
	struct gpulat_frame_proc r;
	struct client	*cl;
	struct crtc	*ref;
	uint64_t	acc[PROC_WIN];
	uint64_t	acc_seq[PROC_WIN];	/* GPULAT_NONE: empty */
	struct gpulat__qacc gt;
	/*
	 * queue events of the pid before it became a client (its first
	 * _queued) whose jobs have not arrived yet: its first frame waits for
	 * them (a client submits, then asks for its first vblank)
	 */
	unsigned int	pending;
	uint64_t last_done; /* of its latest job, GPULAT_NONE: none */
};

struct gpulat_frames {
	struct gpulat_frames_opts o;
	struct crtc	**crtcs;
	size_t		ncrtcs;
	struct client	**clients;
	size_t		nclients;
	struct proc	**procs;
	size_t		nprocs;
	struct proc	*last_proc;
	bool		seen_queue;	/* QUEUE events exist: AMD_CS is not counted */
	bool		full;		/* the last get_*() / find_proc() hit a bound */
	uint64_t	ignored;	/* events of CRTCs, clients, processes beyond them */
	bool		finished;
};

static const char * const cause_names[GPULAT_FC__COUNT] = {
	[GPULAT_FC_NONE]	= "none",
	[GPULAT_FC_LATE_SUBMIT]	= "late_submit",
	[GPULAT_FC_DEP_WAIT]	= "dep_wait",
	[GPULAT_FC_SCHED_QUEUE]	= "sched_queue",
	[GPULAT_FC_HW_QUEUE]	= "hw_queue",
	[GPULAT_FC_GPU_EXEC]	= "gpu_exec",
};

const char *gpulat_frame_cause_name(enum gpulat_frame_cause c)
{
	if ((unsigned int)c >= GPULAT_FC__COUNT)
		return "?";
	return cause_names[c];
}

void gpulat_frames_opts_init(struct gpulat_frames_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->late_kept = 32;
}

struct gpulat_frames *gpulat_frames_new(const struct gpulat_frames_opts *o)
{
	struct gpulat_frames *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	gpulat_frames_opts_init(&f->o);
	if (o) {
		/* sized opts: copy what both sides know */
		size_t n = o->sz < sizeof(f->o) ? o->sz : sizeof(f->o);

		memcpy(&f->o, o, n);
		f->o.sz = sizeof(f->o);
	}
	return f;
}

void gpulat_frames_free(struct gpulat_frames *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->ncrtcs; i++) {
		gpulat__qacc_fini(&f->crtcs[i]->iv);
		free(f->crtcs[i]->win);
		free(f->crtcs[i]);
	}
	for (i = 0; i < f->nclients; i++) {
		gpulat__qacc_fini(&f->clients[i]->ft);
		gpulat__qacc_fini(&f->clients[i]->gt);
		free(f->clients[i]->fr);
		free(f->clients[i]->late);
		free(f->clients[i]);
	}
	for (i = 0; i < f->nprocs; i++) {
		gpulat__qacc_fini(&f->procs[i]->gt);
		free(f->procs[i]);
	}
	free(f->crtcs);
	free(f->clients);
	free(f->procs);
	free(f);
}

/* append @p to a pointer array */
static int push(void ***v, size_t *n, void *p)
{
	void **t = realloc(*v, (*n + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	t[(*n)++] = p;
	*v = t;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* CRTCs and their vblanks                                                    */

static struct crtc *get_crtc(struct gpulat_frames *f, int file, int crtc)
{
	struct crtc *c;
	size_t i;

	f->full = false;
	for (i = 0; i < f->ncrtcs; i++)
		if (f->crtcs[i]->r.file == file && f->crtcs[i]->r.crtc == crtc)
			return f->crtcs[i];
	if (f->ncrtcs >= MAX_CRTCS) {
		f->full = true;
		f->ignored++;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->win = malloc(VBL_WIN * sizeof(*c->win));
	if (!c->win || push((void ***)&f->crtcs, &f->ncrtcs, c) < 0) {
		free(c->win);
		free(c);
		return NULL;
	}
	for (i = 0; i < VBL_WIN; i++)
		c->win[i].seq = GPULAT_NONE;
	c->r.file = file;
	c->r.crtc = crtc;
	c->r.first_ts = GPULAT_NONE;
	c->r.last_ts = GPULAT_NONE;
	c->r.vbl_time = f->o.use_vbl_time;
	gpulat__qacc_init(&c->iv);
	return c;
}

/* the 32-bit vblank count as a 64-bit one near the CRTC's latest */
static uint64_t unwrap(const struct crtc *c, uint32_t seq)
{
	if (!c->any)
		return seq;
	return c->last_seq + (uint64_t)(int64_t)(int32_t)(seq - (uint32_t)c->last_seq);
}

static uint64_t step_ns(const struct crtc *c)
{
	return c->early_refresh;
}

/*
 * V(c, s): 1 and *t when known (traced, or extrapolated over a short gap in
 * the counts by the refresh interval), 0 when s was not reached yet, -1 when
 * it is unknown (out of the window, or a gap without an estimate).
 */
static int vbl_at(const struct crtc *c, uint64_t s, uint64_t *t)
{
	const struct vbl *v;
	unsigned int k;

	if (!c->any || s > c->last_seq)
		return 0;
	if (c->last_seq - s >= VBL_WIN)
		return -1;
	v = &c->win[s % VBL_WIN];
	if (v->seq == s) {
		*t = v->t;
		return 1;
	}
	/* a count missing from the trace (lost event): extrapolate */
	for (k = 1; k <= GAP_SCAN && k <= s && c->last_seq - (s - k) < VBL_WIN; k++) {
		v = &c->win[(s - k) % VBL_WIN];
		if (v->seq == s - k && step_ns(c)) {
			*t = v->t + k * step_ns(c);
			return 1;
		}
	}
	return -1;
}

static int on_vblank(struct gpulat_frames *f, const struct gpulat_event *ev)
{
	struct crtc *c = get_crtc(f, ev->file, ev->crtc);
	uint64_t seq, t, iv;
	bool from_time = false;
	int ret;

	if (!c)
		return f->full ? 0 : -ENOMEM;
	/* the hardware time when the trace clock is CLOCK_MONOTONIC, like `time` */
	if (f->o.use_vbl_time && (ev->flags & GPULAT_EVF_VBL_TIME) && ev->vbl_time >= 0) {
		t = (uint64_t)ev->vbl_time;
		from_time = true;
		if (ev->ts >= t) {
			c->delay_sum += ev->ts - t;
			c->delay_n++;
			if (ev->ts - t > c->r.irq_delay_max)
				c->r.irq_delay_max = ev->ts - t;
		}
	} else {
		t = ev->ts;
		c->r.vbl_time = false;
	}
	seq = unwrap(c, ev->vbl_seq);
	if (c->any && seq <= c->last_seq)
		return 0;	/* repeated or stale count: nothing new */
	c->r.vblanks++;
	if (c->any) {
		if (seq > c->last_seq + 1)
			c->r.seq_gaps += seq - c->last_seq - 1;
		if (seq == c->last_seq + 1 && t > c->last_t) {
			iv = t - c->last_t;
			ret = gpulat__qacc_add(&c->iv, iv, t, ev->cpu, seq);
			if (ret < 0)
				return ret;
			if (c->nearly < EARLY_N) {
				c->early[c->nearly++] = iv;
				if (c->nearly == EARLY_N) {
					uint64_t s[EARLY_N];
					unsigned int i, j;

					memcpy(s, c->early, sizeof(s));
					for (i = 1; i < EARLY_N; i++)
						for (j = i; j > 0 && s[j - 1] > s[j]; j--) {
							uint64_t x = s[j];

							s[j] = s[j - 1];
							s[j - 1] = x;
						}
					c->early_refresh = gpulat__nearest_rank(s, EARLY_N, 0.5);
				}
			}
		}
	}
	if (c->r.first_ts == GPULAT_NONE)
		c->r.first_ts = t;
	c->r.last_ts = t;
	c->win[seq % VBL_WIN].seq = seq;
	c->win[seq % VBL_WIN].t = t;
	c->any = true;
	c->last_seq = seq;
	c->last_t = t;
	if (f->o.on_vblank) {
		struct gpulat_vblank v = {
			.file = ev->file,
			.crtc = ev->crtc,
			.seq = seq,
			.ts = t,
			.record_ts = ev->ts,
			.vbl_time = from_time,
		};

		ret = f->o.on_vblank(&v, f->o.cb_data);
		if (ret < 0)
			return ret;
	}
	return 1;
}

/* ------------------------------------------------------------------------ */
/* processes                                                                  */

static struct proc *find_proc(struct gpulat_frames *f, int file, int pid, bool create)
{
	struct proc *p = f->last_proc;
	size_t i;

	f->full = false;
	if (p && p->r.pid == pid && p->r.file == file)
		return p;
	for (i = 0; i < f->nprocs; i++) {
		p = f->procs[i];
		if (p->r.pid == pid && p->r.file == file) {
			f->last_proc = p;
			return p;
		}
	}
	if (!create)
		return NULL;
	if (f->nprocs >= MAX_PROCS) {
		f->full = true;
		f->ignored++;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p || push((void ***)&f->procs, &f->nprocs, p) < 0) {
		free(p);
		return NULL;
	}
	p->r.file = file;
	p->r.pid = pid;
	p->r.comm = "";
	p->r.crtc = -1;
	p->last_done = GPULAT_NONE;
	for (i = 0; i < PROC_WIN; i++)
		p->acc_seq[i] = GPULAT_NONE;
	gpulat__qacc_init(&p->gt);
	f->last_proc = p;
	return p;
}

/* the CRTC whose vblanks cut a process's GPU time: its client's, else the first */
static struct crtc *proc_crtc(struct gpulat_frames *f, struct proc *p)
{
	struct crtc *best = NULL;
	size_t i;

	if (p->cl)
		return p->cl->c;
	if (p->ref)
		return p->ref;
	for (i = 0; i < f->ncrtcs; i++) {
		struct crtc *c = f->crtcs[i];

		if (c->r.file != p->r.file || !c->any)
			continue;
		if (!best || c->r.crtc < best->r.crtc)
			best = c;
	}
	return best;
}

static int flush_slot(struct proc *p, unsigned int k)
{
	int ret = 0;

	if (p->acc_seq[k] != GPULAT_NONE && p->acc[k])
		ret = gpulat__qacc_add(&p->gt, p->acc[k], 0, -1, p->acc_seq[k]);
	p->acc_seq[k] = GPULAT_NONE;
	p->acc[k] = 0;
	return ret;
}

/* add @ns of GPU time to the interval starting at vblank @s */
static int proc_add(struct proc *p, uint64_t s, uint64_t ns)
{
	unsigned int k = s % PROC_WIN;
	int ret;

	if (p->acc_seq[k] != s) {
		if (p->acc_seq[k] != GPULAT_NONE && p->acc_seq[k] > s)
			return 0;	/* older than the kept intervals: dropped */
		ret = flush_slot(p, k);
		if (ret < 0)
			return ret;
		p->acc_seq[k] = s;
	}
	p->acc[k] += ns;
	return 0;
}

/* the job's [start, done] split over the vblank intervals of the process's CRTC */
static int proc_job(struct gpulat_frames *f, struct proc *p, const struct gpulat_job *job)
{
	uint64_t start = job->start_ts, done = job->ts[GPULAT_ST_DONE], s, vs, vn;
	struct crtc *c;
	int ret, k;

	p->r.jobs++;
	if (done != GPULAT_NONE && (p->last_done == GPULAT_NONE || done > p->last_done))
		p->last_done = done;
	if (start == GPULAT_NONE || done == GPULAT_NONE || done <= start)
		return 0;
	c = proc_crtc(f, p);
	if (!c || !c->any)
		return 0;
	p->r.crtc = c->r.crtc;
	/* the last traced vblank at or before start */
	s = c->last_seq;
	for (;;) {
		k = vbl_at(c, s, &vs);
		if (k < 0)
			return 0;	/* older than the window */
		if (k > 0 && vs <= start)
			break;
		if (!s || c->last_seq - s >= VBL_WIN - 1)
			return 0;
		s--;
	}
	for (; vs < done; s++, vs = vn) {
		uint64_t from, to;

		k = vbl_at(c, s + 1, &vn);
		if (k <= 0)
			vn = UINT64_MAX;	/* the open interval */
		from = start > vs ? start : vs;
		to = done < vn ? done : vn;
		if (to > from) {
			ret = proc_add(p, s, to - from);
			if (ret < 0)
				return ret;
		}
		if (vn == UINT64_MAX)
			break;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* clients and frames                                                         */

static struct client *get_client(struct gpulat_frames *f, const struct gpulat_event *ev,
				 struct crtc *c)
{
	struct client *cl;
	size_t i;

	f->full = false;
	for (i = 0; i < f->nclients; i++) {
		cl = f->clients[i];
		if (cl->r.file == ev->file && cl->r.drm_file == ev->vbl_file && cl->c == c)
			return cl;
	}
	if (f->nclients >= MAX_CLIENTS) {
		f->full = true;
		f->ignored++;
		return NULL;
	}
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		return NULL;
	cl->fr = calloc(MAX_OPEN + 1, sizeof(*cl->fr));
	if (!cl->fr || push((void ***)&f->clients, &f->nclients, cl) < 0) {
		free(cl->fr);
		free(cl->late);
		free(cl);
		return NULL;
	}
	cl->c = c;
	cl->r.file = ev->file;
	cl->r.drm_file = ev->vbl_file;
	cl->r.crtc = c->r.crtc;
	cl->r.pid = -1;
	cl->r.comm = "";
	gpulat__qacc_init(&cl->ft);
	gpulat__qacc_init(&cl->gt);
	/* the frame collecting the first work */
	cl->n = 1;
	cl->fr[0].req_ts = GPULAT_NONE;
	cl->fr[0].last_done = 0;
	cl->fr[0].first_q = GPULAT_NONE;
	cl->fr[0].last_q = GPULAT_NONE;
	return cl;
}

static struct frame *fr_at(struct client *cl, unsigned int i)
{
	return &cl->fr[(cl->head + i) % (MAX_OPEN + 1)];
}

static struct frame *collecting(struct client *cl)
{
	return fr_at(cl, cl->n - 1);
}

/* the state of job @j at time @dl (it is in flight then) */
static enum gpulat_frame_cause state_at(const struct fjob *j, uint64_t dl)
{
	uint64_t run = j->run != GPULAT_NONE ? j->run : j->q;
	uint64_t start = j->start != GPULAT_NONE ? j->start : run;

	if (j->dep_wait != GPULAT_NONE && j->dep_wait && dl < j->q + j->dep_wait)
		return GPULAT_FC_DEP_WAIT;
	if (dl < run)
		return GPULAT_FC_SCHED_QUEUE;
	if (dl < start)
		return GPULAT_FC_HW_QUEUE;
	return GPULAT_FC_GPU_EXEC;
}

static bool in_flight(const struct fjob *j, uint64_t dl)
{
	return j->q <= dl && (j->done == GPULAT_NONE || j->done > dl);
}

static void keep_late(struct gpulat_frames *f, struct client *cl, const struct frame *fr,
		      uint64_t dl_ts, uint64_t ready, uint64_t pres, uint64_t pres_ts,
		      enum gpulat_frame_cause cause)
{
	struct gpulat_late_frame *lf;
	bool used[FRAME_JOBS] = { false };
	unsigned int i, k;

	if (cl->r.nlate >= f->o.late_kept)
		return;
	/* grown as late frames come: memory follows them, not late_kept */
	if (cl->r.nlate == cl->late_cap) {
		size_t cap = cl->late_cap ? cl->late_cap * 2 : 8;
		struct gpulat_late_frame *n;

		if (cap > f->o.late_kept)
			cap = f->o.late_kept;
		n = realloc(cl->late, cap * sizeof(*n));
		if (!n)
			return; /* counted, not kept */
		cl->late = n;
		cl->late_cap = cap;
	}
	lf = &cl->late[cl->r.nlate++];
	memset(lf, 0, sizeof(*lf));
	lf->file = cl->r.file;
	lf->crtc = cl->r.crtc;
	lf->drm_file = cl->r.drm_file;
	lf->pid = cl->r.pid;
	lf->comm = cl->r.comm;
	lf->target = fr->target;
	lf->deadline = fr->deadline;
	lf->deadline_ts = dl_ts;
	lf->request_ts = fr->req_ts;
	lf->first_submit_ts = fr->first_q;
	lf->last_submit_ts = fr->last_q;
	lf->ready_ts = ready;
	lf->presented = pres;
	lf->presented_ts = pres_ts;
	lf->missed = pres != GPULAT_NONE ? pres - fr->deadline : cl->c->last_seq + 1 - fr->deadline;
	lf->cause = cause;
	lf->njobs = fr->received;
	/* the jobs that finished last first (never-completed ones before all) */
	for (k = 0; k < GPULAT_FRAME_JOBS && k < fr->nj; k++) {
		int best = -1;

		for (i = 0; i < fr->nj; i++) {
			if (used[i])
				continue;
			if (best < 0 || fr->jobs[i].done > fr->jobs[best].done)
				best = (int)i;
		}
		used[best] = true;
		{
			const struct fjob *j = &fr->jobs[best];
			struct gpulat_frame_job *o = &lf->jobs[lf->nkept++];

			o->seq = j->seq;
			o->dev = j->dev;
			o->ring = j->ring;
			o->queue_ts = j->q;
			o->run_ts = j->run;
			o->start_ts = j->start;
			o->done_ts = j->done;
			o->exec = j->exec;
			o->state = in_flight(j, dl_ts) ? state_at(j, dl_ts) : GPULAT_FC_NONE;
			o->dep_ctx = j->dep_ctx;
			o->dep_seqno = j->dep_seqno;
			o->dep_ring = j->dep_ring;
			o->dep_signal_ts = j->dep_signal;
		}
	}
}

/* vblanks a late frame due at @dl missed: to @pres, or to the end of the trace */
static uint64_t missed_of(const struct crtc *c, uint64_t dl, uint64_t pres)
{
	return pres != GPULAT_NONE ? pres - dl : c->last_seq + 1 - dl;
}

/*
 * Judge the oldest requested frame of @cl if everything it needs is known
 * (@force: at the end or on overflow, with what is known).
 * Return: 1 judged (popped), 0 not yet, negative errno.
 */
static int judge_head(struct gpulat_frames *f, struct client *cl, bool force)
{
	struct frame *fr = fr_at(cl, 0);
	struct crtc *c = cl->c;
	enum gpulat_frame_cause cause = GPULAT_FC_NONE;
	uint64_t dl_ts, ready, pres = GPULAT_NONE, pres_ts = GPULAT_NONE, s, t;
	bool late;
	int k, ret;

	if (cl->n < 2 || fr->req_ts == GPULAT_NONE)
		return 0;
	/*
	 * The vblank right after the previous frame's target or presentation
	 * (whichever is later), unless the client asked for an earlier one:
	 * frames are judged in order, so the previous one is known here.
	 */
	fr->deadline = fr->target;
	if (cl->have_prev && cl->prev_target + 1 < fr->deadline)
		fr->deadline = cl->prev_target + 1;
	if (fr->received < fr->expected && !force)
		return 0;
	k = vbl_at(c, fr->deadline, &dl_ts);
	if (k == 0 && !force)
		return 0;
	if (k <= 0) {
		cl->r.unresolved++;	/* its deadline is not in the trace */
		goto pop;
	}
	ready = fr->incomplete ? GPULAT_NONE : (fr->last_done > fr->req_ts ? fr->last_done : fr->req_ts);
	if (ready != GPULAT_NONE) {
		/* only the kept window: a damaged target far back must not loop */
		s = fr->target;
		if (c->last_seq >= VBL_WIN && s < c->last_seq - VBL_WIN + 1)
			s = c->last_seq - VBL_WIN + 1;
		for (; ; s++) {
			k = vbl_at(c, s, &t);
			if (k == 0)
				break;
			if (k > 0 && t >= ready) {
				pres = s;
				pres_ts = t;
				break;
			}
		}
	}
	if (pres == GPULAT_NONE && !force)
		return 0;
	if (pres == GPULAT_NONE && ready != GPULAT_NONE && ready <= dl_ts) {
		/* on time by the deadline but its target is after the trace */
		cl->r.unresolved++;
		goto pop;
	}
	late = pres == GPULAT_NONE || pres > fr->deadline;
	cl->r.frames++;
	if (fr->received) {
		ret = gpulat__qacc_add(&cl->gt, fr->gpu, fr->req_ts, -1, cl->r.frames);
		if (ret < 0)
			return ret;
	}
	if (pres != GPULAT_NONE) {
		if (cl->have_presented && pres_ts > cl->last_presented) {
			ret = gpulat__qacc_add(&cl->ft, pres_ts - cl->last_presented, pres_ts, -1,
					       cl->r.frames);
			if (ret < 0)
				return ret;
		}
		if (!cl->have_presented || pres_ts > cl->last_presented) {
			cl->last_presented = pres_ts;
			cl->have_presented = true;
		}
	}
	if (late) {
		const struct fjob *crit = NULL;
		unsigned int i;

		for (i = 0; i < fr->nj; i++) {
			const struct fjob *j = &fr->jobs[i];

			if (!in_flight(j, dl_ts))
				continue;
			if (!crit || j->done == GPULAT_NONE ||
			    (crit->done != GPULAT_NONE && j->done > crit->done))
				crit = j;
		}
		cause = crit ? state_at(crit, dl_ts) : GPULAT_FC_LATE_SUBMIT;
		cl->r.late++;
		cl->r.missed += missed_of(c, fr->deadline, pres);
		cl->r.by_cause[cause]++;
		keep_late(f, cl, fr, dl_ts, ready, pres, pres_ts, cause);
	}
	if (f->o.on_frame) {
		struct gpulat_frame_verdict v = {
			.file = cl->r.file,
			.crtc = cl->r.crtc,
			.drm_file = cl->r.drm_file,
			.pid = cl->r.pid,
			.comm = cl->r.comm,
			.late = late,
			.deadline = fr->deadline,
			.deadline_ts = dl_ts,
			.presented = pres,
			.presented_ts = pres_ts,
			.request_ts = fr->req_ts,
			.ready_ts = ready,
			.missed = late ? missed_of(c, fr->deadline, pres) : 0,
			.cause = cause,
		};

		ret = f->o.on_frame(&v, f->o.cb_data);
		if (ret < 0)
			return ret;
	}
	if (pres != GPULAT_NONE && pres > fr->target)
		fr->target = pres;	/* the next deadline follows what was shown */
pop:
	cl->prev_target = fr->target;
	cl->have_prev = true;
	cl->head = (cl->head + 1) % (MAX_OPEN + 1);
	cl->n--;
	return 1;
}

static int judge(struct gpulat_frames *f, struct client *cl, bool force)
{
	int ret;

	while ((ret = judge_head(f, cl, force)) > 0)
		;
	return ret;
}

static int on_queued(struct gpulat_frames *f, const struct gpulat_event *ev)
{
	struct crtc *c = get_crtc(f, ev->file, ev->crtc);
	struct client *cl;
	struct frame *fr, *nf;
	struct proc *p;
	int ret;

	if (!c)
		return f->full ? 0 : -ENOMEM;
	cl = get_client(f, ev, c);
	if (!cl)
		return f->full ? 0 : -ENOMEM;
	if (cl->r.pid < 0) {
		cl->r.pid = ev->pid;
		cl->r.comm = ev->comm ? ev->comm : "";
	}
	p = find_proc(f, ev->file, ev->pid, true);
	if (!p)
		return f->full ? 0 : -ENOMEM;
	if (p->cl != cl) {
		if (!p->cl) {
			collecting(cl)->expected += p->pending;
			p->pending = 0;
		}
		p->cl = cl;
		if (ev->comm)
			p->r.comm = ev->comm;
	}
	cl->r.requested++;
	if (cl->n == MAX_OPEN + 1) {
		ret = judge_head(f, cl, true);
		if (ret < 0)
			return ret;
	}
	fr = collecting(cl);
	fr->req_ts = ev->ts;
	fr->target = unwrap(c, ev->vbl_seq);
	nf = fr_at(cl, cl->n++);
	memset(nf, 0, sizeof(*nf));
	nf->win_start = ev->ts;
	nf->req_ts = GPULAT_NONE;
	nf->first_q = GPULAT_NONE;
	nf->last_q = GPULAT_NONE;
	return judge(f, cl, false);
}

/*
 * The process a page-flip client's flip at vblank @seq waited for: the one
 * whose latest job finished last in (V(seq - 1), @ts] (a driver flips at the
 * first vblank after the buffer's fence signalled).  6.1's events carry no
 * link from a job to a drm_file, so the client's process is the one most
 * flips vote for.
 */
static void flip_vote(struct gpulat_frames *f, struct client *cl, uint64_t seq, uint64_t ts)
{
	struct proc *best = NULL;
	uint64_t from;
	size_t i;

	if (!seq || vbl_at(cl->c, seq - 1, &from) <= 0)
		return;
	for (i = 0; i < f->nprocs; i++) {
		struct proc *p = f->procs[i];

		if (p->last_done == GPULAT_NONE || p->last_done <= from || p->last_done > ts)
			continue;
		if (!best || p->last_done > best->last_done)
			best = p;
	}
	if (!best)
		return;
	for (i = 0; i < FLIP_VOTES; i++) {
		if (cl->vote[i].p == best || !cl->vote[i].p) {
			cl->vote[i].p = best;
			cl->vote[i].n++;
			return;
		}
	}
}

/*
 * A flip completion of a client that never asked for a vblank event (no
 * _queued: page flips, atomic commits with an event).  Its frame aimed at
 * the vblank after its previous flip (deadline = previous + 1): a later
 * flip is late by the vblanks the old image was shown again.  The first
 * flip has no previous one and is not judged.  No cause: the trace shows no
 * request (cause none).
 */
static int on_flip(struct gpulat_frames *f, struct client *cl, const struct gpulat_event *ev)
{
	struct crtc *c = cl->c;
	uint64_t seq = unwrap(c, ev->vbl_seq), dl, t0, t1;
	int k0, k1, ret = 0;

	cl->r.flips++;
	flip_vote(f, cl, seq, ev->ts);
	if (cl->flip_any && seq > cl->last_flip) {
		dl = cl->last_flip + 1;
		cl->r.frames++;
		k0 = vbl_at(c, cl->last_flip, &t0);
		k1 = vbl_at(c, seq, &t1);
		if (k1 <= 0 && seq == c->last_seq + 1 && step_ns(c)) {
			/* delivered before its own drm_vblank_event */
			t1 = c->last_t + step_ns(c);
			k1 = 1;
		}
		if (k0 > 0 && k1 > 0 && t1 > t0)
			gpulat__qacc_add(&cl->ft, t1 - t0, t1, ev->cpu, seq);
		if (seq > dl) {
			struct frame tmp;
			uint64_t dl_ts = GPULAT_NONE;

			cl->r.late++;
			cl->r.missed += seq - dl;
			memset(&tmp, 0, sizeof(tmp));
			tmp.target = dl;
			tmp.deadline = dl;
			tmp.req_ts = GPULAT_NONE;
			tmp.first_q = GPULAT_NONE;
			tmp.last_q = GPULAT_NONE;
			vbl_at(c, dl, &dl_ts);
			keep_late(f, cl, &tmp, dl_ts, GPULAT_NONE, seq, k1 > 0 ? t1 : GPULAT_NONE,
				  GPULAT_FC_NONE);
		}
		if (f->o.on_frame) {
			struct gpulat_frame_verdict v = {
				.file = cl->r.file,
				.crtc = cl->r.crtc,
				.drm_file = cl->r.drm_file,
				.pid = cl->r.pid,
				.comm = cl->r.comm,
				.flip = true,
				.late = seq > dl,
				.deadline = dl,
				.deadline_ts = GPULAT_NONE,
				.presented = seq,
				.presented_ts = k1 > 0 ? t1 : GPULAT_NONE,
				.request_ts = GPULAT_NONE,
				.ready_ts = GPULAT_NONE,
				.missed = seq > dl ? seq - dl : 0,
				.cause = GPULAT_FC_NONE,
			};

			vbl_at(c, dl, &v.deadline_ts);
			ret = f->o.on_frame(&v, f->o.cb_data);
		}
	}
	if (!cl->flip_any || seq > cl->last_flip)
		cl->last_flip = seq;
	cl->flip_any = true;
	return ret;
}

static int on_delivered(struct gpulat_frames *f, const struct gpulat_event *ev)
{
	struct crtc *c = get_crtc(f, ev->file, ev->crtc);
	struct client *cl;

	if (!c)
		return f->full ? 0 : -ENOMEM;
	cl = get_client(f, ev, c);
	if (!cl)
		return f->full ? 0 : -ENOMEM;
	cl->r.delivered++;
	/* a vblank-event client's deliveries answer its requests */
	if (!cl->r.requested)
		return on_flip(f, cl, ev);
	return 0;
}

/* a queue event of a client's process: one more job its current frame waits for */
static void on_queue(struct gpulat_frames *f, const struct gpulat_event *ev)
{
	struct proc *p;

	if (ev->kind == GPULAT_EV_QUEUE)
		f->seen_queue = true;
	else if (f->seen_queue)
		return;	/* amdgpu_cs_ioctl of a job whose queue event is traced too */
	p = find_proc(f, ev->file, ev->pid, true);
	if (p && p->cl)
		collecting(p->cl)->expected++;
	else if (p)
		p->pending++;
}

int gpulat_frames_event(struct gpulat_frames *f, const struct gpulat_event *ev)
{
	size_t i;
	int ret;

	switch (ev->kind) {
	case GPULAT_EV_VBLANK:
		ret = on_vblank(f, ev);
		if (ret <= 0)
			return ret;
		/* a new vblank may present waiting frames */
		for (i = 0; i < f->nclients; i++) {
			if (f->clients[i]->r.file != ev->file || f->clients[i]->r.crtc != ev->crtc)
				continue;
			ret = judge(f, f->clients[i], false);
			if (ret < 0)
				return ret;
		}
		return 0;
	case GPULAT_EV_VBLANK_QUEUED:
		return on_queued(f, ev);
	case GPULAT_EV_VBLANK_DELIVERED:
		return on_delivered(f, ev);
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_AMD_CS:
		on_queue(f, ev);
		return 0;
	default:
		return 0;
	}
}

/* the frame of @cl whose work window holds queue time @q, NULL if none kept */
static struct frame *frame_of(struct client *cl, uint64_t q)
{
	unsigned int i;

	for (i = 0; i < cl->n; i++) {
		struct frame *fr = fr_at(cl, i);

		if (q > fr->win_start && (fr->req_ts == GPULAT_NONE || q <= fr->req_ts))
			return fr;
		/* win_start 0 of the very first frame takes a job queued at 0 too */
		if (!fr->win_start && q == 0)
			return fr;
	}
	return NULL;
}

static void frame_add_job(struct frame *fr, const struct gpulat_job *job)
{
	uint64_t done = job->ts[GPULAT_ST_DONE];
	struct fjob j = { 0 };
	unsigned int i;

	fr->received++;
	if (job->status != GPULAT_JOB_COMPLETE || done == GPULAT_NONE) {
		fr->incomplete = true;
		done = GPULAT_NONE;
	} else if (done > fr->last_done) {
		fr->last_done = done;
	}
	if (fr->first_q == GPULAT_NONE || job->ts[GPULAT_ST_QUEUE] < fr->first_q)
		fr->first_q = job->ts[GPULAT_ST_QUEUE];
	if (fr->last_q == GPULAT_NONE || job->ts[GPULAT_ST_QUEUE] > fr->last_q)
		fr->last_q = job->ts[GPULAT_ST_QUEUE];
	if (job->exec != GPULAT_NONE)
		fr->gpu += job->exec;

	j.seq = job->seq;
	j.dev = job->dev;
	j.ring = job->ring_name ? job->ring_name : job->ring;
	j.q = job->ts[GPULAT_ST_QUEUE];
	j.run = job->ts[GPULAT_ST_RUN];
	j.start = job->start_ts;
	j.done = done;
	j.exec = job->exec;
	j.dep_wait = job->dep_wait;
	j.dep_signal = GPULAT_NONE;
	/* the dependency that signalled last is the one it waited for */
	for (i = 0; i < job->n_deps; i++) {
		const struct gpulat_dep *d = &job->deps[i];

		if (i && d->signal_ts != GPULAT_NONE && j.dep_signal != GPULAT_NONE &&
		    d->signal_ts <= j.dep_signal)
			continue;
		j.dep_ctx = d->ctx;
		j.dep_seqno = d->seqno;
		j.dep_ring = d->ring;
		j.dep_signal = d->signal_ts;
	}
	/* keep the FRAME_JOBS that finished last (never-done counts as last) */
	if (fr->nj < FRAME_JOBS) {
		fr->jobs[fr->nj++] = j;
		return;
	}
	for (i = 0; i < FRAME_JOBS; i++) {
		if (fr->jobs[i].done != GPULAT_NONE && (done == GPULAT_NONE || done > fr->jobs[i].done)) {
			fr->jobs[i] = j;
			return;
		}
	}
}

int gpulat_frames_job(struct gpulat_frames *f, const struct gpulat_job *job)
{
	struct proc *p;
	struct frame *fr;
	int ret;

	if (job->pid < 0)
		return 0;
	p = find_proc(f, job->file, job->pid, true);
	if (!p)
		return f->full ? 0 : -ENOMEM;
	if (!p->r.comm[0] && job->comm)
		p->r.comm = job->comm;
	if (!p->cl && p->pending)
		p->pending--;
	ret = proc_job(f, p, job);
	if (ret < 0 || !p->cl || job->ts[GPULAT_ST_QUEUE] == GPULAT_NONE)
		return ret;
	fr = frame_of(p->cl, job->ts[GPULAT_ST_QUEUE]);
	if (!fr)
		return 0;
	frame_add_job(fr, job);
	return judge(f, p->cl, false);
}

uint64_t gpulat_frames_ignored(const struct gpulat_frames *f)
{
	return f->ignored;
}

bool gpulat_frames_active(const struct gpulat_frames *f)
{
	return f->ncrtcs > 0;
}

uint64_t gpulat_frames_early_refresh(const struct gpulat_frames *f, int *crtc)
{
	uint64_t best = 0;
	size_t i;

	for (i = 0; i < f->ncrtcs; i++) {
		const struct crtc *c = f->crtcs[i];

		if (c->early_refresh && (!best || c->early_refresh < best)) {
			best = c->early_refresh;
			if (crtc)
				*crtc = c->r.crtc;
		}
	}
	return best;
}

static int cmp_crtc(const void *a, const void *b)
{
	const struct crtc *x = *(struct crtc * const *)a, *y = *(struct crtc * const *)b;

	if (x->r.file != y->r.file)
		return x->r.file < y->r.file ? -1 : 1;
	return (x->r.crtc > y->r.crtc) - (x->r.crtc < y->r.crtc);
}

static int cmp_client(const void *a, const void *b)
{
	const struct client *x = *(struct client * const *)a, *y = *(struct client * const *)b;

	if (x->r.file != y->r.file)
		return x->r.file < y->r.file ? -1 : 1;
	if (x->r.crtc != y->r.crtc)
		return x->r.crtc < y->r.crtc ? -1 : 1;
	if (x->r.pid != y->r.pid)
		return x->r.pid < y->r.pid ? -1 : 1;
	return (x->r.drm_file > y->r.drm_file) - (x->r.drm_file < y->r.drm_file);
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc *x = *(struct proc * const *)a, *y = *(struct proc * const *)b;

	if (x->r.file != y->r.file)
		return x->r.file < y->r.file ? -1 : 1;
	return (x->r.pid > y->r.pid) - (x->r.pid < y->r.pid);
}

static void finish_crtc(struct crtc *c)
{
	struct gpulat_crtc_report *r = &c->r;
	uint64_t tol;

	gpulat__qacc_summary(&c->iv, &r->interval);
	r->refresh_ns = r->interval.n ? r->interval.p50 : 0;
	if (c->delay_n)
		r->irq_delay_mean = c->delay_sum / c->delay_n;
	/* 5 %; the IRQ handler's jitter on top when record timestamps are used */
	tol = r->refresh_ns / 20 + (r->vbl_time ? 0 : 500000);
	r->vrr = r->interval.n >= 2 &&
		 (r->interval.p99 - r->refresh_ns > tol || r->refresh_ns - r->interval.min > tol);
}

int gpulat_frames_finish(struct gpulat_frames *f)
{
	size_t i, j;
	unsigned int k;
	int ret;

	if (f->finished)
		return 0;
	f->finished = true;
	for (i = 0; i < f->nclients; i++) {
		ret = judge(f, f->clients[i], true);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < f->ncrtcs; i++)
		finish_crtc(f->crtcs[i]);
	for (i = 0; i < f->nclients; i++) {
		struct client *cl = f->clients[i];

		/* a page-flip client's process: the one most of its flips waited for */
		if (!cl->r.requested && cl->r.flips) {
			unsigned int b = 0;

			for (k = 1; k < FLIP_VOTES && cl->vote[k].p; k++)
				if (cl->vote[k].n > cl->vote[b].n)
					b = k;
			if (cl->vote[b].p) {
				cl->r.pid = cl->vote[b].p->r.pid;
				cl->r.comm = cl->vote[b].p->r.comm;
				cl->r.pid_inferred = true;
				for (j = 0; j < cl->r.nlate; j++) {
					cl->late[j].pid = cl->r.pid;
					cl->late[j].comm = cl->r.comm;
				}
			}
		}
		/* still collecting: requests never made are not frames */
		gpulat__qacc_summary(&cl->ft, &cl->r.frame_time);
		gpulat__qacc_summary(&cl->gt, &cl->r.gpu_time);
		cl->r.late_total = cl->r.late;
		for (j = 0; j < f->ncrtcs; j++) {
			struct crtc *c = f->crtcs[j];

			if (c != cl->c)
				continue;
			c->r.frames += cl->r.frames;
			c->r.late += cl->r.late;
			c->r.missed += cl->r.missed;
		}
	}
	for (i = 0; i < f->nprocs; i++) {
		struct proc *p = f->procs[i];

		for (k = 0; k < PROC_WIN; k++) {
			ret = flush_slot(p, k);
			if (ret < 0)
				return ret;
		}
		gpulat__qacc_summary(&p->gt, &p->r.gpu_time);
	}
	/* qsort() of an empty (NULL) array is undefined */
	if (f->ncrtcs > 1)
		qsort(f->crtcs, f->ncrtcs, sizeof(*f->crtcs), cmp_crtc);
	if (f->nclients > 1)
		qsort(f->clients, f->nclients, sizeof(*f->clients), cmp_client);
	if (f->nprocs > 1)
		qsort(f->procs, f->nprocs, sizeof(*f->procs), cmp_proc);
	return 0;
}

size_t gpulat_frames_ncrtcs(const struct gpulat_frames *f)
{
	return f->ncrtcs;
}

const struct gpulat_crtc_report *gpulat_frames_crtc(const struct gpulat_frames *f, size_t i)
{
	return i < f->ncrtcs ? &f->crtcs[i]->r : NULL;
}

size_t gpulat_frames_nclients(const struct gpulat_frames *f)
{
	return f->nclients;
}

const struct gpulat_frame_client *gpulat_frames_client(const struct gpulat_frames *f, size_t i)
{
	return i < f->nclients ? &f->clients[i]->r : NULL;
}

const struct gpulat_late_frame *gpulat_frames_late(const struct gpulat_frames *f,
						   size_t client, size_t i)
{
	if (client >= f->nclients || i >= f->clients[client]->r.nlate)
		return NULL;
	return &f->clients[client]->late[i];
}

size_t gpulat_frames_nprocs(const struct gpulat_frames *f)
{
	return f->nprocs;
}

const struct gpulat_frame_proc *gpulat_frames_proc(const struct gpulat_frames *f, size_t i)
{
	return i < f->nprocs ? &f->procs[i]->r : NULL;
}
