/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpu_jobs - KernelShark plugin: one merge sort for the plugin's small records.
 *
 * GPUJOB_DEFINE_MERGE_SORT(name, type, less) defines
 *
 *	static type *name(type *a, type *b, size_t n);
 *
 * a stable bottom-up merge sort of a[0..n) that uses b[0..n) as room and returns the
 * one of the two holding the result. @less(const type *, const type *) is inlined: for
 * 10^4..10^6 elements, qsort()'s callback was most of the cost (callgrind, kshark-load).
 * Two runs already in order are copied, so nearly sorted input (the plugin's usual
 * case) costs about one comparison per element and pass.
 */
#ifndef _GPU_SORT_H
#define _GPU_SORT_H

#include <stddef.h>
#include <string.h>

#define GPUJOB_DEFINE_MERGE_SORT(name, type, less)                                     \
	static type *name(type *a, type *b, size_t n)                                  \
	{                                                                              \
		type *t;                                                               \
		size_t i, w;                                                           \
                                                                                       \
		for (w = 1; w < n; w *= 2) {                                           \
			for (i = 0; i < n; i += 2 * w) {                               \
				size_t m = i + w < n ? i + w : n;                      \
				size_t r = i + 2 * w < n ? i + 2 * w : n;              \
				size_t p = i, q = m, k = i;                            \
                                                                                       \
				if (m == r || !less(&a[m], &a[m - 1])) {               \
					memcpy(b + i, a + i, (r - i) * sizeof(*a));    \
					continue;                                      \
				}                                                      \
				/* ties take the left run: stable */                   \
				while (p < m && q < r)                                 \
					b[k++] = less(&a[q], &a[p]) ? a[q++] : a[p++]; \
				while (p < m)                                          \
					b[k++] = a[p++];                               \
				while (q < r)                                          \
					b[k++] = a[q++];                               \
			}                                                              \
			t = a;                                                         \
			a = b;                                                         \
			b = t;                                                         \
		}                                                                      \
		return a;                                                              \
	}

#endif /* _GPU_SORT_H */
