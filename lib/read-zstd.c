// SPDX-License-Identifier: LGPL-2.1
/*
 * Reading the CPU data of a zstd-compressed trace.dat (version 7, what
 * trace-cmd record writes by default) without libtracecmd's page cache.
 *
 * libtracecmd 1.3.1 keeps every chunk it decompressed until the handle is
 * closed and walks all of them for each new one (read-merge.c), so a long
 * trace costs memory and quadratic time. Here each CPU decompresses one
 * chunk at a time into a buffer of its own and walks its ring-buffer pages
 * (read-page.h: the records libtraceevent's kbuffer gives, as libtracecmd's
 * tracecmd_peek_data() reads them); libtracecmd still parses the headers,
 * event formats and options.
 *
 * File facts used (trace-cmd's trace.dat v7, lib/trace-cmd/trace-input.c):
 *  - a section header is u16 id, u16 flags (bit 0: compressed), s32
 *    description, u64 size; a compressed block is u32 compressed size, u32
 *    size, then one zstd frame;
 *  - the options sections start at tracecmd_get_options_offset(); each holds
 *    options (u16 id, u32 size, data) up to option DONE (0), whose u64 data
 *    is the offset of the next options section (0: the last);
 *  - option BUFFER (3): u64 offset of the flyrecord section, the name ("" for
 *    the top buffer), the clock, u32 page size, u32 cpu count, then per CPU
 *    u32 cpu, u64 offset, u64 size;
 *  - a CPU's data: u32 chunk count, then per chunk u32 compressed size,
 *    u32 size, one zstd frame holding whole ring-buffer pages.
 * This path is only taken when nothing changes timestamps: no DATE, OFFSET,
 * TIME_SHIFT, GUEST or TSC2NSEC option (libtracecmd's timestamp_calc() is
 * then the identity), zstd and the pages libtracecmd reads are whole. It is
 * chosen from the headers alone, before libtracecmd loads any CPU data
 * (read.c open_data(), which is then never called). Anything else falls
 * back to libtracecmd.
 *
 * An uncompressed version 6 file (the flyrecord CPU table of read-check.c)
 * is read the same way, its pages with pread() in blocks of RAW_BLOCK
 * instead of decompressed chunks, when no option changes the timestamps
 * and every CPU's data is a whole number of pages. libtracecmd would map
 * them: the page-cache pages of the mapping count in the resident set (the
 * folios the kernel maps at a fault, up to 2 MiB on Linux 6.18 with ext4),
 * and libtracecmd 1.3.1 never unmaps them (read-unmap.c). Peak RSS of
 * gpu-latency -j1 (bench/peak-rss), v6-500k -> v6-5M: 7.7 -> 12.7 MiB
 * (1.68x) through libtracecmd's maps, 7.0 -> 8.3 MiB (1.19x) here, as for
 * the same events in a v7 zstd file (6.8 -> 8.1 MiB).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <event-parse.h>
#include <zstd.h>

#include "read-int.h"
#include "read-page.h"

#define SEC_FL_COMPRESS		1
/* bytes of an uncompressed file's pages read at once, per CPU */
#define RAW_BLOCK		(64u << 10)
#define MAX_OPTION_SECTIONS	64
#define MAX_META		(64u << 20)	/* an options block, sanity bound */

/* a compressed block (options section or chunk) and its buffers, reused */
struct zblock {
	unsigned char		*zbuf, *out;	/* compressed, decompressed */
	size_t			zcap, cap;
	uint32_t		zsize, size;	/* of the block last read */
};

struct zcpu {
	int			id;		/* the CPU number */
	uint64_t		next_off;	/* file offset of the next chunk header */
	uint32_t		chunks_left;
	uint64_t		raw_left;	/* uncompressed: bytes not read yet */
	struct zblock		blk;		/* the chunk: blk.out holds its pages */
	size_t			plen;		/* bytes of pages in blk.out */
	size_t			ppos;		/* offset of the loaded page in blk.out */
	uint64_t		vbase;		/* offset of blk.out[0] in the CPU's data */
	bool			loaded;		/* a page is in pg, on its current record */
	bool			have;		/* rec is the head */
	bool			failed;		/* a chunk could not be read */
	bool			looped;		/* records ran back on their page (F7) */
	int			poff;		/* offset in the page of the last record */
	uint64_t		bytes;		/* of the CPU's data in the file */
	ZSTD_DCtx		*dctx;		/* z->dctx, or a reader thread's (read-par.c) */
	bool			on;		/* the CPU has data: pg is set up */
	struct gpulat__pgw	pg;		/* the loaded page's walker */
	struct tep_record	rec;
};

struct gpulat__zfile {
	int			fd;
	struct tep_handle	*tep;
	bool			long8;		/* the file's longs (page commits) are 8 bytes */
	ZSTD_DCtx		*dctx;
	int			page_size;
	int			ncpu;
	bool			raw;		/* v6 uncompressed: pages read as they are */
	struct zcpu		*cpu;		/* indexed by CPU number */
};

/* @len bytes at @off of @fd: 0, or -1 (error or end of file); also read-check.c */
int gpulat__pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static uint64_t num(struct gpulat__zfile *z, const void *p, int n)
{
	return tep_read_number(z->tep, p, n);
}

/* one zstd frame of @zsize bytes at @src into exactly @size bytes at @dst */
static int unzstd(ZSTD_DCtx *dctx, void *dst, size_t size, const void *src, size_t zsize)
{
	size_t r = ZSTD_decompressDCtx(dctx, dst, size, src, zsize);

	return ZSTD_isError(r) || r != size ? -1 : 0;
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
	unsigned char *nb;

	if (need <= *cap)
		return 0;
	nb = realloc(*buf, need);
	if (!nb)
		return -1;
	*buf = nb;
	*cap = need;
	return 0;
}

/* the compressed block at @off (u32 compressed size, u32 size, a frame) into b->out */
static int read_block(struct gpulat__zfile *z, ZSTD_DCtx *dctx, uint64_t off, struct zblock *b)
{
	unsigned char hdr[8];

	if (gpulat__pread_full(z->fd, hdr, sizeof(hdr), off))
		return -1;
	b->zsize = (uint32_t)num(z, hdr, 4);
	b->size = (uint32_t)num(z, hdr + 4, 4);
	if (!b->zsize || !b->size || b->zsize > MAX_META || b->size > MAX_META)
		return -1;
	if (grow(&b->zbuf, &b->zcap, b->zsize) || grow(&b->out, &b->cap, b->size) ||
	    gpulat__pread_full(z->fd, b->zbuf, b->zsize, off + sizeof(hdr)))
		return -1;
	return unzstd(dctx, b->out, b->size, b->zbuf, b->zsize);
}

/* a section header at @off: u16 id, u16 flags, s32 description, u64 size */
static int read_section(struct gpulat__zfile *z, uint64_t off, unsigned int *id,
			unsigned int *flags, uint64_t *size)
{
	unsigned char hdr[16];

	if (gpulat__pread_full(z->fd, hdr, sizeof(hdr), off))
		return -1;
	*id = (unsigned int)num(z, hdr, 2);
	*flags = (unsigned int)num(z, hdr + 2, 2);
	*size = num(z, hdr + 8, 8);
	return 0;
}

/*
 * The options of the section at @off into @b (b->out, b->size bytes):
 * decompressed if the section is.
 */
static int read_options(struct gpulat__zfile *z, uint64_t off, struct zblock *b)
{
	unsigned int id, flags;
	uint64_t ssize;

	if (read_section(z, off, &id, &flags, &ssize) || id != GPULAT__OPT_DONE)
		return -1;
	off += 16;
	if (flags & SEC_FL_COMPRESS)
		return read_block(z, z->dctx, off, b);
	/* plain: the options follow, as many bytes as the section says */
	if (!ssize || ssize > MAX_META || grow(&b->out, &b->cap, ssize) ||
	    gpulat__pread_full(z->fd, b->out, ssize, off))
		return -1;
	b->size = (uint32_t)ssize;
	return 0;
}

/* the top buffer's BUFFER option: flyrecord offset and the CPUs */
static int parse_buffer(struct gpulat__zfile *z, const unsigned char *d, size_t len,
			uint64_t *fly)
{
	size_t pos = 8, n;
	uint32_t cpus, i;

	if (len < 8)
		return -1;
	*fly = num(z, d, 8);
	/* name, clock */
	for (i = 0; i < 2; i++) {
		n = strnlen((const char *)d + pos, len - pos);
		if (pos + n >= len)
			return -1;
		if (i == 0 && n)
			return 1;		/* an instance, not the top buffer */
		pos += n + 1;
	}
	if (pos + 8 > len)
		return -1;
	if ((int)num(z, d + pos, 4) != z->page_size)
		return -1;
	cpus = (uint32_t)num(z, d + pos + 4, 4);
	pos += 8;
	if (!cpus || cpus > 65536 || pos + (size_t)cpus * 20 > len)
		return -1;
	for (i = 0; i < cpus; i++) {
		uint32_t id = (uint32_t)num(z, d + pos, 4);
		uint64_t off = num(z, d + pos + 4, 8), size = num(z, d + pos + 12, 8);

		pos += 20;
		if ((int)id >= z->ncpu || z->cpu[id].id >= 0)
			return -1;
		z->cpu[id].id = (int)id;
		if (!size)
			continue;
		z->cpu[id].next_off = off;
		z->cpu[id].bytes = size;
	}
	return 0;
}

/* walk the options sections; 0 when the top buffer was found and nothing shifts time */
static int parse_options(struct gpulat__zfile *z, uint64_t off, uint64_t *fly)
{
	struct zblock b = { 0 };
	int sections, found = 0, ret = -1;

	for (sections = 0; off && sections < MAX_OPTION_SECTIONS; sections++) {
		const unsigned char *d;
		uint64_t next = 0;
		size_t len, pos = 0;
		bool done = false;

		if (read_options(z, off, &b))
			goto out;
		d = b.out;
		len = b.size;
		while (pos + 6 <= len && !done) {
			unsigned int id = (unsigned int)num(z, d + pos, 2);
			uint32_t size = (uint32_t)num(z, d + pos + 2, 4);
			const unsigned char *od = d + pos + 6;
			int r;

			pos += 6;
			if (size > len - pos)
				break;
			switch (id) {
			case GPULAT__OPT_DONE:
				next = size >= 8 ? num(z, od, 8) : 0;
				done = true;
				break;
			case GPULAT__OPT_BUFFER:
				r = parse_buffer(z, od, size, fly);
				if (r < 0)
					goto out;
				if (r == 0)
					found++;
				break;
			default:
				/* libtracecmd would change the timestamps */
				if (gpulat__opt_shifts(id))
					goto out;
				break;
			}
			pos += size;
		}
		if (!done)
			goto out;
		off = next;
	}
	ret = found == 1 && !off ? 0 : -1;
out:
	free(b.zbuf);
	free(b.out);
	return ret;
}

/* the walker of a CPU's pages: the file's endianness and long size */
static void set_walker(const struct gpulat__zfile *z, struct zcpu *c)
{
	gpulat__pgw_init(&c->pg, tep_is_file_bigendian(z->tep), z->long8);
	c->on = true;
}

/* read the chunk count of every CPU's data */
static int init_cpus(struct gpulat__zfile *z, uint64_t fly)
{
	unsigned int id, flags;
	unsigned char hdr[4];
	uint64_t size;
	int i;

	if (read_section(z, fly, &id, &flags, &size) || !(flags & SEC_FL_COMPRESS))
		return -1;
	for (i = 0; i < z->ncpu; i++) {
		struct zcpu *c = &z->cpu[i];

		if (c->id < 0 || !c->next_off)
			continue;
		if (gpulat__pread_full(z->fd, hdr, sizeof(hdr), c->next_off))
			return -1;
		c->chunks_left = (uint32_t)num(z, hdr, 4);
		c->next_off += 4;
		set_walker(z, c);
	}
	return 0;
}

/* the next RAW_BLOCK of an uncompressed CPU's pages: 1, 0 at the end, -1 */
static int load_raw(struct gpulat__zfile *z, struct zcpu *c)
{
	size_t n;

	if (!c->raw_left)
		return 0;
	n = c->raw_left < RAW_BLOCK ? (size_t)c->raw_left : RAW_BLOCK;
	if (grow(&c->blk.out, &c->blk.cap, n) ||
	    gpulat__pread_full(z->fd, c->blk.out, n, c->next_off))
		return -1;
	c->vbase += c->plen;
	c->plen = n;
	c->ppos = 0;
	c->next_off += n;
	c->raw_left -= n;
	return 1;
}

/* decompress the CPU's next chunk: 1, 0 at the end, -1 on damage */
static int load_chunk(struct gpulat__zfile *z, struct zcpu *c)
{
	if (z->raw)
		return load_raw(z, c);
	if (!c->chunks_left)
		return 0;
	/* libtracecmd reads whole pages: a chunk holds a whole number of them */
	if (read_block(z, c->dctx, c->next_off, &c->blk) || c->blk.size % (uint32_t)z->page_size)
		return -1;
	c->vbase += c->plen;
	c->plen = c->blk.size;
	c->ppos = 0;
	c->next_off += 8 + (uint64_t)c->blk.zsize;
	c->chunks_left--;
	return 1;
}

/*
 * Make c->rec the CPU's next record, as tracecmd_peek_data() would; false
 * at the end of the CPU's data. A page whose header is bad ends the CPU, as
 * in libtracecmd; a chunk that cannot be read or decompressed also sets
 * c->failed. Only @c is written: each CPU may be advanced by a thread of
 * its own (read-par.c), with c->dctx.
 */
static bool advance(struct gpulat__zfile *z, struct zcpu *c)
{
	struct gpulat__pgw *w = &c->pg;

	c->have = false;
	if (c->loaded && !gpulat__pgw_next(w)) {
		c->loaded = false;
		c->ppos += (size_t)z->page_size;
	}
	while (!c->loaded) {
		if (c->ppos >= c->plen) {
			int r = load_chunk(z, c);

			if (r <= 0) {
				if (r < 0)
					c->failed = true;
				return false;
			}
		}
		/* a damaged page header would send the walk past the chunk */
		if (!gpulat__page_ok(z->tep, c->blk.out + c->ppos, z->page_size)) {
			c->failed = true;
			return false;
		}
		if (!gpulat__pgw_load(w, c->blk.out + c->ppos, (uint32_t)z->page_size)) {
			c->ppos += (size_t)z->page_size;
			continue;
		}
		c->loaded = true;
		c->poff = -1;
	}
	/*
	 * Records of one page come at rising offsets. A damaged length (taken
	 * as a negative one) sends the walk back on its page for ever (F7):
	 * stop the CPU, the run fails.
	 */
	if ((int)(w->curr + w->start) <= c->poff) {
		c->looped = true;
		return false;
	}
	c->poff = (int)(w->curr + w->start);
	memset(&c->rec, 0, sizeof(c->rec));
	c->rec.ts = w->ts;
	c->rec.size = (int)(w->next - w->index);
	c->rec.record_size = (int)(w->next - w->curr);
	c->rec.cpu = c->id;
	c->rec.data = (void *)(w->data + w->index);
	c->rec.offset = c->vbase + c->ppos + w->start + w->curr;
	c->rec.missed_events = gpulat__pgw_missed(w);
	c->rec.ref_count = 1;
	c->have = true;
	return true;
}

/* a v6 file's CPUs from its flyrecord table; -1: libtracecmd reads it */
static int init_raw(struct gpulat__zfile *z, const struct rfile *f)
{
	int i;

	if (f->shifts || !f->span || f->nspan != z->ncpu)
		return -1;
	for (i = 0; i < z->ncpu; i++) {
		struct zcpu *c = &z->cpu[i];

		/*
		 * libtracecmd 1.3.1 maps each CPU's data and cannot read a CPU
		 * whose data starts off a page boundary (init_cpu() fails, F3):
		 * neither does this path, the file gets libtracecmd's error
		 */
		if (f->span[i].size % (uint64_t)z->page_size ||
		    (f->span[i].size && f->span[i].off % (uint64_t)z->page_size))
			return -1;
		c->id = i;
		c->bytes = f->span[i].size;
		if (!c->bytes)
			continue;
		c->next_off = f->span[i].off;
		c->raw_left = c->bytes;
		/* rec.offset: the file offset, as libtracecmd gives it */
		c->vbase = c->next_off;
		set_walker(z, c);
	}
	z->raw = true;
	return 0;
}

/**
 * gpulat__zfile_open - read @f's CPU data ourselves, if it is zstd-compressed
 *	or an uncompressed v6 file
 * @f: an opened file (f->h has its headers and options)
 *
 * Return: the reader, each CPU on its first record, or NULL when the file
 * is not one this path reads (the caller then uses libtracecmd).
 */
struct gpulat__zfile *gpulat__zfile_open(struct rfile *f)
{
	const char *name = NULL, *ver = NULL;
	struct gpulat__zfile *z;
	uint64_t fly = 0;
	bool raw = false;
	int i;

	if (tracecmd_get_file_compress_proto(f->h, &name, &ver) || !name || strcmp(name, "zstd")) {
		if (!f->span)
			return NULL;
		raw = true;
	}
	/* the ring buffer of Linux 2.6.30 and before (old format): libtracecmd's */
	if (tep_get_header_timestamp_size(f->tep) != 8 || tep_is_old_format(f->tep) ||
	    f->page_size <= 0 || f->cpus <= 0)
		return NULL;
	z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	z->tep = f->tep;
	z->long8 = tracecmd_long_size(f->h) != 4;
	z->page_size = f->page_size;
	z->ncpu = f->cpus;
	z->cpu = calloc(z->ncpu, sizeof(*z->cpu));
	/* an uncompressed file needs no decompression context (~95 KiB) */
	z->dctx = raw ? NULL : ZSTD_createDCtx();
	if (z->fd < 0 || !z->cpu || (!raw && !z->dctx))
		goto fail;
	for (i = 0; i < z->ncpu; i++) {
		z->cpu[i].id = -1;
		z->cpu[i].dctx = z->dctx;
	}
	if (raw ? init_raw(z, f) :
		  parse_options(z, tracecmd_get_options_offset(f->h), &fly) || init_cpus(z, fly))
		goto fail;
	for (i = 0; i < z->ncpu; i++) {
		if (z->cpu[i].on)
			advance(z, &z->cpu[i]);
		if (z->cpu[i].failed)
			goto fail;
	}
	return z;
fail:
	gpulat__zfile_close(z);
	return NULL;
}

/* the CPU's current record, NULL at its end */
struct tep_record *gpulat__zfile_head(struct gpulat__zfile *z, int cpu)
{
	if (cpu < 0 || cpu >= z->ncpu || !z->cpu[cpu].have)
		return NULL;
	return &z->cpu[cpu].rec;
}

/* move the CPU on to its next record */
void gpulat__zfile_next(struct gpulat__zfile *z, int cpu)
{
	if (cpu >= 0 && cpu < z->ncpu && z->cpu[cpu].have)
		advance(z, &z->cpu[cpu]);
}

/*
 * The run's verdict on the CPU data read here, after the merge: the first
 * file with a CPU stopped decides. -ELOOP when records ran back on their
 * page (F7; @r->looped names the file), else -EIO when a chunk could not be
 * read or decompressed (@r->zfailed names the file); 0 when every CPU read
 * to its end.
 */
int gpulat__zfile_result(struct gpulat_reader *r)
{
	int i, c;

	for (i = 0; i < r->n; i++) {
		const struct gpulat__zfile *z = r->f[i].z;
		bool failed = false;

		for (c = 0; z && c < z->ncpu; c++) {
			if (z->cpu[c].looped) {
				r->looped = r->f[i].path;
				return -ELOOP;
			}
			failed |= z->cpu[c].failed;
		}
		if (failed) {
			r->zfailed = r->f[i].path;
			return -EIO;
		}
	}
	return 0;
}

/* bytes of the CPU's compressed data (0: none), to share CPUs among threads */
uint64_t gpulat__zfile_bytes(const struct gpulat__zfile *z, int cpu)
{
	return cpu >= 0 && cpu < z->ncpu ? z->cpu[cpu].bytes : 0;
}

/*
 * decompress the CPU's chunks with @dctx (a thread's own; NULL: the file's)
 * from now on; the caller keeps @dctx until it closes @z or sets another
 */
void gpulat__zfile_set_dctx(struct gpulat__zfile *z, int cpu, ZSTD_DCtx *dctx)
{
	if (cpu >= 0 && cpu < z->ncpu)
		z->cpu[cpu].dctx = dctx ? dctx : z->dctx;
}

void gpulat__zfile_close(struct gpulat__zfile *z)
{
	int i;

	if (!z)
		return;
	for (i = 0; z->cpu && i < z->ncpu; i++) {
		free(z->cpu[i].blk.zbuf);
		free(z->cpu[i].blk.out);
	}
	free(z->cpu);
	if (z->dctx)
		ZSTD_freeDCtx(z->dctx);
	if (z->fd >= 0)
		close(z->fd);
	free(z);
}
