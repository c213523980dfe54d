// SPDX-License-Identifier: LGPL-2.1
/*
 * The scenario table. Each committed sample trace is one entry; times are in
 * nanoseconds relative to the start of the trace.
 */
#include <string.h>

#include "gen.h"

/* variants override fields of a base macro: that is intended */
#pragma GCC diagnostic ignored "-Woverride-init"

#define FRAME60		16666667ULL
#define FRAME120	8333333ULL

#define DEV0	{ "0000:03:00.0", 0, 130, 3 }
#define DEV1	{ "0000:0b:00.0", 1, 142, 2 }

/* ring (name, dev, credits, exec min, exec max, dep ring, dep %, hang) */
#define RING(n, d, c, lo, hi)		{ n, d, c, lo, hi, -1, 0, 0 }
#define RING_DEP(n, d, c, lo, hi, r, p)	{ n, d, c, lo, hi, r, p, 0 }
/* ... on the scheduled fence of ring r's latest job (6.17+) */
/* clang-format off */
#define RING_SDEP(n, d, c, lo, hi, r, p) { n, d, c, lo, hi, r, p, 0, 1 }
/* clang-format on */

/* the desktop used by several scenarios: compositor, game, video player */
#define DESKTOP_RINGS							\
	RING("gfx", 0, 2, US(1500), US(5000)),				\
	RING("comp", 0, 4, US(200), US(1200)),				\
	RING("sdma0", 0, 4, US(50), US(300))

#define DESKTOP_PROCS							\
	{ .pid = 1234, .comm = "Xorg", .cpu = 1, .period = FRAME60,	\
	  .jitter = US(300), .burst = 1, .rings = 0x1, .client_id = 1,	\
	  .start = US(150) },						\
	{ .pid = 2345, .comm = "glxgears", .cpu = 2, .period = FRAME120,	\
	  .jitter = US(500), .burst = 1, .rings = 0x3, .client_id = 2,	\
	  .wait_pct = 10, .max_inflight = 4, .start = US(900) },	\
	{ .pid = 1890, .comm = "mpv", .cpu = 3, .period = FRAME60,	\
	  .jitter = US(800), .burst = 1, .rings = 0x5, .client_id = 3,	\
	  .wait_pct = 20, .max_inflight = 4, .start = US(2300) }

#define DESKTOP(era_, nm, ds)						\
	.name = nm, .desc = ds, .era = era_, .dma_fence = true, .cpus = 4,	\
	.duration = MS(1200), .tail = MS(30), .ndevs = 1, .devs = { DEV0 },	\
	.nrings = 3, .rings = { DESKTOP_RINGS }, .nprocs = 3,		\
	.procs = { DESKTOP_PROCS }, .bg_ratio_pct = 350,			\
	.free_min = US(200), .free_max = MS(2)

/* sdma upload -> compute -> gfx, a second process renders on gfx only */
#define DEPS_RINGS							\
	RING("sdma0", 0, 4, US(300), US(1500)),				\
	RING_DEP("comp_1.0.0", 0, 4, US(800), US(2500), 0, 100),	\
	RING_DEP("gfx_0.0.0", 0, 2, US(1000), US(3500), 1, 80)

#define DEPS_PROCS							\
	{ .pid = 4410, .comm = "blender", .cpu = 1, .period = MS(10),	\
	  .jitter = US(400), .burst = 1, .rings = 0x7, .client_id = 5,	\
	  .max_inflight = 6, .start = US(300) },			\
	{ .pid = 4522, .comm = "vkcube", .cpu = 2, .period = FRAME60,	\
	  .jitter = US(200), .burst = 1, .rings = 0x4, .client_id = 6,	\
	  .wait_pct = 30, .max_inflight = 3, .start = US(1200) }

#define DEPS(era_, nm, ds)						\
	.name = nm, .desc = ds, .era = era_, .dma_fence = true, .cpus = 4,	\
	.duration = MS(1000), .tail = MS(40), .ndevs = 1, .devs = { DEV0 },	\
	.nrings = 3, .rings = { DEPS_RINGS }, .nprocs = 2,		\
	.procs = { DEPS_PROCS }, .bg_ratio_pct = 350,			\
	.free_min = US(200), .free_max = MS(2)

/*
 * Diagnosis (diag.c): "game" on CPU 2 submits to gfx and comp every 10 ms,
 * Xorg on CPU 1 to gfx and waits on 30% of its frames; one cause injected.
 */
#define DIAG_PROCS							\
	{ .pid = 3456, .comm = "game", .cpu = 2, .period = MS(10),	\
	  .jitter = US(150), .burst = 1, .rings = 0x3, .client_id = 2,	\
	  .start = US(700) },						\
	{ .pid = 1234, .comm = "Xorg", .cpu = 1, .period = MS(10),	\
	  .jitter = US(150), .burst = 1, .rings = 0x1, .client_id = 1,	\
	  .wait_pct = 30, .start = US(300) }

#define DIAG(nm, ds)							\
	.name = nm, .desc = ds, .era = ERA_519, .dma_fence = true, .cpus = 4,	\
	.duration = MS(1200), .tail = MS(30), .ndevs = 1, .devs = { DEV0 },	\
	.nrings = 2, .rings = { RING("gfx", 0, 2, US(1000), US(3000)),	\
				RING("comp", 0, 4, US(200), US(800)) },	\
	.nprocs = 2, .procs = { DIAG_PROCS }, .bg_ratio_pct = 350,	\
	.free_min = US(200), .free_max = MS(2)

/*
 * Frames (frames.c): a frame-loop "game" woken by its vblank event; every
 * long_every-th frame one job runs long, every late_every-th frame its CPU
 * work makes it submit after the next vblank.
 */
#define FRAME144	6944444ULL
#define FRAME48		20833333ULL
/* CRTC (refresh, vblank irq CPU); the handler runs 60-400 us late */
#define CRTC(per, cpu)	{ per, 0, cpu, US(60), US(400) }

#define GAME(crtc_, file)						\
	.pid = 5100, .comm = "game", .cpu = 2, .period = FRAME60,	\
	.burst = 1, .rings = 0x1, .client_id = 2, .start = US(800),	\
	.crtc = crtc_, .drm_file = file, .cpu_work = US(900)

#define FRAMES(era_, nm, ds)						\
	.name = nm, .desc = ds, .era = era_, .dma_fence = true, .cpus = 4,	\
	.duration = MS(1200), .tail = MS(80), .ndevs = 1, .devs = { DEV0 },	\
	.bg_ratio_pct = 350, .free_min = US(200), .free_max = MS(2),	\
	.mono_clock = true

/*
 * i915 (no drm_sched): the desktop on an Intel iGPU, engines named as i915
 * names them; requests retire 0.2-20 ms after completion.
 */
#define I915(nm, ll, ds)						\
	.name = nm, .desc = ds, .era = ERA_I915, .dma_fence = true, .cpus = 4,	\
	.i915_ll = ll, .ctxsw_min = US(2), .ctxsw_max = US(9),		\
	.duration = MS(800), .tail = MS(40), .ndevs = 1,		\
	.devs = { { "card0", 0, 145, 3 } },				\
	.nrings = 3, .rings = { RING("rcs0", 0, 2, US(1500), US(5000)),	\
				RING("bcs0", 0, 2, US(200), US(1200)),	\
				RING("vcs0", 0, 2, US(300), US(900)) },	\
	.nprocs = 3, .procs = { DESKTOP_PROCS }, .bg_ratio_pct = 300,	\
	.free_min = US(200), .free_max = MS(20)

static const struct gen_scenario scenarios[] = {
	{ DESKTOP(ERA_519, "steady",
		  "multi-ring desktop (gfx, comp, sdma0), 3 processes, 5.19-6.16 events") },
	{ DESKTOP(ERA_617, "steady-617",
		  "the steady desktop with the 6.17+ stable uAPI events") },
	{
		.name = "stutter", .era = ERA_519, .dma_fence = true, .cpus = 4,
		.desc = "a game pausing submissions for 20-45 ms every 25 frames; CPU 3 nearly idle",
		.duration = MS(2000), .tail = MS(30), .ndevs = 1,
		.devs = { { "0000:03:00.0", 0, 130, 1 } },
		.nrings = 2, .rings = { RING("gfx", 0, 2, US(2000), US(6000)),
					RING("comp", 0, 4, US(300), US(900)) },
		.nprocs = 3, .procs = {
			{ .pid = 1234, .comm = "Xorg", .cpu = 1, .period = FRAME60,
			  .jitter = US(200), .burst = 1, .rings = 0x1, .client_id = 1,
			  .start = US(100) },
			{ .pid = 3456, .comm = "stutter-game", .cpu = 2, .period = FRAME60,
			  .jitter = US(1500), .burst = 1, .rings = 0x3, .client_id = 2,
			  .gap_every = 25, .gap_min = MS(20), .gap_max = MS(45),
			  .wait_pct = 15, .max_inflight = 3, .start = US(700) },
			/* alone on CPU 3: gaps > 134 ms need TIME_EXTEND events */
			{ .pid = 5555, .comm = "thumbnailer", .cpu = 3, .period = MS(300),
			  .jitter = MS(20), .burst = 1, .rings = 0x2, .client_id = 3,
			  .start = MS(40) },
		},
		.bg_ratio_pct = 350, .bg_cpus = 0x7,
		.free_min = US(200), .free_max = MS(2),
	},
	{ DEPS(ERA_519, "deps", "cross-ring dependencies sdma0 -> comp -> gfx, 5.19-6.16 (wait_dep)") },
	{ DEPS(ERA_617, "deps-617", "cross-ring dependencies, 6.17+ (add_dep, unschedulable)") },
	{
		.name = "saturated", .era = ERA_519, .dma_fence = true, .cpus = 4,
		.desc = "two 120 Hz clients on a 2-credit gfx ring: full hardware, long queue waits",
		.duration = MS(1000), .tail = MS(30), .ndevs = 1, .devs = { DEV0 },
		.nrings = 2, .rings = { RING("gfx", 0, 2, US(6000), US(9000)),
					RING("sdma0", 0, 4, US(100), US(400)) },
		.nprocs = 2, .procs = {
			{ .pid = 5101, .comm = "benchmark", .cpu = 1, .period = FRAME120,
			  .jitter = US(300), .burst = 1, .rings = 0x3, .client_id = 1,
			  .max_inflight = 12, .start = US(100) },
			{ .pid = 5202, .comm = "glmark2", .cpu = 2, .period = FRAME120,
			  .jitter = US(300), .burst = 1, .rings = 0x1, .client_id = 2,
			  .max_inflight = 12, .start = US(2600) },
		},
		.bg_ratio_pct = 350, .free_min = US(200), .free_max = MS(2),
	},
	{
		DESKTOP(ERA_519, "hang",
			"the gfx ring stops completing at 0.8 s: jobs never done at end of trace"),
		.duration = MS(1000), .tail = MS(20),
		.rings = { { "gfx", 0, 2, US(1500), US(5000), -1, 0, MS(800) },
			   RING("comp", 0, 4, US(200), US(1200)),
			   RING("sdma0", 0, 4, US(50), US(300)) },
	},
	{
		.name = "two-gpus", .era = ERA_617, .dma_fence = true, .cpus = 4,
		.desc = "two devices with identical ring names (6.17+)",
		.duration = MS(1000), .tail = MS(30), .ndevs = 2, .devs = { DEV0, DEV1 },
		.nrings = 4, .rings = { RING("gfx_0.0.0", 0, 2, US(1500), US(4000)),
					RING("sdma0", 0, 4, US(50), US(300)),
					RING("gfx_0.0.0", 1, 2, US(2500), US(7000)),
					RING("sdma0", 1, 4, US(100), US(600)) },
		.nprocs = 3, .procs = {
			{ .pid = 2101, .comm = "gnome-shell", .cpu = 1, .period = FRAME60,
			  .jitter = US(300), .burst = 1, .rings = 0x3, .client_id = 1,
			  .start = US(200) },
			{ .pid = 6120, .comm = "game-dgpu", .cpu = 2, .period = FRAME120,
			  .jitter = US(700), .burst = 1, .rings = 0x4, .client_id = 1,
			  .wait_pct = 10, .max_inflight = 3, .start = US(800) },
			{ .pid = 6188, .comm = "prime-copy", .cpu = 3, .period = FRAME60,
			  .jitter = US(300), .burst = 1, .rings = 0x8, .client_id = 2,
			  .start = US(1700) },
		},
		.bg_ratio_pct = 350, .free_min = US(200), .free_max = MS(2),
	},
	{
		.name = "fence-reuse", .era = ERA_519, .dma_fence = true, .cpus = 4,
		.desc = "many short jobs, fences freed within tens of us: finished-fence pointers reused",
		.duration = MS(250), .tail = MS(10), .ndevs = 1, .devs = { DEV0 },
		.nrings = 2, .rings = { RING("gfx", 0, 2, US(100), US(400)),
					RING("sdma0", 0, 4, US(20), US(80)) },
		.nprocs = 2, .procs = {
			{ .pid = 7001, .comm = "compute-app", .cpu = 1, .period = US(1000),
			  .jitter = US(100), .burst = 2, .rings = 0x1, .client_id = 1,
			  .max_inflight = 6, .start = US(50) },
			{ .pid = 7002, .comm = "uploader", .cpu = 2, .period = US(1700),
			  .jitter = US(200), .burst = 1, .rings = 0x2, .client_id = 2,
			  .max_inflight = 6, .start = US(300) },
		},
		.bg_ratio_pct = 350, .free_min = US(5), .free_max = US(30),
	},
	{
		/*
		 * Issue 16: fences live 260-300 ms after their done, so about
		 * 700 finished-fence pointers are in use and each is reused by
		 * several jobs; their 16-bit handles (gpulat_ptr_handle())
		 * collide between different pointers too. Every job must still
		 * have its own printed identity.
		 */
		.name = "ptr-reuse", .era = ERA_519, .dma_fence = true, .cpus = 4,
		.desc = "fences freed 260-300 ms late: ~700 pointers, each reused, 16-bit handles collide",
		.duration = MS(500), .tail = MS(10), .ndevs = 1, .devs = { DEV0 },
		.nrings = 2, .rings = { RING("gfx", 0, 2, US(40), US(120)),
					RING("comp", 0, 4, US(20), US(60)) },
		.nprocs = 1, .procs = {
			{ .pid = 7101, .comm = "batch", .cpu = 1, .period = US(800),
			  .jitter = US(60), .burst = 1, .rings = 0x3, .client_id = 1,
			  .max_inflight = 8, .start = US(50) },
		},
		.bg_ratio_pct = 20, .free_min = MS(260), .free_max = MS(300),
	},
	{
		.name = "signal-ooo", .era = ERA_519, .dma_fence = true, .cpus = 4,
		.desc = "every second fence signal deferred to another CPU: signals out of completion order",
		.duration = MS(300), .tail = MS(10), .ndevs = 1, .devs = { DEV0 },
		.nrings = 2, .rings = { RING("comp", 0, 4, US(10), US(30)),
					RING("gfx", 0, 2, US(1000), US(3000)) },
		.nprocs = 2, .procs = {
			{ .pid = 8001, .comm = "opencl-app", .cpu = 2, .period = MS(2),
			  .jitter = US(100), .burst = 4, .rings = 0x1, .client_id = 1,
			  .start = US(100) },
			{ .pid = 1234, .comm = "Xorg", .cpu = 3, .period = FRAME60,
			  .jitter = US(300), .burst = 1, .rings = 0x2, .client_id = 2,
			  .start = US(500) },
		},
		.bg_ratio_pct = 350, .free_min = US(200), .free_max = MS(1),
		.signal_ooo = true,
	},
	{
		DESKTOP(ERA_519, "lost-events",
			"the steady desktop with two ring-buffer overruns (CPU 0 and CPU 2)"),
		.nlost = 2, .lost = { { 0, MS(800), MS(15) }, { 2, MS(1000), MS(10) } },
	},
	{
		DEPS(ERA_PRE57, "era-pre57",
		     "4.20-5.6 events: no drm_run_job, const char *name pointers"),
	},
	{
		DEPS(ERA_57, "era-57",
		     "5.7-5.18 events: drm_run_job, const char *name pointers"),
	},
	{
		DEPS(ERA_519, "amdgpu",
		     "5.19-6.16 scheduler events plus amdgpu_cs_ioctl/sched_run_job/iv"),
		.amdgpu = true,
	},
	{
		DEPS(ERA_617, "amdgpu-617",
		     "6.17+ scheduler events plus the 6.17 amdgpu layouts"),
		.amdgpu = true,
	},
	{
		/*
		 * amdgpu 6.17+ kernel work beside the desktop: page-table updates
		 * (AMDGPU_KERNEL_JOB_ID_VM_UPDATE = U64_MAX) and TTM buffer copies
		 * (U64_MAX - 6) on sdma0, pushed by kworkers without a CS ioctl
		 */
		DESKTOP(ERA_617, "amdgpu-kernel",
			"amdgpu 6.17+ kernel jobs (VM updates, TTM copies) named, not clients"),
		.amdgpu = true, .nprocs = 5,
		.procs = { DESKTOP_PROCS,
			   { .pid = 187, .comm = "kworker/u8:4", .cpu = 0, .period = MS(5),
			     .jitter = US(900), .burst = 1, .rings = 0x4,
			     .client_id = UINT64_MAX, .kernel_job = "VM_UPDATE", .start = US(600) },
			   { .pid = 203, .comm = "kworker/u8:7", .cpu = 3, .period = MS(9),
			     .jitter = US(2000), .burst = 1, .rings = 0x4,
			     .client_id = UINT64_MAX - 6, .kernel_job = "TTM_COPY_BUFFER",
			     .start = US(1700) } },
	},
	{
		/*
		 * 6.17+ dependencies on scheduled fences: compute waits until the
		 * upload job runs (not ends), gfx on compute's finished fence; the
		 * 2025-09 unschedulable also fires for already signalled ones
		 */
		DEPS(ERA_617, "deps-sched-617",
		     "6.17+ dependencies on a job's scheduled fence; racy unschedulable events"),
		.unsched_racy = true,
		.rings = { RING("sdma0", 0, 4, US(300), US(1500)),
			   RING_SDEP("comp_1.0.0", 0, 4, US(800), US(2500), 0, 100),
			   RING_DEP("gfx_0.0.0", 0, 2, US(1000), US(3500), 1, 80) },
	},
	{
		/* recorded with -e amdgpu -e dma_fence: the driver's view only */
		DESKTOP(ERA_519, "amdgpu-only",
			"amdgpu_cs_ioctl, amdgpu_sched_run_job and dma_fence only: no gpu_scheduler events"),
		.amdgpu = true, .no_sched = true,
	},
	{
		DESKTOP(ERA_617, "seqno-wrap",
			"6.17+, entity seqnos start just below 2^32: u32 dma_fence seqnos wrap"),
		.duration = MS(1000), .seqno_start = 4294967296ULL - 40,
	},
	{
		DIAG("diag-cpufreq",
		     "CPU 2 drops to 400 MHz three times: the game's frame work slows, submissions slip"),
		.bg_cpus = 0xb,
		.diag = { DIAG_CPU_FREQ, 2, 0, US(1500), 3,
			  { { MS(200), MS(60) }, { MS(550), MS(60) }, { MS(900), MS(60) } } },
	},
	{
		DIAG("diag-irqstorm",
		     "NIC interrupt storm on CPU 0, which takes the GPU interrupt: completions handled late"),
		.diag = { DIAG_IRQ_STORM, 0, 0, 0, 2,
			  { { MS(300), MS(150) }, { MS(800), MS(150) } } },
	},
	{
		DIAG("diag-cpuhog",
		     "a CPU hog on CPU 2 three times: the game is woken but runs only when it is preempted"),
		.bg_cpus = 0xb,
		.diag = { DIAG_CPU_HOG, 2, 0, 0, 3,
			  { { MS(200), MS(35) }, { MS(550), MS(40) }, { MS(900), MS(30) } } },
	},
	{
		FRAMES(ERA_519, "frames-60",
		       "60 Hz CRTC, a vblank-paced game: long GPU jobs and late submissions miss vblanks"),
		.ncrtcs = 1, .crtcs = { CRTC(FRAME60, 0) },
		.nrings = 2, .rings = { RING("gfx", 0, 2, US(1500), US(4000)),
					RING("comp", 0, 4, US(200), US(800)) },
		.nprocs = 2, .procs = {
			{ GAME(1, 0xffff8881041a6c00ULL), .long_every = 23, .long_dur = MS(24),
			  .late_every = 31, .late_work = MS(19) },
			{ .pid = 1234, .comm = "Xorg", .cpu = 1, .period = FRAME60,
			  .jitter = US(300), .burst = 1, .rings = 0x2, .client_id = 1,
			  .start = US(300) },
		},
	},
	{
		FRAMES(ERA_617, "frames-144",
		       "144 Hz CRTC (6.9 ms budget), 6.17+ events: long jobs and late submissions"),
		.ncrtcs = 1, .crtcs = { CRTC(FRAME144, 0) },
		.nrings = 1, .rings = { RING("gfx_0.0.0", 0, 2, US(800), US(2500)) },
		.nprocs = 1, .procs = {
			{ GAME(1, 0xffff8881041a6c00ULL), .cpu_work = US(600),
			  .long_every = 29, .long_dur = MS(9),
			  .late_every = 41, .late_work = MS(7) },
		},
	},
	{
		FRAMES(ERA_617, "frames-vrr",
		       "VRR CRTC, vblank intervals 6.9-20.8 ms (48-144 Hz): long jobs miss vblanks"),
		.ncrtcs = 1, .crtcs = { { FRAME48, FRAME144, 0, US(60), US(400) } },
		.nrings = 1, .rings = { RING("gfx_0.0.0", 0, 2, US(1000), US(3000)) },
		.nprocs = 1, .procs = {
			{ GAME(1, 0xffff8881041a6c00ULL), .long_every = 37, .long_dur = MS(22) },
		},
	},
	{
		FRAMES(ERA_519, "frames-2crtc",
		       "two CRTCs (60 Hz video player, 144 Hz game) on one gfx ring; trace_clock=local"),
		.mono_clock = false,
		.ncrtcs = 2, .crtcs = { CRTC(FRAME60, 0), CRTC(FRAME144, 0) },
		.nrings = 1, .rings = { RING("gfx", 0, 2, US(600), US(1800)) },
		.nprocs = 2, .procs = {
			{ GAME(2, 0xffff8881041a6c00ULL), .cpu_work = US(500),
			  .long_every = 19, .long_dur = MS(12) },
			{ .pid = 1890, .comm = "mpv", .cpu = 3, .period = FRAME60, .burst = 1,
			  .rings = 0x1, .client_id = 3, .start = US(2300), .crtc = 1,
			  .drm_file = 0xffff888104a2f800ULL, .cpu_work = US(1500),
			  .late_every = 17, .late_work = MS(17) },
		},
	},
	{
		FRAMES(ERA_617, "frames-deps",
		       "60 Hz game whose gfx jobs wait for an encoder's compute jobs: dependency waits miss vblanks"),
		.ncrtcs = 1, .crtcs = { CRTC(FRAME60, 0) },
		.nrings = 2, .rings = { RING("comp_1.0.0", 0, 4, US(500), MS(28)),
					RING_DEP("gfx_0.0.0", 0, 2, US(1000), US(3000), 0, 100) },
		.nprocs = 2, .procs = {
			{ GAME(1, 0xffff8881041a6c00ULL), .rings = 0x2 },
			{ .pid = 6600, .comm = "encoder", .cpu = 1, .period = MS(90),
			  .jitter = MS(5), .burst = 1, .rings = 0x1, .client_id = 4,
			  .start = MS(5) },
		},
	},
	{
		/*
		 * page flips (a Wayland compositor's atomic commits with an event):
		 * no vblank request is traced, only the flip's _delivered at the
		 * vblank it was shown; the analysis infers the client's process
		 */
		FRAMES(ERA_617, "frames-flip",
		       "60 Hz compositor flipping pages (no vblank requests): long jobs and late commits miss vblanks"),
		.ncrtcs = 1, .crtcs = { CRTC(FRAME60, 0) },
		.nrings = 2, .rings = { RING("gfx_0.0.0", 0, 2, US(1500), US(4000)),
					RING("comp_1.0.0", 0, 4, US(200), US(800)) },
		.nprocs = 2, .procs = {
			{ .pid = 2200, .comm = "kwin_wayland", .cpu = 2, .period = FRAME60,
			  .burst = 1, .rings = 0x1, .client_id = 2, .start = US(800), .crtc = 1,
			  .drm_file = 0xffff888104b31000ULL, .cpu_work = US(700), .flip = true,
			  .long_every = 19, .long_dur = MS(21), .late_every = 27,
			  .late_work = MS(17) },
			{ .pid = 6600, .comm = "encoder", .cpu = 1, .period = MS(90),
			  .jitter = MS(5), .burst = 1, .rings = 0x2, .client_id = 4,
			  .start = MS(5) },
		},
	},
	{
		/*
		 * xe (Intel Lunar Lake and later): drm_sched jobs plus xe's job and
		 * hardware fence events from the 6.12 capture; rcs0 stops at 0.7 s
		 * and the job on it times out 100 ms later (xe's job_timeout_ms)
		 */
		DESKTOP(ERA_519, "xe",
			"xe on drm_sched (6.12 formats): xe job events linked, an rcs0 hang timed out"),
		.amdgpu = false, .xe = true, .xe_timeout = MS(100),
		.duration = MS(1000), .tail = MS(150),
		.devs = { { "0000:00:02.0", 0, 150, 3 } },
		.rings = { { "rcs0", 0, 2, US(1500), US(5000), -1, 0, MS(700) },
			   RING("bcs0", 0, 4, US(200), US(1200)),
			   RING("ccs0", 0, 4, US(50), US(300)) },
	},
	{ I915("i915", false,
	       "i915 requests as a distribution kernel traces them: add, retire, dma_fence") },
	{ I915("i915-ll", true,
	       "i915 with CONFIG_DRM_I915_LOW_LEVEL_TRACEPOINTS: + submit, in (measured start), out") },
	{
		/*
		 * Adreno (msm, 6.1 drm_sched formats): the GPU's counter gives
		 * start and exec (hwdrv.c); the CP takes the next submit
		 * 1-4 us after the last one ended, before the CPU hears of it
		 */
		DESKTOP(ERA_519, "msm",
			"msm (Adreno) on drm_sched: start and exec measured by the GPU's counter"),
		.amdgpu = false, .hwdrv = HWDRV_MSM, .ctxsw_min = US(1), .ctxsw_max = US(4),
		.duration = MS(800),
		.devs = { { "3d00000.gpu", 0, 167, 3 } },
		.rings = { RING("ringbuffer0", 0, 3, US(1500), US(5000)),
			   RING("ringbuffer1", 0, 3, US(200), US(1200)),
			   RING("ringbuffer2", 0, 3, US(50), US(300)) },
	},
	{
		/*
		 * Raspberry Pi (v3d, 6.17+ events): one job per queue at a time,
		 * v3d_submit_* right before it starts (hwdrv.c): start measured
		 */
		DESKTOP(ERA_617, "v3d",
			"v3d (Raspberry Pi) on drm_sched, 6.17+ events: start measured at the submit"),
		.amdgpu = false, .hwdrv = HWDRV_V3D, .duration = MS(800),
		.devs = { { "fec00000.v3d", 0, 170, 3 } },
		.rings = { RING("v3d_bin", 0, 1, US(300), US(1500)),
			   RING("v3d_render", 0, 1, US(1000), US(4000)),
			   RING("v3d_tfu", 0, 1, US(50), US(300)) },
	},
};

#define NSCENARIOS ((int)(sizeof(scenarios) / sizeof(scenarios[0])))

int gen_scenario_count(void)
{
	return NSCENARIOS;
}

const struct gen_scenario *gen_scenario_get(int i)
{
	return i >= 0 && i < NSCENARIOS ? &scenarios[i] : NULL;
}

const struct gen_scenario *gen_scenario_find(const char *name)
{
	int i;

	for (i = 0; i < NSCENARIOS; i++)
		if (!strcmp(scenarios[i].name, name))
			return &scenarios[i];
	for (i = 0; i < gen_shape_count(); i++) /* bench shapes (shapes.c) */
		if (!strcmp(gen_shape_get(i)->name, name))
			return gen_shape_get(i);
	return NULL;
}

const char *gen_era_name(enum gen_era era)
{
	switch (era) {
	case ERA_PRE57:	return "pre-5.7";
	case ERA_57:	return "5.7-5.18";
	case ERA_519:	return "5.19-6.16";
	case ERA_617:	return "6.17+";
	case ERA_I915:	return "i915";
	}
	return "?";
}

/* the era traces a run stage: not pre-5.7, not i915 without LOW_LEVEL */
bool gen_has_run(const struct gen_scenario *sc)
{
	if (sc->era == ERA_I915)
		return sc->i915_ll;
	return sc->era != ERA_PRE57;
}
