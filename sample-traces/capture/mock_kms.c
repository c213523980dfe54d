// SPDX-License-Identifier: GPL-2.0
/*
 * mock_kms - a minimal KMS device whose vblanks come from hrtimers
 *
 * Part of gpu-sched-trace (sample-traces/capture).  Debian's 6.1 and 6.12
 * kernels have no vkms, so this module registers a (legacy, non-atomic) KMS
 * drm_device with one or two CRTCs, each with a primary plane and a
 * framebuffer, and drives each CRTC's vblank from an HRTIMER_MODE_ABS_HARD
 * hrtimer through the DRM core's drm_crtc_handle_vblank().  Everything a
 * client does then goes through the real drm.ko:
 *   - DRM_IOCTL_WAIT_VBLANK with _DRM_VBLANK_EVENT (drm_vblank_event_queued,
 *     drm_vblank_event_delivered), the vblank itself (drm_vblank_event, with
 *     high_prec = 1 and time = the timer's nominal expiry, which
 *     .get_vblank_timestamp reports as the "hardware" vblank time);
 *   - DRM_IOCTL_MODE_ADDFB2 + DRM_IOCTL_MODE_PAGE_FLIP with
 *     DRM_MODE_PAGE_FLIP_EVENT: the flip waits for the file's latest GPU job
 *     (implicit sync stand-in) and completes at the first vblank whose
 *     nominal time is at or after that job's finished-fence signal time; the
 *     completion goes out with drm_crtc_send_vblank_event(), traced as
 *     drm_vblank_event_delivered only (the drm core traces no _queued for
 *     flips).
 * GPU jobs: DRM_IOCTL_MOCK_KMS_SUBMIT pushes a job through mock_gpu.ko's
 * schedulers in the caller's context (so drm_sched_job carries the client's
 * pid), DRM_IOCTL_MOCK_KMS_WAIT waits for one and returns its signal time.
 *
 * Parameters:
 *   crtcs        number of CRTCs (1 or 2)                     1
 *   period_us    per-CRTC vblank period in us              16667,6944
 *
 * Copyright (C) 2026 gpu-sched-trace contributors
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/mutex.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/dma-fence.h>
#include <linux/platform_device.h>
#include <linux/version.h>
#include <drm/drm_drv.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_crtc.h>
#include <drm/drm_plane.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_vblank.h>
#include <drm/gpu_scheduler.h>

#include "mock_kms.h"

#define MK_MAX_CRTCS 2
#define MK_MAX_RINGS 8
#define MK_FENCES    64 /* jobs a file can wait on by handle */

static int crtcs = 1;
module_param(crtcs, int, 0444);
MODULE_PARM_DESC(crtcs, "Number of CRTCs (1 or 2)");

static int period_us[MK_MAX_CRTCS] = { 16667, 6944 };
static int n_period_us;
module_param_array(period_us, int, &n_period_us, 0444);
MODULE_PARM_DESC(period_us, "Per-CRTC vblank period in microseconds");

struct mk_crtc {
	struct drm_crtc base;
	struct drm_plane primary;
	struct hrtimer timer;
	u64 period_ns;
	ktime_t last; /* nominal time of the latest vblank */
	/* a pending page flip, under drm_device.event_lock */
	struct drm_pending_vblank_event *flip_event;
	struct dma_fence *flip_fence;
};

struct mk_device {
	struct drm_device drm;
	struct mk_crtc crtc[MK_MAX_CRTCS];
	int ncrtcs;
};

struct mk_file {
	struct mutex lock; /* everything below */
	struct drm_sched_entity entity[MK_MAX_RINGS];
	bool entity_ready[MK_MAX_RINGS];
	struct dma_fence *fence[MK_FENCES];
	u32 fence_handle[MK_FENCES];
	u32 next_handle;
	struct dma_fence *last; /* latest job: a page flip waits for it */
};

static struct platform_device *mk_pdev;
static struct mk_device *mk_dev;

static inline struct mk_crtc *to_mk_crtc(struct drm_crtc *crtc)
{
	return container_of(crtc, struct mk_crtc, base);
}

/* ---- vblanks ---------------------------------------------------------- */

/* complete the pending flip when its fence signalled by the vblank @now */
static void mk_flip_check(struct mk_crtc *c, ktime_t now)
{
	struct drm_device *dev = c->base.dev;
	struct drm_pending_vblank_event *e = NULL;
	struct dma_fence *f = NULL;
	unsigned long flags;

	spin_lock_irqsave(&dev->event_lock, flags);
	f = c->flip_fence;
	/*
	 * Scanout latches at the vblank: a fence that signalled after the
	 * vblank's nominal time is shown one vblank later.
	 */
	if (c->flip_event &&
	    (!f || (dma_fence_is_signaled(f) && test_bit(DMA_FENCE_FLAG_TIMESTAMP_BIT, &f->flags) &&
		    ktime_compare(f->timestamp, now) <= 0))) {
		e = c->flip_event;
		c->flip_event = NULL;
		c->flip_fence = NULL;
		drm_crtc_send_vblank_event(&c->base, e);
	} else {
		f = NULL;
	}
	spin_unlock_irqrestore(&dev->event_lock, flags);
	if (e) {
		drm_crtc_vblank_put(&c->base);
		dma_fence_put(f);
	}
}

static enum hrtimer_restart mk_vblank_timer(struct hrtimer *t)
{
	struct mk_crtc *c = container_of(t, struct mk_crtc, timer);
	ktime_t nominal = hrtimer_get_expires(t);
	u64 k, n;

	/*
	 * A timer that fired more than a period late (TCG vCPUs stall for
	 * tens of ms on a busy host) stands for several vblanks: handle each,
	 * as hardware with a frame counter would count them, so the CRTC's
	 * intervals stay the period and no count is skipped.
	 */
	n = hrtimer_forward_now(t, ns_to_ktime(c->period_ns));
	for (k = 0; k < n; k++) {
		ktime_t v = ktime_add_ns(nominal, k * c->period_ns);

		/* the "hardware" timestamp .get_vblank_timestamp reports */
		WRITE_ONCE(c->last, v);
		drm_crtc_handle_vblank(&c->base);
		mk_flip_check(c, v);
	}
	return HRTIMER_RESTART;
}

static int mk_enable_vblank(struct drm_crtc *crtc)
{
	return 0; /* the timer always runs, like a scanning-out CRTC */
}

static void mk_disable_vblank(struct drm_crtc *crtc)
{
}

static bool mk_get_vblank_timestamp(struct drm_crtc *crtc, int *max_error, ktime_t *vblank_time,
				    bool in_vblank_irq)
{
	ktime_t last = READ_ONCE(to_mk_crtc(crtc)->last);

	if (!last)
		return false;
	*vblank_time = last;
	if (max_error)
		*max_error = 0;
	return true;
}

/* ---- page flips (legacy) ---------------------------------------------- */

static int mk_page_flip(struct drm_crtc *crtc, struct drm_framebuffer *fb,
			struct drm_pending_vblank_event *event, uint32_t flags,
			struct drm_modeset_acquire_ctx *ctx)
{
	struct mk_crtc *c = to_mk_crtc(crtc);
	struct drm_device *dev = crtc->dev;
	struct dma_fence *f = NULL;
	unsigned long irqflags;
	int ret;

	if (!event)
		return -EINVAL; /* our clients always ask for the event */
	if (event->base.file_priv) {
		struct mk_file *mf = event->base.file_priv->driver_priv;

		mutex_lock(&mf->lock);
		f = dma_fence_get(mf->last);
		mutex_unlock(&mf->lock);
	}
	ret = drm_crtc_vblank_get(crtc); /* vblanks on until the flip is done */
	if (ret) {
		dma_fence_put(f);
		return ret;
	}
	spin_lock_irqsave(&dev->event_lock, irqflags);
	if (c->flip_event) {
		spin_unlock_irqrestore(&dev->event_lock, irqflags);
		drm_crtc_vblank_put(crtc);
		dma_fence_put(f);
		return -EBUSY;
	}
	c->flip_event = event;
	c->flip_fence = f;
	spin_unlock_irqrestore(&dev->event_lock, irqflags);
	return 0;
}

static int mk_set_config(struct drm_mode_set *set, struct drm_modeset_acquire_ctx *ctx)
{
	return -EINVAL; /* the mode is fixed */
}

static const struct drm_crtc_funcs mk_crtc_funcs = {
	.destroy = drm_crtc_cleanup,
	.set_config = mk_set_config,
	.page_flip = mk_page_flip,
	.enable_vblank = mk_enable_vblank,
	.disable_vblank = mk_disable_vblank,
	.get_vblank_timestamp = mk_get_vblank_timestamp,
};

static int mk_update_plane(struct drm_plane *plane, struct drm_crtc *crtc,
			   struct drm_framebuffer *fb, int crtc_x, int crtc_y, unsigned int crtc_w,
			   unsigned int crtc_h, uint32_t src_x, uint32_t src_y, uint32_t src_w,
			   uint32_t src_h, struct drm_modeset_acquire_ctx *ctx)
{
	return -EINVAL;
}

static int mk_disable_plane(struct drm_plane *plane, struct drm_modeset_acquire_ctx *ctx)
{
	return 0;
}

static const struct drm_plane_funcs mk_plane_funcs = {
	.update_plane = mk_update_plane,
	.disable_plane = mk_disable_plane,
	.destroy = drm_plane_cleanup,
};

static const u32 mk_formats[] = { DRM_FORMAT_XRGB8888 };

/* ---- framebuffers (no memory behind them) ----------------------------- */

static void mk_fb_destroy(struct drm_framebuffer *fb)
{
	drm_framebuffer_cleanup(fb);
	kfree(fb);
}

static const struct drm_framebuffer_funcs mk_fb_funcs = {
	.destroy = mk_fb_destroy,
};

static struct drm_framebuffer *mk_fb_new(struct drm_device *dev, const struct drm_format_info *fmt,
					 u32 w, u32 h, u32 pitch)
{
	struct drm_framebuffer *fb;
	int ret;

	fb = kzalloc(sizeof(*fb), GFP_KERNEL);
	if (!fb)
		return ERR_PTR(-ENOMEM);
	fb->dev = dev; /* drm_framebuffer_init() checks it */
	fb->format = fmt;
	fb->width = w;
	fb->height = h;
	fb->pitches[0] = pitch;
	fb->modifier = DRM_FORMAT_MOD_LINEAR;
	ret = drm_framebuffer_init(dev, fb, &mk_fb_funcs);
	if (ret) {
		kfree(fb);
		return ERR_PTR(ret);
	}
	return fb;
}

static struct drm_framebuffer *mk_fb_create(struct drm_device *dev, struct drm_file *file,
					    const struct drm_mode_fb_cmd2 *cmd)
{
	return mk_fb_new(dev, drm_get_format_info(dev, cmd), cmd->width, cmd->height,
			 cmd->pitches[0]);
}

static const struct drm_mode_config_funcs mk_mode_funcs = {
	.fb_create = mk_fb_create,
};

/* ---- GPU jobs --------------------------------------------------------- */

static int mk_submit_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct drm_mock_kms_submit *args = data;
	struct mk_file *mf = file->driver_priv;
	struct dma_fence *fin = NULL;
	int ret, slot;

	if (args->ring >= MK_MAX_RINGS || args->dep_ring >= MK_MAX_RINGS)
		return -EINVAL;
	mutex_lock(&mf->lock);
	if (!mf->entity_ready[args->ring]) {
		ret = mock_gpu_entity_init(&mf->entity[args->ring], args->ring);
		if (ret)
			goto out;
		mf->entity_ready[args->ring] = true;
	}
	ret = mock_gpu_push(&mf->entity[args->ring], args->ring, mf, args->dep_ring,
			    (u64)args->dur_us * NSEC_PER_USEC, &fin);
	if (ret)
		goto out;
	args->handle = ++mf->next_handle;
	slot = args->handle % MK_FENCES;
	dma_fence_put(mf->fence[slot]);
	mf->fence[slot] = fin;
	mf->fence_handle[slot] = args->handle;
	dma_fence_put(mf->last);
	mf->last = dma_fence_get(fin);
out:
	mutex_unlock(&mf->lock);
	return ret;
}

static int mk_wait_ioctl(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct drm_mock_kms_wait *args = data;
	struct mk_file *mf = file->driver_priv;
	int slot = args->handle % MK_FENCES;
	struct dma_fence *f = NULL;
	long ret;

	mutex_lock(&mf->lock);
	if (mf->fence_handle[slot] == args->handle)
		f = dma_fence_get(mf->fence[slot]);
	mutex_unlock(&mf->lock);
	if (!f)
		return -ENOENT;
	ret = dma_fence_wait_timeout(f, true, nsecs_to_jiffies(args->timeout_ns));
	if (ret > 0 && test_bit(DMA_FENCE_FLAG_TIMESTAMP_BIT, &f->flags))
		args->done_ns = ktime_to_ns(f->timestamp);
	dma_fence_put(f);
	if (ret < 0)
		return ret;
	return ret ? 0 : -ETIME;
}

static const struct drm_ioctl_desc mk_ioctls[] = {
	DRM_IOCTL_DEF_DRV(MOCK_KMS_SUBMIT, mk_submit_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(MOCK_KMS_WAIT, mk_wait_ioctl, DRM_RENDER_ALLOW),
};

static int mk_open(struct drm_device *dev, struct drm_file *file)
{
	struct mk_file *mf = kzalloc(sizeof(*mf), GFP_KERNEL);

	if (!mf)
		return -ENOMEM;
	mutex_init(&mf->lock);
	file->driver_priv = mf;
	return 0;
}

static void mk_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct mk_file *mf = file->driver_priv;
	int i;

	for (i = 0; i < MK_MAX_RINGS; i++)
		if (mf->entity_ready[i])
			drm_sched_entity_destroy(&mf->entity[i]);
	for (i = 0; i < MK_FENCES; i++)
		dma_fence_put(mf->fence[i]);
	dma_fence_put(mf->last);
	mutex_destroy(&mf->lock);
	kfree(mf);
}

static const struct file_operations mk_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
};

static const struct drm_driver mk_driver = {
	.driver_features = DRIVER_MODESET,
	.open = mk_open,
	.postclose = mk_postclose,
	.ioctls = mk_ioctls,
	.num_ioctls = ARRAY_SIZE(mk_ioctls),
	.fops = &mk_fops,
	.name = "mock_kms",
	.desc = "mock KMS device with hrtimer vblanks",
	.date = "20260101",
	.major = 1,
	.minor = 0,
};

/* ---- device ----------------------------------------------------------- */

static int mk_crtc_init(struct mk_device *mk, int i)
{
	struct drm_device *dev = &mk->drm;
	struct mk_crtc *c = &mk->crtc[i];
	struct drm_framebuffer *fb;
	int ret;

	ret = drm_universal_plane_init(dev, &c->primary, BIT(i), &mk_plane_funcs, mk_formats,
				       ARRAY_SIZE(mk_formats), NULL, DRM_PLANE_TYPE_PRIMARY, NULL);
	if (ret)
		return ret;
	ret = drm_crtc_init_with_planes(dev, &c->base, &c->primary, NULL, &mk_crtc_funcs, NULL);
	if (ret)
		return ret;
	/* the scanout buffer a legacy page flip replaces */
	fb = mk_fb_new(dev, drm_format_info(DRM_FORMAT_XRGB8888), 1920, 1080, 1920 * 4);
	if (IS_ERR(fb))
		return PTR_ERR(fb);
	c->primary.fb = fb;
	c->base.enabled = true;
	c->period_ns = (u64)(period_us[i] > 0 ? period_us[i] : 16667) * NSEC_PER_USEC;
	hrtimer_init(&c->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	c->timer.function = mk_vblank_timer;
	return 0;
}

static void mk_stop(void)
{
	int i;

	if (!mk_dev)
		return;
	for (i = 0; i < mk_dev->ncrtcs; i++) {
		struct mk_crtc *c = &mk_dev->crtc[i];

		hrtimer_cancel(&c->timer);
		drm_crtc_vblank_off(&c->base);
		if (c->primary.fb) {
			drm_framebuffer_put(c->primary.fb);
			c->primary.fb = NULL;
		}
	}
}

static int __init mock_kms_init(void)
{
	struct mk_device *mk;
	int i, ret;

	if (crtcs < 1 || crtcs > MK_MAX_CRTCS)
		return -EINVAL;
	mk_pdev = platform_device_register_simple("mock_kms", -1, NULL, 0);
	if (IS_ERR(mk_pdev))
		return PTR_ERR(mk_pdev);
	if (!devres_open_group(&mk_pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto fail_pdev;
	}
	mk = devm_drm_dev_alloc(&mk_pdev->dev, &mk_driver, struct mk_device, drm);
	if (IS_ERR(mk)) {
		ret = PTR_ERR(mk);
		goto fail_group;
	}
	ret = drmm_mode_config_init(&mk->drm);
	if (ret)
		goto fail_group;
	mk->drm.mode_config.min_width = 1;
	mk->drm.mode_config.min_height = 1;
	mk->drm.mode_config.max_width = 8192;
	mk->drm.mode_config.max_height = 8192;
	mk->drm.mode_config.funcs = &mk_mode_funcs;
	mk->ncrtcs = crtcs;
	for (i = 0; i < crtcs; i++) {
		ret = mk_crtc_init(mk, i);
		if (ret)
			goto fail_group;
	}
	ret = drm_vblank_init(&mk->drm, crtcs);
	if (ret)
		goto fail_group;
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 15, 0)
	/*
	 * drm_wait_vblank_ioctl() tested it before 5.15 (drivers without
	 * drm_irq_install() set it); 5.15+ tests drm_dev_has_vblank()
	 */
	mk->drm.irq_enabled = true;
#endif
	mk_dev = mk;
	ret = drm_dev_register(&mk->drm, 0);
	if (ret)
		goto fail_group;
	for (i = 0; i < crtcs; i++) {
		struct mk_crtc *c = &mk->crtc[i];

		drm_crtc_vblank_on(&c->base);
		hrtimer_start(&c->timer, ktime_add_ns(ktime_get(), c->period_ns),
			      HRTIMER_MODE_ABS_HARD);
	}
	pr_info("mock_kms: %d CRTCs, vblank period %d/%d us\n", crtcs, period_us[0], period_us[1]);
	return 0;

fail_group:
	mk_dev = NULL;
	devres_release_group(&mk_pdev->dev, NULL);
fail_pdev:
	platform_device_unregister(mk_pdev);
	return ret;
}

static void __exit mock_kms_exit(void)
{
	mk_stop();
	drm_dev_unregister(&mk_dev->drm);
	devres_release_group(&mk_pdev->dev, NULL);
	platform_device_unregister(mk_pdev);
}

module_init(mock_kms_init);
module_exit(mock_kms_exit);

MODULE_DESCRIPTION("Mock KMS device with hrtimer vblanks for trace capture");
MODULE_AUTHOR("gpu-sched-trace contributors");
MODULE_LICENSE("GPL");
