// SPDX-License-Identifier: LGPL-2.1
/*
 * Per-CPU ring-buffer pages, streamed to one raw file per CPU exactly as
 * trace-cmd extracts them from the kernel (x86_64, 4096-byte sub-buffers):
 *   u64 timestamp @0, u64 commit @8 (bytes of data; bit 31 = events were
 *   missed before this page, bit 30 = their number is stored after the data),
 *   events from @16: u32 header (type_len:5, time_delta:27) + payload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

#define HDR		16
#define DATA_MAX	(GEN_PAGE_SIZE - HDR)
#define TYPE_EXTEND	30
#define DELTA_MAX	((1ULL << 27) - 1)
#define MISSED_EVENTS	(1ULL << 31)
#define MISSED_STORED	(1ULL << 30)
/*
 * libtracecmd before 3.3 (Debian's 3.1.6) keeps a CPU file's size in an int
 * (struct cpu_data_source; fixed by "trace-cmd record: Fix compression when
 * files are greater than 2GB", 176bc1f1, 2024): a CPU with 2 GiB of pages or
 * more fails tracecmd_append_cpu_data() after the whole simulation, with a
 * size mismatch and no errno. The page that would reach it stops the CPU's
 * file instead: gen_pages_close() returns -EFBIG and names the CPU.
 */
#define CPU_PAGES_MAX	((uint64_t)INT_MAX / GEN_PAGE_SIZE)

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* host is little endian x86_64 */
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static int page_flush(struct gen_cpu_pages *c)
{
	uint64_t commit = c->used;

	if (!c->open)
		return 0;
	if (c->pages >= CPU_PAGES_MAX)
		return -EFBIG;
	if (c->missed) {
		/* room for the count was reserved when the page was started */
		put64(c->page + HDR + c->used, c->missed);
		commit |= MISSED_EVENTS | MISSED_STORED;
		c->missed = 0;
	}
	put64(c->page + 8, commit);
	if (c->out && fwrite(c->page, GEN_PAGE_SIZE, 1, c->out) != 1)
		return -EIO;
	c->open = false;
	c->pages++;
	return 0;
}

static void page_start(struct gen_cpu_pages *c, uint64_t ts)
{
	memset(c->page, 0, GEN_PAGE_SIZE);
	put64(c->page, ts);
	c->used = 0;
	c->open = true;
	c->last_ts = ts;
}

static int event_size(uint64_t delta, int len)
{
	int size = 4 + len;

	if (delta > DELTA_MAX)
		size += 8;
	if (len > 28 * 4)
		size += 4;
	return size;
}

static void put_event(struct gen_cpu_pages *c, uint64_t delta,
		      const uint8_t *payload, int len)
{
	uint8_t *p = c->page + HDR + c->used;

	if (delta > DELTA_MAX) {
		put32(p, TYPE_EXTEND | (uint32_t)(delta & DELTA_MAX) << 5);
		put32(p + 4, (uint32_t)(delta >> 27));
		p += 8;
		delta = 0;
	}
	if (len <= 28 * 4) {
		put32(p, (uint32_t)(len / 4) | (uint32_t)delta << 5);
		p += 4;
	} else {
		put32(p, (uint32_t)delta << 5);
		put32(p + 4, (uint32_t)len + 4);
		p += 8;
	}
	memcpy(p, payload, len);
	c->used = p + len - (c->page + HDR);
}

/* -EFBIG is kept for gen_pages_close(), any other error returned */
static int too_big(struct gen_pages *p, int cpu, int ret)
{
	if (ret != -EFBIG)
		return ret;
	p->err = ret;
	p->err_cpu = cpu;
	return 0;
}

int gen_pages_open(struct gen_pages *p, int cpus, const char *dir)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->cpus = cpus;
	p->first_ts = GEN_NONE;
	for (i = 0; dir && i < cpus; i++) {
		char *path;

		if (asprintf(&path, "%s/cpu%d.raw", dir, i) < 0)
			return -ENOMEM;
		p->cpu[i].out = fopen(path, "wb");
		free(path);
		if (!p->cpu[i].out)
			return -errno;
	}
	return 0;
}

/*
 * Append one event. With DROP the event is lost as in a ring-buffer overrun:
 * the page in progress is closed first, and the next page written carries the
 * missed-events flag and the number of events lost.
 */
int gen_pages_write(struct gen_pages *p, int cpu, uint64_t ts,
		    const uint8_t *payload, int len, bool drop)
{
	struct gen_cpu_pages *c = &p->cpu[cpu];
	int reserve;
	int ret;

	if (ts < c->last_ts)
		return -EINVAL;		/* per-CPU time never goes backwards */
	if (p->err)
		return 0;		/* the trace cannot be written: simulate on */
	if (drop) {
		if (!c->dropping) {
			ret = page_flush(c);
			if (ret)
				return too_big(p, cpu, ret);
			c->dropping = true;
		}
		c->missed++;
		c->last_ts = ts;
		p->dropped++;
		return 0;
	}
	c->dropping = false;
	reserve = c->missed ? 8 : 0;
	if (c->open && c->used + event_size(ts - c->last_ts, len) + reserve > DATA_MAX) {
		ret = page_flush(c);
		if (ret)
			return too_big(p, cpu, ret);
	}
	if (!c->open)
		page_start(c, ts);
	put_event(c, ts - c->last_ts, payload, len);
	c->last_ts = ts;
	p->written++;
	if (p->first_ts == GEN_NONE || ts < p->first_ts)
		p->first_ts = ts;
	if (ts > p->last_ts)
		p->last_ts = ts;
	return 0;
}

/* the most bytes of pages one CPU may have (see CPU_PAGES_MAX) */
uint64_t gen_pages_cpu_max(void)
{
	return CPU_PAGES_MAX * GEN_PAGE_SIZE;
}

int gen_pages_close(struct gen_pages *p)
{
	int ret = 0, i;

	for (i = 0; i < p->cpus; i++) {
		struct gen_cpu_pages *c = &p->cpu[i];

		int r = p->err ? 0 : page_flush(c);

		if (r == -EFBIG)
			too_big(p, i, r);
		else if (r)
			ret = -EIO;
		if (c->out && fclose(c->out))
			ret = -EIO;
		c->out = NULL;
	}
	return p->err ? p->err : ret;
}
