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

/* append one cell; rows wrap after ncols cells */
void gl_table_cell(struct gl_table *t, const char *fmt, ...)
{
	size_t col = t->ncells % t->ncols;
	va_list ap;
	char *s;
	int len;

	if (t->err)
		return;
	if (t->ncells == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **tmp = realloc(t->cells, cap * sizeof(*tmp));

		if (!tmp) {
			t->err = -ENOMEM;
			return;
		}
		t->cells = tmp;
		t->cap = cap;
	}
	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0) {
		t->err = -ENOMEM;
		return;
	}
	t->cells[t->ncells++] = s;
	if ((size_t)len > t->width[col])
		t->width[col] = (size_t)len;
}

size_t gl_table_rows(const struct gl_table *t)
{
	return t->ncols ? t->ncells / t->ncols : 0;
}

static void print_row(const struct gl_table *t, FILE *out, const char *indent,
		      const char * const *cells)
{
	size_t i, last = t->ncols - 1;

	fputs(indent, out);
	for (i = 0; i < t->ncols; i++) {
		const char *c = cells[i] ? cells[i] : "";
		int w = (int)t->width[i];

		if (t->align[i] == 'r')
			fprintf(out, "%*s", w, c);
		else if (i == last)
			fputs(c, out);		/* no trailing blanks */
		else
			fprintf(out, "%-*s", w, c);
		if (i != last)
			fputs("  ", out);
	}
	fputc('\n', out);
}

int gl_table_print(const struct gl_table *t, FILE *out, const char *indent)
{
	size_t r, rows = gl_table_rows(t);

	if (t->err)
		return t->err;
	if (t->head[0])
		print_row(t, out, indent, t->head);
	for (r = 0; r < rows; r++)
		print_row(t, out, indent, (const char * const *)&t->cells[r * t->ncols]);
	return 0;
}

void gl_table_free(struct gl_table *t)
{
	size_t i;

	for (i = 0; i < t->ncells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
