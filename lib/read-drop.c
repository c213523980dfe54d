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
		if (!find_mapping(f, a, w)) {
			/* compressed or read() mode: nothing of ours to give back */
			f->mapped = GPULAT_MAP_NONE;
			w->start = w->end = 0;
			return;
		}
		f->mapped = GPULAT_MAP_FILE;
	}
	if (a - w->drop_from >= DROP_BATCH) {
		if (!madvise((void *)w->drop_from, a - w->drop_from, MADV_DONTNEED))
			f->r->c.dropped_bytes += a - w->drop_from;
		w->drop_from = a;
	}
}
