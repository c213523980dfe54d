// SPDX-License-Identifier: LGPL-2.1
/*
 * The checks a trace.dat passes before libtracecmd and libtraceevent read it.
 *
 * A trace.dat is untrusted input. libtracecmd 1.3.1 trusts every count and
 * size in it: a flipped CPU count makes it calloc 16,777,217 x 184 bytes, a
 * page header whose commit size exceeds the page sends kbuffer past the
 * mapping (SIGSEGV in kbuffer_load_subbuffer under tracecmd_init_data /
 * tracecmd_peek_data), a broken format text crashes tep_parse_event (NULL
 * dereference under tracecmd_open_head), and a handle whose CPU data failed
 * to load cannot even be closed (read.c). So the file's structure is walked
 * here first, with every size checked against the file size:
 *
 *  - v6: header_page / header_event, the ftrace and event format texts, the
 *    kallsyms, printk and cmdlines sizes, the CPU count, the options, the
 *    flyrecord CPU table (man 5 trace-cmd.dat.v6);
 *  - v7: every options section (compressed or not), the sections the
 *    options point to (header info, formats, kallsyms, printk, cmdlines),
 *    every BUFFER option's CPU table and, in compressed CPU data, every
 *    chunk header (man 5 trace-cmd.dat.v7);
 *  - format texts: printable ASCII, "name:", "ID:", "format:" and
 *    "print fmt:" present, brackets balanced in each field declaration,
 *    parentheses and brackets balanced outside string and character
 *    literals in the print format (the two libtraceevent 1.7.1 crashes of
 *    tests/fuzz/FINDINGS.md T1, T2 fail here), and every REC->field of the
 *    print format declared (T6), no division by a zero or non-number
 *    token (T7), no quote in a field declaration (T11);
 *  - printk formats: every line "address : format", with a newline (T8);
 *  - the options libtracecmd parses while it opens the file (clock, hook,
 *    strings, CPUSTAT, PROCMAPS, GUEST, TIME_SHIFT) and a v6 file's clock
 *    text after its CPU table: read-opts.c (T20-T23);
 *  - ring-buffer pages: the header of every page of uncompressed CPU data
 *    and of the first chunk of compressed CPU data (the pages libtracecmd
 *    loads while opening): commit size <= the page's data size, and a page
 *    that holds events has a non-zero timestamp. read-zstd.c checks the
 *    pages of later chunks before kbuffer loads them (gpulat__page_ok).
 *
 * What fails is one reason string; read.c turns it into the one-line
 * "truncated or damaged" error naming the file.
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>
#include <zstd.h>

#include "read-int.h"

/* sanity bounds; the largest real values are far below */
#define MAX_CPUS		8192		/* the kernel's NR_CPUS maximum */
#define MAX_META		(64u << 20)	/* one metadata section, uncompressed */
#define MAX_CHUNK		(64u << 20)	/* one compressed chunk of pages */
/*
 * A chunk that declares more than this times its compressed size is a
 * decompression bomb: libtracecmd 1.3.1 keeps every chunk it decompressed
 * (lib/README.md), so 64 MiB of empty pages in a 2 KB frame, repeated, took
 * ~80 MB of memory per KB of file (tests/damaged/hostile.py zbomb). Chunks
 * trace-cmd 3.1.6 writes are 10 pages; the sample traces compress 5-58x.
 */
#define MAX_CHUNK_RATIO		1024u
#define MAX_SYSTEMS		65536
#define MAX_EVENTS		65536
#define MAX_SECTIONS		256
#define PAGE_MIN		1024u
#define PAGE_MAX		(1u << 20)
#define COMMIT_MASK		((1u << 27) - 1)	/* kbuffer: the flags live above */
#define SCAN_BLOCK		(1u << 20)

struct chk {
	int		fd;
	const unsigned char *mem;	/* set: read a section's content, not the file */
	uint64_t	size;		/* of the file (or of mem) */
	bool		big;		/* big-endian numbers */
	bool		compressed;	/* v7 with a compressor other than "none" */
	uint32_t	page;		/* ring-buffer page size */
	unsigned int	lsize;		/* the file header's long size (4 or 8) */
	/* from header_page (defaults: 64-bit kernel) */
	unsigned int	commit_off, commit_size, data_off;
	char		*why;
	size_t		whylen;
	ZSTD_DCtx	*dctx;
	bool		want_span;	/* fill span: the v6 flyrecord CPU table */
	struct gpulat__cpuspan *span;
	int		nspan;
	bool		shifts;		/* v6: an option that changes timestamps */
	bool		clock_opt;	/* v6: a TRACECLOCK option (libtracecmd reads the clock text) */
	enum gpulat__clock clock;	/* v6: what the TRACECLOCK options left */
	bool		all_chunks;	/* decompress and check every chunk, not chunk 0 */
};

static int bad(struct chk *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct chk *c, const char *fmt, ...)
{
	va_list ap;

	if (c->why && c->whylen && !c->why[0]) {
		va_start(ap, fmt);
		vsnprintf(c->why, c->whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* @n bytes at @off, all inside the file */
static int rd(struct chk *c, uint64_t off, void *buf, size_t n)
{
	if (off > c->size || n > c->size - off)
		return -1;
	if (c->mem) {
		memcpy(buf, c->mem + off, n);
		return 0;
	}
	return gpulat__pread_full(c->fd, buf, n, off);
}

/* an @n-byte number at @p of a file in that byte order (also read-opts.c) */
uint64_t gpulat__file_num(const unsigned char *p, int n, bool big)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static uint64_t num(const struct chk *c, const unsigned char *p, int n)
{
	return gpulat__file_num(p, n, c->big);
}

static int rd_num(struct chk *c, uint64_t *off, int n, uint64_t *v)
{
	unsigned char b[8];

	if (rd(c, *off, b, (size_t)n))
		return -1;
	*v = num(c, b, n);
	*off += (uint64_t)n;
	return 0;
}

/* a NUL-terminated string of at most @max bytes at *@off into @buf (one read) */
static int rd_str(struct chk *c, uint64_t *off, char *buf, size_t max)
{
	const char *z;
	size_t n = max;

	if (*off >= c->size)
		return -1;
	if (n > c->size - *off)
		n = (size_t)(c->size - *off);
	if (!n || rd(c, *off, buf, n))
		return -1;
	z = memchr(buf, '\0', n);
	if (!z)
		return -1;
	*off += (uint64_t)(z - buf) + 1;
	return 0;
}

/* ---- format texts ------------------------------------------------------- */

static bool printable(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch != '\t' && ch != '\n' && (ch < 0x20 || ch > 0x7e))
			return false;
	}
	return true;
}

/* ( ) [ ] { } balanced in [s, e) outside "..." and '...' literals */
static bool balanced(const char *s, const char *e, bool literals)
{
	char stack[64];
	int depth = 0;
	char q = 0;

	for (; s < e; s++) {
		if (q) {
			if (*s == '\\' && s + 1 < e)
				s++;
			else if (*s == q)
				q = 0;
			continue;
		}
		if (literals && (*s == '"' || *s == '\'')) {
			q = *s;
		} else if (*s == '(' || *s == '[' || *s == '{') {
			if (depth == (int)sizeof(stack))
				return false;
			stack[depth++] = *s == '(' ? ')' : *s == '[' ? ']' : '}';
		} else if (*s == ')' || *s == ']' || *s == '}') {
			if (!depth || stack[--depth] != *s)
				return false;
		}
	}
	return !depth && !q;
}

/*
 * One memmem() per search, not a memcmp() per byte: under libFuzzer each
 * memcmp() call is intercepted and traced, and these scans over the
 * formats of every input were a third of fuzz_reader's CPU (perf, a
 * coverage-guided run of 3000 executions).
 */
static const char *find(const char *s, const char *e, const char *what)
{
	size_t n = strlen(what);

	if (s >= e)
		return NULL;
	return memmem(s, (size_t)(e - s), what, n);
}

/* @name (@len bytes) is declared as a field in [t, e): " name;" or " name[" */
static bool declared(const char *t, const char *e, const char *name, size_t len)
{
	const char *p = t + 1;

	while (p + len < e && (p = memmem(p, (size_t)(e - p), name, len)) && p + len < e) {
		if ((p[-1] == ' ' || p[-1] == '\t' || p[-1] == '*') &&
		    (p[len] == ';' || p[len] == '['))
			return true;
		p++;
	}
	return false;
}

/*
 * the value of every __print_flags() / __print_symbolic() names declared
 * fields only: libtraceevent 1.7.1 dereferences NULL for an unknown field
 * there (FINDINGS T6); elsewhere an unknown field is a layout the binding
 * reports itself. A kernel's formats always name their own fields.
 */
static bool fields_known(const char *t, const char *pf, const char *e)
{
	const char *p = pf, *q, *end;

	while ((p = find(p, e, "__print_"))) {
		/* the value runs to the flag delimiter or first symbol: a quote or '{' */
		for (end = p; end < e && *end != '"' && *end != '{'; end++)
			;
		while ((p = find(p, end, "REC->"))) {
			p += 5;
			for (q = p; q < end && (isalnum((unsigned char)*q) || *q == '_'); q++)
				;
			if (q == p || !declared(t, pf, p, (size_t)(q - p)))
				return false;
			p = q;
		}
		p = end;
	}
	return true;
}

/* [s, e) starts with a zero as strtoull(s, NULL, 0) reads it (s is a digit) */
static bool zero_number(const char *s, const char *e)
{
	int base = 10;

	if (*s == '0' && s + 2 < e && (s[1] == 'x' || s[1] == 'X') &&
	    isxdigit((unsigned char)s[2])) {
		s += 2;
		base = 16;
	} else if (*s == '0') {
		base = 8;
	}
	for (; s < e; s++) {
		if (base == 16 ? !isxdigit((unsigned char)*s) :
				 (*s < '0' || *s > (base == 8 ? '7' : '9')))
			break;
		if (*s != '0')
			return false;
	}
	return true;
}

static bool ident_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static const char *skip_space(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\n'))
		s++;
	return s;
}

/*
 * @s at a '"' or '\'' literal: its closing quote (backslash escapes skipped),
 * or the last byte before @e when it is not closed (a caller's s++ ends there)
 */
static const char *literal_end(const char *s, const char *e)
{
	char q = *s;

	for (s++; s < e && *s != q; s++) {
		if (*s == '\\' && s + 1 < e)
			s++;
	}
	return s < e ? s : e - 1;
}

/* [s, e) starts with the token @tok: not inside a longer identifier */
static bool at_token(const char *s, const char *b, const char *e, const char *tok)
{
	size_t n = strlen(tok);

	return s + n <= e && !memcmp(s, tok, n) && (s == b || !ident_char(s[-1])) &&
	       (s + n == e || !ident_char(s[n]));
}

/*
 * The value of every __print_flags( / __print_symbolic( starts with a field:
 * "REC->", after opening parentheses and "NUMBER <<"-like operands only (the
 * kernel's "(1 << REC->x)"). libtraceevent 1.7.1 sets a file-scope flag at
 * those names that only the next field reference clears; a value that names
 * no field, or fails to parse before its field, leaves it set for the NEXT
 * format parsed, whose first REC->name then dereferences NULL when that
 * field is not declared (FINDINGS T12: trace-cmd report dies too). Missing
 * fields elsewhere are layouts the binding reports, so this rule is on the
 * value. No format of Linux 6.1-6.18 here (5 380, whole-kernel sets
 * included) has anything else before its field.
 */
static bool print_values_ok(const char *pf, const char *e)
{
	const char *p, *q;

	for (p = pf; p < e; p++) {
		if (*p == '"' || *p == '\'') {
			p = literal_end(p, e);
			continue;
		}
		if (at_token(p, pf, e, "__print_flags"))
			q = p + 13;
		else if (at_token(p, pf, e, "__print_symbolic"))
			q = p + 16;
		else
			continue;
		q = skip_space(q, e);
		if (q == e || *q != '(')
			continue;	/* not a call: no flag */
		p = q;
		for (q = skip_space(q + 1, e); q < e;) {
			if (*q == '(') {
				q = skip_space(q + 1, e);
			} else if (isdigit((unsigned char)*q)) {
				while (q < e && isxdigit((unsigned char)*q))
					q++;
				if (q < e && (*q == 'x' || *q == 'X'))
					for (q++; q < e && isxdigit((unsigned char)*q); q++)
						;
				q = skip_space(q, e);
				if (q + 2 <= e && (!memcmp(q, "<<", 2) || !memcmp(q, ">>", 2)))
					q += 2;
				else if (q < e &&
					 (*q == '&' || *q == '|' || *q == '+' || *q == '*'))
					q++;
				else
					return false;
				q = skip_space(q, e);
			} else {
				break;
			}
		}
		if (!at_token(q, pf, e, "REC"))
			return false;
		q = skip_space(q + 3, e);
		if (q + 2 > e || q[0] != '-' || q[1] != '>')
			return false;
	}
	return true;
}

/*
 * libtraceevent 1.7.1 folds "A / B" and "A % B" while it parses a print fmt
 * when both sides are plain tokens (consolidate_op_arg(), unsigned, no check
 * of the divisor): a token that is zero or no number at all ("proc", a string
 * or character literal; strtoull() gives 0) kills the process with SIGFPE
 * (FINDINGS T7); at print time "REC->x / 0" does the same. So the divisor of
 * every / and % outside literals must be a field (REC->), a call or sizeof, a
 * cast, an expression (unary or in parentheses with an operator), or a
 * non-zero number. Kernel formats divide by non-zero constants only.
 */
static bool divisors_ok(const char *s, const char *e)
{
	const char *p, *q;
	bool paren;

	for (; s < e; s++) {
		if (*s == '"' || *s == '\'') {
			s = literal_end(s, e);
			continue;
		}
		if ((*s != '/' && *s != '%') || (s + 1 < e && s[1] == '='))
			continue;
		paren = false;
		for (p = s + 1;; p++) {
			p = skip_space(p, e);
			if (p >= e || *p != '(')
				break;
			paren = true;
		}
		if (p >= e)
			return true; /* nothing to divide by: libtraceevent's parse error */
		if (*p == '"' || *p == '\'')
			return false;
		if (e - p >= 5 && !memcmp(p, "REC->", 5))
			continue;
		for (q = p; q < e && ident_char(*q); q++)
			;
		if (q == p)
			continue; /* a unary operator: an expression, not folded */
		q = skip_space(q, e);
		if (q < e && *q == '(')
			continue; /* a call or sizeof() */
		if (paren && q < e && *q == ')') {
			q = skip_space(q + 1, e);
			/* "(type)item": a cast, not folded */
			if (q < e && (ident_char(*q) || *q == '(' || *q == '"' || *q == '\''))
				continue;
		}
		if (!isdigit((unsigned char)*p) || zero_number(p, e))
			return false;
	}
	return true;
}

/* @s at '(' or '[' of a balanced group (balanced() ran): just past its close */
static const char *group_end(const char *s, const char *e)
{
	int depth = 0;

	for (; s < e; s++) {
		if (*s == '"' || *s == '\'') {
			s = literal_end(s, e);
		} else if (*s == '(' || *s == '[' || *s == '{') {
			depth++;
		} else if (*s == ')' || *s == ']' || *s == '}') {
			if (!--depth)
				return s + 1;
		}
	}
	return e;
}

/*
 * Past the operand at @s as libtraceevent's process_arg() takes it: a
 * parenthesised group with the casts after it, REC->field, a name with the
 * call after it, or a string; NULL for anything else (a unary operator:
 * that path has an operand of its own).
 */
static const char *operand_end(const char *s, const char *e)
{
	const char *q;

	s = skip_space(s, e);
	if (s < e && *s == '(') {
		while (s < e && *s == '(') {
			s = skip_space(group_end(s, e), e);
			/* "(type)(x)" or "(type)x": a cast, the operand follows */
			if (s < e && ident_char(*s))
				return operand_end(s, e);
		}
		return s;
	}
	if (s < e && (*s == '"' || *s == '\''))
		return literal_end(s, e) + 1;
	if (s >= e || !ident_char(*s))
		return NULL;
	for (q = s; q < e && ident_char(*q); q++)
		;
	if (at_token(s, s, e, "REC")) {
		q = skip_space(q, e);
		if (q + 2 <= e && q[0] == '-' && q[1] == '>')
			for (q = skip_space(q + 2, e); q < e && ident_char(*q); q++)
				;
		return q;
	}
	q = skip_space(q, e);
	return q < e && *q == '(' ? group_end(q, e) : q;
}

/*
 * After "c ? a : b" and after "x[i]", libtraceevent 1.7.1's process_op()
 * has no right operand of its own, and hands an operator it does not know
 * (priority -1: "->", ".", "[", "]", "{", "}", "=", "+=", ";", "@", ...) to
 * itself with that NULL operand: NULL->type, SIGSEGV (FINDINGS T13;
 * trace-cmd report dies too). So what follows a conditional's else operand
 * and every ']' must be a delimiter, a name, or an operator it knows. No
 * format of Linux 6.1-6.18 here (6 686 print fmts) has anything else there.
 */
static bool next_op_known(const char *s, const char *e)
{
	s = skip_space(s, e);
	if (s >= e || ident_char(*s) || strchr("(),:?\"'", *s))
		return true;
	switch (*s) {
	case '-':
		return !(s + 1 < e && (s[1] == '>' || s[1] == '='));
	case '+':
	case '&':
	case '|':
		if (s + 1 < e && s[1] == *s)
			return true;	/* ++ && || */
		return !(s + 1 < e && s[1] == '=');
	case '<':
	case '>':
		/* << >> < > <= >= are known, <<= and >>= are not */
		return !(s + 2 < e && s[1] == *s && s[2] == '=');
	case '=':
		return s + 1 < e && s[1] == '=';
	case '!':
	case '~':
	case '*':
	case '/':
	case '%':
	case '^':
		return true;
	default:
		return false;
	}
}

/*
 * Each '?' scans ahead to its ':', so the conditionals are capped: kernel
 * print fmts have at most 6 (Linux 6.1-6.18 here); 256 bound the scans of a
 * hostile text to 256 passes.
 */
#define CHECK_CONDS_MAX	256

static bool operators_ok(const char *s, const char *e)
{
	const char *p, *q;
	int depth, conds, seen = 0;

	for (p = s; p < e; p++) {
		if (*p == '"' || *p == '\'') {
			p = literal_end(p, e);
			continue;
		}
		if (*p == ']') {
			if (!next_op_known(p + 1, e))
				return false;
			continue;
		}
		if (*p != '?')
			continue;
		if (++seen > CHECK_CONDS_MAX)
			return false;
		/* its ':' at the same depth, past nested conditionals */
		for (q = p + 1, depth = 0, conds = 1; q < e; q++) {
			if (*q == '"' || *q == '\'')
				q = literal_end(q, e);
			else if (*q == '(' || *q == '[' || *q == '{')
				depth++;
			else if (*q == ')' || *q == ']' || *q == '}')
				depth--;
			else if (!depth && *q == '?')
				conds++;
			else if (!depth && *q == ':' && !--conds)
				break;
			if (depth < 0)
				break;
		}
		if (q >= e || *q != ':')
			return true;	/* no else: libtraceevent stops there */
		q = operand_end(q + 1, e);
		if (q && !next_op_known(q, e))
			return false;
	}
	return true;
}

/* one events/SYSTEM/EVENT/format text; a reason or NULL */
static const char *format_problem(const char *t, size_t n)
{
	const char *e = t + n, *line, *nl, *pf;

	if (!printable(t, n))
		return "bytes that are not text";
	if (n < 6 || memcmp(t, "name: ", 6) || !find(t, e, "\nID: ") || !find(t, e, "\nformat:"))
		return "no name, ID or format";
	pf = find(t, e, "\nprint fmt: ");
	if (!pf)
		return "no print fmt";
	for (line = t; line < pf; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(pf - line));
		if (!nl)
			nl = pf;
		if (!find(line, nl, "field:"))
			continue;
		if (!balanced(line, nl, false))
			return "a field declaration with unbalanced brackets";
		/*
		 * no kernel declares a field with a quote; libtraceevent 1.7.1
		 * reads "prev_comm['6]" as a char literal and crashes on the
		 * print fmt after it (FINDINGS T11)
		 */
		if (memchr(line, '\'', (size_t)(nl - line)) ||
		    memchr(line, '"', (size_t)(nl - line)))
			return "a field declaration with a quote";
	}
	/* to the end: a string literal may hold a newline (xe_guc_ctb_h2g of 6.12) */
	if (!balanced(pf + 12, e, true))
		return "an unbalanced print fmt";
	if (!fields_known(t, pf, e))
		return "a print fmt naming a field the format does not declare";
	if (!print_values_ok(pf + 12, e))
		return "a __print_flags or __print_symbolic value that does not start with a field";
	if (!divisors_ok(pf + 12, e))
		return "a print fmt dividing by zero or by no number";
	if (!operators_ok(pf + 12, e))
		return "a print fmt with an operator libtraceevent cannot parse there";
	return NULL;
}

/* @count texts of u64 size + text at *@off (the v6 layout, and v7 sections) */
static int check_formats(struct chk *c, uint64_t *off, uint64_t end, uint64_t count,
			 const char *what)
{
	const char *why;
	uint64_t i, sz;
	char *t;

	if (count > MAX_EVENTS || count * 8 > end - *off)
		return bad(c, "%s: %llu formats do not fit", what, (unsigned long long)count);
	for (i = 0; i < count; i++) {
		if (rd_num(c, off, 8, &sz) || sz > end - *off || sz > MAX_META)
			return bad(c, "%s: format %llu runs past its section", what,
				   (unsigned long long)i);
		t = malloc(sz ? sz : 1);
		if (!t)
			return bad(c, "out of memory");
		if (rd(c, *off, t, sz)) {
			free(t);
			return bad(c, "%s: format %llu cut short", what, (unsigned long long)i);
		}
		why = format_problem(t, sz);
		free(t);
		if (why)
			return bad(c, "%s: format %llu has %s", what, (unsigned long long)i, why);
		*off += sz;
	}
	return 0;
}

/* the event systems: u32 count, then per system its name, u32 count, formats */
static int check_systems(struct chk *c, uint64_t *off, uint64_t end)
{
	uint64_t nsys, nev, i;
	char name[256];

	if (rd_num(c, off, 4, &nsys) || nsys > MAX_SYSTEMS)
		return bad(c, "event formats: bad system count");
	for (i = 0; i < nsys; i++) {
		if (*off >= end || rd_str(c, off, name, sizeof(name)) || !name[0] ||
		    !printable(name, strlen(name)) || strchr(name, '\n') || strchr(name, '\t'))
			return bad(c, "event formats: system %llu has a bad name",
				   (unsigned long long)i);
		if (rd_num(c, off, 4, &nev))
			return bad(c, "event formats: cut short");
		if (check_formats(c, off, end, nev, "event formats"))
			return -1;
	}
	return *off <= end ? 0 : bad(c, "event formats run past their section");
}

/*
 * header_page text: the page header kbuffer will read. libtracecmd 1.3.1
 * parses the text with tep_parse_header_page() and makes its kbuffers 8-byte
 * ones when the commit field's size is 8, else 4-byte ones (read-zstd.c
 * uses the same size); kbuffer (libtraceevent 1.7.1) then reads the commit
 * at offset 8 and the events from 8 + that size, whatever offsets the text
 * declares. A text declaring "commit at 4" had the pages checked at the
 * wrong bytes while kbuffer read past the mapping (T19). So the size comes
 * from libtraceevent's own parse, and only 4 and 8 are accepted.
 */
static int parse_header_page(struct chk *c, char *t, size_t n)
{
	struct tep_handle *tep = tep_alloc();
	int size;

	if (!tep)
		return bad(c, "out of memory");
	tep_parse_header_page(tep, t, n, (int)c->lsize);
	size = tep_get_header_page_size(tep);
	tep_free(tep);
	if (size != 4 && size != 8)
		return bad(c, "header_page: commit size %d, not 4 or 8", size);
	c->commit_off = 8;
	c->commit_size = (unsigned int)size;
	c->data_off = 8 + (unsigned int)size;
	return 0;
}

/* "header_page\0" u64 size text "header_event\0" u64 size text */
static int check_headers(struct chk *c, uint64_t *off, uint64_t end)
{
	static const char *names[] = { "header_page", "header_event" };
	char name[16], *t;
	uint64_t sz;
	int i;

	for (i = 0; i < 2; i++) {
		if (rd_str(c, off, name, sizeof(name)) || strcmp(name, names[i]))
			return bad(c, "no %s", names[i]);
		if (rd_num(c, off, 8, &sz) || sz > end - *off || sz > MAX_META)
			return bad(c, "%s runs past the end of the file", names[i]);
		/* NUL-terminated: a C string for the checks below */
		t = malloc(sz + 1);
		if (!t)
			return bad(c, "out of memory");
		t[sz] = '\0';
		if (rd(c, *off, t, sz) || !printable(t, sz)) {
			free(t);
			return bad(c, "%s is not text", names[i]);
		}
		if (i == 0 && parse_header_page(c, t, sz)) {
			free(t);
			return -1;
		}
		free(t);
		*off += sz;
	}
	return 0;
}

/* ---- printk formats -------------------------------------------------------- */

/*
 * The printk formats (the kernel's printk_formats file: lines
 * "0xffffffff81c0f2a8 : \"text\\n\""), as libtraceevent 1.7.1
 * tep_parse_printk_formats() and tep_register_print_string() read them: each
 * line is cut at its first ':' after any leading ':', the byte after that ':'
 * is skipped and the rest copied; its leading quote is stripped and its last
 * three bytes are looked at. A line without a ':', without a byte after it,
 * or with fewer than three bytes of text makes them read outside the heap
 * copy (strdup past the end, the ASan finding of FINDINGS T8). A NUL ends
 * the text for libtraceevent and is no text either.
 */
static const char *printk_problem(const char *t, size_t n)
{
	const char *line, *nl, *e = t + n, *colon;
	size_t len;

	if (memchr(t, '\0', n))
		return "a NUL byte";
	if (n && t[n - 1] != '\n')
		return "a last line without its newline";
	for (line = t; line < e; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(e - line));
		while (line < nl && *line == ':')
			line++;
		if (line == nl)
			continue; /* skipped by libtraceevent */
		colon = memchr(line, ':', (size_t)(nl - line));
		if (!colon || nl - colon < 2)
			return "a line without \"address : format\"";
		/* the text after ": ", its leading quote stripped */
		line = colon + 2;
		if (line < nl && *line == '"')
			line++;
		len = (size_t)(nl - line);
		if (len < 3)
			return "a line with an empty format";
	}
	return NULL;
}

static int check_printk(struct chk *c, uint64_t off, uint64_t sz)
{
	const char *why;
	char *t;

	if (sz > MAX_META)
		return bad(c, "printk formats too large");
	t = malloc(sz ? sz : 1);
	if (!t)
		return bad(c, "out of memory");
	if (rd(c, off, t, sz)) {
		free(t);
		return bad(c, "printk formats cut short");
	}
	why = printk_problem(t, sz);
	free(t);
	return why ? bad(c, "printk formats: %s", why) : 0;
}

/* ---- ring-buffer pages ---------------------------------------------------- */

/*
 * One page header as kbuffer_load_subbuffer() reads it: the commit (the
 * bytes of events) must fit the page after its header, and a page with
 * events has a timestamp. @avail: the bytes of the CPU's data from the
 * page on, when fewer than a page (its partial last page).
 */
static const char *page_problem(const struct chk *c, const unsigned char *p, size_t avail)
{
	uint64_t ts = num(c, p, 8);
	uint64_t commit = num(c, p + c->commit_off, (int)c->commit_size) & COMMIT_MASK;

	if (commit > c->page - c->data_off)
		return "commit size larger than the page";
	if (avail < c->page && commit > avail - c->data_off)
		return "commit size past the end of the CPU data";
	if (commit && !ts)
		return "events without a page timestamp";
	return NULL;
}

/*
 * The page headers in @n bytes of CPU @cpu's data read from file offset @at;
 * @first: they start the CPU's data (@size bytes in all). libtracecmd 1.3.1
 * loads every page that starts inside the CPU's data, a partial last one
 * too (get_next_page() goes on while more than a page is left; trace-cmd
 * writes whole pages, a damaged file need not: T14 for a first page, T16 for
 * a later one), so a partial page has its header checked and its events must
 * end inside the data.
 */
static int check_block(struct chk *c, int cpu, const unsigned char *p, size_t n, uint64_t at,
		       bool first, uint64_t size)
{
	const char *why;
	size_t k;

	for (k = 0; k < n || (first && !k); k += c->page) {
		size_t avail = n - k < c->page ? n - k : c->page;

		if (avail < c->data_off) {
			if (first && !k)
				return bad(c, "CPU %d data (%llu bytes) shorter than a page header",
					   cpu, (unsigned long long)size);
			return bad(c, "CPU %d page at offset %llu: cut inside its header", cpu,
				   (unsigned long long)(at + k));
		}
		why = page_problem(c, p + k, avail);
		if (why)
			return bad(c, "CPU %d page at offset %llu: %s", cpu,
				   (unsigned long long)(at + k), why);
	}
	return 0;
}

/*
 * The page headers of @size bytes at @off through a mapping of SCAN_BLOCK
 * at a time: only the header's cache line of each page is touched, where
 * pread() copied every byte of the CPU data a second time (the v6 reader
 * reads it again, read-zstd.c). Each window is unmapped before the next,
 * so the resident set stays one window. Same checks and messages as the
 * pread() loop; 1 when the file cannot be mapped (that loop then runs).
 */
static int check_pages_mapped(struct chk *c, int cpu, uint64_t off, uint64_t size)
{
	uint64_t sys = (uint64_t)sysconf(_SC_PAGESIZE), done = 0;
	const unsigned char *p;
	size_t n, lead;
	void *m;
	int ret;

	if (c->fd < 0 || !sys || sys & (sys - 1))
		return 1;
	while (done < size) {
		n = size - done < SCAN_BLOCK ? (size_t)(size - done) : SCAN_BLOCK;
		/* mmap() wants a page-aligned offset: map from the page before */
		lead = (size_t)((off + done) & (sys - 1));
		m = mmap(NULL, n + lead, PROT_READ, MAP_PRIVATE, c->fd, (off_t)(off + done - lead));
		if (m == MAP_FAILED)
			return 1; /* the pread() loop checks it all again */
		p = (const unsigned char *)m + lead;
		ret = check_block(c, cpu, p, n, off + done, !done, size);
		munmap(m, n + lead);
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}

/* every page of @size bytes of uncompressed CPU data at @off */
static int check_pages(struct chk *c, int cpu, uint64_t off, uint64_t size)
{
	unsigned char *buf;
	uint64_t done = 0;
	size_t n;
	int ret;

	if (!c->mem) {
		ret = check_pages_mapped(c, cpu, off, size);
		if (ret <= 0)
			return ret;
	}

	/*
	 * no larger than the data: 1 MiB per CPU was a fresh mmap() (and its
	 * page faults) for each small file, each fuzz_reader input
	 */
	buf = malloc(size < SCAN_BLOCK ? (size_t)size : SCAN_BLOCK);
	if (!buf)
		return bad(c, "out of memory");
	while (done < size) {
		n = size - done < SCAN_BLOCK ? (size_t)(size - done) : SCAN_BLOCK;
		if (rd(c, off + done, buf, n)) {
			free(buf);
			return bad(c, "CPU %d data cut short", cpu);
		}
		ret = check_block(c, cpu, buf, n, off + done, !done, size);
		if (ret) {
			free(buf);
			return ret;
		}
		done += n;
	}
	free(buf);
	return 0;
}

/*
 * Compressed CPU data: u32 chunk count, then per chunk u32 compressed size,
 * u32 size (whole pages), a zstd frame; the CPU's size in the BUFFER option
 * counts the chunks, not the count before them (trace-cmd 3.1.6 writes it
 * so, and libtracecmd reads it so). Every chunk header is checked; the
 * first chunk is decompressed (libtracecmd loads it while opening) and its
 * pages checked.
 */
static int check_chunks(struct chk *c, int cpu, uint64_t off, uint64_t size)
{
	uint64_t count, i, zs, us, pos = off + 4, end = off + 4 + size;
	unsigned char *z, *u;
	const char *why;
	size_t k, r;

	if (end > c->size || rd_num(c, &off, 4, &count) || count > size / 8)
		return bad(c, "CPU %d: bad chunk count", cpu);
	for (i = 0; i < count; i++) {
		uint64_t p = pos;

		if (rd_num(c, &p, 4, &zs) || rd_num(c, &p, 4, &us) || !zs || zs > end - p ||
		    !us || us > MAX_CHUNK || us % c->page)
			return bad(c, "CPU %d: chunk %llu header damaged", cpu,
				   (unsigned long long)i);
		if (us / zs >= MAX_CHUNK_RATIO)
			return bad(c,
				   "CPU %d: chunk %llu declares %llu bytes from %llu (more "
				   "than %ux: a decompression bomb)",
				   cpu, (unsigned long long)i, (unsigned long long)us,
				   (unsigned long long)zs, MAX_CHUNK_RATIO);
		if ((i == 0 || c->all_chunks) && c->dctx) {
			z = malloc(zs);
			u = malloc(us);
			if (!z || !u || rd(c, p, z, zs)) {
				free(z);
				free(u);
				return bad(c, "CPU %d: chunk %llu cut short", cpu,
					   (unsigned long long)i);
			}
			r = ZSTD_decompressDCtx(c->dctx, u, us, z, zs);
			free(z);
			if (ZSTD_isError(r) || r != us) {
				free(u);
				return bad(c, "CPU %d: chunk %llu does not decompress", cpu,
					   (unsigned long long)i);
			}
			for (k = 0; k < us; k += c->page) {
				why = page_problem(c, u + k, c->page);
				if (why) {
					free(u);
					return bad(c, "CPU %d: chunk %llu page %zu: %s", cpu,
						   (unsigned long long)i, k / c->page, why);
				}
			}
			free(u);
		}
		pos = p + zs;
	}
	return 0;
}

/* @cpus entries of (u64 offset, u64 size) at *@off (v6 flyrecord) */
static int check_cpu_data(struct chk *c, int cpu, uint64_t off, uint64_t size)
{
	if (off > c->size || size > c->size - off)
		return bad(c, "CPU %d data (%llu bytes at %llu) beyond the end of the file "
			   "(%llu bytes)", cpu, (unsigned long long)size, (unsigned long long)off,
			   (unsigned long long)c->size);
	if (!size)
		return 0;
	return c->compressed ? check_chunks(c, cpu, off, size) : check_pages(c, cpu, off, size);
}

/* ---- options libtracecmd parses at open ----------------------------------------- */

/* option @id (@sz bytes at @d), with the rules of read-opts.c */
static int check_opt(struct chk *c, unsigned int id, const unsigned char *d, uint64_t sz)
{
	const char *why = gpulat__opt_problem(id, d, (size_t)sz, c->big, &c->clock);

	if (id == GPULAT__OPT_TRACECLOCK)
		c->clock_opt = true;
	return why ? bad(c, "the %s option %s", gpulat__opt_name(id), why) : 0;
}

/* the same for an option in the file (v6), read first */
static int check_opt_at(struct chk *c, unsigned int id, uint64_t off, uint64_t sz)
{
	unsigned char *t;
	int ret;

	if (sz > MAX_META)
		return bad(c, "the %s option is %llu bytes long", gpulat__opt_name(id),
			   (unsigned long long)sz);
	t = malloc(sz ? sz : 1);
	if (!t)
		return bad(c, "out of memory");
	if (rd(c, off, t, (size_t)sz))
		ret = bad(c, "the %s option cut short", gpulat__opt_name(id));
	else
		ret = check_opt(c, id, t, sz);
	free(t);
	return ret;
}

/*
 * v6: the "[clock]" text after the flyrecord CPU table (u64 size, text).
 * libtracecmd parses it in tracecmd_init_data() when a TRACECLOCK option
 * was seen; read.c has it load the data (and so this text) only when the
 * options left no clock. A size past the file is libtracecmd's "trace_clock
 * bug" fallback to the local clock: nothing to check then.
 */
static int check_data_clock(struct chk *c, uint64_t off)
{
	uint64_t sz;
	char *t;
	int ret = 0;

	if (!c->clock_opt || c->clock == GPULAT__CLOCK_SET || rd_num(c, &off, 8, &sz) ||
	    sz > c->size - off)
		return 0;
	if (sz > MAX_META)
		return bad(c, "a trace clock text of %llu bytes", (unsigned long long)sz);
	t = malloc(sz + 1);
	if (!t)
		return bad(c, "out of memory");
	if (rd(c, off, t, (size_t)sz))
		ret = bad(c, "trace clock text cut short");
	t[sz] = '\0';
	if (!ret && gpulat__clock_text(t) == GPULAT__CLOCK_BAD)
		ret = bad(c, "the clock text after the CPU table is brackets only");
	free(t);
	return ret;
}

/* ---- v6 ------------------------------------------------------------------------ */

static int check_v6(struct chk *c, uint64_t off)
{
	uint64_t n, cpus, i, id, sz, doff, dsz;
	char label[12];

	if (check_headers(c, &off, c->size))
		return -1;
	if (rd_num(c, &off, 4, &n))
		return bad(c, "cut short before the ftrace formats");
	if (check_formats(c, &off, c->size, n, "ftrace formats") || check_systems(c, &off, c->size))
		return -1;
	/* kallsyms, printk formats: u32 size; cmdlines: u64 size */
	if (rd_num(c, &off, 4, &sz) || sz > c->size - off)
		return bad(c, "kallsyms run past the end of the file");
	off += sz;
	if (rd_num(c, &off, 4, &sz) || sz > c->size - off)
		return bad(c, "printk formats run past the end of the file");
	if (check_printk(c, off, sz))
		return -1;
	off += sz;
	if (rd_num(c, &off, 8, &sz) || sz > c->size - off)
		return bad(c, "saved cmdlines run past the end of the file");
	off += sz;
	if (rd_num(c, &off, 4, &cpus))
		return bad(c, "no CPU count");
	/* each CPU has a 16-byte entry in the flyrecord table that follows */
	if (cpus > MAX_CPUS || cpus * 16 > c->size - off)
		return bad(c, "CPU count %llu larger than the file can hold",
			   (unsigned long long)cpus);
	for (i = 0; i < MAX_SECTIONS; i++) {
		if (rd(c, off, label, 10))
			return bad(c, "cut short before the CPU data");
		off += 10;
		if (memcmp(label, "options  ", 10))
			break;
		/* options: u16 id, u32 size, data; until id 0 */
		for (;;) {
			if (rd_num(c, &off, 2, &id))
				return bad(c, "options cut short");
			if (!id)
				break;
			if (gpulat__opt_shifts((unsigned int)id))
				c->shifts = true;
			if (rd_num(c, &off, 4, &sz) || sz > c->size - off)
				return bad(c, "option %llu runs past the end of the file",
					   (unsigned long long)id);
			if (gpulat__opt_name((unsigned int)id) &&
			    check_opt_at(c, (unsigned int)id, off, sz))
				return -1;
			off += sz;
		}
	}
	/*
	 * latency tracer output is text, no per-CPU records: libtracecmd
	 * 1.3.1 opens it and then dies in tracecmd_peek_data() (F9)
	 */
	if (!memcmp(label, "latency  ", 10))
		return bad(c, "latency tracer text data, no CPU event records");
	if (memcmp(label, "flyrecord", 10))
		return bad(c, "no flyrecord CPU data");
	if (c->want_span) {
		c->span = calloc(cpus ? cpus : 1, sizeof(*c->span));
		if (!c->span)
			return bad(c, "out of memory");
	}
	for (i = 0; i < cpus; i++) {
		if (rd_num(c, &off, 8, &doff) || rd_num(c, &off, 8, &dsz))
			return bad(c, "CPU table cut short");
		if (check_cpu_data(c, (int)i, doff, dsz))
			return -1;
		if (c->span) {
			c->span[i].off = doff;
			c->span[i].size = dsz;
			c->nspan = (int)i + 1;
		}
	}
	return check_data_clock(c, off);
}

/* ---- v7 ------------------------------------------------------------------------ */

/*
 * The section at @off (u16 id, u16 flags, u32 string id, u64 size): its
 * content in *@out (decompressed if flagged), *@len bytes.
 */
static int read_section(struct chk *c, uint64_t off, unsigned int want, unsigned char **out,
			uint64_t *len)
{
	uint64_t id, flags, sid, size, zs, us, p = off;
	unsigned char *z;
	size_t r;

	*out = NULL;
	if (rd_num(c, &p, 2, &id) || rd_num(c, &p, 2, &flags) || rd_num(c, &p, 4, &sid) ||
	    rd_num(c, &p, 8, &size))
		return bad(c, "section %u at %llu cut short", want, (unsigned long long)off);
	if (id != want || size > c->size - p)
		return bad(c, "section %u at %llu damaged", want, (unsigned long long)off);
	if (!(flags & 1)) {
		if (size > MAX_META)
			return bad(c, "section %u too large", want);
		*out = malloc(size ? size : 1);
		if (!*out || rd(c, p, *out, size))
			return bad(c, "section %u cut short", want);
		*len = size;
		return 0;
	}
	if (!c->dctx || rd_num(c, &p, 4, &zs) || rd_num(c, &p, 4, &us) || zs + 8 > size ||
	    us > MAX_META)
		return bad(c, "compressed section %u damaged", want);
	z = malloc(zs ? zs : 1);
	*out = malloc(us ? us : 1);
	if (!z || !*out || rd(c, p, z, zs)) {
		free(z);
		return bad(c, "compressed section %u cut short", want);
	}
	r = ZSTD_decompressDCtx(c->dctx, *out, us, z, zs);
	free(z);
	if (ZSTD_isError(r) || r != us)
		return bad(c, "compressed section %u does not decompress", want);
	*len = us;
	return 0;
}

/* a section's content, checked through the same helpers as the file */
static int check_meta(struct chk *c, unsigned int id, const unsigned char *d, uint64_t len)
{
	struct chk m = *c;
	uint64_t off = 0, n;
	int ret = 0;

	/* the format texts and printk formats are parsed by libtraceevent; sizes were checked */
	m.mem = d;
	m.size = len;
	if (id == GPULAT__OPT_HEADER_INFO)
		ret = check_headers(&m, &off, len);
	else if (id == GPULAT__OPT_FTRACE_EVENTS)
		ret = rd_num(&m, &off, 4, &n) ? bad(&m, "ftrace formats cut short") :
		      check_formats(&m, &off, len, n, "ftrace formats");
	else if (id == GPULAT__OPT_EVENT_FORMATS)
		ret = check_systems(&m, &off, len);
	else if (id == GPULAT__OPT_PRINTK)
		ret = rd_num(&m, &off, 4, &n) || n > len - off ?
			      bad(&m, "printk formats run past their section") :
			      check_printk(&m, off, n);
	/*
	 * libtracecmd 1.3.1 mallocs the size these two sections declare before
	 * it reads them: a fuzzed 2.4 GB kallsyms size (T18)
	 */
	else if (id == GPULAT__OPT_KALLSYMS && (rd_num(&m, &off, 4, &n) || n > len - off))
		ret = bad(&m, "kallsyms run past their section");
	else if (id == GPULAT__OPT_CMDLINES && (rd_num(&m, &off, 8, &n) || n > len - off))
		ret = bad(&m, "cmdlines run past their section");
	c->commit_off = m.commit_off;
	c->commit_size = m.commit_size;
	c->data_off = m.data_off;
	return ret;
}

/* BUFFER option: flyrecord offset, name, clock, page size, cpus, per cpu id/offset/size */
static int check_buffer(struct chk *c, const unsigned char *d, uint64_t len)
{
	uint64_t pos = 8, i, cpus;
	size_t n;
	int k;

	if (len < 8)
		return bad(c, "BUFFER option too short");
	for (k = 0; k < 2; k++) {
		n = strnlen((const char *)d + pos, (size_t)(len - pos));
		if (pos + n >= len)
			return bad(c, "BUFFER option damaged");
		pos += n + 1;
	}
	if (pos + 8 > len)
		return bad(c, "BUFFER option damaged");
	if (num(c, d + pos, 4) != c->page)
		return bad(c, "BUFFER option with another page size");
	cpus = num(c, d + pos + 4, 4);
	pos += 8;
	if (cpus > MAX_CPUS || cpus * 20 > len - pos)
		return bad(c, "BUFFER option: CPU count %llu larger than the option",
			   (unsigned long long)cpus);
	for (i = 0; i < cpus; i++, pos += 20) {
		uint32_t id = (uint32_t)num(c, d + pos, 4);

		if (id >= MAX_CPUS)
			return bad(c, "BUFFER option: CPU id %u", id);
		if (check_cpu_data(c, (int)id, num(c, d + pos + 4, 8), num(c, d + pos + 12, 8)))
			return -1;
	}
	return 0;
}

/*
 * The walk libtracecmd 1.3.1's tracecmd_open_head() makes to collect the
 * STRINGS sections (read_metadata_strings): from @off, section header after
 * section header to the end of the file, each skipped with lseek(size,
 * SEEK_CUR). A size negative as an off_t that stays inside the file seeks
 * back to an earlier header, forever (T17); a STRINGS size is allocated
 * before it is read. The walk ends where libtracecmd's does: a header cut
 * short, past the end of the file.
 */
static int check_strings_walk(struct chk *c, uint64_t off)
{
	uint64_t id, flags, sid, size, zs, us, h, p = off;

	for (;;) {
		h = p;
		if (rd_num(c, &p, 2, &id) || rd_num(c, &p, 2, &flags) || rd_num(c, &p, 4, &sid) ||
		    rd_num(c, &p, 8, &size))
			break;
		if (id == GPULAT__OPT_STRINGS && (flags & 1)) {
			/* the compressed block: u32 sizes, then the frame */
			if (rd_num(c, &p, 4, &zs) || rd_num(c, &p, 4, &us) || zs > c->size - p ||
			    us > MAX_META)
				return bad(c, "strings section at %llu damaged",
					   (unsigned long long)h);
			p += zs;
		} else if (id == GPULAT__OPT_STRINGS) {
			if ((uint32_t)size > c->size - p)
				return bad(c, "strings section at %llu runs past the file",
					   (unsigned long long)h);
			p += (uint32_t)size;
		} else if (size >= (1ull << 63)) {
			/* a seek to before the start fails and ends libtracecmd's walk */
			if (-size > p)
				break;
			return bad(c, "section at %llu has a size that points back into the file",
				   (unsigned long long)h);
		} else {
			if (size > c->size - p)
				break;
			p += size;
		}
	}
	return 0;
}

static int check_v7(struct chk *c, uint64_t off)
{
	char comp[64], ver[64];
	uint64_t opt, nsec;
	unsigned char *d;
	uint64_t len;

	if (rd_str(c, &off, comp, sizeof(comp)) || rd_str(c, &off, ver, sizeof(ver)))
		return bad(c, "no compression header");
	c->compressed = strcmp(comp, "none") != 0;
	if (rd_num(c, &off, 8, &opt))
		return bad(c, "no options offset");
	if (check_strings_walk(c, off))
		return -1;
	if (c->compressed && strcmp(comp, "zstd"))
		return 0;	/* another compressor: only libtracecmd can read its sections */
	if (c->compressed) {
		c->dctx = ZSTD_createDCtx();
		if (!c->dctx)
			return bad(c, "out of memory");
	}
	for (nsec = 0; opt; nsec++) {
		uint64_t pos = 0, next = 0;
		bool done = false;

		if (nsec == MAX_SECTIONS)
			return bad(c, "more than %d options sections", MAX_SECTIONS);
		if (read_section(c, opt, GPULAT__OPT_DONE, &d, &len)) {
			free(d);
			return -1;
		}
		while (!done && pos + 6 <= len) {
			unsigned int id = (unsigned int)num(c, d + pos, 2);
			uint64_t sz = num(c, d + pos + 2, 4);
			const unsigned char *od = d + pos + 6;
			unsigned char *s;
			uint64_t slen;
			int ret = 0;

			pos += 6;
			if (sz > len - pos) {
				free(d);
				return bad(c, "option %u runs past its section", id);
			}
			switch (id) {
			case GPULAT__OPT_DONE:
				next = sz >= 8 ? num(c, od, 8) : 0;
				done = true;
				break;
			case GPULAT__OPT_BUFFER:
				ret = check_buffer(c, od, sz);
				break;
			case GPULAT__OPT_BUFFER_TEXT:
				/*
				 * u64 offset, name: the top buffer ("") holding
				 * latency tracer text makes libtracecmd 1.3.1 die
				 * in tracecmd_peek_data(), as F9 does in v6 (T24)
				 */
				if (sz > 8 && !od[8])
					ret = bad(c,
						  "latency tracer text data, no CPU event records");
				break;
			case GPULAT__OPT_DATE:
			case GPULAT__OPT_CPUSTAT:
			case GPULAT__OPT_TRACECLOCK:
			case GPULAT__OPT_UNAME:
			case GPULAT__OPT_HOOK:
			case GPULAT__OPT_OFFSET:
			case GPULAT__OPT_VERSION:
			case GPULAT__OPT_PROCMAPS:
			case GPULAT__OPT_TIME_SHIFT:
			case GPULAT__OPT_GUEST:
				ret = check_opt(c, id, od, sz);
				break;
			case GPULAT__OPT_CPUCOUNT:
				/*
				 * libtracecmd 1.3 takes a v7 file's CPU count from here,
				 * and the merge holds a stream per CPU: a fuzzed 2^25
				 * made it allocate 2.7 GB (F10)
				 */
				if (sz < 4)
					ret = bad(c, "CPUCOUNT option too short");
				else if (num(c, od, 4) > MAX_CPUS)
					ret = bad(c, "CPU count %llu larger than %d",
						  (unsigned long long)num(c, od, 4), MAX_CPUS);
				break;
			case GPULAT__OPT_HEADER_INFO:
			case GPULAT__OPT_FTRACE_EVENTS:
			case GPULAT__OPT_EVENT_FORMATS:
			case GPULAT__OPT_KALLSYMS:
			case GPULAT__OPT_PRINTK:
			case GPULAT__OPT_CMDLINES:
				if (sz < 8) {
					ret = bad(c, "option %u too short", id);
					break;
				}
				ret = read_section(c, num(c, od, 8), id, &s, &slen);
				if (!ret)
					ret = check_meta(c, id, s, slen);
				free(s);
				break;
			default:
				break;
			}
			if (ret) {
				free(d);
				return -1;
			}
			pos += sz;
		}
		free(d);
		if (!done)
			return bad(c, "options section without its end");
		opt = next;
	}
	return 0;
}

/* the walk of gpulat__check_trace(); @all_chunks: every zstd chunk's pages */
static int check_trace(const char *path, char *why, size_t whylen, struct gpulat__cpuspan **span,
		       int *nspan, bool *shifts, bool all_chunks)
{
	struct chk c = { .commit_off = 8,
			 .commit_size = 8,
			 .data_off = 16,
			 .why = why,
			 .whylen = whylen,
			 .all_chunks = all_chunks };
	unsigned char hdr[12 + 6];
	uint64_t off = sizeof(hdr);
	int ret;

	if (why && whylen)
		why[0] = '\0';
	if (span) {
		*span = NULL;
		*nspan = 0;
		c.want_span = true;
	}
	c.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0)
		return bad(&c, "%s", strerror(errno));
	c.size = (uint64_t)lseek(c.fd, 0, SEEK_END);
	/* magic (10), version "6\0" / "7\0", endian, long size, u32 page size */
	if (rd(&c, 0, hdr, sizeof(hdr)) || hdr[11] != '\0') {
		close(c.fd);
		return bad(&c, "cut short in its first bytes");
	}
	c.big = hdr[12] == 1;
	c.lsize = hdr[13];
	c.page = (uint32_t)num(&c, hdr + 14, 4);
	if (hdr[12] > 1 || (hdr[13] != 4 && hdr[13] != 8) || c.page < PAGE_MIN ||
	    c.page > PAGE_MAX || (c.page & (c.page - 1))) {
		close(c.fd);
		return bad(&c, "bad endianness, long size or page size");
	}
	if (hdr[10] == '6')
		ret = check_v6(&c, off);
	else if (hdr[10] == '7')
		ret = check_v7(&c, off);
	else
		ret = bad(&c, "unknown file version '%c'", hdr[10]);
	if (c.dctx)
		ZSTD_freeDCtx(c.dctx);
	close(c.fd);
	if (ret)
		bad(&c, "cut short");	/* a reason, should a path have given none */
	if (span) {
		if (ret || !c.nspan) {
			free(c.span);
			c.span = NULL;
			c.nspan = 0;
		}
		*span = c.span;
		*nspan = c.nspan;
	}
	if (shifts)
		*shifts = c.shifts;
	return ret;
}

/**
 * gpulat__check_trace - walk @path's structure before any third-party parser
 * @path: the file (its magic was checked)
 * @why: the reason on failure ("CPU count 16777217 larger than ...")
 * @whylen: its size
 * @span: if not NULL, set to the CPU table of a v6 file (free() it; NULL
 *	for a v7 file or on failure)
 * @nspan: its entries
 * @shifts: if not NULL, set when a v6 file has an option that makes
 *	libtracecmd change the timestamps (DATE, OFFSET, TIME_SHIFT, GUEST,
 *	TSC2NSEC)
 *
 * Return: 0, or -1 with @why set.
 */
int gpulat__check_trace(const char *path, char *why, size_t whylen, struct gpulat__cpuspan **span,
			int *nspan, bool *shifts)
{
	return check_trace(path, why, whylen, span, nspan, shifts, false);
}

/**
 * gpulat__check_chunks - gpulat__check_trace(), every zstd chunk's pages too
 * @path: the file
 * @why: the reason on failure
 * @whylen: its size
 *
 * For a compressed file that libtracecmd's reader will read (T15): it
 * decompresses the later chunks itself and kbuffer reads a damaged page
 * header past the page (libtracecmd 1.3.1, SIGSEGV); read-zstd.c checks
 * every page it decompresses, so its files do not need this second pass.
 *
 * Return: 0, or -1 with @why set.
 */
int gpulat__check_chunks(const char *path, char *why, size_t whylen)
{
	return check_trace(path, why, whylen, NULL, NULL, NULL, true);
}

/**
 * gpulat__page_ok - may kbuffer load this ring-buffer page?
 * @tep: the file's tep handle (endianness, header_page layout)
 * @page: @page_size bytes
 * @page_size: the file's page size
 *
 * The check gpulat__check_trace() makes on every page it reads, for the
 * pages read-zstd.c decompresses later.
 */
bool gpulat__page_ok(struct tep_handle *tep, const void *page, int page_size)
{
	struct chk c = { .commit_off = 8, .data_off = 16, .page = (uint32_t)page_size };
	int lsize = tep_get_header_page_size(tep);

	c.big = tep_is_file_bigendian(tep);
	c.commit_size = lsize == 4 ? 4 : 8;
	if (lsize == 4)
		c.data_off = 12;
	return !page_problem(&c, page, c.page);
}
