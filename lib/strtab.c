// SPDX-License-Identifier: LGPL-2.1
/*
 * String interning: one copy of each distinct string, stable until the table
 * is freed, so that equal names compare equal by pointer inside one table.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-escape.h"
#include "gpulat-int.h"

struct strent {
	struct gpulat__hnode	node;
	uint32_t		len;
	uint32_t		id;	/* gpulat__strtab_id(): index in byid */
	char			s[];
};

#define MEMO	64	/* gpulat__strtab_intern(): caller pointer -> interned copy */

struct memo {
	const char		*in;	/* the caller's pointer */
	const char		*out;	/* what it interned to */
};

struct gpulat__strtab {
	struct gpulat__htab	h;
	struct memo		memo[MEMO];
	/* id -> string: records name a string by a 32-bit id (gpulat__strtab_id()) */
	const char		**byid;
	uint32_t		nid, capid;
};

/* 8 bytes at a time: ring, device and timeline names are short */
static uint64_t hash_len(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;
	size_t i;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, sizeof(w));
		h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
		h ^= h >> 29;
	}
	for (w = 0, i = 0; i < len; i++)
		w |= (uint64_t)(unsigned char)s[i] << (8 * i);
	h = (h ^ w) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

struct gpulat__strtab *gpulat__strtab_new(void)
{
	struct gpulat__strtab *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	if (gpulat__htab_init(&st->h, 64)) {
		free(st);
		return NULL;
	}
	return st;
}

void gpulat__strtab_free(struct gpulat__strtab *st)
{
	struct gpulat__hiter it = { 0 };
	struct gpulat__hnode *n;

	if (!st)
		return;
	while ((n = gpulat__htab_iter(&st->h, &it)))
		free(gpulat_container_of(n, struct strent, node));
	gpulat__htab_fini(&st->h);
	free(st->byid);
	free(st);
}

const char *gpulat__strtab_intern_len(struct gpulat__strtab *st, const char *s, size_t len)
{
	struct gpulat__hnode *n;
	struct strent *e;
	uint64_t h;

	if (!s)
		return NULL;
	len = strnlen(s, len);
	if (len > UINT32_MAX)
		return NULL;
	h = hash_len(s, len);
	for (n = gpulat__htab_find(&st->h, h, len); n; n = gpulat__htab_next(n)) {
		e = gpulat_container_of(n, struct strent, node);
		if (!memcmp(e->s, s, len))
			return e->s;
	}
	if (st->nid == st->capid) {
		uint32_t cap = st->capid ? st->capid * 2 : 64;
		const char **nb = cap > st->capid ? realloc(st->byid, cap * sizeof(*nb)) : NULL;

		if (!nb)
			return NULL;
		st->byid = nb;
		st->capid = cap;
	}
	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	e->len = (uint32_t)len;
	memcpy(e->s, s, len);
	e->s[len] = '\0';
	if (gpulat__htab_insert(&st->h, &e->node, h, len)) {
		free(e);
		return NULL;
	}
	e->id = st->nid;
	st->byid[st->nid++] = e->s;
	return e->s;
}

const char *gpulat__strtab_intern(struct gpulat__strtab *st, const char *s)
{
	struct memo *m;
	const char *r;

	if (!s)
		return NULL;
	/*
	 * Callers intern the same pointer again and again (the binding's
	 * strings carried by every event, job fields). The same pointer
	 * holding the same bytes interns to the same string; the strcmp()
	 * keeps this exact for any caller buffer.
	 */
	m = &st->memo[((uintptr_t)s >> 3) % MEMO];
	if (m->in == s && !strcmp(s, m->out))
		return m->out;
	r = gpulat__strtab_intern_len(st, s, strlen(s));
	if (r) {
		m->in = s;
		m->out = r;
	}
	return r;
}

/* the id of @s, a string this table returned (O(1): stored before it) */
uint32_t gpulat__strtab_id(const char *s)
{
	return ((const struct strent *)(s - offsetof(struct strent, s)))->id;
}

/* the string of @id, from gpulat__strtab_id() on this table */
const char *gpulat__strtab_str(const struct gpulat__strtab *st, uint32_t id)
{
	return st->byid[id];
}

/**
 * gpulat__strtab_intern_name - intern a name from a trace in its display form
 * @st: the table
 * @raw: the bytes (ring, device, timeline, driver, comm)
 * @len: at most this many, up to the first NUL
 *
 * The TEXT form of gpulat-escape.h (control bytes and invalid UTF-8 as \xNN,
 * a backslash as \\): every front end then shows one spelling, and no
 * trace can put an escape sequence or a line break into a report, a warning
 * or a JSON/CSV field. The escaping is one to one, so names that differ stay
 * different (linking keys are unchanged). A caller caching by raw bytes must
 * only cache results equal to them.
 *
 * Return: the interned copy, NULL on ENOMEM.
 */
const char *gpulat__strtab_intern_name(struct gpulat__strtab *st, const char *raw, size_t len)
{
	size_t n = strnlen(raw, len), i;
	char small[256], *e;
	const char *s;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)raw[i];

		if (ch < 0x20 || ch >= 0x7f || ch == '\\')
			break;
	}
	if (i == n)
		return gpulat__strtab_intern_len(st, raw, n);
	e = gpulat_escape_buf(small, sizeof(small), raw, n, GPULAT_ESC_TEXT);
	if (!e)
		return NULL;
	s = gpulat__strtab_intern(st, e);
	if (e != small)
		free(e);
	return s;
}
