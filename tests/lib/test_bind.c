// SPDX-License-Identifier: LGPL-2.1
/*
 * Binding tests against the real tracefs format files in data/formats:
 * hand-built records decoded through tep handles parsed from them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

#include "gpulat.h"

struct warns {
	int	n;
	char	last[256];
};

static void on_warn(const char *msg, void *data)
{
	struct warns *w = data;

	w->n++;
	snprintf(w->last, sizeof(w->last), "%s", msg);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, fp), (size_t)n);
	buf[n] = 0;
	fclose(fp);
	*len = n;
	return buf;
}

static void load(struct tep_handle *tep, const char *dir, const char *sys, const char *ev)
{
	char path[1024];
	size_t len = 0;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s/%s/%s/format", GST_FORMATS_DIR, dir, sys, ev);
	buf = slurp(path, &len);
	if (!buf)
		fail_msg("cannot read %s", path);
	assert_int_equal(tep_parse_event(tep, buf, len, sys), 0);
	free(buf);
}

static struct tep_handle *new_tep(void)
{
	struct tep_handle *tep = tep_alloc();

	assert_non_null(tep);
	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, 4096);
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	return tep;
}

/* record builder: fixed part then __data_loc strings */
struct rb {
	unsigned char	buf[256];
	int		fixed;
	int		len;
};

static void rb_init(struct rb *r, int id, int pid, int fixed)
{
	memset(r, 0, sizeof(*r));
	r->fixed = r->len = fixed;
	memcpy(r->buf, &(uint16_t){ (uint16_t)id }, 2);
	r->buf[2] = 0x09;		/* irqs off | hardirq */
	memcpy(r->buf + 4, &pid, 4);
}

static void rb_u32(struct rb *r, int off, uint32_t v)
{
	memcpy(r->buf + off, &v, 4);
}

static void rb_u64(struct rb *r, int off, uint64_t v)
{
	memcpy(r->buf + off, &v, 8);
}

static void rb_str(struct rb *r, int off, const char *s)
{
	uint32_t n = strlen(s) + 1;

	rb_u32(r, off, (n << 16) | (uint32_t)r->len);
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

static int decode(struct gpulat_binding *b, struct rb *r, uint64_t ts, int cpu,
		  struct gpulat_event *ev)
{
	struct tep_record rec;

	memset(&rec, 0, sizeof(rec));
	rec.ts = ts;
	rec.cpu = cpu;
	rec.data = r->buf;
	rec.size = r->len;
	return gpulat_binding_decode(b, &rec, ev);
}

static void test_617(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct warns w = { 0 };
	struct rb r;

	(void)state;
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_queue");
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_run");
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_done");
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_add_dep");
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_unschedulable");
	tep_register_comm(tep, "glxgears", 4242);
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	gpulat_binding_set_warn(b, on_warn, &w);
	assert_int_equal(w.n, 0);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_V617);
	assert_true(gpulat_binding_has(b, GPULAT_EV_UNSCHED));
	assert_false(gpulat_binding_has(b, GPULAT_EV_FENCE_SIGNALED));
	assert_int_equal(gpulat_binding_kind_of(b, 1133), GPULAT_EV_QUEUE);
	assert_int_equal(gpulat_binding_kind_of(b, 1), GPULAT_EV_NONE);

	rb_init(&r, 1133, 4242, 48);
	rb_str(&r, 8, "gfx_0.0.0");
	rb_u32(&r, 12, 3);
	rb_u32(&r, 16, (uint32_t)-1);
	rb_str(&r, 20, "0000:03:00.0");
	rb_u64(&r, 24, 1025);
	rb_u64(&r, 32, (1ULL << 32) + 7);
	rb_u64(&r, 40, 12);
	assert_int_equal(decode(b, &r, 1000, 2, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_QUEUE);
	assert_int_equal(ev.ts, 1000);
	assert_int_equal(ev.cpu, 2);
	assert_int_equal(ev.pid, 4242);
	assert_string_equal(ev.comm, "glxgears");
	assert_string_equal(ev.ring, "gfx_0.0.0");
	assert_string_equal(ev.dev, "0000:03:00.0");
	assert_int_equal(ev.ctx, 1025);
	assert_int_equal(ev.seqno, (1ULL << 32) + 7);
	assert_int_equal(ev.client_id, 12);
	assert_int_equal(ev.job_count, 3);
	assert_int_equal(ev.hw_job_count, -1);
	assert_true(ev.flags & GPULAT_EVF_FENCE);
	assert_true(ev.flags & GPULAT_EVF_CLIENT);
	assert_true(ev.flags & GPULAT_EVF_HARDIRQ);
	assert_false(ev.flags & GPULAT_EVF_FENCE32);
	/* interned: same pointer for the same name */
	assert_ptr_equal(ev.ring, gpulat_binding_intern(b, "gfx_0.0.0"));

	rb_init(&r, 1131, 0, 24);
	rb_u64(&r, 8, 1025);
	rb_u64(&r, 16, 7);
	assert_int_equal(decode(b, &r, 2000, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_DONE);
	assert_null(ev.ring);
	assert_string_equal(ev.dev, "");
	assert_int_equal(ev.seqno, 7);

	rb_init(&r, 1129, 0, 40);
	rb_u64(&r, 8, 1025);
	rb_u64(&r, 16, 8);
	rb_u64(&r, 24, 1024);
	rb_u64(&r, 32, 7);
	assert_int_equal(decode(b, &r, 2100, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_UNSCHED);
	assert_int_equal(ev.dep_ctx, 1024);
	assert_int_equal(ev.dep_seqno, 7);
	assert_true(ev.flags & GPULAT_EVF_DEP);

	/* not one of ours */
	rb_init(&r, 7, 0, 8);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 0);
	gpulat_binding_free(b);
	tep_free(tep);
}

static void test_legacy_61(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;

	(void)state;
	load(tep, "linux-6.1-debian", "gpu_scheduler", "drm_sched_job");
	load(tep, "linux-6.1-debian", "gpu_scheduler", "drm_run_job");
	load(tep, "linux-6.1-debian", "gpu_scheduler", "drm_sched_process_job");
	load(tep, "linux-6.1-debian", "gpu_scheduler", "drm_sched_job_wait_dep");
	load(tep, "linux-6.1-debian", "dma_fence", "dma_fence_signaled");
	load(tep, "linux-6.1-debian", "dma_fence", "dma_fence_init");
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_V519);
	assert_int_equal(gpulat_binding_problems(b), 0);

	rb_init(&r, 1343, 77, 48);
	rb_u64(&r, 8, 0xffff888100001000ULL);
	rb_u64(&r, 16, 0xffff888100002000ULL);
	rb_str(&r, 24, "sdma0");
	rb_u64(&r, 32, 99);
	rb_u32(&r, 40, 2);
	rb_u32(&r, 44, 1);
	assert_int_equal(decode(b, &r, 10, 1, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_RUN);
	assert_string_equal(ev.ring, "sdma0");
	assert_string_equal(ev.dev, "");
	assert_int_equal(ev.fence_ptr, 0xffff888100002000ULL);
	assert_int_equal(ev.id, 99);
	assert_int_equal(ev.hw_job_count, 1);
	assert_true(ev.flags & GPULAT_EVF_ID);
	assert_true(ev.flags & GPULAT_EVF_FENCE_PTR);
	assert_false(ev.flags & GPULAT_EVF_RING_PTR);

	rb_init(&r, 1341, 77, 48);
	rb_str(&r, 8, "gfx");
	rb_u64(&r, 16, 5);
	rb_u64(&r, 24, 0xffff888100003000ULL);
	rb_u64(&r, 32, 1040);
	rb_u32(&r, 40, 129);
	assert_int_equal(decode(b, &r, 11, 1, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_DEP);
	assert_string_equal(ev.ring, "gfx");
	assert_int_equal(ev.id, 5);
	assert_int_equal(ev.dep_ptr, 0xffff888100003000ULL);
	assert_int_equal(ev.dep_ctx, 1040);
	assert_int_equal(ev.dep_seqno, 129);

	rb_init(&r, tep_find_event_by_name(tep, "dma_fence", "dma_fence_signaled")->id, 0, 24);
	rb_str(&r, 8, "drm_sched");
	rb_str(&r, 12, "gfx");
	rb_u32(&r, 16, 1041);
	rb_u32(&r, 20, 4000000000u);
	assert_int_equal(decode(b, &r, 12, 3, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_FENCE_SIGNALED);
	assert_string_equal(ev.driver, "drm_sched");
	assert_string_equal(ev.timeline, "gfx");
	assert_int_equal(ev.seqno, 4000000000u);
	assert_true(ev.flags & GPULAT_EVF_FENCE32);
	gpulat_binding_free(b);
	tep_free(tep);
}

/* a __data_loc pointing outside the record must not be read */
static void test_data_loc_out_of_record(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct warns w = { 0 };
	struct rb r;

	(void)state;
	load(tep, "linux-6.1-debian", "gpu_scheduler", "drm_run_job");
	b = gpulat_binding_new(tep);
	gpulat_binding_set_warn(b, on_warn, &w);
	rb_init(&r, 1343, 1, 48);
	rb_str(&r, 24, "gfx");
	rb_u32(&r, 24, (200u << 16) | 48);	/* 200 bytes from 48: beyond the record */
	assert_int_equal(decode(b, &r, 1, 0, &ev), -1);
	rb_u32(&r, 24, (4u << 16) | 250);	/* offset beyond the record */
	assert_int_equal(decode(b, &r, 1, 0, &ev), -1);
	assert_int_equal(w.n, 1);		/* warned once per event */
	assert_non_null(strstr(w.last, "drm_run_job"));
	/* a short record: fixed fields cut off */
	rb_init(&r, 1343, 1, 48);
	rb_str(&r, 24, "gfx");
	r.len = 36;
	assert_int_equal(decode(b, &r, 1, 0, &ev), -1);
	/* and the record is fine again */
	rb_init(&r, 1343, 1, 48);
	rb_str(&r, 24, "gfx");
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_string_equal(ev.ring, "gfx");
	gpulat_binding_free(b);
	tep_free(tep);
}

/* unknown layout: a required field missing -> not bound, one warning naming it */
static void test_missing_field(void **state)
{
	static const char fmt[] =
		"name: drm_sched_job_queue\n"
		"ID: 900\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc char[] dev;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:u64 fence_context;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\n"
		"print fmt: \"dev=%s\", __get_str(dev)\n";
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct warns w = { 0 };
	struct rb r;

	(void)state;
	assert_int_equal(tep_parse_event(tep, fmt, sizeof(fmt) - 1, "gpu_scheduler"), 0);
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_done");
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	gpulat_binding_set_warn(b, on_warn, &w);	/* replays the bind-time warning */
	assert_int_equal(w.n, 1);
	assert_non_null(strstr(w.last, "drm_sched_job_queue"));
	assert_non_null(strstr(w.last, "fence_seqno"));
	assert_int_equal(gpulat_binding_problems(b), 1);
	assert_false(gpulat_binding_has(b, GPULAT_EV_QUEUE));
	assert_true(gpulat_binding_has(b, GPULAT_EV_DONE));
	rb_init(&r, 900, 1, 24);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 0);
	gpulat_binding_free(b);
	tep_free(tep);
}

/* 5.7-5.18: `const char *name` -> "0x%llx" label, era V57 */
static void test_name_pointer(void **state)
{
	static const char fmt[] =
		"name: drm_run_job\n"
		"ID: 901\n"
		"format:\n"
		"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
		"\n"
		"\tfield:struct drm_sched_entity * entity;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:struct dma_fence * fence;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:const char * name;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:uint64_t id;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 job_count;\toffset:40;\tsize:4;\tsigned:0;\n"
		"\tfield:int hw_job_count;\toffset:44;\tsize:4;\tsigned:1;\n"
		"\n"
		"print fmt: \"id=%llu, ring=%s\", REC->id, REC->name\n";
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;

	(void)state;
	assert_int_equal(tep_parse_event(tep, fmt, sizeof(fmt) - 1, "gpu_scheduler"), 0);
	b = gpulat_binding_new(tep);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_V57);
	rb_init(&r, 901, 1, 48);
	rb_u64(&r, 16, 0xabc0);
	rb_u64(&r, 24, 0xffffffffc0a81234ULL);
	rb_u64(&r, 32, 3);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_string_equal(ev.ring, "0xffffffffc0a81234");
	assert_true(ev.flags & GPULAT_EVF_RING_PTR);
	assert_int_equal(ev.id, 3);
	gpulat_binding_free(b);
	tep_free(tep);
}

static void test_context_events(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;
	int id;

	(void)state;
	load(tep, "linux-6.18-host", "sched", "sched_switch");
	load(tep, "linux-6.18-host", "irq", "irq_handler_entry");
	load(tep, "linux-6.18-host", "power", "cpu_frequency");
	load(tep, "linux-6.18-host", "dma_fence", "dma_fence_wait_start");
	b = gpulat_binding_new(tep);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_NONE);
	id = tep_find_event_by_name(tep, "sched", "sched_switch")->id;
	rb_init(&r, id, 10, 64);
	rb_u32(&r, 24, 10);
	rb_u64(&r, 32, 1);
	rb_u32(&r, 56, 20);
	assert_int_equal(decode(b, &r, 5, 1, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_SCHED_SWITCH);
	assert_int_equal(ev.prev_pid, 10);
	assert_int_equal(ev.next_pid, 20);
	assert_int_equal(ev.prev_state, 1);
	/* off: context events are not ours; on again: decoded again */
	gpulat_binding_set_context(b, false);
	assert_int_equal(decode(b, &r, 5, 1, &ev), 0);
	gpulat_binding_set_context(b, false);
	assert_int_equal(decode(b, &r, 5, 1, &ev), 0);
	gpulat_binding_set_context(b, true);
	assert_int_equal(decode(b, &r, 5, 1, &ev), 1);
	assert_int_equal(ev.next_pid, 20);
	id = tep_find_event_by_name(tep, "power", "cpu_frequency")->id;
	rb_init(&r, id, 0, 16);
	rb_u32(&r, 8, 2400000);
	rb_u32(&r, 12, 3);
	assert_int_equal(decode(b, &r, 6, 3, &ev), 1);
	assert_int_equal(ev.value, 2400000);
	assert_int_equal(ev.irq, 3);
	id = tep_find_event_by_name(tep, "irq", "irq_handler_entry")->id;
	rb_init(&r, id, 0, 16);
	rb_u32(&r, 8, 45);
	rb_str(&r, 12, "amdgpu");
	assert_int_equal(decode(b, &r, 7, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_IRQ_ENTRY);
	assert_int_equal(ev.irq, 45);
	gpulat_binding_free(b);
	tep_free(tep);
}

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/*
 * drm vblank events (the real Debian 6.1 formats): decoded by
 * field name, still decoded with the context events off, and the pre-4.15
 * layout without `time` falls back to no GPULAT_EVF_VBL_TIME.
 */
static void test_vblank_events(void **state)
{
	static const char old_fmt[] =
		"name: drm_vblank_event\nID: 1610\nformat:\n" COMMON_FIELDS
		"\tfield:int crtc;\toffset:8;\tsize:4;\tsigned:1;\n"
		"\tfield:unsigned int seq;\toffset:12;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"crtc=%d, seq=%u\", REC->crtc, REC->seq\n";
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct warns w = { 0 };
	struct rb r;

	(void)state;
	load(tep, "linux-6.1-debian", "drm", "drm_vblank_event");
	load(tep, "linux-6.1-debian", "drm", "drm_vblank_event_queued");
	load(tep, "linux-6.1-debian", "drm", "drm_vblank_event_delivered");
	tep_register_comm(tep, "kmscube", 777);
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	gpulat_binding_set_warn(b, on_warn, &w);
	assert_int_equal(w.n, 0);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_NONE);
	assert_true(gpulat_binding_has(b, GPULAT_EV_VBLANK));
	assert_true(gpulat_binding_has(b, GPULAT_EV_VBLANK_QUEUED));
	assert_true(gpulat_binding_has(b, GPULAT_EV_VBLANK_DELIVERED));
	assert_string_equal(gpulat_kind_name(GPULAT_EV_VBLANK), "drm_vblank_event");
	gpulat_binding_set_context(b, false);

	rb_init(&r, 1340, 0, 25);
	rb_u32(&r, 8, 1);
	rb_u32(&r, 12, 0xfffffffeu);
	rb_u64(&r, 16, 5000123456ULL);
	r.buf[24] = 1;
	assert_int_equal(decode(b, &r, 5000400000ULL, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_VBLANK);
	assert_int_equal(ev.crtc, 1);
	assert_int_equal(ev.vbl_seq, 0xfffffffeu);
	assert_int_equal(ev.vbl_time, 5000123456LL);
	assert_int_equal(ev.ts, 5000400000ULL);
	assert_true(ev.flags & GPULAT_EVF_VBL_TIME);
	assert_true(ev.flags & GPULAT_EVF_VBL_HIGH_PREC);
	assert_true(ev.flags & GPULAT_EVF_HARDIRQ);
	r.buf[24] = 0;
	assert_int_equal(decode(b, &r, 5000400000ULL, 0, &ev), 1);
	assert_false(ev.flags & GPULAT_EVF_VBL_HIGH_PREC);
	/* short record: damaged, not a wrong number */
	r.len = 20;
	assert_int_equal(decode(b, &r, 1, 0, &ev), -1);
	assert_int_equal(w.n, 1);

	rb_init(&r, 1339, 777, 24);
	rb_u64(&r, 8, 0xffff888012345600ULL);
	rb_u32(&r, 16, 0);
	rb_u32(&r, 20, 42);
	assert_int_equal(decode(b, &r, 6000, 1, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_VBLANK_QUEUED);
	assert_int_equal(ev.vbl_file, 0xffff888012345600ULL);
	assert_int_equal(ev.crtc, 0);
	assert_int_equal(ev.vbl_seq, 42);
	assert_int_equal(ev.pid, 777);
	assert_string_equal(ev.comm, "kmscube");
	assert_true(ev.flags & GPULAT_EVF_VBL_FILE);
	assert_false(ev.flags & GPULAT_EVF_VBL_TIME);
	rb_init(&r, 1338, 0, 24);
	rb_u64(&r, 8, 0xffff888012345600ULL);
	rb_u32(&r, 16, 0);
	rb_u32(&r, 20, 43);
	assert_int_equal(decode(b, &r, 7000, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_VBLANK_DELIVERED);
	assert_int_equal(ev.vbl_seq, 43);
	gpulat_binding_free(b);
	tep_free(tep);

	/* 4.14 and older: no time, no high_prec */
	tep = new_tep();
	assert_int_equal(tep_parse_event(tep, old_fmt, sizeof(old_fmt) - 1, "drm"), 0);
	b = gpulat_binding_new(tep);
	assert_true(gpulat_binding_has(b, GPULAT_EV_VBLANK));
	rb_init(&r, 1610, 0, 16);
	rb_u32(&r, 8, 0);
	rb_u32(&r, 12, 9);
	assert_int_equal(decode(b, &r, 100, 0, &ev), 1);
	assert_int_equal(ev.vbl_seq, 9);
	assert_false(ev.flags & GPULAT_EVF_VBL_TIME);
	gpulat_binding_free(b);
	tep_free(tep);
}

/* amdgpu_sched_run_job in its three layouts (kernel-events.md 3.3) */
static void test_amdgpu_layouts(void **state)
{
	static const char f55[] =
		"name: amdgpu_sched_run_job\nID: 950\nformat:\n" COMMON_FIELDS
		"\tfield:uint64_t sched_job_id;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] timeline;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int context;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int seqno;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc char[] ring;\toffset:28;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 num_ibs;\toffset:32;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"sched_job=%llu\", REC->sched_job_id\n";
	static const char f617[] =
		"name: amdgpu_sched_run_job\nID: 951\nformat:\n" COMMON_FIELDS
		"\tfield:__data_loc char[] timeline;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u64 context;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 seqno;\toffset:24;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] ring;\toffset:32;\tsize:4;\tsigned:0;\n"
		"\tfield:u32 num_ibs;\toffset:36;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"fence=%llu:%llu\", REC->context, REC->seqno\n";
	static const char f412[] =
		"name: amdgpu_sched_run_job\nID: 952\nformat:\n" COMMON_FIELDS
		"\tfield:uint64_t sched_job_id;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:__data_loc char[] timeline;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int context;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int seqno;\toffset:24;\tsize:4;\tsigned:0;\n"
		"\tfield:char * ring_name;\toffset:32;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 num_ibs;\toffset:40;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"sched_job=%llu\", REC->sched_job_id\n";
	const char *fmts[3] = { f55, f617, f412 };
	size_t lens[3] = { sizeof(f55) - 1, sizeof(f617) - 1, sizeof(f412) - 1 };
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct tep_handle *tep;
	struct rb r;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		tep = new_tep();
		assert_int_equal(tep_parse_event(tep, fmts[i], lens[i], "amdgpu"), 0);
		tep_register_comm(tep, "vkcube", 31);
		b = gpulat_binding_new(tep);
		assert_int_equal(gpulat_binding_problems(b), 0);
		assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_AMDGPU);
		if (i == 0) {
			rb_init(&r, 950, 31, 36);
			rb_u64(&r, 8, 17);
			rb_str(&r, 16, "gfx_0.0.0");
			rb_u32(&r, 20, 1040);
			rb_u32(&r, 24, 9);
			rb_str(&r, 28, "gfx_0.0.0");
		} else if (i == 1) {
			rb_init(&r, 951, 31, 40);
			rb_str(&r, 8, "gfx_0.0.0");
			rb_u64(&r, 16, 1040);
			rb_u64(&r, 24, 9);
			rb_str(&r, 32, "gfx_0.0.0");
		} else {
			rb_init(&r, 952, 31, 48);
			rb_u64(&r, 8, 17);
			rb_str(&r, 16, "gfx_0.0.0");
			rb_u32(&r, 20, 1040);
			rb_u32(&r, 24, 9);
			rb_u64(&r, 32, 0xffff94d01c207bf0ULL);
		}
		assert_int_equal(decode(b, &r, 5, 0, &ev), 1);
		assert_int_equal(ev.kind, GPULAT_EV_AMD_RUN);
		assert_string_equal(ev.timeline, "gfx_0.0.0");
		assert_string_equal(ev.ring, "gfx_0.0.0");	/* never the pointer */
		assert_int_equal(ev.ctx, 1040);
		assert_int_equal(ev.seqno, 9);
		assert_int_equal(!!(ev.flags & GPULAT_EVF_FENCE32), i != 1);
		assert_int_equal(!!(ev.flags & GPULAT_EVF_ID), i != 1);
		if (i != 1)
			assert_int_equal(ev.id, 17);
		gpulat_binding_free(b);
		tep_free(tep);
	}
}

/* the same string field through many values: interned exactly as without a cache */
static void test_string_cache(void **state)
{
	static const char *const names[] = { "gfx", "comp", "sdma0", "sdma1", "vcn", "gfx1",
					     "gf", "", "gfx", "drm_sched", "drm_schee", "drm_sche",
					     "x_drm_sched", "timeline.with-a-long-name.0",
					     "timeline.with-a-long-name.1", "timeline.with-b-long-name.0",
					     "comp_1.2.3", "comp_1.2", "a", "b", "ab", "abc", "abd",
					     "abcdefg", "abcdefh", "bbcdefg", "abcdefgh", "abcdefgi",
					     "0000:03:00.0", "0000:03:00.1" };
	const int nnames = (int)(sizeof(names) / sizeof(names[0]));
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;
	int round, i;

	(void)state;
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_queue");
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	for (round = 0; round < 4; round++) {
		for (i = 0; i < nnames; i++) {
			/* round 2 and 3: backwards, and pairs that differ in one byte in turn */
			int k = round == 2 ? nnames - 1 - i : round == 3 ? (i % 2 ? i - 1 : i + 1) % nnames : i;

			rb_init(&r, 1133, 1, 48);
			rb_str(&r, 8, names[k]);
			rb_str(&r, 20, names[(k + round) % nnames]);
			rb_u64(&r, 24, 1);
			rb_u64(&r, 32, 2);
			assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
			assert_ptr_equal(ev.ring, gpulat_binding_intern(b, names[k]));
			assert_ptr_equal(ev.dev, gpulat_binding_intern(b, names[(k + round) % nnames]));
		}
	}
	/* no NUL inside the __data_loc: the bytes themselves */
	rb_init(&r, 1133, 1, 48);
	rb_str(&r, 8, "gfx");
	rb_u32(&r, 8, (3u << 16) | 48);
	rb_str(&r, 20, "d");
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_ptr_equal(ev.ring, gpulat_binding_intern(b, "gfx"));
	/* bytes after the NUL do not count */
	rb_init(&r, 1133, 1, 48);
	memcpy(r.buf + 48, "gfx\0junk", 9);
	rb_u32(&r, 8, (9u << 16) | 48);
	r.len = 57;
	rb_str(&r, 20, "d");
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_ptr_equal(ev.ring, gpulat_binding_intern(b, "gfx"));
	/* a prefix of a cached name, without NUL: its own string */
	rb_init(&r, 1133, 1, 48);
	rb_str(&r, 8, "gfx");
	rb_u32(&r, 8, (2u << 16) | 48);
	rb_str(&r, 20, "d");
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_ptr_equal(ev.ring, gpulat_binding_intern(b, "gf"));
	/* longer than the cached one */
	rb_init(&r, 1133, 1, 48);
	rb_str(&r, 8, "gfx12");
	rb_str(&r, 20, "d");
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_ptr_equal(ev.ring, gpulat_binding_intern(b, "gfx12"));
	gpulat_binding_free(b);
	tep_free(tep);
}

static void be_u16(struct rb *r, int off, uint16_t v)
{
	v = __builtin_bswap16(v);
	memcpy(r->buf + off, &v, 2);
}

static void be_u32(struct rb *r, int off, uint32_t v)
{
	v = __builtin_bswap32(v);
	memcpy(r->buf + off, &v, 4);
}

static void be_u64(struct rb *r, int off, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(r->buf + off, &v, 8);
}

static void be_str(struct rb *r, int off, const char *s)
{
	uint32_t n = strlen(s) + 1;

	be_u32(r, off, (n << 16) | (uint32_t)r->len);
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

/* a big-endian trace read on a little-endian host: every number swapped */
static void test_big_endian(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;

	(void)state;
	tep_set_file_bigendian(tep, TEP_BIG_ENDIAN);
	load(tep, "linux-6.17", "gpu_scheduler", "drm_sched_job_queue");
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	memset(&r, 0, sizeof(r));
	r.fixed = r.len = 48;
	be_u16(&r, 0, 1133);
	r.buf[2] = 0x10;		/* softirq */
	be_u32(&r, 4, 4242);
	be_str(&r, 8, "gfx");
	be_u32(&r, 12, 3);
	be_u32(&r, 16, (uint32_t)-2);
	be_str(&r, 20, "0000:03:00.0");
	be_u64(&r, 24, 1025);
	be_u64(&r, 32, (1ULL << 32) + 7);
	be_u64(&r, 40, 12);
	assert_int_equal(decode(b, &r, 1000, 2, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_QUEUE);
	assert_int_equal(ev.pid, 4242);
	assert_true(ev.flags & GPULAT_EVF_SOFTIRQ);
	assert_string_equal(ev.ring, "gfx");
	assert_string_equal(ev.dev, "0000:03:00.0");
	assert_int_equal(ev.job_count, 3);
	assert_int_equal(ev.hw_job_count, -2);
	assert_int_equal(ev.ctx, 1025);
	assert_int_equal(ev.seqno, (1ULL << 32) + 7);
	assert_int_equal(ev.client_id, 12);
	/* the id in host order is not ours */
	memcpy(r.buf, &(uint16_t){ 1133 }, 2);
	assert_int_equal(decode(b, &r, 1000, 2, &ev), 0);
	gpulat_binding_free(b);
	tep_free(tep);
}

/* a 4-byte common_type and an id beyond the direct table: still found */
static void test_large_ids(void **state)
{
#define WIDE_COMMON \
	"\tfield:unsigned int common_type;\toffset:0;\tsize:4;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:4;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:5;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	static const char done[] =
		"name: drm_sched_job_done\nID: 70000\nformat:\n" WIDE_COMMON
		"\tfield:u64 fence_context;\toffset:16;\tsize:8;\tsigned:0;\n"
		"\tfield:u64 fence_seqno;\toffset:24;\tsize:8;\tsigned:0;\n\n"
		"print fmt: \"fence=%llu:%llu\", REC->fence_context, REC->fence_seqno\n";
	static const char sig[] =
		"name: dma_fence_signaled\nID: 5\nformat:\n" WIDE_COMMON
		"\tfield:__data_loc char[] driver;\toffset:12;\tsize:4;\tsigned:0;\n"
		"\tfield:__data_loc char[] timeline;\toffset:16;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int context;\toffset:20;\tsize:4;\tsigned:0;\n"
		"\tfield:unsigned int seqno;\toffset:24;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"%u:%u\", REC->context, REC->seqno\n";
#undef WIDE_COMMON
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;

	(void)state;
	assert_int_equal(tep_parse_event(tep, done, sizeof(done) - 1, "gpu_scheduler"), 0);
	assert_int_equal(tep_parse_event(tep, sig, sizeof(sig) - 1, "dma_fence"), 0);
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	assert_int_equal(gpulat_binding_problems(b), 0);
	memset(&r, 0, sizeof(r));
	r.fixed = r.len = 32;
	rb_u32(&r, 0, 70000);
	rb_u64(&r, 16, 1025);
	rb_u64(&r, 24, 9);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_DONE);
	assert_int_equal(ev.ctx, 1025);
	assert_int_equal(ev.seqno, 9);
	rb_u32(&r, 0, 70001);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 0);
	rb_u32(&r, 0, 6);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 0);
	r.len = 28;
	rb_u32(&r, 0, 5);
	rb_str(&r, 12, "drm_sched");
	rb_str(&r, 16, "gfx");
	rb_u32(&r, 20, 1041);
	rb_u32(&r, 24, 3);
	assert_int_equal(decode(b, &r, 1, 0, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_FENCE_SIGNALED);
	assert_string_equal(ev.timeline, "gfx");
	assert_int_equal(ev.ctx, 1041);
	/* a record too short for its 4-byte type */
	r.len = 3;
	assert_int_equal(decode(b, &r, 1, 0, &ev), 0);
	gpulat_binding_free(b);
	tep_free(tep);
}

/* random records of every bound event: never read outside rec->size (ASan job) */
static void test_fuzz(void **state)
{
	static const char *const ev617[] = { "drm_sched_job_queue", "drm_sched_job_run",
		"drm_sched_job_done", "drm_sched_job_add_dep", "drm_sched_job_unschedulable" };
	static const char *const ev61[] = { "drm_sched_job", "drm_run_job",
		"drm_sched_process_job", "drm_sched_job_wait_dep" };
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct tep_record rec;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int ids[16], nids = 0, i, k;
	unsigned char *buf;

	(void)state;
	for (i = 0; i < 5; i++) {
		load(tep, "linux-6.17", "gpu_scheduler", ev617[i]);
		ids[nids++] = tep_find_event_by_name(tep, "gpu_scheduler", ev617[i])->id;
	}
	for (i = 0; i < 4; i++) {
		load(tep, "linux-6.1-debian", "gpu_scheduler", ev61[i]);
		ids[nids++] = tep_find_event_by_name(tep, "gpu_scheduler", ev61[i])->id;
	}
	load(tep, "linux-6.1-debian", "dma_fence", "dma_fence_signaled");
	ids[nids++] = tep_find_event_by_name(tep, "dma_fence", "dma_fence_signaled")->id;
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	for (i = 0; i < 20000; i++) {
		int size;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size = 2 + (int)(x % 96);
		buf = malloc(size);	/* exact size: ASan sees any overread */
		assert_non_null(buf);
		for (k = 0; k < size; k++)
			buf[k] = (unsigned char)(x >> (k % 56)) ^ (unsigned char)k;
		k = ids[(x >> 20) % nids];
		buf[0] = k & 0xff;
		buf[1] = (k >> 8) & 0xff;
		memset(&rec, 0, sizeof(rec));
		rec.data = buf;
		rec.size = size;
		k = gpulat_binding_decode(b, &rec, &ev);
		assert_true(k >= -1 && k <= 1);
		free(buf);
	}
	gpulat_binding_free(b);
	tep_free(tep);
}


/* the real i915 and xe formats of Debian's 6.1 / 6.12 kernels, by field name */
static void test_i915_xe_real(void **state)
{
	struct tep_handle *tep = new_tep();
	struct gpulat_binding *b;
	struct gpulat_event ev;
	struct rb r;

	(void)state;
	load(tep, "linux-6.1-debian", "i915", "i915_request_add");
	load(tep, "linux-6.1-debian", "i915", "i915_request_retire");
	load(tep, "linux-6.1-debian", "i915", "i915_request_wait_begin");
	load(tep, "linux-6.12-debian", "xe", "xe_sched_job_timedout");
	load(tep, "linux-6.12-debian", "xe", "xe_hw_fence_signal");
	load(tep, "linux-6.12-debian", "xe", "xe_exec_queue_reset");
	b = gpulat_binding_new(tep);
	assert_non_null(b);
	assert_int_equal(gpulat_binding_problems(b), 0);
	assert_int_equal(gpulat_binding_era(b), GPULAT_ERA_I915);
	assert_true(gpulat_binding_has(b, GPULAT_EV_I915_ADD));
	assert_true(gpulat_binding_has(b, GPULAT_EV_XE_JOB_TIMEDOUT));

	/* i915_request_add (ID 1407): dev 1, engine 2:1 (vcs1), ctx, seqno */
	rb_init(&r, 1407, 55, 36);
	rb_u32(&r, 8, 1);
	rb_u64(&r, 16, 0x123456789ULL);
	rb_u32(&r, 24, 2 | (1u << 16));
	rb_u32(&r, 28, 4242);
	assert_int_equal(decode(b, &r, 10, 1, &ev), 1);
	assert_int_equal(ev.kind, GPULAT_EV_I915_ADD);
	assert_string_equal(ev.dev, "card1");
	assert_string_equal(ev.ring, "vcs1");
	assert_int_equal(ev.ctx, 0x123456789ULL);
	assert_int_equal(ev.seqno, 4242);
	assert_false(ev.flags & GPULAT_EVF_FENCE32);

	/* unknown engine class: numbers kept */
	rb_u32(&r, 24, 9);
	assert_int_equal(decode(b, &r, 11, 1, &ev), 1);
	assert_string_equal(ev.ring, "class9:0");
	gpulat_binding_free(b);
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_617),
		cmocka_unit_test(test_legacy_61),
		cmocka_unit_test(test_i915_xe_real),
		cmocka_unit_test(test_data_loc_out_of_record),
		cmocka_unit_test(test_missing_field),
		cmocka_unit_test(test_name_pointer),
		cmocka_unit_test(test_context_events),
		cmocka_unit_test(test_vblank_events),
		cmocka_unit_test(test_amdgpu_layouts),
		cmocka_unit_test(test_string_cache),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_large_ids),
		cmocka_unit_test(test_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
