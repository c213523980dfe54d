/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Aligned text tables for the gpu-latency text report.
 */
#ifndef _GL_TABLE_H
#define _GL_TABLE_H

#include <stddef.h>
#include <stdio.h>

#define GL_TABLE_MAXCOLS	16

/* the cells' text, one block after another (no malloc per cell) */
struct gl_tblock {
	struct gl_tblock	*next;
	size_t			used, cap;
	char			data[];
};

struct gl_table {
	char		**cells;	/* into the blocks */
	struct gl_tblock *blocks;	/* the newest first */
	size_t		ncells;
	size_t		cap;
	size_t		ncols;
	size_t		width[GL_TABLE_MAXCOLS];
	const char	*head[GL_TABLE_MAXCOLS];
	char		align[GL_TABLE_MAXCOLS];	/* 'l' or 'r' */
	int		err;
};

/* @align: one 'l' or 'r' per column; @head: a header per column, or NULL */
void gl_table_init(struct gl_table *t, const char *align, const char * const *head);
void gl_table_cell(struct gl_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
size_t gl_table_rows(const struct gl_table *t);
int gl_table_print(const struct gl_table *t, FILE *out, const char *indent);
void gl_table_free(struct gl_table *t);

#endif /* _GL_TABLE_H */
