// SPDX-License-Identifier: LGPL-2.1
/*
 * Benchmark shapes (issue 20): traces of the shapes a fleet meets, for
 * bench/run-bench's matrix. Not sample traces: `--list` does not show them
 * (no committed sample, no golden), `--shapes` does; generate them with
 * --events N like any scenario. Each has exact truth like every scenario.
 */
#include <string.h>

#include "gen.h"

/* variants override fields of a base macro: that is intended */
#pragma GCC diagnostic ignored "-Woverride-init"

#define DEV0                              \
	{                                 \
		"0000:03:00.0", 0, 130, 3 \
	}
#define DEV1                              \
	{                                 \
		"0000:0b:00.0", 1, 142, 2 \
	}
#define RING(n, d, c, lo, hi)             \
	{                                 \
		n, d, c, lo, hi, -1, 0, 0 \
	}

#define PROC(pid_, comm_, cpu_, period_, rings_, client_)                                      \
	{                                                                                      \
		.pid = pid_, .comm = comm_, .cpu = cpu_, .period = period_, .jitter = US(200), \
		.burst = 1, .rings = rings_, .client_id = client_, .start = US(100)            \
	}

/* the desktop of the steady scenario, for the shapes that vary one axis */
#define DESK_RINGS                                                                    \
	RING("gfx", 0, 2, US(1500), US(5000)), RING("comp", 0, 4, US(200), US(1200)), \
		RING("sdma0", 0, 4, US(50), US(300))
#define DESK_PROCS                                                                           \
	PROC(1234, "Xorg", 1, 16666667, 0x1, 1), PROC(2345, "glxgears", 2, 8333333, 0x3, 2), \
		PROC(1890, "mpv", 3, 16666667, 0x5, 3)
#define DESK(era_, nm, ds)                                                                       \
	.name = nm, .desc = ds, .era = era_, .dma_fence = true, .cpus = 4, .duration = MS(1000), \
	.tail = MS(30), .ndevs = 1, .devs = { DEV0 }, .nrings = 3, .rings = { DESK_RINGS },      \
	.nprocs = 3, .procs = { DESK_PROCS }, .bg_ratio_pct = 350, .free_min = US(200),          \
	.free_max = MS(2)

static const struct gen_scenario shapes[] = {
	{
		/*
		 * The shape: 8 CPUs, 2 GPUs x 3 rings, 6.17+, both gfx
		 * rings fed about 3x faster than they run and nobody throttled:
		 * the backlog grows all along (10^5 jobs in flight at 5 M events).
		 */
		.name = "shape-backlog", .era = ERA_617, .dma_fence = true, .cpus = 8,
		.desc = "bench shape: 2 GPUs x 3 rings, saturated gfx rings, backlog grows all along",
		.duration = MS(1000), .tail = MS(10), .ndevs = 2, .devs = { DEV0, DEV1 },
		.nrings = 6, .rings = { RING("gfx_0.0.0", 0, 2, US(600), US(1400)),
					RING("comp_1.0.0", 0, 4, US(100), US(400)),
					RING("sdma0", 0, 4, US(30), US(120)),
					RING("gfx_0.0.0", 1, 2, US(600), US(1400)),
					RING("comp_1.0.0", 1, 4, US(100), US(400)),
					RING("sdma0", 1, 4, US(30), US(120)) },
		.nprocs = 4, .procs = {
			PROC(3101, "render-a", 1, US(500), 0x07, 1),
			PROC(3202, "render-b", 2, US(700), 0x01, 2),
			PROC(3303, "render-c", 5, US(500), 0x38, 3),
			PROC(3404, "render-d", 6, US(700), 0x08, 4),
		},
		.bg_ratio_pct = 100, .free_min = US(200), .free_max = MS(2),
	},
	{
		/* a 64-CPU server: background on every CPU, 64 per-CPU streams */
		DESK(ERA_519, "shape-cpus64",
		     "bench shape: the steady desktop on a 64-CPU machine, background on every CPU"),
		.cpus = 64,
	},
	{
		/*
		 * 10^4 processes and clients: two process templates, 5000 copies
		 * each (pid, client id and CPU offset per copy), one job per
		 * process per 0.5 s; short jobs keep the rings below saturation.
		 */
		.name = "shape-procs10k", .era = ERA_617, .dma_fence = true, .cpus = 8,
		.desc = "bench shape: 10^4 processes and clients, one job each per 0.5 s",
		.duration = MS(1000), .tail = MS(30), .ndevs = 1, .devs = { DEV0 },
		.nrings = 3, .rings = { RING("gfx_0.0.0", 0, 8, US(20), US(120)),
					RING("comp_1.0.0", 0, 8, US(20), US(100)),
					RING("sdma0", 0, 8, US(10), US(50)) },
		.nprocs = 2, .procs = {
			PROC(100000, "fleet-gfx", 0, MS(500), 0x1, 1),
			PROC(200000, "fleet-comp", 1, MS(500), 0x6, 100001),
		},
		.proc_copies = 5000,
		.bg_ratio_pct = 200, .free_min = US(200), .free_max = MS(2),
	},
	{
		/* many rings: 2 GPUs x 16 rings, 8 processes over all of them */
		.name = "shape-rings32", .era = ERA_519, .dma_fence = true, .cpus = 8,
		.desc = "bench shape: 2 GPUs x 16 rings (32 rings), 8 processes over them",
		.duration = MS(1000), .tail = MS(30), .ndevs = 2, .devs = { DEV0, DEV1 },
		.nrings = 32, .rings = {
			RING("gfx_0.0.0", 0, 2, US(300), US(900)),
			RING("gfx_0.1.0", 0, 2, US(300), US(900)),
			RING("comp_1.0.0", 0, 4, US(100), US(400)),
			RING("comp_1.1.0", 0, 4, US(100), US(400)),
			RING("comp_1.2.0", 0, 4, US(100), US(400)),
			RING("comp_1.3.0", 0, 4, US(100), US(400)),
			RING("comp_1.0.1", 0, 4, US(100), US(400)),
			RING("comp_1.1.1", 0, 4, US(100), US(400)),
			RING("sdma0", 0, 4, US(30), US(120)),
			RING("sdma1", 0, 4, US(30), US(120)),
			RING("vcn_dec", 0, 2, US(200), US(600)),
			RING("vcn_enc0", 0, 2, US(200), US(600)),
			RING("vcn_enc1", 0, 2, US(200), US(600)),
			RING("jpeg_dec", 0, 2, US(100), US(300)),
			RING("kiq_2.1.0", 0, 1, US(10), US(40)),
			RING("mes_3.0.0", 0, 1, US(10), US(40)),
			RING("gfx_0.0.0@1", 1, 2, US(300), US(900)),
			RING("gfx_0.1.0@1", 1, 2, US(300), US(900)),
			RING("comp_1.0.0@1", 1, 4, US(100), US(400)),
			RING("comp_1.1.0@1", 1, 4, US(100), US(400)),
			RING("comp_1.2.0@1", 1, 4, US(100), US(400)),
			RING("comp_1.3.0@1", 1, 4, US(100), US(400)),
			RING("comp_1.0.1@1", 1, 4, US(100), US(400)),
			RING("comp_1.1.1@1", 1, 4, US(100), US(400)),
			RING("sdma0@1", 1, 4, US(30), US(120)),
			RING("sdma1@1", 1, 4, US(30), US(120)),
			RING("vcn_dec@1", 1, 2, US(200), US(600)),
			RING("vcn_enc0@1", 1, 2, US(200), US(600)),
			RING("vcn_enc1@1", 1, 2, US(200), US(600)),
			RING("jpeg_dec@1", 1, 2, US(100), US(300)),
			RING("kiq_2.1.0@1", 1, 1, US(10), US(40)),
			RING("mes_3.0.0@1", 1, 1, US(10), US(40)) },
		.nprocs = 8, .procs = {
			PROC(4101, "app-0", 0, MS(4), 0x0000000fu, 1),
			PROC(4102, "app-1", 1, MS(4), 0x000000f0u, 2),
			PROC(4103, "app-2", 2, MS(4), 0x00000f00u, 3),
			PROC(4104, "app-3", 3, MS(4), 0x0000f000u, 4),
			PROC(4105, "app-4", 4, MS(4), 0x000f0000u, 5),
			PROC(4106, "app-5", 5, MS(4), 0x00f00000u, 6),
			PROC(4107, "app-6", 6, MS(4), 0x0f000000u, 7),
			PROC(4108, "app-7", 7, MS(4), 0xf0000000u, 8),
		},
		.bg_ratio_pct = 350, .free_min = US(200), .free_max = MS(2),
	},
	{
		/* few GPU events: a busy machine, ~3 % of the records are ours */
		DESK(ERA_617, "shape-sparse",
		     "bench shape: the steady desktop (6.17+) among 30x more background events"),
		.bg_ratio_pct = 3000,
	},
	{
		/* many GPU events: recorded with -e gpu_scheduler -e dma_fence only */
		DESK(ERA_617, "shape-dense",
		     "bench shape: the steady desktop (6.17+), almost only GPU events"),
		.bg_ratio_pct = 5,
	},
};

#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))

int gen_shape_count(void)
{
	return NSHAPES;
}

const struct gen_scenario *gen_shape_get(int i)
{
	return i >= 0 && i < NSHAPES ? &shapes[i] : NULL;
}
