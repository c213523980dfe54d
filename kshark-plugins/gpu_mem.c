// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu_jobs - KernelShark plugin: memory for the plugin's big tables.
 *
 * The collected records, their payload copies and the job table are tens of MB
 * on a 1 M-event trace, all of it touched once, page by page, while KernelShark
 * waits for its first picture. On these VMs a first touch of a 4 KiB page costs
 * ~2.8 us (the kernel's clear_page plus the fault; a 2 MiB transparent huge page
 * costs the equivalent of ~0.4 us per 4 KiB), and perf put those faults at about
 * half of the plugin's CPU time on dense-1M. So the big tables live in anonymous
 * maps aligned to 2 MiB with MADV_HUGEPAGE (THP "madvise" mode, Debian's
 * default). Where huge pages are off, the advice fails and the maps are plain
 * 4 KiB pages: the same memory, the same contents.
 *
 * Under ASan and valgrind the tables are malloc()ed instead: a map rounded up to
 * 2 MiB would hide an overrun of a table from them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif

#include "gpu_mem.h"

#if defined(__SANITIZE_ADDRESS__)
#define GPUJOB_MEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUJOB_MEM_ASAN 1
#endif
#endif

/* malloc()ed tables, for the memory checkers to see their bounds */
static bool mem_checked(void)
{
#ifdef GPUJOB_MEM_ASAN
	return true;
#elif defined(RUNNING_ON_VALGRIND)
	return RUNNING_ON_VALGRIND;
#else
	return false;
#endif
}

static size_t mem_round(size_t size)
{
	return (size + GPUJOB_MEM_HUGE - 1) & ~(size_t)(GPUJOB_MEM_HUGE - 1);
}

/* @len bytes (a multiple of 2 MiB) at a 2 MiB boundary, huge pages advised */
static void *mem_map(size_t len)
{
	uintptr_t p, a;
	void *m;

	/* over-map by 2 MiB and cut both ends: mmap() aligns to 4 KiB only */
	m = mmap(NULL, len + GPUJOB_MEM_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	p = (uintptr_t)m;
	a = (p + GPUJOB_MEM_HUGE - 1) & ~(uintptr_t)(GPUJOB_MEM_HUGE - 1);
	if (a > p)
		munmap(m, a - p);
	/* a < p + 2 MiB: there is always a tail */
	munmap((void *)(a + len), p + GPUJOB_MEM_HUGE - a);
	/* advice only: EINVAL where THP is compiled out, harmless */
	madvise((void *)a, len, MADV_HUGEPAGE);
	return (void *)a;
}

/** gpujob_mem_mapped - the tables are 2 MiB-aligned maps (false: malloc()ed, under a checker) */
bool gpujob_mem_mapped(void)
{
	return !mem_checked();
}

/**
 * gpujob_mem_alloc - zero-filled memory for a big table
 * @size: bytes (> 0)
 *
 * Return: the memory (2 MiB aligned when gpujob_mem_mapped()), or NULL (errno ENOMEM).
 */
void *gpujob_mem_alloc(size_t size)
{
	if (!size || size > SIZE_MAX - 2 * GPUJOB_MEM_HUGE) {
		errno = ENOMEM;
		return NULL;
	}
	if (mem_checked())
		return calloc(1, size);
	return mem_map(mem_round(size));
}

/**
 * gpujob_mem_grow - give a table more room, keeping its contents
 * @p: gpujob_mem_alloc()'s memory, or NULL
 * @old: the size it was allocated or last grown with (0 with @p NULL)
 * @size: the new size (>= @old)
 *
 * The pages already touched move to the new place (mremap(), no copy, no new
 * fault); on failure @p is unchanged and still owned by the caller.
 * Return: the memory, or NULL (errno ENOMEM).
 */
void *gpujob_mem_grow(void *p, size_t old, size_t size)
{
	size_t o = mem_round(old);
	void *n;

	if (!p)
		return gpujob_mem_alloc(size);
	if (size <= old)
		return p;
	if (mem_checked()) {
		n = realloc(p, size);
		if (n)
			memset((char *)n + old, 0, size - old);
		return n;
	}
	if (mem_round(size) == o)
		return p;
	n = gpujob_mem_alloc(size);
	if (!n)
		return NULL;
	/* onto the start of the new map, which keeps the 2 MiB alignment */
	if (mremap(p, o, o, MREMAP_MAYMOVE | MREMAP_FIXED, n) == MAP_FAILED) {
		memcpy(n, p, old);
		munmap(p, o);
	}
	madvise(n, mem_round(size), MADV_HUGEPAGE);
	return n;
}

/**
 * gpujob_mem_free - release a table
 * @p: gpujob_mem_alloc() / gpujob_mem_grow()'s memory, or NULL
 * @size: the size it was allocated or last grown with
 */
void gpujob_mem_free(void *p, size_t size)
{
	if (p && mem_checked())
		free(p);
	else if (p)
		munmap(p, mem_round(size));
}
