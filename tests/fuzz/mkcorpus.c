// SPDX-License-Identifier: LGPL-2.1
/*
 * fuzz-mkcorpus: turn the records of a trace.dat into fuzz_core inputs.
 *
 *   fuzz-mkcorpus [-n RECORDS] [-m INPUTS] [-a] TRACE.dat OUTDIR PREFIX
 *
 * Each input holds the trace's own format text of its GPU events
 * (gpu_scheduler, gpu_sched, dma_fence, fence, amdgpu; with -a also irq,
 * sched and power), the task names, and a window of RECORDS consecutive
 * records (default 48) of those events, windows spread evenly over the trace
 * (at most INPUTS, default 12). The format text comes from
 * `trace-cmd dump --events`, so it is exactly what the kernel wrote.
 * Files are named OUTDIR/PREFIX-NNN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>

#include "fuzz-input.h"

#define MAX_KEEP	200000

struct fmt {
	int	id;
	char	*sys;
	char	*text;
	size_t	len;
};

struct rec {
	uint64_t	ts;
	int		cpu;
	int		pid;
	int		type;
	int		size;
	uint8_t		*data;
};

struct ctx {
	struct tep_handle	*tep;
	struct fmt		*f;
	int			nf;
	struct rec		*r;
	size_t			nr, cap;
	bool			signals;
};

static bool all_systems;

static bool wanted(const char *sys)
{
	static const char * const gpu[] = { "gpu_scheduler", "gpu_sched", "dma_fence",
					    "fence", "amdgpu", NULL };
	static const char * const ctxt[] = { "irq", "sched", "power", NULL };
	int i;

	for (i = 0; gpu[i]; i++)
		if (!strcmp(sys, gpu[i]))
			return true;
	for (i = 0; all_systems && ctxt[i]; i++)
		if (!strcmp(sys, ctxt[i]))
			return true;
	return false;
}

static struct fmt *find_fmt(struct ctx *c, int id)
{
	int i;

	for (i = 0; i < c->nf; i++)
		if (c->f[i].id == id)
			return &c->f[i];
	return NULL;
}

/* split `trace-cmd dump --events` output into one block per "name:" line */
static int load_formats(struct ctx *c, const char *path)
{
	char *cmd, *buf = NULL, *p, *next;
	size_t len = 0, cap = 0, n;
	FILE *f;

	if (strchr(path, '\''))
		return -EINVAL;
	if (asprintf(&cmd, "trace-cmd dump --events '%s' 2>/dev/null", path) < 0)
		return -ENOMEM;
	f = popen(cmd, "r");
	free(cmd);
	if (!f)
		return -errno;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				return -ENOMEM;
		}
		n = fread(buf + len, 1, 4096, f);
		if (!n)
			break;
		len += n;
	}
	pclose(f);
	if (!buf)
		return -ENOENT;
	buf[len] = '\0';

	for (p = strstr(buf, "name: "); p; p = next) {
		struct tep_event *ev;
		char *idl;
		int id;

		next = strstr(p + 1, "\nname: ");
		if (next)
			next++;
		idl = strstr(p, "\nID: ");
		if (!idl || (next && idl > next))
			continue;
		id = atoi(idl + 5);
		ev = tep_find_event(c->tep, id);
		if (!ev || !ev->system || !wanted(ev->system))
			continue;
		c->f = realloc(c->f, (c->nf + 1) * sizeof(*c->f));
		if (!c->f)
			return -ENOMEM;
		c->f[c->nf].id = id;
		c->f[c->nf].sys = strdup(ev->system);
		c->f[c->nf].len = next ? (size_t)(next - p) : strlen(p);
		c->f[c->nf].text = strndup(p, c->f[c->nf].len);
		if (!strcmp(ev->name, "dma_fence_signaled") || !strcmp(ev->name, "fence_signaled"))
			c->signals = true;
		c->nf++;
	}
	free(buf);
	return 0;
}

static int collect(struct tracecmd_input *h, struct tep_record *record, int cpu, void *data)
{
	struct ctx *c = data;
	struct rec *r;
	int type;

	(void)h;
	(void)cpu;
	if (c->nr >= MAX_KEEP)
		return 0;
	type = tep_data_type(c->tep, record);
	if (!find_fmt(c, type))
		return 0;
	if (c->nr == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->r = realloc(c->r, c->cap * sizeof(*c->r));
		if (!c->r)
			return -1;
	}
	r = &c->r[c->nr++];
	r->ts = record->ts;
	r->cpu = record->cpu;
	r->pid = tep_data_pid(c->tep, record);
	r->type = type;
	r->size = record->size;
	r->data = malloc(record->size ? record->size : 1);
	if (!r->data)
		return -1;
	memcpy(r->data, record->data, record->size);
	return 0;
}

static void put_le(FILE *f, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		fputc((v >> (8 * i)) & 0xff, f);
}

static int write_input(struct ctx *c, const char *path, size_t from, size_t n, int variant)
{
	uint8_t hdr[FZ_HDR_LEN] = { 0 };
	uint64_t ts;
	size_t i, k;
	int j;
	FILE *f;

	f = fopen(path, "wb");
	if (!f)
		return -errno;
	hdr[0] = FZ_F_ERA_AUTO | (c->signals ? FZ_F_SIGNALS : 0);
	if (variant & 1) {
		hdr[0] |= FZ_F_MAXOPEN;
		hdr[1] = 4;
	}
	if (variant & 2)
		hdr[2] = 20;	/* ~1 ms stall threshold */
	hdr[3] = 10;
	hdr[4] = variant % 5;
	ts = c->r[from].ts;
	for (j = 0; j < 8; j++)
		hdr[8 + j] = (ts >> (8 * j)) & 0xff;
	fwrite(hdr, 1, sizeof(hdr), f);
	/* the formats of the events in this window only (small inputs fuzz faster) */
	for (j = 0; j < c->nf; j++) {
		for (i = from; i < from + n; i++)
			if (c->r[i].type == c->f[j].id)
				break;
		if (i < from + n)
			fprintf(f, "%s%s\n%.*s", FZ_SYS_TAG, c->f[j].sys, (int)c->f[j].len,
				c->f[j].text);
	}
	/* task names of the window's pids (deduplicated) */
	for (i = from; i < from + n; i++) {
		const char *comm;

		for (k = from; k < i; k++)
			if (c->r[k].pid == c->r[i].pid)
				break;
		if (k < i)
			continue;
		comm = tep_data_comm_from_pid(c->tep, c->r[i].pid);
		if (comm && strcmp(comm, "<...>") && !strpbrk(comm, " \n"))
			fprintf(f, "%s%d %s\n", FZ_COMM_TAG, c->r[i].pid, comm);
	}
	fputc('\0', f);
	for (i = from; i < from + n; i++) {
		int64_t d = (int64_t)(c->r[i].ts - ts);

		if (d > INT32_MAX)
			d = INT32_MAX;
		if (d < INT32_MIN)
			d = INT32_MIN;
		ts += d;
		fputc(0, f);
		fputc(c->r[i].cpu & 0x7f, f);
		put_le(f, (uint32_t)(int32_t)d, 4);
		put_le(f, c->r[i].size > 0xffff ? 0xffff : c->r[i].size, 2);
		fwrite(c->r[i].data, 1, c->r[i].size > 0xffff ? 0xffff : c->r[i].size, f);
	}
	return fclose(f) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct ctx c = { 0 };
	size_t per = 48, max_inputs = 12, i, windows, step;
	char *path;
	int opt, ret = 0;

	while ((opt = getopt(argc, argv, "n:m:a")) != -1) {
		switch (opt) {
		case 'n':
			per = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			max_inputs = strtoul(optarg, NULL, 0);
			break;
		case 'a':
			all_systems = true;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 3 || !per || !max_inputs)
		goto usage;

	h = tracecmd_open(argv[optind], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "fuzz-mkcorpus: %s: cannot open trace\n", argv[optind]);
		return 1;
	}
	c.tep = tracecmd_get_tep(h);
	if (load_formats(&c, argv[optind]) < 0 || !c.nf) {
		fprintf(stderr, "fuzz-mkcorpus: %s: no GPU event formats\n", argv[optind]);
		tracecmd_close(h);
		return 1;
	}
	tracecmd_iterate_events(h, NULL, 0, collect, &c);
	if (!c.nr) {
		fprintf(stderr, "fuzz-mkcorpus: %s: no GPU records\n", argv[optind]);
		tracecmd_close(h);
		return 1;
	}
	windows = (c.nr + per - 1) / per;
	if (windows > max_inputs)
		windows = max_inputs;
	step = windows > 1 ? (c.nr - per) / (windows - 1) : 0;
	if (c.nr < per)
		per = c.nr;
	for (i = 0; i < windows && !ret; i++) {
		size_t from = i * step;

		if (from + per > c.nr)
			from = c.nr - per;
		if (asprintf(&path, "%s/%s-%03zu", argv[optind + 1], argv[optind + 2], i) < 0)
			return 1;
		ret = write_input(&c, path, from, per, (int)i);
		if (ret)
			fprintf(stderr, "fuzz-mkcorpus: %s: %s\n", path, strerror(-ret));
		free(path);
	}
	printf("%s: %zu GPU records, %d formats, %zu inputs\n", argv[optind], c.nr, c.nf, windows);
	for (i = 0; i < c.nr; i++)
		free(c.r[i].data);
	free(c.r);
	for (opt = 0; opt < c.nf; opt++) {
		free(c.f[opt].sys);
		free(c.f[opt].text);
	}
	free(c.f);
	tracecmd_close(h);
	return ret ? 1 : 0;
usage:
	fprintf(stderr, "usage: fuzz-mkcorpus [-n RECORDS] [-m INPUTS] [-a] TRACE.dat OUTDIR PREFIX\n");
	return 2;
}
