/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat escaping: the one way a string read from a trace (ring, device,
 * comm, timeline, driver, event and field names) is shown to a user.
 *
 * A trace.dat is untrusted input. Its strings may hold control bytes
 * (newlines that forge output lines, terminal escape sequences) and bytes
 * that are not UTF-8. Every front end writes them through these functions:
 *
 *   GPULAT_ESC_TEXT  printable UTF-8: printable ASCII and valid UTF-8
 *                    characters stay; a backslash becomes "\\"; control
 *                    bytes (0x00-0x1f, 0x7f), C1 controls (U+0080-U+009F),
 *                    line/paragraph separators and bidi overrides
 *                    (U+2028-U+202E, U+2066-U+2069) and every byte that is
 *                    not part of valid UTF-8 become "\xNN", one per byte
 *   GPULAT_ESC_JSON  the TEXT form as the body of a JSON string (`"` and
 *                    `\` escaped): a JSON parser gives back the TEXT form
 *   GPULAT_ESC_CSV   the TEXT form as one RFC 4180 field: quoted when it has
 *                    a comma, quote or space at either end; a field starting
 *                    like a spreadsheet formula (= + @ |, or - not followed
 *                    by a letter: "-bash" stays) gets a leading '
 *
 * A name without such bytes is unchanged in every form but CSV's formula
 * rule, so the same name reads the same in text, JSON and CSV output.
 */
#ifndef _GPULAT_ESCAPE_H
#define _GPULAT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gpulat_esc {
	GPULAT_ESC_TEXT,
	GPULAT_ESC_JSON,
	GPULAT_ESC_CSV,
};

/* bytes a buffer needs for any string of @n bytes in any form (with the NUL) */
#define GPULAT_ESC_SIZE(n)	(5 * (size_t)(n) + 4)

/**
 * gpulat_escape - escape @src into @dst
 * @dst: output, always NUL-terminated when @len > 0
 * @len: size of @dst
 * @src: the string (NULL is "")
 * @how: the form
 *
 * Truncation never splits an escape or a UTF-8 character (a CSV field that
 * does not fit loses its closing quote: size buffers with GPULAT_ESC_SIZE).
 *
 * Return: the length of the whole escaped string (like snprintf).
 */
size_t gpulat_escape(char *dst, size_t len, const char *src, enum gpulat_esc how);

/* the same for @n bytes at @src (NUL bytes included, escaped) */
size_t gpulat_escape_n(char *dst, size_t len, const char *src, size_t n, enum gpulat_esc how);

/*
 * gpulat_esc_formula - true when a spreadsheet would read the @n bytes at @s
 * as a formula (the CSV rule above): writers of strings that are already in
 * TEXT form (interned names) prefix such a field with '
 */
bool gpulat_esc_formula(const char *s, size_t n);

/**
 * gpulat_escape_buf - the whole escaped form of @n bytes at @src
 * @buf: used when the result fits
 * @len: its size
 *
 * Return: @buf, or a malloc'ed string (free it when it is not @buf); NULL
 * when out of memory.
 */
char *gpulat_escape_buf(char *buf, size_t len, const char *src, size_t n, enum gpulat_esc how);

/**
 * gpulat_escape_fputs - write @src escaped to @fp
 * Return: as fputs (non-negative, or EOF on error).
 */
int gpulat_escape_fputs(const char *src, enum gpulat_esc how, FILE *fp);

/**
 * gpulat_escape_text - the TEXT form in @buf, for printf's %s
 * Return: @buf.
 */
const char *gpulat_escape_text(char *buf, size_t len, const char *src);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_ESCAPE_H */
