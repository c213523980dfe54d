// SPDX-License-Identifier: GPL-2.0
/*
 * mock_gpu - a pretend GPU that drives the kernel's real DRM GPU scheduler
 *
 * Part of gpu-sched-trace (sample-traces/capture).  The module creates a few
 * named rings ("gfx", "comp", "sdma0", ...), each a struct drm_gpu_scheduler
 * with its own credit limit, and one or more submitting kernel threads whose
 * names look like processes ("glxgears", "Xorg").  Every job's run_job()
 * returns a "hardware" fence that an hrtimer signals at
 * max(now, ring busy_until) + duration, so each ring executes its jobs in
 * FIFO order like a real hardware ring.  The point is to get genuine
 * gpu_scheduler and dma_fence trace events out of a real kernel without a GPU.
 *
 * Parameters (see modinfo):
 *   rings        comma separated ring names              "gfx,comp,sdma0"
 *   credits      per-ring credit (hw submission) limit    2,2,2
 *   dur_us       per-ring mean job duration in us         1000,500,300
 *   jitter_pct   +- percentage applied to durations       20
 *   clients      NAME:RING[+RING...],... or none           "glxgears:gfx"
 *   jobs         per-client number of jobs               64
 *   gap_us       per-client gap between bursts in us      2000
 *   gap_jitter_pct  +- percentage applied to gaps         20
 *   burst        per-client jobs submitted back to back   1
 *   dep_pct      chance (%) that a job depends on the latest job of each
 *                other ring                               0
 *   stall_job    index of the job of client 0 that runs stall_us (-1 = none)
 *   stall_us     duration of the stall job                50000
 *   unfinished   1 = after everything completed, client 0 submits one more
 *                job whose fence is never signalled while the module lives
 *   seed         PRNG seed (job durations, gaps and deps are reproducible)
 *   finished     read-only: becomes 1 when the scenario is over
 *
 * Copyright (C) 2026 gpu-sched-trace contributors
 */

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/kthread.h>
#include <linux/sched/task.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/dma-fence.h>
#include <linux/platform_device.h>
#include <drm/gpu_scheduler.h>

#include "mock_kms.h"

#define MOCK_MAX_RINGS		8
#define MOCK_MAX_CLIENTS	8
#define MOCK_NAME_LEN		16

static char *rings = "gfx,comp,sdma0";
module_param(rings, charp, 0444);
MODULE_PARM_DESC(rings, "Comma separated ring names");

static int credits[MOCK_MAX_RINGS] = { 2, 2, 2, 2, 2, 2, 2, 2 };
static int n_credits;
module_param_array(credits, int, &n_credits, 0444);
MODULE_PARM_DESC(credits, "Per-ring credit limit (jobs on the hardware ring)");

static int dur_us[MOCK_MAX_RINGS] = { 1000, 500, 300, 300, 300, 300, 300, 300 };
static int n_dur_us;
module_param_array(dur_us, int, &n_dur_us, 0444);
MODULE_PARM_DESC(dur_us, "Per-ring mean job duration in microseconds");

static int jitter_pct = 20;
module_param(jitter_pct, int, 0444);
MODULE_PARM_DESC(jitter_pct, "Job duration jitter, +- percent");

static char *clients = "glxgears:gfx";
module_param(clients, charp, 0444);
MODULE_PARM_DESC(clients, "Submitting threads: NAME:RING[+RING...],...");

static int jobs[MOCK_MAX_CLIENTS] = { 64, 64, 64, 64, 64, 64, 64, 64 };
static int n_jobs;
module_param_array(jobs, int, &n_jobs, 0444);
MODULE_PARM_DESC(jobs, "Per-client number of jobs");

static int gap_us[MOCK_MAX_CLIENTS] = { 2000, 2000, 2000, 2000,
					 2000, 2000, 2000, 2000 };
static int n_gap_us;
module_param_array(gap_us, int, &n_gap_us, 0444);
MODULE_PARM_DESC(gap_us, "Per-client gap between bursts in microseconds");

static int gap_jitter_pct = 20;
module_param(gap_jitter_pct, int, 0444);
MODULE_PARM_DESC(gap_jitter_pct, "Submission gap jitter, +- percent");

static int burst[MOCK_MAX_CLIENTS] = { 1, 1, 1, 1, 1, 1, 1, 1 };
static int n_burst;
module_param_array(burst, int, &n_burst, 0444);
MODULE_PARM_DESC(burst, "Per-client number of jobs submitted back to back");

static int dep_pct;
module_param(dep_pct, int, 0444);
MODULE_PARM_DESC(dep_pct, "Chance in percent to depend on each other ring's latest job");

static int stall_job = -1;
module_param(stall_job, int, 0444);
MODULE_PARM_DESC(stall_job, "Index of client 0's job that runs stall_us (-1: none)");

static int stall_us = 50000;
module_param(stall_us, int, 0444);
MODULE_PARM_DESC(stall_us, "Duration of the stall job in microseconds");

static bool unfinished;
module_param(unfinished, bool, 0444);
MODULE_PARM_DESC(unfinished, "Leave one job running (never signalled) at the end");

static uint seed = 1;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "PRNG seed");

static int finished;
module_param(finished, int, 0444);
MODULE_PARM_DESC(finished, "Read only: 1 once the scenario is over");

struct mock_ring {
	char name[MOCK_NAME_LEN];
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	bool sched_ready;
	spinlock_t lock;		/* busy_until, last_finished */
	spinlock_t fence_lock;		/* hardware fences */
	u64 fence_context;
	u64 fence_seqno;
	u64 busy_until;
	struct dma_fence *last_finished;
	u32 dur_us;
};

struct mock_client {
	char name[MOCK_NAME_LEN];
	int idx;
	int ring_idx[MOCK_MAX_RINGS];
	struct drm_sched_entity entity[MOCK_MAX_RINGS];
	bool entity_ready[MOCK_MAX_RINGS];
	int nrings;
	int jobs;
	u32 gap_us;
	int burst;
	struct rnd_state rnd;
	struct task_struct *task;
};

struct mock_fence {
	struct dma_fence base;		/* must stay first: freed by dma_fence_free */
	struct hrtimer timer;
	struct mock_ring *ring;
};

struct mock_job {
	struct drm_sched_job base;
	struct mock_ring *ring;
	u64 dur_ns;
	bool never;
};

static struct mock_ring mock_rings[MOCK_MAX_RINGS];
static int mock_nrings;
static struct mock_client mock_clients[MOCK_MAX_CLIENTS];
static int mock_nclients;
static struct platform_device *mock_pdev;

static atomic_t mock_submitting = ATOMIC_INIT(0);
static atomic_t mock_submitted = ATOMIC_INIT(0);
static atomic_t mock_freed = ATOMIC_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(mock_wq);

static struct mock_fence *mock_never_fence;	/* the unfinished job's hw fence */
static bool mock_never_ran;
static DEFINE_SPINLOCK(mock_never_lock);

static const char *mock_fence_driver_name(struct dma_fence *f)
{
	return "mock_gpu";
}

static const char *mock_fence_timeline_name(struct dma_fence *f)
{
	struct mock_fence *mf = container_of(f, struct mock_fence, base);

	return mf->ring->name;
}

static bool mock_fence_enable_signaling(struct dma_fence *f)
{
	return true;
}

static const struct dma_fence_ops mock_fence_ops = {
	.get_driver_name = mock_fence_driver_name,
	.get_timeline_name = mock_fence_timeline_name,
	.enable_signaling = mock_fence_enable_signaling,
};

static enum hrtimer_restart mock_fence_timer(struct hrtimer *t)
{
	struct mock_fence *mf = container_of(t, struct mock_fence, timer);

	dma_fence_signal(&mf->base);
	dma_fence_put(&mf->base);	/* the timer's reference */
	return HRTIMER_NORESTART;
}

static u64 mock_jitter(struct rnd_state *rnd, u64 v, int pct)
{
	u32 span;

	if (pct <= 0 || !v)
		return v;
	if (pct > 99)
		pct = 99;
	span = 2 * pct + 1;
	return div_u64(v * (100 - pct + prandom_u32_state(rnd) % span), 100);
}

static struct dma_fence *mock_run_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = container_of(sched_job, struct mock_job, base);
	struct mock_ring *ring = job->ring;
	struct mock_fence *mf;
	unsigned long flags;
	u64 now, start, end;

	mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	if (!mf)
		return ERR_PTR(-ENOMEM);
	mf->ring = ring;
	hrtimer_init(&mf->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_HARD);
	mf->timer.function = mock_fence_timer;

	spin_lock_irqsave(&ring->lock, flags);
	dma_fence_init(&mf->base, &mock_fence_ops, &ring->fence_lock,
		       ring->fence_context, ++ring->fence_seqno);
	now = ktime_get_ns();
	start = max(now, ring->busy_until);
	if (job->never)
		end = start + 3600ULL * NSEC_PER_SEC;
	else
		end = start + job->dur_ns;
	ring->busy_until = end;
	spin_unlock_irqrestore(&ring->lock, flags);

	if (job->never) {
		spin_lock(&mock_never_lock);
		mock_never_fence = mf;
		dma_fence_get(&mf->base);
		mock_never_ran = true;
		spin_unlock(&mock_never_lock);
		wake_up_all(&mock_wq);
	}

	dma_fence_get(&mf->base);		/* for the timer */
	hrtimer_start(&mf->timer, ns_to_ktime(end), HRTIMER_MODE_ABS_HARD);

	return &mf->base;			/* the scheduler's reference */
}

static enum drm_gpu_sched_stat mock_timedout_job(struct drm_sched_job *sched_job)
{
	pr_warn("mock_gpu: job %llu on %s timed out\n", sched_job->id,
		sched_job->sched->name);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void mock_free_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = container_of(sched_job, struct mock_job, base);

	drm_sched_job_cleanup(sched_job);
	kfree(job);
	atomic_inc(&mock_freed);
	wake_up_all(&mock_wq);
}

static const struct drm_sched_backend_ops mock_sched_ops = {
	.run_job = mock_run_job,
	.timedout_job = mock_timedout_job,
	.free_job = mock_free_job,
};

static int mock_find_ring(const char *name)
{
	int i;

	for (i = 0; i < mock_nrings; i++)
		if (!strcmp(mock_rings[i].name, name))
			return i;
	return -1;
}

/* Add dependencies on the latest job of every other ring, each with dep_pct. */
static int mock_add_deps(struct mock_client *c, struct mock_job *job)
{
	struct dma_fence *dep;
	int i, ret;

	if (dep_pct <= 0)
		return 0;
	for (i = 0; i < mock_nrings; i++) {
		struct mock_ring *r = &mock_rings[i];

		if (r == job->ring)
			continue;
		if (prandom_u32_state(&c->rnd) % 100 >= dep_pct)
			continue;
		spin_lock_irq(&r->lock);
		dep = dma_fence_get(r->last_finished);
		spin_unlock_irq(&r->lock);
		if (!dep)
			continue;
		ret = drm_sched_job_add_dependency(&job->base, dep);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Push one job on @ring through @entity.  @c (NULL for mock_kms's user
 * clients) adds its random dependencies; @dep (may be NULL) is one more.
 * *@fin_out (may be NULL) gets a reference on the job's finished fence.
 */
static int mock_push(struct drm_sched_entity *entity, struct mock_ring *ring, void *owner,
		     struct mock_client *c, struct dma_fence *dep, u64 dur_ns, bool never,
		     struct dma_fence **fin_out)
{
	struct dma_fence *fin, *old;
	struct mock_job *job;
	int ret;

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job)
		return -ENOMEM;
	job->ring = ring;
	job->dur_ns = dur_ns;
	job->never = never;

	ret = drm_sched_job_init(&job->base, entity, owner);
	if (ret) {
		kfree(job);
		return ret;
	}
	ret = c ? mock_add_deps(c, job) : 0;
	if (!ret && dep)
		ret = drm_sched_job_add_dependency(&job->base, dma_fence_get(dep));
	if (ret) {
		drm_sched_job_cleanup(&job->base);
		kfree(job);
		return ret;
	}
	drm_sched_job_arm(&job->base);
	fin = dma_fence_get(&job->base.s_fence->finished);
	if (fin_out)
		*fin_out = dma_fence_get(fin);
	atomic_inc(&mock_submitted);
	drm_sched_entity_push_job(&job->base);

	spin_lock_irq(&ring->lock);
	old = ring->last_finished;
	ring->last_finished = fin;
	spin_unlock_irq(&ring->lock);
	dma_fence_put(old);
	return 0;
}

static int mock_submit(struct mock_client *c, int slot, u64 dur_ns, bool never)
{
	return mock_push(&c->entity[slot], &mock_rings[c->ring_idx[slot]], c, c, NULL, dur_ns,
			 never, NULL);
}

/*
 * The interface mock_kms.ko's user-space clients submit through (one entity
 * per ring and DRM file, jobs queued in the caller's context so
 * drm_sched_job carries the client's pid and comm).
 */
int mock_gpu_ring_index(const char *name)
{
	int i = mock_find_ring(name);

	return i < 0 ? -ENOENT : i;
}
EXPORT_SYMBOL_GPL(mock_gpu_ring_index);

int mock_gpu_entity_init(struct drm_sched_entity *e, int ring)
{
	if (ring < 0 || ring >= mock_nrings)
		return -EINVAL;
	return drm_sched_entity_init(e, DRM_SCHED_PRIORITY_NORMAL, mock_rings[ring].sched_list, 1,
				     NULL);
}
EXPORT_SYMBOL_GPL(mock_gpu_entity_init);

/* a job of @dur_ns on @ring that depends on the latest job of @dep_ring (-1: none) */
int mock_gpu_push(struct drm_sched_entity *e, int ring, void *owner, int dep_ring, u64 dur_ns,
		  struct dma_fence **finished)
{
	struct dma_fence *dep = NULL;
	int ret;

	if (ring < 0 || ring >= mock_nrings || dep_ring >= mock_nrings)
		return -EINVAL;
	if (dep_ring >= 0) {
		struct mock_ring *r = &mock_rings[dep_ring];

		spin_lock_irq(&r->lock);
		dep = dma_fence_get(r->last_finished);
		spin_unlock_irq(&r->lock);
	}
	ret = mock_push(e, &mock_rings[ring], owner, NULL, dep, dur_ns, false, finished);
	dma_fence_put(dep);
	return ret;
}
EXPORT_SYMBOL_GPL(mock_gpu_push);

static void mock_sleep_us(u64 us)
{
	if (!us)
		return;
	if (us >= 20000)
		msleep(div_u64(us, 1000));
	else
		usleep_range(us, us + us / 10 + 10);
}

static int mock_client_fn(void *data)
{
	struct mock_client *c = data;
	int i, slot = 0;

	for (i = 0; i < c->jobs && !kthread_should_stop(); i++) {
		struct mock_ring *ring = &mock_rings[c->ring_idx[slot]];
		u64 dur;

		if (c->idx == 0 && i == stall_job)
			dur = (u64)stall_us * NSEC_PER_USEC;
		else
			dur = mock_jitter(&c->rnd, (u64)ring->dur_us * NSEC_PER_USEC,
					  jitter_pct);
		if (mock_submit(c, slot, dur, false))
			pr_err("mock_gpu: %s: submit %d failed\n", c->name, i);
		slot = (slot + 1) % c->nrings;
		if ((i + 1) % c->burst == 0)
			mock_sleep_us(mock_jitter(&c->rnd, c->gap_us, gap_jitter_pct));
	}

	if (atomic_dec_and_test(&mock_submitting))
		wake_up_all(&mock_wq);

	if (c->idx == 0) {
		/* Wait for every client and every job, then finish the scenario. */
		wait_event_interruptible(mock_wq,
			kthread_should_stop() ||
			(!atomic_read(&mock_submitting) &&
			 atomic_read(&mock_freed) == atomic_read(&mock_submitted)));
		if (unfinished && !kthread_should_stop()) {
			mock_sleep_us(c->gap_us);
			if (!mock_submit(c, 0, 0, true))
				wait_event_interruptible(mock_wq,
					kthread_should_stop() ||
					READ_ONCE(mock_never_ran));
		}
		pr_info("mock_gpu: scenario done: %d jobs submitted, %d completed\n",
			atomic_read(&mock_submitted), atomic_read(&mock_freed));
		WRITE_ONCE(finished, 1);
	}

	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int mock_parse_rings(void)
{
	char *buf, *p, *tok;
	int ret = 0;

	buf = kstrdup(rings, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		struct mock_ring *r;

		if (!*tok)
			continue;
		if (mock_nrings == MOCK_MAX_RINGS || mock_find_ring(tok) >= 0) {
			ret = -EINVAL;
			break;
		}
		r = &mock_rings[mock_nrings];
		strscpy(r->name, tok, sizeof(r->name));
		r->dur_us = dur_us[mock_nrings] > 0 ? dur_us[mock_nrings] : 1;
		mock_nrings++;
	}
	kfree(buf);
	if (!ret && !mock_nrings)
		ret = -EINVAL;
	return ret;
}

/* clients=NAME:RING[+RING...],NAME:... */
static int mock_parse_clients(void)
{
	char *buf, *p, *tok;
	int ret = 0;

	buf = kstrdup(clients, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	while ((tok = strsep(&p, ",")) != NULL) {
		struct mock_client *c;
		char *rl, *rn;
		int idx;

		if (!*tok)
			continue;
		if (mock_nclients == MOCK_MAX_CLIENTS) {
			ret = -EINVAL;
			break;
		}
		idx = mock_nclients;
		c = &mock_clients[idx];
		rl = strchr(tok, ':');
		if (rl)
			*rl++ = '\0';
		strscpy(c->name, tok, sizeof(c->name));
		c->idx = idx;
		while (rl && (rn = strsep(&rl, "+")) != NULL) {
			int ri = mock_find_ring(rn);

			if (ri < 0 || c->nrings == MOCK_MAX_RINGS) {
				pr_err("mock_gpu: client %s: bad ring '%s'\n",
				       c->name, rn);
				ret = -EINVAL;
				goto out;
			}
			c->ring_idx[c->nrings++] = ri;
		}
		if (!c->nrings)
			c->ring_idx[c->nrings++] = 0;
		c->jobs = jobs[idx] > 0 ? jobs[idx] : 0;
		c->gap_us = gap_us[idx] > 0 ? gap_us[idx] : 0;
		c->burst = burst[idx] > 0 ? burst[idx] : 1;
		prandom_seed_state(&c->rnd, (u64)seed * 1000003ULL + idx);
		mock_nclients++;
	}
	if (!ret && !mock_nclients)
		ret = -EINVAL;
out:
	kfree(buf);
	return ret;
}

static void mock_cleanup(void)
{
	struct mock_fence *never;
	int i, j;

	for (i = 0; i < mock_nclients; i++) {
		if (mock_clients[i].task) {
			kthread_stop(mock_clients[i].task);
			put_task_struct(mock_clients[i].task);
			mock_clients[i].task = NULL;
		}
	}

	spin_lock(&mock_never_lock);
	never = mock_never_fence;
	mock_never_fence = NULL;
	spin_unlock(&mock_never_lock);
	if (never) {
		if (hrtimer_cancel(&never->timer)) {
			dma_fence_set_error(&never->base, -ECANCELED);
			dma_fence_signal(&never->base);
			dma_fence_put(&never->base);	/* the timer's reference */
		}
		dma_fence_put(&never->base);
	}

	for (i = 0; i < mock_nclients; i++)
		for (j = 0; j < mock_clients[i].nrings; j++)
			if (mock_clients[i].entity_ready[j])
				drm_sched_entity_destroy(&mock_clients[i].entity[j]);

	for (i = 0; i < mock_nrings; i++) {
		struct mock_ring *r = &mock_rings[i];

		dma_fence_put(r->last_finished);
		r->last_finished = NULL;
		if (r->sched_ready)
			drm_sched_fini(&r->sched);
		r->sched_ready = false;
	}

	if (mock_pdev)
		platform_device_unregister(mock_pdev);
	mock_pdev = NULL;
}

static int __init mock_gpu_init(void)
{
	int i, j, ret;

	ret = mock_parse_rings();
	if (ret) {
		pr_err("mock_gpu: bad rings= parameter\n");
		return ret;
	}
	/* clients=none: no kernel-thread clients (mock_kms's user clients only) */
	ret = strcmp(clients, "none") ? mock_parse_clients() : 0;
	if (ret) {
		pr_err("mock_gpu: bad clients= parameter\n");
		return ret;
	}

	mock_pdev = platform_device_register_simple("mock_gpu", -1, NULL, 0);
	if (IS_ERR(mock_pdev)) {
		ret = PTR_ERR(mock_pdev);
		mock_pdev = NULL;
		return ret;
	}

	for (i = 0; i < mock_nrings; i++) {
		struct mock_ring *r = &mock_rings[i];
		struct drm_sched_init_args args = {
			.ops = &mock_sched_ops,
			.credit_limit = credits[i] > 0 ? credits[i] : 1,
			.hang_limit = 0,
			.timeout = MAX_SCHEDULE_TIMEOUT,
			.name = r->name,
			.dev = &mock_pdev->dev,
		};

		spin_lock_init(&r->lock);
		spin_lock_init(&r->fence_lock);
		r->fence_context = dma_fence_context_alloc(1);
		ret = drm_sched_init(&r->sched, &args);
		if (ret) {
			pr_err("mock_gpu: drm_sched_init(%s) failed: %d\n",
			       r->name, ret);
			goto fail;
		}
		r->sched_ready = true;
		r->sched_list[0] = &r->sched;
	}

	for (i = 0; i < mock_nclients; i++) {
		struct mock_client *c = &mock_clients[i];

		for (j = 0; j < c->nrings; j++) {
			ret = drm_sched_entity_init(&c->entity[j],
					DRM_SCHED_PRIORITY_NORMAL,
					mock_rings[c->ring_idx[j]].sched_list,
					1, NULL);
			if (ret)
				goto fail;
			c->entity_ready[j] = true;
		}
	}

	atomic_set(&mock_submitting, mock_nclients);
	for (i = 0; i < mock_nclients; i++) {
		struct mock_client *c = &mock_clients[i];
		struct task_struct *t;

		t = kthread_create(mock_client_fn, c, "%s", c->name);
		if (IS_ERR(t)) {
			ret = PTR_ERR(t);
			goto fail;
		}
		get_task_struct(t);
		c->task = t;
	}
	for (i = 0; i < mock_nclients; i++)
		wake_up_process(mock_clients[i].task);

	if (!mock_nclients)
		WRITE_ONCE(finished, 1);
	pr_info("mock_gpu: %d rings, %d clients\n", mock_nrings, mock_nclients);
	return 0;

fail:
	mock_cleanup();
	return ret;
}

static void __exit mock_gpu_exit(void)
{
	mock_cleanup();
}

module_init(mock_gpu_init);
module_exit(mock_gpu_exit);

MODULE_DESCRIPTION("Mock GPU driving the DRM GPU scheduler for trace capture");
MODULE_AUTHOR("gpu-sched-trace contributors");
MODULE_LICENSE("GPL");
