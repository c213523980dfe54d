/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat internal helpers: string interning and an intrusive hash table.
 * Nothing here is exported; every symbol is hidden in the static library's
 * users by the gpulat__ prefix (internal, not part of the API).
 */
#ifndef _GPULAT_INT_H
#define _GPULAT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "gpulat.h"

#define GPULAT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define gpulat_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* ---- string table: equal strings share one pointer until the table is freed */

struct gpulat__strtab;

struct gpulat__strtab *gpulat__strtab_new(void);
void gpulat__strtab_free(struct gpulat__strtab *st);
/* intern @len bytes of @s (need not be NUL terminated); NULL on ENOMEM */
const char *gpulat__strtab_intern_len(struct gpulat__strtab *st, const char *s, size_t len);
const char *gpulat__strtab_intern(struct gpulat__strtab *st, const char *s);

/* ---- intrusive chained hash table keyed by two u64 ------------------------ */

struct gpulat__hnode {
	struct gpulat__hnode	*next;
	uint64_t		k1;
	uint64_t		k2;
};

struct gpulat__htab {
	struct gpulat__hnode	**b;
	size_t			nb;	/* power of two */
	size_t			n;
};

int gpulat__htab_init(struct gpulat__htab *h, size_t nb);
void gpulat__htab_fini(struct gpulat__htab *h);
/* inserts at the head of its chain: gpulat__htab_find returns the newest first */
int gpulat__htab_insert(struct gpulat__htab *h, struct gpulat__hnode *n,
			uint64_t k1, uint64_t k2);
struct gpulat__hnode *gpulat__htab_find(const struct gpulat__htab *h, uint64_t k1, uint64_t k2);
/* next node after @n with the same keys */
struct gpulat__hnode *gpulat__htab_next(const struct gpulat__hnode *n);
void gpulat__htab_remove(struct gpulat__htab *h, struct gpulat__hnode *n);

uint64_t gpulat__hash_str(const char *s);

#endif /* _GPULAT_INT_H */
