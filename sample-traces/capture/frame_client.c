// SPDX-License-Identifier: GPL-2.0
/*
 * frame_client - a vblank-paced client of mock_kms (see mock_kms.c)
 *
 * Part of gpu-sched-trace (sample-traces/capture).  Runs a frame loop on one
 * CRTC of /dev/dri/card0: per frame it submits mock GPU jobs
 * (DRM_IOCTL_MOCK_KMS_SUBMIT), then asks for the frame's vblank, either
 *   -m vblank: DRM_IOCTL_WAIT_VBLANK _DRM_VBLANK_ABSOLUTE|_DRM_VBLANK_EVENT
 *              for target T = (previous presented vblank) + 1, or
 *   -m flip:   DRM_IOCTL_MODE_PAGE_FLIP with DRM_MODE_PAGE_FLIP_EVENT (the
 *              driver flips at the first vblank after the job is done),
 * waits for the job and the event, and logs what it saw, one line per frame,
 * from its own clock and the events' sequence numbers and timestamps: the
 * independent facts the capture's truth file is made of.
 *
 * Both modes aim every frame at T = (previous presented vblank) + 1.
 * flip mode: presented P = the flip event's count (the driver decides);
 * PERIOD_US (the CRTC's) only serves the ambiguity check.
 * vblank mode: presented P = the first vblank s >= T whose time V(s) (the
 * event's / WAIT_VBLANK reply's timestamp, CLOCK_MONOTONIC) is at or after
 * ready = max(request time, job done time); missed = P - T.  V(s) of counts
 * after the event comes from blocking WAIT_VBLANK calls (no event, so not
 * traced).  A frame whose ready lies within AMBIG_NS of a vblank it is judged
 * against, or whose count could not be observed, is marked ambiguous.
 *
 * Usage: frame_client -N COMM -m vblank|flip -c CRTC -n FRAMES -o LOG
 *        [-d DUR_US] [-L i,j,..] [-l LONG_US] [-S i,j,..] [-s SLEEP_US]
 *        [-D i,j,..] [-e DEP_US] [-g RING] [-G DEP_RING] [-p PERIOD_US]
 *   -L  frames whose GPU job runs LONG_US          (cause: the GPU)
 *   -S  frames submitted SLEEP_US late             (cause: the CPU side)
 *   -D  frames whose job depends on a DEP_US job on DEP_RING (dependency)
 *
 * Log lines (key=value):
 *   start crtc=C mode=M pid=P comm=COMM seq=S time_ns=V
 *   frame i=I target=T req_ns=R done_ns=D ev_seq=E ev_ns=VE presented=P
 *         pres_ns=VP missed=M inject=none|long|late|dep ambiguous=0|1
 *   vblank seq=S time_ns=V         (every vblank time the client learnt)
 *   end frames=N late=L missed=M
 *
 * Copyright (C) 2026 gpu-sched-trace contributors
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <drm/drm.h>
#include <drm/drm_mode.h>
#include <drm/drm_fourcc.h>

#include "mock_kms.h"

#define AMBIG_NS   300000ULL /* 0.3 ms: clock skew between the sides */
#define MAX_FRAMES 4096

static FILE *logf;
static int fd;

static void die(const char *what)
{
	fprintf(stderr, "frame_client: %s: %s\n", what, strerror(errno));
	if (logf)
		fprintf(logf, "error %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int xioctl(unsigned long req, void *arg)
{
	int r;

	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && (errno == EINTR || errno == EAGAIN));
	return r;
}

/* parse "3,17,40" into a frame flag array */
static void parse_list(const char *s, char *flags, int n)
{
	char *buf = strdup(s), *p = buf, *tok;

	while ((tok = strsep(&p, ",")) != NULL)
		if (*tok && atoi(tok) >= 0 && atoi(tok) < n)
			flags[atoi(tok)] = 1;
	free(buf);
}

static unsigned int crtc_type(int crtc)
{
	return ((unsigned int)crtc << _DRM_VBLANK_HIGH_CRTC_SHIFT) & _DRM_VBLANK_HIGH_CRTC_MASK;
}

/* blocking wait for vblank @seq (no event: nothing traced); its count and time */
static void wait_abs(int crtc, uint32_t seq, uint32_t *got, uint64_t *t)
{
	union drm_wait_vblank w;

	memset(&w, 0, sizeof(w));
	w.request.type = _DRM_VBLANK_ABSOLUTE | crtc_type(crtc);
	w.request.sequence = seq;
	if (xioctl(DRM_IOCTL_WAIT_VBLANK, &w))
		die("DRM_IOCTL_WAIT_VBLANK (blocking)");
	*got = w.reply.sequence;
	*t = (uint64_t)w.reply.tval_sec * 1000000000ULL + (uint64_t)w.reply.tval_usec * 1000ULL;
}

/* read one drm event of @type; its sequence and time */
static void read_event(unsigned int type, uint32_t *seq, uint64_t *t, uint64_t *user)
{
	char buf[256];
	ssize_t len;

	for (;;) {
		struct drm_event_vblank *ev = (struct drm_event_vblank *)buf;

		len = read(fd, buf, sizeof(buf));
		if (len < 0 && errno == EINTR)
			continue;
		if (len < (ssize_t)sizeof(*ev))
			die("read drm event");
		if (ev->base.type != type)
			continue;
		*seq = ev->sequence;
		*t = (uint64_t)ev->tv_sec * 1000000000ULL + (uint64_t)ev->tv_usec * 1000ULL;
		*user = ev->user_data;
		return;
	}
}

static uint32_t submit(uint32_t ring, int dep_ring, uint32_t dur_us)
{
	struct drm_mock_kms_submit s = { .ring = ring, .dep_ring = dep_ring, .dur_us = dur_us };

	if (xioctl(DRM_IOCTL_MOCK_KMS_SUBMIT, &s))
		die("DRM_IOCTL_MOCK_KMS_SUBMIT");
	return s.handle;
}

static uint64_t job_wait(uint32_t handle)
{
	struct drm_mock_kms_wait w = { .handle = handle, .timeout_ns = 5000000000LL };

	if (xioctl(DRM_IOCTL_MOCK_KMS_WAIT, &w))
		die("DRM_IOCTL_MOCK_KMS_WAIT");
	return w.done_ns;
}

static uint32_t add_fb(void)
{
	struct drm_mode_fb_cmd2 f;

	memset(&f, 0, sizeof(f));
	f.width = 1920;
	f.height = 1080;
	f.pixel_format = DRM_FORMAT_XRGB8888;
	f.handles[0] = 1; /* mock_kms has no buffer objects */
	f.pitches[0] = 1920 * 4;
	if (xioctl(DRM_IOCTL_MODE_ADDFB2, &f))
		die("DRM_IOCTL_MODE_ADDFB2");
	return f.fb_id;
}

static uint32_t crtc_id(int crtc)
{
	struct drm_mode_card_res r;
	uint32_t ids[8];

	memset(&r, 0, sizeof(r));
	r.crtc_id_ptr = (uintptr_t)ids;
	r.count_crtcs = 8;
	if (xioctl(DRM_IOCTL_MODE_GETRESOURCES, &r))
		die("DRM_IOCTL_MODE_GETRESOURCES");
	if ((uint32_t)crtc >= r.count_crtcs) {
		errno = ENODEV;
		die("no such CRTC");
	}
	return ids[crtc];
}

int main(int argc, char **argv)
{
	const char *comm = "frame_client", *mode = "vblank", *out = NULL;
	const char *longs = "", *lates = "", *deps = "";
	int crtc = 0, n = 60, dep_ring = 1, opt;
	uint32_t ring = 0, dur_us = 4000, long_us = 30000, sleep_us = 20000, dep_us = 25000;
	static char f_long[MAX_FRAMES], f_late[MAX_FRAMES], f_dep[MAX_FRAMES];
	uint32_t cur, target, fbs[2] = { 0, 0 }, cid = 0;
	uint64_t vcur, period_ns = 16667000;
	int i, late = 0, missed = 0;
	bool flip;

	while ((opt = getopt(argc, argv, "N:m:c:n:o:d:L:l:S:s:D:e:g:G:p:")) != -1) {
		switch (opt) {
		case 'N':
			comm = optarg;
			break;
		case 'm':
			mode = optarg;
			break;
		case 'c':
			crtc = atoi(optarg);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'd':
			dur_us = atoi(optarg);
			break;
		case 'L':
			longs = optarg;
			break;
		case 'l':
			long_us = atoi(optarg);
			break;
		case 'S':
			lates = optarg;
			break;
		case 's':
			sleep_us = atoi(optarg);
			break;
		case 'D':
			deps = optarg;
			break;
		case 'e':
			dep_us = atoi(optarg);
			break;
		case 'g':
			ring = atoi(optarg);
			break;
		case 'G':
			dep_ring = atoi(optarg);
			break;
		case 'p':
			period_ns = (uint64_t)atoi(optarg) * 1000;
			break;
		default:
			fprintf(stderr, "frame_client: bad option (see the source)\n");
			return 2;
		}
	}
	if (n < 1 || n > MAX_FRAMES || !out) {
		fprintf(stderr, "frame_client: need -n 1..%d and -o LOG\n", MAX_FRAMES);
		return 2;
	}
	flip = !strcmp(mode, "flip");
	parse_list(longs, f_long, n);
	parse_list(lates, f_late, n);
	parse_list(deps, f_dep, n);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	logf = fopen(out, "w");
	if (!logf)
		die(out);
	setvbuf(logf, NULL, _IOLBF, 0);
	fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("/dev/dri/card0");
	/*
	 * Page flips need DRM master, which the first opener gets: a vblank
	 * client gives it up, a flip client takes it (root may, once no one
	 * holds it; retried while a vblank client still does).
	 */
	if (!flip) {
		ioctl(fd, DRM_IOCTL_DROP_MASTER, 0);
	} else {
		for (i = 0; ioctl(fd, DRM_IOCTL_SET_MASTER, 0) && i < 200; i++)
			usleep(10000);
		if (i == 200)
			die("DRM_IOCTL_SET_MASTER");
	}
	if (flip) {
		cid = crtc_id(crtc);
		fbs[0] = add_fb();
		fbs[1] = add_fb();
	}

	/* the current count (a relative wait for 0 vblanks: a query) */
	{
		union drm_wait_vblank w;

		memset(&w, 0, sizeof(w));
		w.request.type = _DRM_VBLANK_RELATIVE | crtc_type(crtc);
		if (xioctl(DRM_IOCTL_WAIT_VBLANK, &w))
			die("DRM_IOCTL_WAIT_VBLANK (query)");
		cur = w.reply.sequence;
	}
	/* start right after a vblank */
	wait_abs(crtc, cur + 1, &cur, &vcur);
	fprintf(logf, "start crtc=%d mode=%s pid=%d comm=%s seq=%u time_ns=%llu\n", crtc, mode,
		getpid(), comm, cur, (unsigned long long)vcur);
	fprintf(logf, "vblank seq=%u time_ns=%llu\n", cur, (unsigned long long)vcur);
	target = cur + 1;

	for (i = 0; i < n; i++) {
		const char *inject = "none";
		uint32_t h, ev_seq, pres, got;
		uint64_t req, done, ev_t, pres_t, ready, user, t;
		int ambig = 0;

		if (f_late[i]) {
			inject = "late";
			usleep(sleep_us);
		}
		if (f_dep[i]) {
			inject = "dep";
			submit(dep_ring, -1, dep_us);
			h = submit(ring, dep_ring, dur_us);
		} else if (f_long[i]) {
			inject = "long";
			h = submit(ring, -1, long_us);
		} else {
			h = submit(ring, -1, dur_us);
		}
		req = now_ns();
		if (flip) {
			struct drm_mode_crtc_page_flip pf;

			memset(&pf, 0, sizeof(pf));
			pf.crtc_id = cid;
			pf.fb_id = fbs[i & 1];
			pf.flags = DRM_MODE_PAGE_FLIP_EVENT;
			pf.user_data = i;
			if (xioctl(DRM_IOCTL_MODE_PAGE_FLIP, &pf))
				die("DRM_IOCTL_MODE_PAGE_FLIP");
		} else {
			union drm_wait_vblank w;

			memset(&w, 0, sizeof(w));
			w.request.type = _DRM_VBLANK_ABSOLUTE | _DRM_VBLANK_EVENT | crtc_type(crtc);
			w.request.sequence = target;
			w.request.signal = i;
			if (xioctl(DRM_IOCTL_WAIT_VBLANK, &w))
				die("DRM_IOCTL_WAIT_VBLANK (event)");
		}
		done = job_wait(h);
		read_event(flip ? DRM_EVENT_FLIP_COMPLETE : DRM_EVENT_VBLANK, &ev_seq, &ev_t,
			   &user);
		fprintf(logf, "vblank seq=%u time_ns=%llu\n", ev_seq, (unsigned long long)ev_t);
		ready = done > req ? done : req;
		if (flip) {
			/*
			 * The driver's own decision; the client checks it against
			 * the vblanks around it (V(pres) and V(pres) - period).
			 */
			pres = ev_seq;
			pres_t = ev_t;
			if (pres < target || ev_t < ready || ev_t - ready < AMBIG_NS ||
			    (ev_t - period_ns > ready ? ev_t - period_ns - ready :
							ready - (ev_t - period_ns)) < AMBIG_NS)
				ambig = 1;
			if (pres > target && ev_t - period_ns > ready)
				ambig = 1; /* presented later than the driver should */
		} else {
			pres = ev_seq;
			pres_t = ev_t;
			if (ev_seq < target)
				ambig = 1; /* cannot happen: the drm core sends >= T */
			/* walk on to the first vblank at or after ready */
			while (pres_t < ready) {
				wait_abs(crtc, pres + 1, &got, &t);
				fprintf(logf, "vblank seq=%u time_ns=%llu\n", got,
					(unsigned long long)t);
				if (got != pres + 1)
					ambig = 1; /* a count we did not see */
				pres = got;
				pres_t = t;
			}
			if ((pres_t > ready ? pres_t - ready : ready - pres_t) < AMBIG_NS)
				ambig = 1;
			if (pres > target && ev_seq == target && ready - ev_t < AMBIG_NS)
				ambig = 1;
		}
		fprintf(logf,
			"frame i=%d target=%u req_ns=%llu done_ns=%llu ev_seq=%u ev_ns=%llu"
			" presented=%u pres_ns=%llu missed=%d inject=%s ambiguous=%d\n",
			i, target, (unsigned long long)req, (unsigned long long)done, ev_seq,
			(unsigned long long)ev_t, pres, (unsigned long long)pres_t,
			(int)(pres - target), inject, ambig);
		if (pres > target) {
			late++;
			missed += pres - target;
		}
		target = pres + 1;
	}
	fprintf(logf, "end frames=%d late=%d missed=%d\n", n, late, missed);
	fclose(logf);
	close(fd);
	return 0;
}
