// SPDX-License-Identifier: LGPL-2.1
/*
 * The frames analysis as a session listener (gpulat-session.h): vblank and
 * queue events and the session's jobs into lib/frames.c, and, if asked,
 * the session's stall threshold set to the measured refresh interval as
 * soon as it is known (before any stall is looked for).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-frames.h"
#include "gpulat-session.h"

struct gpulat_frames_listener {
	struct gpulat_session	*s;
	struct gpulat_frames	*f;		/* created at the first drm vblank event */
	unsigned int		flags;
	gpulat_vblank_fn	on_vblank;	/* for the analysis made at the first event */
	gpulat_frame_fn		on_frame;
	void			*cb_data;
	int			thr_crtc;	/* threshold learnt from this CRTC, -1 */
	bool			thr_done;	/* learnt, or too late to */
	int			err;
};

static bool is_vblank(enum gpulat_kind k)
{
	return k == GPULAT_EV_VBLANK || k == GPULAT_EV_VBLANK_QUEUED ||
	       k == GPULAT_EV_VBLANK_DELIVERED;
}

/* `time` is CLOCK_MONOTONIC: usable when every input was recorded with it */
static bool all_mono(const struct gpulat_session *s)
{
	int i, n = gpulat_session_nfiles(s);

	for (i = 0; i < n; i++) {
		const char *c = gpulat_session_trace_clock(s, i);

		if (!c || strcmp(c, "mono"))
			return false;
	}
	return n > 0;
}

static void learn(struct gpulat_frames_listener *l)
{
	uint64_t ns;
	int crtc = -1;

	ns = gpulat_frames_early_refresh(l->f, &crtc);
	if (!ns)
		return;
	l->thr_done = true;
	if (gpulat_session_set_stall_threshold(l->s, ns) == 0)
		l->thr_crtc = crtc;
}

static int on_event(const struct gpulat_event *ev, struct tep_record *rec, int file, void *data)
{
	struct gpulat_frames_listener *l = data;
	int ret;

	(void)rec;
	(void)file;
	if (!l->f) {
		struct gpulat_frames_opts o;

		if (!is_vblank(ev->kind))
			return 0;
		gpulat_frames_opts_init(&o);
		o.use_vbl_time = (l->flags & GPULAT_FRAMES_VBL_TIME) || all_mono(l->s);
		o.late_kept = 512; /* grown as they come */
		o.on_vblank = l->on_vblank;
		o.on_frame = l->on_frame;
		o.cb_data = l->cb_data;
		l->f = gpulat_frames_new(&o);
		if (!l->f)
			return -ENOMEM;
	}
	ret = gpulat_frames_event(l->f, ev);
	if (ret < 0)
		return ret;
	if (ev->kind == GPULAT_EV_VBLANK && !l->thr_done &&
	    (l->flags & GPULAT_FRAMES_LEARN_THRESHOLD))
		learn(l);
	return 0;
}

static int on_job(const struct gpulat_job *job, void *data)
{
	struct gpulat_frames_listener *l = data;

	return l->f ? gpulat_frames_job(l->f, job) : 0;
}

static int on_finish(struct gpulat_session *s, void *data)
{
	struct gpulat_frames_listener *l = data;

	(void)s;
	return l->f ? gpulat_frames_finish(l->f) : 0;
}

/**
 * gpulat_frames_listen - judge the session's frames
 * @s: session (before its input starts)
 * @flags: GPULAT_FRAMES_LEARN_THRESHOLD: the stall threshold becomes the
 *	refresh interval of the fastest CRTC once 16 intervals were seen;
 *	GPULAT_FRAMES_VBL_TIME: the pushed records' clock is mono (see the header)
 *
 * Return: the listener (free it after the session ran), NULL with errno.
 */
struct gpulat_frames_listener *gpulat_frames_listen(struct gpulat_session *s, unsigned int flags)
{
	/* what gpulat_frames_event() reads: vblanks and the queue events of clients */
	struct gpulat_listener li = {
		.sz = sizeof(li),
		.event = on_event,
		.job = on_job,
		.finish = on_finish,
		.kinds = GPULAT_LISTEN_KIND(GPULAT_EV_VBLANK) |
			 GPULAT_LISTEN_KIND(GPULAT_EV_VBLANK_QUEUED) |
			 GPULAT_LISTEN_KIND(GPULAT_EV_VBLANK_DELIVERED) |
			 GPULAT_LISTEN_KIND(GPULAT_EV_QUEUE) | GPULAT_LISTEN_KIND(GPULAT_EV_AMD_CS),
		.flags = GPULAT_LISTEN_NO_RECORD, /* on_event() reads the event only */
	};
	struct gpulat_frames_listener *l = calloc(1, sizeof(*l));
	int ret;

	if (!l)
		return NULL;
	l->s = s;
	l->flags = flags;
	l->thr_crtc = -1;
	ret = gpulat_session_add_listener(s, &li, l);
	if (ret < 0) {
		free(l);
		errno = -ret;
		return NULL;
	}
	return l;
}

void gpulat_frames_listener_free(struct gpulat_frames_listener *l)
{
	if (!l)
		return;
	gpulat_frames_free(l->f);
	free(l);
}

struct gpulat_frames *gpulat_frames_listener_frames(const struct gpulat_frames_listener *l)
{
	return l ? l->f : NULL;
}

int gpulat_frames_listener_threshold_crtc(const struct gpulat_frames_listener *l)
{
	return l ? l->thr_crtc : -1;
}

int gpulat_frames_listener_set_cb(struct gpulat_frames_listener *l, gpulat_vblank_fn on_vblank,
				  gpulat_frame_fn on_frame, void *data)
{
	if (!l || l->f)
		return -EINVAL;	/* the analysis exists: too late */
	l->on_vblank = on_vblank;
	l->on_frame = on_frame;
	l->cb_data = data;
	return 0;
}
