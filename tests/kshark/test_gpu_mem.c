// SPDX-License-Identifier: LGPL-2.1
/*
 * test_gpu_mem: the plugin's big-table memory (kshark-plugins/gpu_mem.c).
 *
 * Checked: a table is zero-filled; growing it keeps every byte written before
 * (across a move, since the first table is pinned by a neighbour), the grown part
 * is zero; sizes past the address space fail with NULL. Where the tables are maps
 * (not under ASan or valgrind, which get malloc()ed tables): 2 MiB aligned, a grow
 * within 2 MiB stays in place, and the map carries the huge page advice (the "hg"
 * flag of /proc/self/smaps) where the kernel has transparent huge pages.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_mem.h"

#define MiB (1u << 20)

static int failures;

#define FAIL(...)                                      \
	do {                                           \
		fprintf(stderr, "FAIL: " __VA_ARGS__); \
		failures++;                            \
	} while (0)

/* the VmFlags line of the map holding @p, or "" */
static void vm_flags(const void *p, char *out, size_t len)
{
	char line[512];
	bool in = false;
	FILE *f = fopen("/proc/self/smaps", "r");

	*out = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 &&
		    strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			snprintf(out, len, "%s", line + 8);
			break;
		}
	}
	fclose(f);
}

static bool has_flag(const char *flags, const char *flag)
{
	char buf[512], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", flags);
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, flag))
			return true;
	return false;
}

static bool zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int main(void)
{
	size_t small = 100 * 1000, big = 5 * MiB + 123, i;
	bool mapped = gpujob_mem_mapped();
	bool thp = mapped && access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
	unsigned char *a, *b, *g;
	char flags[512];

	a = gpujob_mem_alloc(small);
	if (!a) {
		FAIL("alloc of %zu bytes failed\n", small);
		return 1;
	}
	if (mapped && (uintptr_t)a % (2 * MiB))
		FAIL("table at %p is not 2 MiB aligned\n", (void *)a);
	if (!zero(a, small))
		FAIL("a new table is not zero-filled\n");
	vm_flags(a, flags, sizeof(flags));
	if (mapped && !*flags)
		FAIL("no map holds the table in /proc/self/smaps\n");
	else if (thp && !has_flag(flags, "hg"))
		FAIL("no huge page advice on the table (VmFlags:%s)\n", flags);
	for (i = 0; i < small; i++)
		a[i] = (unsigned char)(i * 7 + 1);

	/* a neighbour right after the first 2 MiB: growing cannot stay in place */
	b = gpujob_mem_alloc(1);

	/* within the same 2 MiB: the same table */
	g = gpujob_mem_grow(a, small, 2 * small);
	if (!g) {
		FAIL("grow to %zu bytes failed\n", 2 * small);
		return 1;
	}
	if (mapped && g != a)
		FAIL("growing within 2 MiB moved the table\n");
	for (i = 0; i < small; i++)
		if (g[i] != (unsigned char)(i * 7 + 1)) {
			FAIL("byte %zu changed by the first grow\n", i);
			break;
		}
	if (!zero(g + small, small))
		FAIL("the first grown part is not zero-filled\n");
	g = gpujob_mem_grow(g, 2 * small, big);
	if (!g) {
		FAIL("grow to %zu bytes failed\n", big);
		return 1;
	}
	if (mapped && (uintptr_t)g % (2 * MiB))
		FAIL("grown table at %p is not 2 MiB aligned\n", (void *)g);
	for (i = 0; i < small; i++)
		if (g[i] != (unsigned char)(i * 7 + 1)) {
			FAIL("byte %zu changed by the grow\n", i);
			break;
		}
	if (!zero(g + small, big - small))
		FAIL("the grown part is not zero-filled\n");
	vm_flags(g + big - 1, flags, sizeof(flags));
	if (thp && !has_flag(flags, "hg"))
		FAIL("no huge page advice on the grown table's end (VmFlags:%s)\n", flags);
	g[big - 1] = 1;

	if (gpujob_mem_alloc(SIZE_MAX - MiB))
		FAIL("an allocation past the address space did not fail\n");
	if (gpujob_mem_alloc(0))
		FAIL("a zero-sized allocation did not fail\n");

	gpujob_mem_free(g, big);
	gpujob_mem_free(b, 1);
	gpujob_mem_free(NULL, 0);
	if (failures)
		return 1;
	printf("gpu_mem: zero fill, grow%s ok\n", !mapped ? " (malloc()ed under a memory checker)" :
						  thp	  ? ", alignment, huge page advice" :
							    ", alignment (no THP)");
	return 0;
}
