// SPDX-License-Identifier: LGPL-2.1
/*
 * Unmapping what libtracecmd leaves mapped of a v6 file (FINDINGS.md F12).
 *
 * libtracecmd 1.3.1 (trace-cmd 3.1.6; unchanged up to 1.5.5) maps the CPU
 * data of an uncompressed file in chunks ("page maps") and never unmaps them,
 * not even in tracecmd_close(): tracecmd_alloc_fd() sets handle->read_zpage
 * (INMEMORY_DECOMPRESS) and only a v7 file whose compression is "none" clears
 * it again, so for a v6 file __free_page() takes the free_zpage() branch
 * (finds no chunk, does nothing) instead of free_page_map(). Each page map
 * keeps the reference of every page that was in it and tracecmd_close() frees
 * the page_map structs without munmap(). No public call changes that (the
 * read() mode that would avoid it is only entered when mmap() fails), so
 * every open of a v6 file left one mapping per CPU and per chunk read, and
 * fuzz_reader ran out of vm.max_map_count after ~90 k inputs.
 *
 * So the reader records where each chunk of its handles lies and unmaps it
 * after tracecmd_close(), when nothing can use it any more. It knows a chunk
 * in one of two ways:
 *  - mapped while the file was opened (each CPU's first page, also of a CPU
 *    whose page holds no record): the read-only mappings of the file that
 *    appeared during tracecmd_open_head() + tracecmd_init_data() and overlap
 *    none that existed before (gpulat__maps_snap(), gpulat__maps_adopt());
 *  - mapped while reading: through a record libtracecmd returned from it
 *    (tracecmd_record_page(): the address of its page), the extent computed
 *    the way allocate_page_map() does: page_map_size = page size x the
 *    largest power of two <= (largest CPU data / page size), the chunk
 *    aligned to it and clipped to its CPU's data.
 * Ranges never overlap (a range overlapping a known one is not added), so
 * nothing is unmapped twice. Before munmap() a range must lie in one
 * read-only private mapping of this very file (device, inode) at the
 * matching file offset; anything else (the mmap() retry with smaller maps
 * after ENOMEM, a foreign layout) is left alone, a leak rather than a crash.
 * Other handles of the same file (another reader, a host's own) have their
 * own mappings at other addresses and are not touched; the one assumption is
 * that no other thread maps this same file while it is being opened. A chunk
 * mapped while reading none of whose pages gave a record (a damaged file)
 * stays mapped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "read-int.h"

struct chunk {
	int		cpu;		/* -1: adopted at open */
	uint64_t	off, len;	/* file offset and length of the page map */
	uintptr_t	base;		/* where the handle mapped it */
	bool		ok;		/* verified in /proc/self/maps */
};

struct gpulat__maps {
	const struct gpulat__cpuspan *span;
	int		cpus;
	uint64_t	page_size;
	uint64_t	map_size;	/* libtracecmd's page_map_size */
	uint64_t	sys_page;
	struct chunk	*c;
	int		n, cap;
	struct gpulat__snap *snap;	/* adopted at open: read from each CPU's start */
};

/* a handle's chunks: a few per CPU (a CPU's data spans at most 3 aligned blocks) */
#define CHUNKS_PER_CPU	4

/* the mappings of @f's file that existed before it was opened */
struct gpulat__snap {
	uintptr_t	(*r)[2];
	int		n, cap;
};

/* one line of /proc/self/maps; true when it maps @f's file */
static bool maps_line(const char *line, const struct rfile *f, uintptr_t *start, uintptr_t *end,
		      uint64_t *off, bool *ro)
{
	unsigned long long a, b, o, ino;
	unsigned int maj, min;
	char perms[8];

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &a, &b, perms, &o, &maj, &min, &ino) != 7)
		return false;
	if (maj != major(f->dev) || min != minor(f->dev) || ino != (unsigned long long)f->ino)
		return false;
	*start = (uintptr_t)a;
	*end = (uintptr_t)b;
	*off = o;
	*ro = !strcmp(perms, "r--p");
	return true;
}

/* largest power of two <= @v (>= 1) */
static uint64_t pow2_floor(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v / 2)
		p *= 2;
	return p;
}

/**
 * gpulat__maps_new - where @f's handles map its pages, for a v6 file
 * @f: the file, opened (span from read-check.c, page size)
 *
 * Return: the record, or NULL when the file is not read through mappings
 * that are left behind (v7) or the layout is not libtracecmd 1.3.1's.
 */
struct gpulat__maps *gpulat__maps_new(const struct rfile *f)
{
	struct gpulat__maps *m;
	uint64_t max = 0, pages;
	int i;

	if (!f->span || f->nspan != f->cpus || f->page_size <= 0)
		return NULL;
	for (i = 0; i < f->nspan; i++)
		if (f->span[i].size > max)
			max = f->span[i].size;
	pages = max / (uint64_t)f->page_size;
	pages = pow2_floor(pages ? pages : 1);
	/* handle->page_map_size is an int in libtracecmd 1.3.1 */
	if (pages > (uint64_t)INT32_MAX / (uint64_t)f->page_size)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->span = f->span;
	m->cpus = f->cpus;
	m->page_size = (uint64_t)f->page_size;
	m->map_size = pages * m->page_size;
	m->sys_page = (uint64_t)sysconf(_SC_PAGESIZE);
	m->cap = f->cpus <= 1024 ? f->cpus * CHUNKS_PER_CPU : 1024 * CHUNKS_PER_CPU;
	m->c = calloc((size_t)m->cap, sizeof(*m->c));
	if (!m->c) {
		free(m);
		return NULL;
	}
	return m;
}

void gpulat__maps_free(struct gpulat__maps *m)
{
	if (!m)
		return;
	free(m->c);
	gpulat__maps_snap_free(m->snap);
	free(m);
}

/* @len rounded up to whole pages of the system: the length of its mapping */
static uint64_t vlen(const struct gpulat__maps *m, uint64_t len)
{
	return (len + m->sys_page - 1) & ~(m->sys_page - 1);
}

/* does [@base, +@len) overlap a known chunk? */
static bool known(const struct gpulat__maps *m, uintptr_t base, uint64_t len)
{
	int i;

	for (i = 0; i < m->n; i++) {
		if (base < m->c[i].base + vlen(m, m->c[i].len) && m->c[i].base < base + len)
			return true;
	}
	return false;
}

/*
 * The page map holding the page at file offset @poff of @cpu, as
 * allocate_page_map() makes it: aligned to page_map_size, clipped to the
 * CPU's data. False when @poff is not in the CPU's data.
 */
static bool chunk_of(const struct gpulat__maps *m, int cpu, uint64_t poff, uint64_t *moff,
		     uint64_t *mlen)
{
	const struct gpulat__cpuspan *sp = &m->span[cpu];

	if (poff < sp->off || poff - sp->off >= sp->size)
		return false;
	*moff = poff & ~(m->map_size - 1);
	*mlen = m->map_size;
	if (*moff < sp->off) {
		*mlen -= sp->off - *moff;
		*moff = sp->off;
	}
	if (*moff + *mlen > sp->off + sp->size)
		*mlen = sp->off + sp->size - *moff;
	return true;
}

static void add(struct gpulat__maps *m, int cpu, uint64_t off, uint64_t len, uintptr_t base)
{
	if (m->n == m->cap)
		return;	/* more than libtracecmd makes: leave them */
	m->c[m->n++] = (struct chunk){ .cpu = cpu, .off = off, .len = len, .base = base };
}

/**
 * gpulat__maps_see - note the chunk a record of @h came from
 * @m: @h's record (may be NULL: nothing to do)
 * @h: the handle @rec was read or peeked from
 * @rec: the record (may be NULL)
 */
void gpulat__maps_see(struct gpulat__maps *m, struct tracecmd_input *h, struct tep_record *rec)
{
	uint64_t poff, moff, mlen;
	uintptr_t page, base;

	if (!m || !rec || rec->cpu < 0 || rec->cpu >= m->cpus)
		return;
	poff = rec->offset & ~(m->page_size - 1);
	if (!chunk_of(m, rec->cpu, poff, &moff, &mlen))
		return;
	page = (uintptr_t)tracecmd_record_page(h, rec);
	if (!page || page < poff - moff)
		return;
	base = page - (uintptr_t)(poff - moff);
	/* known already (or overlapping a known range: never unmapped twice) */
	if (!known(m, base, vlen(m, mlen)))
		add(m, rec->cpu, moff, mlen, base);
}

/**
 * gpulat__maps_snap - the mappings of @f's file before it is opened
 * @f: the file (device and inode known, not opened by libtracecmd yet)
 *
 * Return: the snapshot for gpulat__maps_adopt(), or NULL (nothing adopted).
 */
struct gpulat__snap *gpulat__maps_snap(const struct rfile *f)
{
	struct gpulat__snap *sn;
	uintptr_t start, end;
	char line[512];
	uint64_t off;
	FILE *fp;
	bool ro;

	if (!f->span)
		return NULL;
	sn = calloc(1, sizeof(*sn));
	fp = sn ? fopen("/proc/self/maps", "r") : NULL;
	if (!fp) {
		free(sn);
		return NULL;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (!maps_line(line, f, &start, &end, &off, &ro))
			continue;
		if (sn->n == sn->cap) {
			int cap = sn->cap ? 2 * sn->cap : 16;
			void *p = realloc(sn->r, (size_t)cap * sizeof(*sn->r));

			if (!p) {
				fclose(fp);
				gpulat__maps_snap_free(sn);
				return NULL;
			}
			sn->r = p;
			sn->cap = cap;
		}
		sn->r[sn->n][0] = start;
		sn->r[sn->n][1] = end;
		sn->n++;
	}
	fclose(fp);
	return sn;
}

/* does [@start, @end) overlap a mapping of the snapshot? */
static bool in_snap(const struct gpulat__snap *sn, uintptr_t start, uintptr_t end)
{
	int i;

	for (i = 0; i < sn->n; i++) {
		if (start < sn->r[i][1] && sn->r[i][0] < end)
			return true;
	}
	return false;
}

void gpulat__maps_snap_free(struct gpulat__snap *sn)
{
	if (!sn)
		return;
	free(sn->r);
	free(sn);
}

/**
 * gpulat__maps_adopt - note the mappings opening the file made
 * @m: the record of the handle just opened (may be NULL)
 * @f: the file
 * @sn: gpulat__maps_snap() from before the open (may be NULL)
 *
 * Every read-only mapping of the file that overlaps none of @sn was made by
 * tracecmd_open_head() / tracecmd_init_data() of this handle: each CPU's
 * first page map. @m keeps @sn (for gpulat__maps_close()); without @m it is
 * freed.
 */
void gpulat__maps_adopt(struct gpulat__maps *m, const struct rfile *f, struct gpulat__snap *sn)
{
	uintptr_t start, end;
	char line[512];
	uint64_t off;
	FILE *fp;
	bool ro;

	if (!m || !sn) {
		gpulat__maps_snap_free(sn);
		return;
	}
	gpulat__maps_snap_free(m->snap);
	m->snap = sn;
	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (!maps_line(line, f, &start, &end, &off, &ro) || !ro)
			continue;
		if (!in_snap(sn, start, end))
			add(m, -1, off, end - start, start);
	}
	fclose(fp);
}

/**
 * gpulat__maps_drop_new - unmap what a failed open of @f left mapped (F3)
 * @f: the file
 * @sn: gpulat__maps_snap() from before the open (may be NULL: nothing done);
 *	freed
 *
 * When tracecmd_init_data() fails, read.c leaks the half-built handle
 * (libtracecmd 1.3.1 crashes closing it) and nothing uses it again: the
 * read-only mappings of the file that appeared during the open (the first
 * page maps of the CPUs it had set up) are its own and are unmapped, as
 * gpulat__maps_close() does after tracecmd_close(). Same assumption: no
 * other thread maps this file while it is being opened.
 */
void gpulat__maps_drop_new(const struct rfile *f, struct gpulat__snap *sn)
{
	uintptr_t start, end, (*r)[2] = NULL;
	int n = 0, cap = 0, i;
	char line[512];
	uint64_t off;
	FILE *fp;
	bool ro;

	if (!sn)
		return;
	fp = fopen("/proc/self/maps", "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		if (!maps_line(line, f, &start, &end, &off, &ro) || !ro || in_snap(sn, start, end))
			continue;
		if (n == cap) {
			void *p = realloc(r, (size_t)(cap ? 2 * cap : 16) * sizeof(*r));

			if (!p)
				break;
			r = p;
			cap = cap ? 2 * cap : 16;
		}
		r[n][0] = start;
		r[n][1] = end;
		n++;
	}
	if (fp)
		fclose(fp);
	/* after the whole file is read: munmap() changes what it lists */
	for (i = 0; i < n; i++)
		munmap((void *)r[i][0], r[i][1] - r[i][0]);
	free(r);
	gpulat__maps_snap_free(sn);
}

/* mark the chunks lying wholly in one r--p mapping of @f's file at their offset */
static void verify(struct gpulat__maps *m, const struct rfile *f, uintptr_t sys_page)
{
	uintptr_t start, end;
	char line[512];
	uint64_t off;
	FILE *fp;
	bool ro;
	int i;

	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp)) {
		if (!maps_line(line, f, &start, &end, &off, &ro) || !ro)
			continue;
		for (i = 0; i < m->n; i++) {
			struct chunk *c = &m->c[i];
			uintptr_t len = ((uintptr_t)c->len + sys_page - 1) & ~(sys_page - 1);

			if (c->base >= start && c->base + len <= end &&
			    off + (c->base - start) == c->off)
				c->ok = true;
		}
	}
	fclose(fp);
}

/* a page map the handle must have made, not known by address yet */
struct want {
	int		cpu;
	uint64_t	off, vlen;
	int		found;		/* mappings of that shape; -1: known, or done */
};

/*
 * Pages that gave no record (empty or damaged) can be alone in a page map
 * libtracecmd made while reading: such a map is known by its shape only.
 * libtracecmd reads each CPU's pages in order from its first, so every page
 * map from the CPU's first page to the one of @last[cpu] (the page of its
 * current record; UINT64_MAX: read to the end) was made by this handle. A
 * read-only mapping of the file with that file offset and length that
 * overlaps nothing known nor the snapshot from before the open is taken,
 * when exactly as many such mappings exist as the handle made of that shape
 * (another handle of the file opened since then, which could have one too,
 * makes it ambiguous: left alone).
 */
static void adopt_missing(struct gpulat__maps *m, const struct rfile *f, const uint64_t *last)
{
	uint64_t p, moff, mlen, off, want_n;
	struct want *w = NULL;
	int nw = 0, cap = 0, cpu, i, k;
	uintptr_t start, end;
	char line[512];
	FILE *fp;
	bool ro;

	for (cpu = 0; cpu < m->cpus; cpu++) {
		p = m->span[cpu].off;
		while (chunk_of(m, cpu, p, &moff, &mlen) && p <= last[cpu]) {
			if (nw == cap) {
				void *q;

				if (cap >= m->cap)
					goto out;
				cap = cap ? 2 * cap : 16;
				q = realloc(w, (size_t)cap * sizeof(*w));
				if (!q)
					goto out;
				w = q;
			}
			w[nw++] = (struct want){ .cpu = cpu, .off = moff, .vlen = vlen(m, mlen) };
			p = moff + mlen;
		}
	}
	/* those known by address are not wanted */
	for (i = 0; i < m->n; i++) {
		for (k = 0; k < nw; k++) {
			if (w[k].found >= 0 && w[k].off == m->c[i].off &&
			    w[k].vlen == vlen(m, m->c[i].len)) {
				w[k].found = -1;
				break;
			}
		}
	}
	/*
	 * all known (a handle still on each CPU's first page, as the one whose
	 * records lib/read-zstd.c read): no /proc/self/maps to read
	 */
	for (k = 0; k < nw && w[k].found < 0; k++)
		;
	if (k == nw)
		goto out;
	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		goto out;
	while (fgets(line, sizeof(line), fp)) {
		if (!maps_line(line, f, &start, &end, &off, &ro) || !ro)
			continue;
		if (in_snap(m->snap, start, end) || known(m, start, end - start))
			continue;
		for (k = 0; k < nw; k++) {
			if (w[k].found >= 0 && w[k].off == off && w[k].vlen == end - start)
				w[k].found++;
		}
	}
	fclose(fp);
	/*
	 * found counts every mapping of the shape, once per wanted map of it:
	 * take them only when that count equals the number wanted
	 */
	for (k = 0; k < nw; k++) {
		if (w[k].found <= 0)
			continue;
		want_n = 0;
		for (i = 0; i < nw; i++)
			want_n += w[i].found >= 0 && w[i].off == w[k].off && w[i].vlen == w[k].vlen;
		if ((uint64_t)w[k].found != want_n)
			continue;
		/* the mappings of that shape, each once */
		fp = fopen("/proc/self/maps", "r");
		if (!fp)
			goto out;
		while (fgets(line, sizeof(line), fp)) {
			if (!maps_line(line, f, &start, &end, &off, &ro) || !ro)
				continue;
			if (off == w[k].off && end - start == w[k].vlen &&
			    !in_snap(m->snap, start, end) && !known(m, start, end - start))
				add(m, w[k].cpu, off, end - start, start);
		}
		fclose(fp);
		for (i = 0; i < nw; i++) {
			if (w[i].off == w[k].off && w[i].vlen == w[k].vlen)
				w[i].found = -1;
		}
	}
out:
	free(w);
}

/**
 * gpulat__maps_close - close @h and unmap what it left mapped
 * @m: @h's record (NULL: just close)
 * @f: the file
 * @h: the handle
 *
 * The handle's current records are peeked first: the pages it holds at the
 * end are noted too. For the handle whose first pages were adopted at open
 * (read from each CPU's start), the maps of pages without records are
 * looked for by shape (adopt_missing()).
 */
void gpulat__maps_close(struct gpulat__maps *m, const struct rfile *f, struct tracecmd_input *h)
{
	uintptr_t sys_page = (uintptr_t)sysconf(_SC_PAGESIZE);
	struct tep_record *rec;
	uint64_t *last = NULL;
	int cpu, i;

	if (!h)
		return;
	if (m && m->snap)
		last = calloc((size_t)m->cpus, sizeof(*last));
	for (cpu = 0; m && cpu < m->cpus; cpu++) {
		rec = tracecmd_peek_data(h, cpu);
		gpulat__maps_see(m, h, rec);
		if (last)
			last[cpu] = rec ? rec->offset & ~(m->page_size - 1) : UINT64_MAX;
	}
	if (last)
		adopt_missing(m, f, last);
	free(last);
	tracecmd_close(h);
	if (!m || !m->n)
		return;
	verify(m, f, sys_page);
	for (i = 0; i < m->n; i++) {
		if (m->c[i].ok)
			munmap((void *)m->c[i].base, (size_t)m->c[i].len);
	}
	m->n = 0;
}
