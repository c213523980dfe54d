// SPDX-License-Identifier: LGPL-2.1
/*
 * Print formats of every event of every era, as the kernel (tracefs `trace`,
 * `trace_pipe`) and libtraceevent (`trace-cmd report`) print them, and our
 * plugin's own vocabulary (plugins/plugin_gpu_sched.c): one line's arguments
 * -> struct gpulat_event with the same members the binary binding (bind.c)
 * fills from the record.
 *
 * A family is one set of print formats shared by several events (all
 * dma_fence_* events print alike). Every format is the kernel's TP_printk
 * string (shared/reference/kernel-events.md, data/formats/) with one tag per
 * conversion saying which member the value goes to. The event names and
 * their kinds come from bind.c's list (gpulat__event_def()).
 */
#define _GNU_SOURCE	/* memrchr */
#include <stdlib.h>
#include <string.h>

#include "text-int.h"

/* Which member of struct gpulat_event a printed value goes to. */
enum tag {
	T_SKIP = 0,
	T_RING,		/* ring name, or a const char * the kernel could not print */
	T_AMD_RING,	/* amdgpu ring_name: a char * before 5.5 -> the timeline */
	T_DEV,
	T_ID,
	T_FENCE_PTR,
	T_CTX,
	T_SEQNO,
	T_JOBCNT,
	T_HWCNT,
	T_CLIENT,
	T_DEP_PTR,
	T_DEP_CTX,
	T_DEP_SEQNO,
	T_DRIVER,
	T_TIMELINE,
	T_IRQ,
	T_PREV_PID,
	T_NEXT_PID,
	T_PREV_STATE,	/* letters: "R" (0, runnable) or anything else */
	T_VALUE,
	T_CPUID,	/* cpu_frequency cpu_id / sched_waking target_cpu (in ev->irq) */
	T_CRTC,
	T_VBL_SEQ,
	T_VBL_TIME,
	T_VBL_HIGH_PREC,	/* "true" / "false" */
	T_VBL_FILE,
	T_I915_DEV,	/* i915 dev number -> "card<n>" */
	T_I915_CLASS,	/* i915 engine class:instance -> ring "rcs0" */
	T_I915_INST,
	T_GUC,		/* xe guc_id */
	T_LRC,		/* xe lrc_seqno */
	T_DRM_MINOR, /* v3d dev: the DRM primary minor -> "card<n>" */
	T_TICKS, /* msm always-on counter: ticks / start_ticks */
	T_TICKS_END, /* msm end_ticks */
	T__COUNT,
};

#define MAXCONV	12

struct tfmt {
	const char	*fmt;
	unsigned char	tag[MAXCONV];
	bool		fence32;	/* ctx/seqno are u32 in this layout */
};

/* plugin vocabulary parsers (key=value), per family; NULL: none */
enum plug {
	P_NONE = 0,
	P_SCHED_JOB,
	P_DONE,
	P_DEP,
	P_FENCE,
	P_AMD_JOB,
	P_I915,
	P_XE,
};

struct tfam {
	const char		*events[8];	/* names of bind.c's list using it */
	const struct tfmt	*f;
	unsigned int		n;
	enum plug		plugin;
};

#define FMTS(...)	(const struct tfmt[]){ __VA_ARGS__ }, \
			sizeof((const struct tfmt[]){ __VA_ARGS__ }) / sizeof(struct tfmt)

/*
 * The formats, newest first within a family. The ones marked with a kernel
 * range print exactly so; a ring name that is a `const char *` (<= 5.18) is
 * printed by libtraceevent as its hex value and by tracefs (5.12-5.18) as
 * "(0x<ptr>:<name>)[UNSAFE-MEMORY]" (see parse_ring()).
 */
/* one row per entry, aligned by hand */
/* clang-format off */
static const struct tfam fams[] = {
	{ /* 4.13-6.16 (4.16+ drm_, 5.7+ drm_run_job); 4.4-4.12 printed the job pointer */
		{ "drm_sched_job", "drm_run_job", "amd_sched_job" },
		FMTS({ "entity=%p, id=%llu, fence=%p, ring=%s, job count:%u, hw job count:%d",
		       { T_SKIP, T_ID, T_FENCE_PTR, T_RING, T_JOBCNT, T_HWCNT }, false },
		     { "entity=%p, sched job=%p, fence=%p, ring=%s, job count:%u, hw job count:%d",
		       { T_SKIP, T_ID, T_FENCE_PTR, T_RING, T_JOBCNT, T_HWCNT }, false }),
		P_SCHED_JOB,
	},
	{ /* 4.4-6.16 */
		{ "drm_sched_process_job", "amd_sched_process_job" },
		FMTS({ "fence=%p signaled", { T_FENCE_PTR }, false }),
		P_DONE,
	},
	{ /* 4.20-6.16 */
		{ "drm_sched_job_wait_dep" },
		FMTS({ "job ring=%s, id=%llu, depends fence=%p, context=%llu, seq=%u",
		       { T_RING, T_ID, T_DEP_PTR, T_DEP_CTX, T_DEP_SEQNO }, false }),
		P_DEP,
	},
	{ /* 6.17+ */
		{ "drm_sched_job_queue", "drm_sched_job_run" },
		FMTS({ "dev=%s, fence=%llu:%llu, ring=%s, job count:%u, hw job count:%d, "
		       "client_id:%llu",
		       { T_DEV, T_CTX, T_SEQNO, T_RING, T_JOBCNT, T_HWCNT, T_CLIENT }, false }),
		P_SCHED_JOB,
	},
	{ /* 6.17+ */
		{ "drm_sched_job_done" },
		FMTS({ "fence=%llu:%llu signaled", { T_CTX, T_SEQNO }, false }),
		P_DONE,
	},
	{ /* 6.17+ */
		{ "drm_sched_job_add_dep", "drm_sched_job_unschedulable" },
		FMTS({ "fence=%llu:%llu depends on fence=%llu:%llu",
		       { T_CTX, T_SEQNO, T_DEP_CTX, T_DEP_SEQNO }, false },
		     { "fence=%llu:%llu depends on unsignalled fence=%llu:%llu",
		       { T_CTX, T_SEQNO, T_DEP_CTX, T_DEP_SEQNO }, false }),
		P_DEP,
	},
	{ /* fence_* 3.17-4.9, dma_fence_* 4.10+: context and seqno are u32 */
		{ "dma_fence_init", "dma_fence_emit", "dma_fence_enable_signal",
		  "dma_fence_signaled", "dma_fence_destroy", "dma_fence_wait_start",
		  "dma_fence_wait_end" },
		FMTS({ "driver=%s timeline=%s context=%u seqno=%u",
		       { T_DRIVER, T_TIMELINE, T_CTX, T_SEQNO }, true }),
		P_FENCE,
	},
	{
		{ "fence_init", "fence_emit", "fence_enable_signal", "fence_signaled",
		  "fence_destroy", "fence_wait_start", "fence_wait_end" },
		FMTS({ "driver=%s timeline=%s context=%u seqno=%u",
		       { T_DRIVER, T_TIMELINE, T_CTX, T_SEQNO }, true }),
		P_FENCE,
	},
	{ /* 6.17+ (u64 fence), then 4.12-6.16 (u32 context/seqno) */
		{ "amdgpu_cs_ioctl", "amdgpu_sched_run_job" },
		FMTS({ "timeline=%s, fence=%llu:%llu, ring_name=%s, num_ibs=%u",
		       { T_TIMELINE, T_CTX, T_SEQNO, T_AMD_RING, T_SKIP }, false },
		     { "sched_job=%llu, timeline=%s, context=%u, seqno=%u, ring_name=%s, num_ibs=%u",
		       { T_ID, T_TIMELINE, T_CTX, T_SEQNO, T_AMD_RING, T_SKIP }, true }),
		P_AMD_JOB,
	},
	{ /* 5.1+ (ih), 4.16-5.0, 4.12-4.15 (vm_id, pas_id) */
		{ "amdgpu_iv" },
		FMTS({ "ih:%u client_id:%u src_id:%u ring:%u vmid:%u timestamp: %llu pasid:%u "
		       "src_data: %08x %08x %08x %08x",
		       { T_SKIP, T_CLIENT, T_IRQ, T_VALUE }, false },
		     { "client_id:%u src_id:%u ring:%u vmid:%u timestamp: %llu pasid:%u "
		       "src_data: %08x %08x %08x %08x",
		       { T_CLIENT, T_IRQ, T_VALUE }, false },
		     { "client_id:%u src_id:%u ring:%u vm_id:%u timestamp: %llu pas_id:%u "
		       "src_data: %08x %08x %08x %08x",
		       { T_CLIENT, T_IRQ, T_VALUE }, false },
		     /* our plugin (gs_print_iv()); ih= only from 5.1 */
		     { "ih=%u ih_client=%u src=%u ring_id=%u vmid=%u pasid=%u",
		       { T_SKIP, T_CLIENT, T_IRQ, T_VALUE }, false },
		     { "ih_client=%u src=%u ring_id=%u vmid=%u pasid=%u",
		       { T_CLIENT, T_IRQ, T_VALUE }, false }),
		P_NONE,
	},
	{ /* class i915_request: 5.15+ (guc_id), 5.x-6.x (tail), older */
		{ "i915_request_add", "i915_request_submit", "i915_request_execute",
		  "i915_request_retire", "i915_request_wait_end" },
		FMTS({ "dev=%u, engine=%u:%u, ctx=%llu, seqno=%u, tail=%u",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_CTX, T_SEQNO }, false },
		     { "dev=%u, engine=%u:%u, guc_id=%u, ctx=%llu, seqno=%u, tail=%u",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_SKIP, T_CTX, T_SEQNO }, false },
		     { "dev=%u, engine=%u:%u, ctx=%llu, seqno=%u",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_CTX, T_SEQNO }, false }),
		P_I915,
	},
	{
		{ "i915_request_queue", "i915_request_wait_begin" },
		FMTS({ "dev=%u, engine=%u:%u, ctx=%llu, seqno=%u, flags=0x%x",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_CTX, T_SEQNO, T_VALUE }, false }),
		P_I915,
	},
	{ /* LOW_LEVEL only */
		{ "i915_request_in" },
		FMTS({ "dev=%u, engine=%u:%u, ctx=%llu, seqno=%u, prio=%d, port=%u",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_CTX, T_SEQNO }, false }),
		P_I915,
	},
	{ /* LOW_LEVEL only */
		{ "i915_request_out" },
		FMTS({ "dev=%u, engine=%u:%u, ctx=%llu, seqno=%u, completed?=%u",
		       { T_I915_DEV, T_I915_CLASS, T_I915_INST, T_CTX, T_SEQNO, T_VALUE }, false }),
		P_I915,
	},
	{ /* xe 6.11+ (dev, lrc_seqno), 6.8 */
		{ "xe_sched_job_create", "xe_sched_job_exec", "xe_sched_job_run",
		  "xe_sched_job_free", "xe_sched_job_timedout", "xe_sched_job_set_error",
		  "xe_sched_job_ban" },
		FMTS({ "dev=%s, fence=%p, seqno=%u, lrc_seqno=%u, guc_id=%d, batch_addr=0x%012llx, "
		       "guc_state=0x%x, flags=0x%x, error=%d",
		       { T_DEV, T_FENCE_PTR, T_SEQNO, T_LRC, T_GUC, T_SKIP, T_SKIP, T_SKIP,
			 T_VALUE }, false },
		     { "fence=%p, seqno=%u, guc_id=%d, batch_addr=0x%012llx, guc_state=0x%x, "
		       "flags=0x%x, error=%d",
		       { T_FENCE_PTR, T_SEQNO, T_GUC, T_SKIP, T_SKIP, T_SKIP, T_VALUE }, false }),
		P_XE,
	},
	{
		{ "xe_hw_fence_create", "xe_hw_fence_signal", "xe_hw_fence_try_signal" },
		FMTS({ "dev=%s, ctx=0x%016llx, fence=%p, seqno=%u",
		       { T_DEV, T_CTX, T_FENCE_PTR, T_SEQNO }, false },
		     { "ctx=0x%016llx, fence=%p, seqno=%u", { T_CTX, T_FENCE_PTR, T_SEQNO }, false }),
		P_XE,
	},
	{ /* the exec queue event itself is not told apart in text (value 0) */
		{ "xe_exec_queue_create", "xe_exec_queue_submit", "xe_exec_queue_kill",
		  "xe_exec_queue_reset", "xe_exec_queue_destroy", "xe_exec_queue_stop",
		  "xe_exec_queue_resubmit" },
		FMTS({ "dev=%s, %d:0x%x, gt=%d, width=%d, guc_id=%d, guc_state=0x%x, flags=0x%x",
		       { T_DEV, T_SKIP, T_SKIP, T_SKIP, T_SKIP, T_GUC }, false }),
		P_XE,
	},
	{ /* drivers/gpu/drm/msm/msm_gpu_trace.h */
		{ "msm_gpu_submit_flush" },
		FMTS({ "id=%d pid=%d ring=%d:%d ticks=%lld",
		       { T_SKIP, T_SKIP, T_ID, T_SEQNO, T_TICKS }, false }),
		P_NONE,
	},
	{
		{ "msm_gpu_submit_retired" },
		FMTS({ "id=%d pid=%d ring=%d:%d elapsed=%lld ns mhz=%lld start=%lld end=%lld",
		       { T_SKIP, T_SKIP, T_ID, T_SEQNO, T_SKIP, T_SKIP, T_TICKS, T_TICKS_END },
		       false }),
		P_NONE,
	},
	{ /* drivers/gpu/drm/v3d/v3d_trace.h */
		{ "v3d_submit_cl" },
		FMTS({ "dev=%u, %s, seqno=%llu, 0x%08x..0x%08x",
		       { T_DRM_MINOR, T_SKIP, T_SEQNO }, false }),
		P_NONE,
	},
	{
		{ "v3d_submit_tfu", "v3d_submit_csd", "v3d_bcl_irq", "v3d_rcl_irq", "v3d_tfu_irq",
		  "v3d_csd_irq" },
		FMTS({ "dev=%u, seqno=%llu", { T_DRM_MINOR, T_SEQNO }, false }),
		P_NONE,
	},
	{
		{ "irq_handler_entry", "irq_handler_exit" },
		FMTS({ "irq=%d name=%s", { T_IRQ }, false },
		     { "irq=%d ret=%s", { T_IRQ }, false }),
		P_NONE,
	},
	{
		{ "softirq_entry", "softirq_exit" },
		FMTS({ "vec=%u [action=%s]", { T_IRQ }, false }),
		P_NONE,
	},
	{ /* the kernel's; libtraceevent's sched_switch plugin (trace-cmd report) */
		{ "sched_switch" },
		FMTS({ "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
		       "next_comm=%s next_pid=%d next_prio=%d",
		       { T_SKIP, T_PREV_PID, T_SKIP, T_PREV_STATE, T_SKIP, T_NEXT_PID }, false },
		     { "%s:%d [%d] %s ==> %s:%d [%d]",
		       { T_SKIP, T_PREV_PID, T_SKIP, T_PREV_STATE, T_SKIP, T_NEXT_PID }, false }),
		P_NONE,
	},
	{
		{ "sched_waking" },
		FMTS({ "comm=%s pid=%d prio=%d target_cpu=%d",
		       { T_SKIP, T_NEXT_PID, T_SKIP, T_CPUID }, false },
		     { "%s:%d [%d] CPU:%d", { T_SKIP, T_NEXT_PID, T_SKIP, T_CPUID }, false },
		     { "%s:%d [%d] success=%d CPU:%d",
		       { T_SKIP, T_NEXT_PID, T_SKIP, T_SKIP, T_CPUID }, false }),
		P_NONE,
	},
	{ /* 4.15+ (time, high-prec), then older kernels */
		{ "drm_vblank_event" },
		FMTS({ "crtc=%d, seq=%u, time=%lld, high-prec=%s",
		       { T_CRTC, T_VBL_SEQ, T_VBL_TIME, T_VBL_HIGH_PREC }, false },
		     { "crtc=%d, seq=%u", { T_CRTC, T_VBL_SEQ }, false }),
		P_NONE,
	},
	{ /* the oldest kernels traced the pid instead of the drm_file */
		{ "drm_vblank_event_queued", "drm_vblank_event_delivered" },
		FMTS({ "file=%p, crtc=%d, seq=%u", { T_VBL_FILE, T_CRTC, T_VBL_SEQ }, false },
		     { "pid=%d, crtc=%d, seq=%u", { T_SKIP, T_CRTC, T_VBL_SEQ }, false }),
		P_NONE,
	},
	{
		{ "cpu_frequency" },
		FMTS({ "state=%lu cpu_id=%lu", { T_VALUE, T_CPUID }, false }),
		P_NONE,
	},
};
/* clang-format on */

#undef FMTS

int gpulat__tfmt_family(const char *name)
{
	unsigned int i, k;

	for (i = 0; i < GPULAT_ARRAY_SIZE(fams); i++)
		for (k = 0; k < GPULAT_ARRAY_SIZE(fams[i].events) && fams[i].events[k]; k++)
			if (!strcmp(fams[i].events[k], name))
				return (int)i;
	return -1;
}

const char *gpulat__tfmt_format(int fam, unsigned int i)
{
	if (fam < 0 || (unsigned int)fam >= GPULAT_ARRAY_SIZE(fams) || i >= fams[fam].n)
		return NULL;
	return fams[fam].f[i].fmt;
}

/* ------------------------------------------------------------------------ */
/* Matching one format                                                        */

struct tval {
	uint64_t	num;
	const char	*str;
	size_t		len;
	bool		set;
};

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* decimal, optionally signed; the pointer past it or NULL */
static const char *scan_dec(const char *s, const char *e, uint64_t *v)
{
	bool neg = false;
	uint64_t x = 0;
	const char *p;

	if (s < e && (*s == '-' || *s == '+')) {
		neg = *s == '-';
		s++;
	}
	for (p = s; p < e && is_digit(*p); p++)
		x = x * 10 + (uint64_t)(*p - '0');
	if (p == s)
		return NULL;
	*v = neg ? (uint64_t)-(int64_t)x : x;
	return p;
}

static const char *scan_hex(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;
	const char *p;
	int d;

	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexval(s[2]) >= 0)
		s += 2;
	for (p = s; p < e && (d = hexval(*p)) >= 0; p++)
		x = (x << 4) | (uint64_t)d;
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static bool starts(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(e - s) >= n && !memcmp(s, lit, n);
}

/*
 * A %p: hex with or without 0x (tracefs hashes it: 16 digits, stable within
 * a boot; libtraceevent prints the raw 0x... value), or a NULL / not yet
 * hashable pointer.
 */
static const char *scan_ptr(const char *s, const char *e, uint64_t *v, unsigned int *how)
{
	static const char * const nil[] = { "(null)", "(nil)", "(____ptrval____)", "(ptrval)" };
	unsigned int i;

	for (i = 0; i < GPULAT_ARRAY_SIZE(nil); i++) {
		if (starts(s, e, nil[i])) {
			*v = 0;
			return s + strlen(nil[i]);
		}
	}
	if (!(e - s > 1 && s[0] == '0' && s[1] == 'x'))
		*how |= GPULAT__TX_HASHED;
	else
		*how |= GPULAT__TX_RAWPTR;
	return scan_hex(s, e, v);
}

static const char *find_lit(const char *s, const char *e, const char *lit, size_t n)
{
	const char *p;

	for (p = s; (size_t)(e - p) >= n; p++) {
		p = memchr(p, lit[0], (size_t)(e - p) - n + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, lit, n))
			return p;
	}
	return NULL;
}

/* the literal text of @f up to the next conversion */
static size_t lit_len(const char *f)
{
	size_t n = 0;

	while (f[n] && f[n] != '%')
		n++;
	return n;
}

/*
 * Match @s..@e against format @f, conversion @ci onwards. A %s takes the
 * shortest text after which the rest still matches (names may hold the
 * format's own separators: "kworker/0:1:31"). Literal blanks match one or
 * more blanks (trace-cmd pads some fields).
 */
static bool match(const char *f, const char *s, const char *e, const struct tfmt *t,
		  unsigned int ci, struct tval *v, unsigned int *how)
{
	while (*f) {
		char conv;
		bool hex = false;

		if (*f != '%') {
			if (*f == ' ') {
				if (s >= e || *s != ' ')
					return false;
				while (s < e && *s == ' ')
					s++;
				f++;
				continue;
			}
			if (s >= e || *s != *f)
				return false;
			s++;
			f++;
			continue;
		}
		f++;
		while (*f && (is_digit(*f) || *f == '-' || *f == '.' || *f == 'l' || *f == 'L' ||
			      *f == 'h' || *f == 'z'))
			f++;
		conv = *f++;
		if (ci >= MAXCONV)
			return false;
		switch (conv) {
		case 's': {
			size_t n = lit_len(f);
			const char *p;

			if (!n) {
				/* last: the rest of the line */
				const char *q = e;

				if (*f)
					return false;	/* "%s%s" is not used in the tables */
				while (q > s && (q[-1] == ' ' || q[-1] == '\r'))
					q--;
				v[ci] = (struct tval){ .str = s, .len = (size_t)(q - s), .set = true };
				return true;
			}
			for (p = find_lit(s, e, f, n); p; p = find_lit(p + 1, e, f, n)) {
				v[ci] = (struct tval){ .str = s, .len = (size_t)(p - s), .set = true };
				if (match(f, p, e, t, ci + 1, v, how))
					return true;
			}
			return false;
		}
		case 'p':
			s = scan_ptr(s, e, &v[ci].num, how);
			break;
		case 'x':
		case 'X':
			hex = true;
			/* fall through */
		case 'u':
		case 'd':
		case 'i':
			if (!hex)
				s = scan_dec(s, e, &v[ci].num);
			else
				s = scan_hex(s, e, &v[ci].num);
			break;
		default:
			return false;
		}
		if (!s)
			return false;
		v[ci].set = true;
		v[ci].str = NULL;
		ci++;
	}
	/* nothing but blanks may follow (tracefs ends some formats with "\n") */
	while (s < e && (*s == ' ' || *s == '\r' || *s == '\n'))
		s++;
	return s == e;
}

/* ------------------------------------------------------------------------ */
/* Values -> event                                                            */

/* names from the log, in their escaped display form, as bind.c interns them */
static const char *intern(const struct gpulat__tfmt_ctx *c, const char *s, size_t n)
{
	return gpulat__strtab_intern_name(c->strs, s, n);
}

/* "0x%llx" of a pointer, interned: the label bind.c gives a const char * ring */
static const char *ptr_label(const struct gpulat__tfmt_ctx *c, uint64_t p)
{
	static const char hex[] = "0123456789abcdef";
	char buf[24], *q = buf + sizeof(buf);
	size_t n;

	do {
		*--q = hex[p & 15];
		p >>= 4;
	} while (p);
	*--q = 'x';
	*--q = '0';
	n = (size_t)(buf + sizeof(buf) - q);
	return intern(c, q, n);
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (hexval(s[i]) < 0)
			return false;
	return n > 0;
}

/*
 * A ring name printed with %s. Return the interned name; *is_ptr when it is
 * the label of a pointer the kernel or libtraceevent could not dereference.
 *  - libtraceevent (trace-cmd report) prints a `const char *` field as its
 *    value in hex without 0x (<= 5.18 drm_sched, <= 5.4.6 amdgpu ring_name);
 *    our plugin prints the same label bind.c makes, "0x...";
 *  - tracefs 5.12+ checks %s strings: one outside the record is printed as
 *    "(0x<ptr>:<string>)[UNSAFE-MEMORY]", or "(0x<ptr>)[UNSAFE-MEMORY]" when
 *    the read faulted (trace_check_vprintf()). The pointer is printed
 *    unhashed (%px), so the label equals bind.c's. GPULAT__TX_CUT is set;
 *  - "(fault)", "(efault)", "(null)": nothing usable; "?" and GPULAT__TX_CUT.
 */
static const char *parse_ring(const struct gpulat__tfmt_ctx *c, const char *s, size_t n,
			      bool *is_ptr, unsigned int *how)
{
	static const char unsafe[] = "[UNSAFE-MEMORY]";
	const char *e = s + n;
	uint64_t p;

	*is_ptr = false;
	if (n >= sizeof(unsafe) - 1 && !memcmp(e - (sizeof(unsafe) - 1), unsafe,
					       sizeof(unsafe) - 1)) {
		const char *q;

		*how |= GPULAT__TX_CUT;
		if (n > sizeof(unsafe) + 2 && s[0] == '(' && s[1] == '0' && s[2] == 'x') {
			q = scan_hex(s + 1, e, &p);
			if (q && (*q == ':' || *q == ')')) {
				*is_ptr = true;
				return ptr_label(c, p);
			}
		}
		return c->unknown;
	}
	if (n && s[0] == '(' && (starts(s, e, "(fault)") || starts(s, e, "(efault)") ||
				 starts(s, e, "(null)") || starts(s, e, "(nil)"))) {
		*how |= GPULAT__TX_CUT;
		return c->unknown;
	}
	if (n > 2 && s[0] == '0' && s[1] == 'x' && all_hex(s + 2, n - 2) && n <= 18) {
		scan_hex(s, e, &p);
		*is_ptr = true;
		return ptr_label(c, p);
	}
	/* a kernel address printed without 0x: 16 hex digits (x86_64, arm64...) */
	if (n == 16 && all_hex(s, n)) {
		scan_hex(s, e, &p);
		*is_ptr = true;
		return ptr_label(c, p);
	}
	return intern(c, s, n);
}

static int apply(const struct gpulat__tfmt_ctx *c, const struct tfmt *t, const struct tval *v,
		 struct gpulat_event *ev, unsigned int *how)
{
	const char *amd_ring = NULL;
	bool amd_ptr = false, is_ptr, i915 = false;
	uint64_t i915_dev = 0, i915_cls = 0, i915_inst = 0;
	unsigned int i;

	for (i = 0; i < MAXCONV; i++) {
		const struct tval *x = &v[i];

		if (!x->set)
			break;
		switch ((enum tag)t->tag[i]) {
		case T_SKIP:
		case T__COUNT:
			break;
		case T_RING:
			ev->ring = parse_ring(c, x->str, x->len, &is_ptr, how);
			if (!ev->ring)
				return -1;
			if (is_ptr)
				ev->flags |= GPULAT_EVF_RING_PTR;
			break;
		case T_AMD_RING:
			amd_ring = parse_ring(c, x->str, x->len, &amd_ptr, how);
			break;
		case T_DEV:
			ev->dev = intern(c, x->str, x->len);
			break;
		case T_DRIVER:
			ev->driver = intern(c, x->str, x->len);
			break;
		case T_TIMELINE:
			ev->timeline = intern(c, x->str, x->len);
			break;
		case T_ID:
			ev->id = x->num;
			ev->flags |= GPULAT_EVF_ID;
			break;
		case T_FENCE_PTR:
			ev->fence_ptr = x->num;
			ev->flags |= GPULAT_EVF_FENCE_PTR;
			break;
		case T_CTX:
			ev->ctx = x->num;
			ev->flags |= GPULAT_EVF_FENCE;
			break;
		case T_SEQNO:
			ev->seqno = x->num;
			break;
		case T_JOBCNT:
			ev->job_count = (uint32_t)x->num;
			ev->flags |= GPULAT_EVF_COUNTS;
			break;
		case T_HWCNT:
			ev->hw_job_count = (int32_t)x->num;
			ev->flags |= GPULAT_EVF_COUNTS;
			break;
		case T_CLIENT:
			ev->client_id = x->num;
			ev->flags |= GPULAT_EVF_CLIENT;
			break;
		case T_DEP_PTR:
			ev->dep_ptr = x->num;
			ev->flags |= GPULAT_EVF_DEP_PTR;
			break;
		case T_DEP_CTX:
			ev->dep_ctx = x->num;
			ev->flags |= GPULAT_EVF_DEP;
			break;
		case T_DEP_SEQNO:
			ev->dep_seqno = x->num;
			break;
		case T_IRQ:
			ev->irq = (int)x->num;
			break;
		case T_PREV_PID:
			ev->prev_pid = (int)x->num;
			break;
		case T_NEXT_PID:
			ev->next_pid = (int)x->num;
			break;
		case T_PREV_STATE:
			/* "R" / "R+" is TASK_RUNNING (0); the letters of the others */
			ev->prev_state = (x->len && x->str[0] == 'R') ? 0 : 1;
			break;
		case T_VALUE:
			ev->value = x->num;
			break;
		case T_CPUID:
			ev->irq = (int)x->num;
			break;
		case T_CRTC:
			ev->crtc = (int)x->num;
			break;
		case T_VBL_SEQ:
			ev->vbl_seq = (uint32_t)x->num;
			break;
		case T_VBL_TIME:
			ev->vbl_time = (int64_t)x->num;
			ev->flags |= GPULAT_EVF_VBL_TIME;
			break;
		case T_VBL_HIGH_PREC:
			if (x->len == 4 && !memcmp(x->str, "true", 4))
				ev->flags |= GPULAT_EVF_VBL_HIGH_PREC;
			break;
		case T_VBL_FILE:
			ev->vbl_file = x->num;
			ev->flags |= GPULAT_EVF_VBL_FILE;
			break;
		case T_I915_DEV:
			i915_dev = x->num;
			i915 = true;
			break;
		case T_I915_CLASS:
			i915_cls = x->num;
			break;
		case T_I915_INST:
			i915_inst = x->num;
			break;
		case T_GUC:
			ev->guc_id = (uint32_t)x->num;
			ev->flags |= GPULAT_EVF_GUC;
			break;
		case T_LRC:
			ev->lrc_seqno = (uint32_t)x->num;
			break;
		case T_DRM_MINOR: {
			char buf[32];

			gpulat__i915_dev(buf, sizeof(buf), x->num);
			ev->dev = intern(c, buf, strlen(buf));
			if (!ev->dev)
				return -1;
			break;
		}
		case T_TICKS:
			ev->ticks = x->num;
			ev->flags |= GPULAT_EVF_TICKS;
			break;
		case T_TICKS_END:
			ev->ticks_end = x->num;
			break;
		}
	}
	if (i915) {
		/* the names bind.c gives the same numbers */
		char buf[48];

		gpulat__i915_dev(buf, sizeof(buf), i915_dev);
		ev->dev = intern(c, buf, strlen(buf));
		gpulat__i915_engine(buf, sizeof(buf), i915_cls, i915_inst);
		ev->ring = intern(c, buf, strlen(buf));
		if (!ev->dev || !ev->ring)
			return -1;
	}
	if (t->fence32 && (ev->flags & GPULAT_EVF_FENCE))
		ev->flags |= GPULAT_EVF_FENCE32;
	if (ev->kind == GPULAT_EV_AMD_CS || ev->kind == GPULAT_EV_AMD_RUN) {
		/* as bind.c: a `char *ring_name` (<= 5.4.6) cannot be read: the timeline */
		ev->ring = (!amd_ring || amd_ptr || amd_ring == c->unknown) ? ev->timeline
									     : amd_ring;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Our plugin's vocabulary: " key=value" items (plugins/plugin_gpu_sched.c)  */

struct kv {
	const char	*k;
	size_t		klen;
	const char	*v;
	size_t		vlen;
};

#define MAXKV	16

static unsigned int split_kv(const char *s, const char *e, struct kv *kv)
{
	unsigned int n = 0;

	while (s < e && n < MAXKV) {
		const char *w, *eq;

		while (s < e && *s == ' ')
			s++;
		w = s;
		/* "(...)": the plugin's comment to the reader, the end of the items */
		if (s < e && *s == '(')
			break;
		while (s < e && *s != ' ')
			s++;
		if (s == w)
			break;
		eq = memchr(w, '=', (size_t)(s - w));
		if (!eq)
			return 0;	/* not our vocabulary */
		kv[n++] = (struct kv){ w, (size_t)(eq - w), eq + 1, (size_t)(s - eq - 1) };
	}
	return n;
}

static const struct kv *kv_get(const struct kv *kv, unsigned int n, const char *k)
{
	size_t l = strlen(k);
	unsigned int i;

	for (i = 0; i < n; i++)
		if (kv[i].klen == l && !memcmp(kv[i].k, k, l))
			return &kv[i];
	return NULL;
}

static bool kv_num(const struct kv *x, uint64_t *v)
{
	return x && scan_dec(x->v, x->v + x->vlen, v) == x->v + x->vlen;
}

/* "ctx:seqno" */
static bool kv_fence(const struct kv *x, uint64_t *ctx, uint64_t *seqno)
{
	const char *e, *p;

	if (!x)
		return false;
	e = x->v + x->vlen;
	p = scan_dec(x->v, e, ctx);
	if (!p || p >= e || *p != ':')
		return false;
	return scan_dec(p + 1, e, seqno) == e;
}

static bool kv_hex(const struct kv *x, uint64_t *v)
{
	return x && x->vlen && scan_hex(x->v, x->v + x->vlen, v) == x->v + x->vlen;
}

/*
 * The plugin's fence handle "HHHH.N" (or "HHHH" before issue 16): the
 * handle with the generation above it, so that every job of the text has
 * its own value, as every job of the trace had its own pointer
 */
static bool kv_handle(const struct kv *x, uint64_t *v)
{
	const char *dot, *e;
	uint64_t gen;

	if (!x || !x->vlen)
		return false;
	e = x->v + x->vlen;
	dot = memchr(x->v, '.', x->vlen);
	if (!dot)
		return kv_hex(x, v);
	if (dot == x->v || scan_hex(x->v, dot, v) != dot || scan_dec(dot + 1, e, &gen) != e ||
	    gen > 0xffffffffULL)
		return false;
	*v |= gen << 32;
	return true;
}

/* "ring#id" (pointer eras' job identity) */
static bool kv_job(const struct kv *x, uint64_t *id)
{
	const char *h;

	if (!x)
		return false;
	h = memrchr(x->v, '#', x->vlen);
	return h && scan_dec(h + 1, x->v + x->vlen, id) == x->v + x->vlen;
}

static int plugin_parse(const struct gpulat__tfmt_ctx *c, enum plug p, const char *s,
			const char *e, struct gpulat_event *ev, unsigned int *how)
{
	struct kv kv[MAXKV];
	unsigned int n = split_kv(s, e, kv);
	const struct kv *x;
	bool is_ptr;
	uint64_t v;

	if (!n)
		return -1;
	if ((x = kv_get(kv, n, "dev")))
		ev->dev = intern(c, x->v, x->vlen);
	/*
	 * <= 5.18 the plugin prints the ring's name (from the fence timelines)
	 * and, with -O gpu_sched:raw=1, the address the trace holds as
	 * ring_ptr=: read that, so the text reads like the trace itself.
	 */
	if ((x = kv_get(kv, n, "ring_ptr")) || ((x = kv_get(kv, n, "ring")) &&
						 !(x->vlen == 1 && x->v[0] == '!'))) {
		ev->ring = parse_ring(c, x->v, x->vlen, &is_ptr, how);
		if (is_ptr)
			ev->flags |= GPULAT_EVF_RING_PTR;
	}
	switch (p) {
	case P_SCHED_JOB:
	case P_DONE:
		x = kv_get(kv, n, "fence");
		if (kv_fence(x, &ev->ctx, &ev->seqno)) {
			ev->flags |= GPULAT_EVF_FENCE;
		} else if (kv_handle(x, &ev->fence_ptr)) {
			/*
			 * a 16-bit handle of the pointer and its generation
			 * (gpulat_fence_handle()), one value per job; fence_ptr=
			 * (-O raw) is exact
			 */
			ev->flags |= GPULAT_EVF_FENCE_PTR;
			if (kv_hex(kv_get(kv, n, "fence_ptr"), &v))
				ev->fence_ptr = v;
		} else {
			return -1;
		}
		if (kv_job(kv_get(kv, n, "job"), &ev->id) && p == P_SCHED_JOB)
			ev->flags |= GPULAT_EVF_ID;
		if (p == P_DONE) {
			ev->ring = NULL;	/* done events carry no ring (bind.c) */
			ev->flags &= ~(GPULAT_EVF_RING_PTR | GPULAT_EVF_ID);
			if (!(ev->flags & GPULAT_EVF_FENCE))
				ev->dev = c->empty;
			break;
		}
		if (!ev->ring)
			return -1;
		if (kv_num(kv_get(kv, n, "depth"), &v)) {
			ev->job_count = (uint32_t)v;
			ev->flags |= GPULAT_EVF_COUNTS;
		}
		if (kv_num(kv_get(kv, n, "hw"), &v)) {
			ev->hw_job_count = (int32_t)v;
			ev->flags |= GPULAT_EVF_COUNTS;
		}
		if (kv_num(kv_get(kv, n, "client"), &ev->client_id))
			ev->flags |= GPULAT_EVF_CLIENT;
		break;
	case P_DEP:
		if (kv_fence(kv_get(kv, n, "fence"), &ev->ctx, &ev->seqno))
			ev->flags |= GPULAT_EVF_FENCE;
		else if (kv_job(kv_get(kv, n, "job"), &ev->id))
			ev->flags |= GPULAT_EVF_ID;
		else
			return -1;
		if (kv_fence(kv_get(kv, n, "dep"), &ev->dep_ctx, &ev->dep_seqno) ||
		    kv_fence(kv_get(kv, n, "blocked_on"), &ev->dep_ctx, &ev->dep_seqno))
			ev->flags |= GPULAT_EVF_DEP;
		if (kv_hex(kv_get(kv, n, "dep_ptr"), &ev->dep_ptr))
			ev->flags |= GPULAT_EVF_DEP_PTR;
		if (!(ev->flags & (GPULAT_EVF_DEP | GPULAT_EVF_DEP_PTR)))
			return -1;
		break;
	case P_FENCE:
		if (!(x = kv_get(kv, n, "driver")))
			return -1;
		ev->driver = intern(c, x->v, x->vlen);
		if (!(x = kv_get(kv, n, "timeline")))
			return -1;
		ev->timeline = intern(c, x->v, x->vlen);
		if (!kv_fence(kv_get(kv, n, "fence"), &ev->ctx, &ev->seqno))
			return -1;
		ev->flags |= GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32;
		break;
	case P_AMD_JOB:
		/* finished= when the job also has an id (<= 6.16: u32), else fence= (6.17+) */
		if (kv_fence(kv_get(kv, n, "finished"), &ev->ctx, &ev->seqno))
			ev->flags |= GPULAT_EVF_FENCE | GPULAT_EVF_FENCE32;
		else if (kv_fence(kv_get(kv, n, "fence"), &ev->ctx, &ev->seqno))
			ev->flags |= GPULAT_EVF_FENCE;
		else
			return -1;
		if (kv_job(kv_get(kv, n, "job"), &ev->id))
			ev->flags |= GPULAT_EVF_ID;
		if ((x = kv_get(kv, n, "timeline")))
			ev->timeline = intern(c, x->v, x->vlen);
		else
			ev->timeline = ev->ring;
		if (!ev->ring)
			ev->ring = ev->timeline;
		if (!ev->ring)
			return -1;
		break;
	case P_I915:
		/* gs_print_i915(): dev= ring= fence=ctx:seqno [completed=] [flags=] */
		if (!ev->dev || !ev->ring || !kv_fence(kv_get(kv, n, "fence"), &ev->ctx, &ev->seqno))
			return -1;
		ev->flags |= GPULAT_EVF_FENCE;
		if (kv_num(kv_get(kv, n, "completed"), &v))
			ev->value = v;
		else if (kv_hex(kv_get(kv, n, "flags"), &v))
			ev->value = v;
		break;
	case P_XE: {
		/*
		 * gs_print_xe(): dev= queue=guc<id> then, for jobs, seqno= lrc_seqno=
		 * hw_fence=<handle> [HANG=...|error=]; for hardware fences
		 * fence=ctx:seqno hw_fence=<handle>. The handle stands for the
		 * pointer: one pointer, one handle within a trace.
		 */
		if ((x = kv_get(kv, n, "queue")) && x->vlen > 3 && !memcmp(x->v, "guc", 3) &&
		    scan_dec(x->v + 3, x->v + x->vlen, &v) == x->v + x->vlen) {
			ev->guc_id = (uint32_t)v;
			ev->flags |= GPULAT_EVF_GUC;
		}
		if (ev->kind == GPULAT_EV_XE_EXEC_QUEUE)
			break;
		if (!kv_hex(kv_get(kv, n, "hw_fence"), &ev->fence_ptr))
			return -1;
		ev->flags |= GPULAT_EVF_FENCE_PTR;
		if (kv_fence(kv_get(kv, n, "fence"), &ev->ctx, &ev->seqno)) {
			ev->flags |= GPULAT_EVF_FENCE;
			break;
		}
		if (!kv_num(kv_get(kv, n, "seqno"), &ev->seqno))
			return -1;
		if (kv_num(kv_get(kv, n, "lrc_seqno"), &v))
			ev->lrc_seqno = (uint32_t)v;
		break;
	}
	case P_NONE:
		return -1;
	}
	*how |= GPULAT__TX_PLUGIN;
	return 0;
}

/* ------------------------------------------------------------------------ */

int gpulat__tfmt_parse(const struct gpulat__tfmt_ctx *c, int fam, enum gpulat_kind kind,
		       const char *args, const char *end, struct gpulat_event *ev,
		       unsigned int *cache, unsigned int *how)
{
	const struct tfam *F;
	struct tval v[MAXCONV];
	unsigned int i, k;
	const char *dev = ev->dev;

	if (fam < 0 || (unsigned int)fam >= GPULAT_ARRAY_SIZE(fams))
		return -1;
	F = &fams[fam];
	(void)kind;
	for (k = 0; k < F->n; k++) {
		/* the format that matched last for this event first */
		i = (k + *cache) % F->n;
		memset(v, 0, sizeof(v));
		if (!match(F->f[i].fmt, args, end, &F->f[i], 0, v, how))
			continue;
		*cache = i;
		return apply(c, &F->f[i], v, ev, how);
	}
	if (F->plugin == P_NONE)
		return -1;
	if (plugin_parse(c, F->plugin, args, end, ev, how) < 0) {
		/* undo what a partial parse set */
		unsigned int keep = ev->flags & (GPULAT_EVF_HARDIRQ | GPULAT_EVF_SOFTIRQ);

		ev->flags = keep;
		ev->ring = NULL;
		ev->dev = dev;
		return -1;
	}
	return 0;
}
