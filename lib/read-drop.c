// SPDX-License-Identifier: LGPL-2.1
/*
 * Giving back the pages of an uncompressed trace file once they are read.
 *
 * libtracecmd (1.3.1 and later) reads an uncompressed file (v6, or v7
 * without compression) through mmap: one read-only private mapping per CPU
 * of that CPU's whole data (page_map_size is the largest power of two <= the
 * CPU's data size), kept while reading (for a v6 file not even unmapped by
 * tracecmd_close() in 1.3.1: read-unmap.c does it). Every page read stays in
 * the resident set, so peak memory grows with the trace. The reader drops the pages behind its
 * position with madvise(MADV_DONTNEED). That is invisible to libtracecmd:
 * a clean page of a read-only file mapping that is touched again is simply
 * read from the file again. It is only done after /proc/self/maps says the
 * address lies in a read-only private mapping of the very trace file (same
 * device and inode); anything else (compressed files, whose pages live in
 * malloc'ed memory) is left alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "read-int.h"

/* drop in steps of this much (one madvise each), so a CPU keeps about this much */
#define DROP_BATCH	(256u << 10)

/* the mapping holding @addr if it is a read-only private mapping of @f's file */
static bool find_mapping(const struct rfile *f, uintptr_t addr, struct gpulat__window *w)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char line[512], perms[8];
	bool found = false;
	FILE *fp;

	fp = fopen("/proc/self/maps", "r");
	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &off,
			   &maj, &min, &ino) != 7)
			continue;
		if (addr < start || addr >= end)
			continue;
		found = !strcmp(perms, "r--p") && maj == major(f->dev) && min == minor(f->dev) &&
			ino == (unsigned long long)f->ino;
		if (found) {
			w->start = (uintptr_t)start;
			w->end = (uintptr_t)end;
			w->drop_from = w->start;
		}
		break;
	}
	fclose(fp);
	return found;
}

/*
 * The CPU left @w's mapping for its next page map (libtracecmd reads a
 * CPU's pages in order): drop what was not dropped yet, or up to
 * DROP_BATCH of every page map read stays resident to the end, and their
 * number grows with the trace (v6-5M: 8 page maps, v6-500k: 5). Only when
 * the mapping is still the one of @w: a reopen (read-merge.c) closes the
 * old handle, whose maps read-unmap.c unmaps, and the range may hold
 * something else by now.
 */
static void drop_rest(struct rfile *f, struct gpulat__window *w)
{
	struct gpulat__window now;

	if (w->drop_from >= w->end || !find_mapping(f, w->drop_from, &now) ||
	    now.start != w->start || now.end != w->end)
		return;
	if (!madvise((void *)w->drop_from, w->end - w->drop_from, MADV_DONTNEED))
		f->r->c.dropped_bytes += w->end - w->drop_from;
	w->drop_from = w->end;
}

/**
 * gpulat__drop_behind - drop the pages of @f's mapping before @data
 * @f: the file
 * @w: the window of the CPU @data was read from
 * @data: a record's data, just read
 *
 * Sets f->mapped to GPULAT_MAP_FILE or GPULAT_MAP_NONE on the first call;
 * does nothing once it is GPULAT_MAP_NONE.
 */
void gpulat__drop_behind(struct rfile *f, struct gpulat__window *w, const void *data)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)data & ~(pg - 1);

	if (f->mapped == GPULAT_MAP_NONE)
		return;
	if (a < w->start || a >= w->end) {
		if (w->end > w->start)
			drop_rest(f, w);
		if (!find_mapping(f, a, w)) {
			/* compressed or read() mode: nothing of ours to give back */
			f->mapped = GPULAT_MAP_NONE;
			w->start = w->end = 0;
			return;
		}
		f->mapped = GPULAT_MAP_FILE;
		/*
		 * No PMD mapping of the rest: Linux 6.16+ keeps ext4 files in
		 * large folios, and a fault on a 2 MiB folio at an aligned address
		 * maps all of it (do_set_pmd(), not done when VM_NOHUGEPAGE is set
		 * since 6.12): 2 MiB resident per fault instead of 64 KiB of
		 * fault-around. Measured on v6-5M: peak RSS 12.95 -> 11.2 MiB.
		 */
		madvise((void *)w->start, w->end - w->start, MADV_NOHUGEPAGE);
	}
	if (a - w->drop_from >= DROP_BATCH) {
		if (!madvise((void *)w->drop_from, a - w->drop_from, MADV_DONTNEED))
			f->r->c.dropped_bytes += a - w->drop_from;
		w->drop_from = a;
	}
}
