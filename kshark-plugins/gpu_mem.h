/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpu_jobs - KernelShark plugin: memory for the plugin's big tables (gpu_mem.c).
 * Sizes are the caller's to keep: free and grow take the size last given.
 */
#ifndef _GPU_MEM_H
#define _GPU_MEM_H

#include <stdbool.h>
#include <stddef.h>

/* one transparent huge page: the maps' alignment and the unit they grow by */
#define GPUJOB_MEM_HUGE (2u << 20)

bool gpujob_mem_mapped(void);
void *gpujob_mem_alloc(size_t size);
void *gpujob_mem_grow(void *p, size_t old, size_t size);
void gpujob_mem_free(void *p, size_t size);

#endif /* _GPU_MEM_H */
