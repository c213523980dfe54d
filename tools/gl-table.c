// SPDX-License-Identifier: LGPL-2.1
/*
 * Aligned text tables: cells are collected, column widths measured, then the
 * table is printed with text columns left-aligned and numbers right-aligned.
 * Tables hold groups (rings, processes, worst jobs), never one row per event.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gl-table.h"

void gl_table_init(struct gl_table *t, const char *align, const char * const *head)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->ncols = strlen(align);
	if (t->ncols > GL_TABLE_MAXCOLS)
		t->ncols = GL_TABLE_MAXCOLS;
	for (i = 0; i < t->ncols; i++) {
		t->align[i] = align[i];
		t->head[i] = head ? head[i] : NULL;
		t->width[i] = t->head[i] ? strlen(t->head[i]) : 0;
	}
}

#define GL_TBLOCK	(64 * 1024)

/* room for @n bytes of cell text, or NULL */
static char *cell_room(struct gl_table *t, size_t n)
{
	struct gl_tblock *b = t->blocks;

	if (!b || b->cap - b->used < n) {
		size_t cap = n > GL_TBLOCK ? n : GL_TBLOCK;

		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->used = 0;
		b->cap = cap;
		b->next = t->blocks;
		t->blocks = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

/*
 * append one cell; rows wrap after ncols cells. "%s" and "%llu" (most
 * cells) are copied and converted here, any other format goes through
 * vsnprintf: 10^4 processes' tables took 10 % of the run in vasprintf,
 * malloc and free before.
 */
void gl_table_cell(struct gl_table *t, const char *fmt, ...)
{
	size_t col = t->ncells % t->ncols;
	char tmp[256], *s;
	va_list ap, ap2;
	size_t len;
	int n;

	if (t->err)
		return;
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **nc = realloc(t->cells, cap * sizeof(*nc));

		if (!nc) {
			t->err = -ENOMEM;
			return;
		}
		t->cells = nc;
		t->cap = cap;
	}
	va_start(ap, fmt);
	if (!strcmp(fmt, "%s")) {
		const char *a = va_arg(ap, const char *);

		if (!a)
			a = "(null)";	/* as glibc's printf */
		len = strlen(a);
		s = cell_room(t, len + 1);
		if (s)
			memcpy(s, a, len + 1);
	} else if (!strcmp(fmt, "%llu")) {
		unsigned long long v = va_arg(ap, unsigned long long);
		char *p = tmp + sizeof(tmp);

		*--p = '\0';
		do {
			*--p = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		len = (size_t)(tmp + sizeof(tmp) - 1 - p);
		s = cell_room(t, len + 1);
		if (s)
			memcpy(s, p, len + 1);
	} else {
		va_copy(ap2, ap);
		n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
		if (n < 0) {
			va_end(ap2);
			va_end(ap);
			t->err = -ENOMEM;
			return;
		}
		len = (size_t)n;
		s = cell_room(t, len + 1);
		if (s && len < sizeof(tmp))
			memcpy(s, tmp, len + 1);
		else if (s)
			vsnprintf(s, len + 1, fmt, ap2);
		va_end(ap2);
	}
	va_end(ap);
	if (!s) {
		t->err = -ENOMEM;
		return;
	}
	t->cells[t->ncells++] = s;
	if (len > t->width[col])
		t->width[col] = len;
}

size_t gl_table_rows(const struct gl_table *t)
{
	return t->ncols ? t->ncells / t->ncols : 0;
}

/*
 * one row into @line (sized by gl_table_print()), then one fwrite: what
 * fprintf "%*s" / "%-*s" printed per cell, without a format parsed per cell
 */
static void print_row(const struct gl_table *t, FILE *out, char *line, const char *indent,
		      const char * const *cells)
{
	size_t i, last = t->ncols - 1, k = strlen(indent);
	char *p = line;

	memcpy(p, indent, k);
	p += k;
	for (i = 0; i < t->ncols; i++) {
		const char *c = cells[i] ? cells[i] : "";
		size_t w = t->width[i], n = strlen(c);

		if (t->align[i] == 'r' && n < w) {
			memset(p, ' ', w - n);
			p += w - n;
		}
		memcpy(p, c, n);
		p += n;
		/* no trailing blanks */
		if (t->align[i] != 'r' && i != last && n < w) {
			memset(p, ' ', w - n);
			p += w - n;
		}
		if (i != last) {
			*p++ = ' ';
			*p++ = ' ';
		}
	}
	*p++ = '\n';
	fwrite(line, 1, (size_t)(p - line), out);
}

int gl_table_print(const struct gl_table *t, FILE *out, const char *indent)
{
	size_t i, r, rows = gl_table_rows(t), len = strlen(indent) + 1;
	char *line;

	if (t->err)
		return t->err;
	/* the widest row: every cell at its column's width, two blanks between */
	for (i = 0; i < t->ncols; i++)
		len += t->width[i] + 2;
	line = malloc(len);
	if (!line)
		return -ENOMEM;
	if (t->head[0])
		print_row(t, out, line, indent, t->head);
	for (r = 0; r < rows; r++)
		print_row(t, out, line, indent, (const char * const *)&t->cells[r * t->ncols]);
	free(line);
	return 0;
}

void gl_table_free(struct gl_table *t)
{
	struct gl_tblock *b, *next;

	for (b = t->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
