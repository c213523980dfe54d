// SPDX-License-Identifier: LGPL-2.1
/*
 * Escaping of strings that come from a trace (include/gpulat-escape.h says
 * the rules). One pass over the bytes, a unit at a time: a unit is one
 * output piece (a kept character, or the escape of one byte), and output
 * stops at the first unit that does not fit, so truncation never splits one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-escape.h"

struct out {
	char	*dst;
	size_t	len;		/* size of dst */
	size_t	wr;		/* bytes written to dst */
	size_t	pos;		/* bytes the whole output needs so far */
	bool	full;		/* a unit did not fit: nothing more is written */
};

static void put(struct out *o, const char *s, size_t n)
{
	if (!o->full && o->dst && o->wr + n < o->len) {
		memcpy(o->dst + o->wr, s, n);
		o->wr += n;
	} else {
		o->full = true;
	}
	o->pos += n;
}

/* "\xNN"; in JSON "\\xNN" (which a parser reads back as \xNN): one unit */
static void put_hex(struct out *o, unsigned char c, bool json)
{
	static const char hex[] = "0123456789abcdef";
	char b[5] = { '\\', '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(o, json ? b : b + 1, json ? 5 : 4);
}

/*
 * Length of the valid UTF-8 character at @s (at most @n bytes), 0 if the
 * bytes are not one: shortest form only, no surrogates, <= U+10FFFF
 * (RFC 3629). *@cp gets the code point.
 */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t k, len;
	uint32_t c;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	c = s[0] & (0x7f >> len);
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[k] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/*
 * Valid characters that still change what a terminal or an editor shows:
 * C1 controls (U+009B is CSI on terminals that take 8-bit controls), line and
 * paragraph separators, bidi embeddings/overrides/isolates ("Trojan Source").
 */
static bool hidden_control(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/* a spreadsheet would read the field as a formula (CSV injection) */
bool gpulat_esc_formula(const char *s, size_t n)
{
	if (!n)
		return false;
	switch (s[0]) {
	case '=':
	case '+':
	case '@':
	case '|':
		return true;
	case '-':
		/* "-bash" (a login shell's comm) is a name, "-1+2" or "-(" is not */
		return n == 1 || !((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z'));
	default:
		return false;
	}
}

static bool csv_needs_quotes(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	if (s[0] == ' ' || s[n - 1] == ' ')
		return true;
	for (i = 0; i < n; i++) {
		/* control bytes are escaped, so \r and \n never reach the field */
		if (s[i] == ',' || s[i] == '"')
			return true;
	}
	return false;
}

static void escape(struct out *o, const char *src, size_t n, enum gpulat_esc how)
{
	const unsigned char *s = (const unsigned char *)src;
	bool quote = false;
	uint32_t cp;
	size_t i, k, b;

	if (how == GPULAT_ESC_CSV) {
		quote = csv_needs_quotes(src, n);
		if (quote)
			put(o, "\"", 1);
		if (gpulat_esc_formula(src, n))
			put(o, "'", 1);
	}
	for (i = 0; i < n; i += k) {
		k = 1;
		if (s[i] == '\\') {
			/* "\\" in TEXT; JSON escapes both of its backslashes again */
			put(o, how == GPULAT_ESC_JSON ? "\\\\\\\\" : "\\\\",
			    how == GPULAT_ESC_JSON ? 4 : 2);
		} else if (s[i] == '"' && how != GPULAT_ESC_TEXT) {
			put(o, how == GPULAT_ESC_JSON ? "\\\"" : "\"\"", 2);
		} else if (s[i] >= 0x20 && s[i] < 0x7f) {
			put(o, src + i, 1);
		} else if (s[i] >= 0x80 && (k = utf8_len(s + i, n - i, &cp)) && !hidden_control(cp)) {
			put(o, src + i, k);
		} else {
			/* a control byte, or a byte of invalid or hidden UTF-8 */
			if (k == 0)
				k = 1;
			for (b = 0; b < k; b++)
				put_hex(o, s[i + b], how == GPULAT_ESC_JSON);
		}
	}
	if (quote)
		put(o, "\"", 1);
}

size_t gpulat_escape_n(char *dst, size_t len, const char *src, size_t n, enum gpulat_esc how)
{
	struct out o = { .dst = dst, .len = len };

	if (src)
		escape(&o, src, n, how);
	if (dst && len)
		dst[o.wr] = '\0';
	return o.pos;
}

size_t gpulat_escape(char *dst, size_t len, const char *src, enum gpulat_esc how)
{
	return gpulat_escape_n(dst, len, src, src ? strlen(src) : 0, how);
}

const char *gpulat_escape_text(char *buf, size_t len, const char *src)
{
	gpulat_escape(buf, len, src, GPULAT_ESC_TEXT);
	return buf;
}

char *gpulat_escape_buf(char *buf, size_t len, const char *src, size_t n, enum gpulat_esc how)
{
	size_t need = gpulat_escape_n(buf, len, src, n, how);
	char *big;

	if (need < len)
		return buf;
	big = malloc(need + 1);
	if (big)
		gpulat_escape_n(big, need + 1, src, n, how);
	return big;
}

int gpulat_escape_fputs(const char *src, enum gpulat_esc how, FILE *fp)
{
	char small[256], *s;
	int ret;

	s = gpulat_escape_buf(small, sizeof(small), src, src ? strlen(src) : 0, how);
	if (!s)
		return EOF;
	ret = fputs(s, fp);
	if (s != small)
		free(s);
	return ret;
}
