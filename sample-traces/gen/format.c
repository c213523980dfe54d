// SPDX-License-Identifier: LGPL-2.1
/*
 * Event formats: which tracefs format file each event of an era comes from,
 * a small parser for the field layout (the encoder never hard-codes an offset)
 * and the tracing-dir lookalike that libtracecmd reads the headers from.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

struct ev_src {
	const char	*system;
	const char	*name_old;	/* <= 6.16 */
	const char	*name_617;	/* 6.17+ */
	bool		gpu;
};

/* one row per entry, aligned by hand */
/* clang-format off */
static const struct ev_src ev_src[EV_COUNT] = {
	[EV_SCHED_JOB]		= { "gpu_scheduler", "drm_sched_job", "drm_sched_job_queue", true },
	[EV_SCHED_RUN]		= { "gpu_scheduler", "drm_run_job", "drm_sched_job_run", true },
	[EV_SCHED_DONE]		= { "gpu_scheduler", "drm_sched_process_job", "drm_sched_job_done", true },
	[EV_SCHED_WAIT_DEP]	= { "gpu_scheduler", "drm_sched_job_wait_dep", NULL, true },
	[EV_SCHED_ADD_DEP]	= { "gpu_scheduler", NULL, "drm_sched_job_add_dep", true },
	[EV_SCHED_UNSCHED]	= { "gpu_scheduler", NULL, "drm_sched_job_unschedulable", true },
	[EV_FENCE_INIT]		= { "dma_fence", "dma_fence_init", "dma_fence_init", true },
	[EV_FENCE_SIGNALED]	= { "dma_fence", "dma_fence_signaled", "dma_fence_signaled", true },
	[EV_FENCE_DESTROY]	= { "dma_fence", "dma_fence_destroy", "dma_fence_destroy", true },
	[EV_FENCE_ENABLE]	= { "dma_fence", "dma_fence_enable_signal", "dma_fence_enable_signal", true },
	[EV_FENCE_WAIT_START]	= { "dma_fence", "dma_fence_wait_start", "dma_fence_wait_start", true },
	[EV_FENCE_WAIT_END]	= { "dma_fence", "dma_fence_wait_end", "dma_fence_wait_end", true },
	[EV_AMD_CS]		= { "amdgpu", "amdgpu_cs_ioctl", "amdgpu_cs_ioctl", true },
	[EV_AMD_RUN]		= { "amdgpu", "amdgpu_sched_run_job", "amdgpu_sched_run_job", true },
	[EV_AMD_IV]		= { "amdgpu", "amdgpu_iv", "amdgpu_iv", true },
	/* i915 exists only in the i915 era; no 6.17 names */
	[EV_I915_ADD]		= { "i915", "i915_request_add", NULL, true },
	/* xe: 6.12 only (the 6.12 capture) */
	[EV_XE_EXEC]		= { "xe", "xe_sched_job_exec", NULL, true },
	[EV_XE_RUN]		= { "xe", "xe_sched_job_run", NULL, true },
	[EV_XE_TIMEDOUT]	= { "xe", "xe_sched_job_timedout", NULL, true },
	[EV_XE_BAN]		= { "xe", "xe_sched_job_ban", NULL, true },
	[EV_XE_HW_SIGNAL]	= { "xe", "xe_hw_fence_signal", NULL, true },
	/* msm, v3d: derived from the kernel headers (data/formats/derived) */
	[EV_MSM_FLUSH]		= { "drm_msm_gpu", "msm_gpu_submit_flush", "msm_gpu_submit_flush", true },
	[EV_MSM_RETIRED]	= { "drm_msm_gpu", "msm_gpu_submit_retired", "msm_gpu_submit_retired", true },
	[EV_V3D_SUBMIT_CL]	= { "v3d", "v3d_submit_cl", "v3d_submit_cl", true },
	[EV_V3D_SUBMIT_TFU]	= { "v3d", "v3d_submit_tfu", "v3d_submit_tfu", true },
	[EV_V3D_BCL_IRQ]	= { "v3d", "v3d_bcl_irq", "v3d_bcl_irq", true },
	[EV_V3D_RCL_IRQ]	= { "v3d", "v3d_rcl_irq", "v3d_rcl_irq", true },
	[EV_V3D_TFU_IRQ]	= { "v3d", "v3d_tfu_irq", "v3d_tfu_irq", true },
	[EV_I915_SUBMIT]	= { "i915", "i915_request_submit", NULL, true },
	[EV_I915_IN]		= { "i915", "i915_request_in", NULL, true },
	[EV_I915_OUT]		= { "i915", "i915_request_out", NULL, true },
	[EV_I915_RETIRE]	= { "i915", "i915_request_retire", NULL, true },
	[EV_SCHED_SWITCH]	= { "sched", "sched_switch", "sched_switch", false },
	[EV_SCHED_WAKING]	= { "sched", "sched_waking", "sched_waking", false },
	[EV_IRQ_ENTRY]		= { "irq", "irq_handler_entry", "irq_handler_entry", false },
	[EV_IRQ_EXIT]		= { "irq", "irq_handler_exit", "irq_handler_exit", false },
	[EV_SOFTIRQ_ENTRY]	= { "irq", "softirq_entry", "softirq_entry", false },
	[EV_SOFTIRQ_EXIT]	= { "irq", "softirq_exit", "softirq_exit", false },
	[EV_CPU_FREQ]		= { "power", "cpu_frequency", "cpu_frequency", false },
	[EV_VBLANK]		= { "drm", "drm_vblank_event", "drm_vblank_event", false },
	[EV_VBLANK_QUEUED]	= { "drm", "drm_vblank_event_queued", "drm_vblank_event_queued", false },
	[EV_VBLANK_DELIVERED]	= { "drm", "drm_vblank_event_delivered", "drm_vblank_event_delivered", false },
};
/* clang-format on */

#define HOST_DIR	"linux-6.18-host"

/* Directory (below the formats dir) holding SYSTEM for this scenario. */
static const char *system_dir(const char *system, const struct gen_scenario *sc)
{
	/* xe exists in the 6.12 capture only: take its drm_sched and dma_fence too */
	if (sc->xe && (!strcmp(system, "xe") || !strcmp(system, "gpu_scheduler") ||
		       !strcmp(system, "dma_fence")))
		return "linux-6.12-debian";
	if (!strcmp(system, "gpu_scheduler")) {
		switch (sc->era) {
		case ERA_PRE57:	return "derived/pre-5.7";
		case ERA_57:	return "derived/5.7-5.18";
		case ERA_519:	return "linux-6.1-debian";
		case ERA_617:	return "linux-6.17";
		case ERA_I915:	break;	/* no drm_sched */
		}
	}
	if (!strcmp(system, "dma_fence"))
		return sc->era == ERA_617 ? HOST_DIR : "linux-6.1-debian";
	if (!strcmp(system, "amdgpu"))
		return sc->era == ERA_617 ? "derived/amdgpu-6.17" :
					    "derived/amdgpu-5.5-6.16";
	/* real drm vblank formats (identical layouts in both kernels) */
	if (!strcmp(system, "drm"))
		return sc->era == ERA_617 ? "linux-6.12-debian" : "linux-6.1-debian";
	if (!strcmp(system, "i915"))
		return "linux-6.1-debian";
	if (!strcmp(system, "drm_msm_gpu"))
		return "derived/msm";
	if (!strcmp(system, "v3d"))
		return "derived/v3d";
	return HOST_DIR;
}

/* the LOW_LEVEL i915 events: no distribution kernel has them (derived) */
static bool i915_lowlevel(int ev)
{
	return ev == EV_I915_SUBMIT || ev == EV_I915_IN || ev == EV_I915_OUT;
}

static const char *event_dir(int ev, const struct gen_scenario *sc)
{
	if (i915_lowlevel(ev))
		return "derived/i915-lowlevel";
	return system_dir(ev_src[ev].system, sc);
}

static bool system_used(const char *system, const struct gen_scenario *sc)
{
	if (!strcmp(system, "dma_fence"))
		return sc->dma_fence;
	if (!strcmp(system, "amdgpu"))
		return sc->amdgpu;
	if (!strcmp(system, "drm"))
		return sc->ncrtcs > 0;
	if (!strcmp(system, "i915"))
		return sc->era == ERA_I915;
	if (!strcmp(system, "xe"))
		return sc->xe;
	if (!strcmp(system, "drm_msm_gpu"))
		return sc->hwdrv == HWDRV_MSM;
	if (!strcmp(system, "v3d"))
		return sc->hwdrv == HWDRV_V3D;
	/* i915 does not use drm_sched; amdgpu-only recordings leave it out */
	if (!strcmp(system, "gpu_scheduler"))
		return sc->era != ERA_I915 && !sc->no_sched;
	return true;
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" */
static int parse_field(const char *line, struct gen_field *f)
{
	const char *p = strstr(line, "field:");
	const char *semi, *sp, *o, *z;
	char decl[128];
	char *br;
	int len;

	if (!p)
		return -1;
	p += 6;
	semi = strchr(p, ';');
	o = strstr(line, "offset:");
	z = strstr(line, "size:");
	if (!semi || !o || !z)
		return -1;
	len = semi - p;
	if (len >= (int)sizeof(decl))
		return -1;
	memcpy(decl, p, len);
	decl[len] = 0;
	sp = strrchr(decl, ' ');
	if (!sp)
		return -1;
	snprintf(f->name, sizeof(f->name), "%s", sp + 1);
	snprintf(f->type, sizeof(f->type), "%.*s", (int)(sp - decl), decl);
	br = strchr(f->name, '[');
	f->array = br != NULL;
	if (br)
		*br = 0;
	f->data_loc = strstr(f->type, "__data_loc") != NULL;
	f->offset = atoi(o + 7);
	f->size = atoi(z + 5);
	return 0;
}

static struct gen_format *format_parse(const char *path, const char *system)
{
	struct gen_format *fmt;
	char line[4096];
	FILE *fp;

	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	fmt = calloc(1, sizeof(*fmt));
	if (!fmt) {
		fclose(fp);
		return NULL;
	}
	snprintf(fmt->system, sizeof(fmt->system), "%s", system);
	while (fgets(line, sizeof(line), fp)) {
		struct gen_field f;

		if (!strncmp(line, "name: ", 6)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(fmt->name, sizeof(fmt->name), "%.47s", line + 6);
		} else if (!strncmp(line, "ID: ", 4)) {
			fmt->id = atoi(line + 4);
		} else if (!parse_field(line, &f) && strncmp(f.name, "common_", 7)) {
			if (fmt->nfields == (int)(sizeof(fmt->fields) / sizeof(fmt->fields[0])))
				break;
			fmt->fields[fmt->nfields++] = f;
			if (f.offset + f.size > fmt->fixed_size)
				fmt->fixed_size = f.offset + f.size;
		}
	}
	fclose(fp);
	if (!fmt->id || !fmt->name[0]) {
		free(fmt);
		return NULL;
	}
	return fmt;
}

int gen_formats_load(struct gen_formats *f, const char *fmt_dir,
		     const struct gen_scenario *sc)
{
	int i;

	memset(f, 0, sizeof(*f));
	f->fmt_dir = strdup(fmt_dir);
	f->mono_clock = sc->mono_clock;
	for (i = 0; i < EV_COUNT; i++) {
		const struct ev_src *e = &ev_src[i];
		const char *name = sc->era == ERA_617 ? e->name_617 : e->name_old;
		char *path;

		if (!name || !system_used(e->system, sc))
			continue;
		if (i == EV_SCHED_RUN && sc->era == ERA_PRE57)
			continue;
		if (i915_lowlevel(i) && !sc->i915_ll)
			continue;
		if (asprintf(&path, "%s/%s/%s/%s/format", fmt_dir,
			     event_dir(i, sc), e->system, name) < 0)
			return -ENOMEM;
		f->ev[i] = format_parse(path, e->system);
		if (!f->ev[i]) {
			fprintf(stderr, "gpu-trace-gen: cannot read format %s\n", path);
			free(path);
			return -ENOENT;
		}
		f->ev[i]->gpu = e->gpu;
		f->src_dir[i] = event_dir(i, sc);
		free(path);
	}
	return 0;
}

void gen_formats_free(struct gen_formats *f)
{
	int i;

	for (i = 0; i < EV_COUNT; i++)
		free(f->ev[i]);
	free(f->fmt_dir);
}

const struct gen_field *gen_format_field(const struct gen_format *fmt,
					 const char *name)
{
	int i;

	for (i = 0; i < fmt->nfields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

/* ---- tracing-dir lookalike ---- */

static int copy_file(const char *from, const char *to)
{
	char buf[8192];
	FILE *in, *out;
	size_t n;
	int ret = 0;

	in = fopen(from, "rb");
	if (!in)
		return -errno;
	out = fopen(to, "wb");
	if (!out) {
		fclose(in);
		return -errno;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			ret = -EIO;
	fclose(in);
	if (fclose(out))
		ret = -EIO;
	return ret;
}

static int write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (!fp)
		return -errno;
	fputs(text, fp);
	return fclose(fp) ? -EIO : 0;
}

static int mkdir_p2(const char *a, const char *b)
{
	char *p;
	int ret;

	if (asprintf(&p, "%s/%s", a, b) < 0)
		return -ENOMEM;
	ret = mkdir(p, 0755);
	free(p);
	return ret && errno != EEXIST ? -errno : 0;
}

/* Copy every event format of one system, sorted by name for determinism. */
static int copy_system(const char *src, const char *events_dir, const char *system)
{
	struct dirent **names;
	int n, i, ret;

	n = scandir(src, &names, NULL, alphasort);
	if (n < 0)
		return -errno;
	ret = mkdir_p2(events_dir, system);
	for (i = 0; i < n; i++) {
		char *from = NULL, *to = NULL, *dir = NULL;

		if (!ret && names[i]->d_name[0] != '.' &&
		    asprintf(&dir, "%s/%s", system, names[i]->d_name) > 0 &&
		    asprintf(&from, "%s/%s/format", src, names[i]->d_name) > 0 &&
		    asprintf(&to, "%s/%s/format", events_dir, dir) > 0) {
			ret = mkdir_p2(events_dir, dir);
			if (!ret)
				ret = copy_file(from, to);
		}
		free(dir);
		free(from);
		free(to);
		free(names[i]);
	}
	free(names);
	return ret;
}

int gen_fakedir_create(const struct gen_formats *f, const char *dir,
		       const char *cmdlines)
{
	/* clang-format off */
	static const char *const systems[] = {
		"gpu_scheduler", "dma_fence", "amdgpu", "sched", "irq", "power", "drm", "i915", "xe",
		"drm_msm_gpu", "v3d",
	};
	/* clang-format on */
	char *events, *p;
	unsigned int i;
	int ret;

	if (asprintf(&events, "%s/events", dir) < 0)
		return -ENOMEM;
	ret = mkdir(events, 0755) ? -errno : 0;
	if (!ret) {
		/* libtracecmd's writer needs at least one ftrace event */
		if (asprintf(&p, "%s/derived/ftrace", f->fmt_dir) < 0)
			return -ENOMEM;
		ret = copy_system(p, events, "ftrace");
		free(p);
	}
	for (i = 0; !ret && i < sizeof(systems) / sizeof(systems[0]); i++) {
		int e;

		/*
		 * copy the whole system from where its used formats came from
		 * (i915: the real capture, then the derived LOW_LEVEL events)
		 */
		const char *done_dir = NULL;

		for (e = 0; !ret && e < EV_COUNT; e++) {
			if (!f->ev[e] || strcmp(f->ev[e]->system, systems[i]))
				continue;
			if (done_dir && !strcmp(done_dir, f->src_dir[e]))
				continue;
			if (asprintf(&p, "%s/%s/%s", f->fmt_dir, f->src_dir[e],
				     systems[i]) < 0)
				return -ENOMEM;
			ret = copy_system(p, events, systems[i]);
			free(p);
			done_dir = f->src_dir[e];
		}
	}
	if (!ret) {
		static const char *const hdr[] = { "header_page", "header_event" };
		char *from, *to;

		for (i = 0; !ret && i < 2; i++) {
			if (asprintf(&from, "%s/" HOST_DIR "/%s", f->fmt_dir, hdr[i]) < 0)
				return -ENOMEM;
			if (asprintf(&to, "%s/%s", events, hdr[i]) < 0)
				return -ENOMEM;
			ret = copy_file(from, to);
			free(from);
			free(to);
		}
	}
	free(events);
	if (!ret && asprintf(&p, "%s/saved_cmdlines", dir) > 0) {
		ret = write_text(p, cmdlines);
		free(p);
	}
	if (!ret && asprintf(&p, "%s/trace_clock", dir) > 0) {
		ret = write_text(p, f->mono_clock ?
				 "local global counter uptime perf [mono] mono_raw boot\n" :
				 "[local] global counter uptime perf mono mono_raw boot\n");
		free(p);
	}
	if (!ret && asprintf(&p, "%s/printk_formats", dir) > 0) {
		ret = write_text(p, "");
		free(p);
	}
	if (!ret && asprintf(&p, "%s/kallsyms", dir) > 0) {
		ret = write_text(p, "");
		free(p);
	}
	return ret;
}
