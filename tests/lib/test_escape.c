// SPDX-License-Identifier: LGPL-2.1
/*
 * gpulat_escape(): the display form of trace strings. Expected outputs are
 * written by hand from the rules in gpulat-escape.h; random inputs are
 * checked with independent tools: glibc's UTF-8 decoder (mbrtowc in C.UTF-8)
 * for "valid UTF-8, no control character", json-c's parser for the JSON form
 * (it must read back as the TEXT form).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "gpulat-escape.h"
#include "test-util.h"

static char out[4096];

static const char *esc(const char *s, enum gpulat_esc how)
{
	gpulat_escape(out, sizeof(out), s, how);
	return out;
}

static void test_text(void **state)
{
	(void)state;
	assert_string_equal(esc("gfx_0.0.0", GPULAT_ESC_TEXT), "gfx_0.0.0");
	assert_string_equal(esc("", GPULAT_ESC_TEXT), "");
	assert_string_equal(esc(NULL, GPULAT_ESC_TEXT), "");
	/* a newline would forge a second warning line */
	assert_string_equal(esc("gfx\nwarning: all fine", GPULAT_ESC_TEXT),
			    "gfx\\x0awarning: all fine");
	/* ESC [ 2 J (clear screen), DEL, tab, CR */
	assert_string_equal(esc("\x1b[2J\x7f\t\r", GPULAT_ESC_TEXT), "\\x1b[2J\\x7f\\x09\\x0d");
	/* the backslash itself, so "\x41" in a name is not read as an escape */
	assert_string_equal(esc("a\\x41", GPULAT_ESC_TEXT), "a\\\\x41");
	/* valid UTF-8 stays: é, €, 𝄞 */
	assert_string_equal(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e", GPULAT_ESC_TEXT),
			    "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e");
	/* the device name of issue 24 */
	assert_string_equal(esc("0000:04:00\xae.0", GPULAT_ESC_TEXT), "0000:04:00\\xae.0");
	/* overlong '/', surrogate U+D800, > U+10FFFF, lone continuation, cut sequence */
	assert_string_equal(esc("\xc0\xaf", GPULAT_ESC_TEXT), "\\xc0\\xaf");
	assert_string_equal(esc("\xed\xa0\x80", GPULAT_ESC_TEXT), "\\xed\\xa0\\x80");
	assert_string_equal(esc("\xf4\x90\x80\x80", GPULAT_ESC_TEXT), "\\xf4\\x90\\x80\\x80");
	assert_string_equal(esc("\x80x", GPULAT_ESC_TEXT), "\\x80x");
	assert_string_equal(esc("\xe2\x82", GPULAT_ESC_TEXT), "\\xe2\\x82");
	/* C1 CSI (U+009B), RLO (U+202E), line separator (U+2028): valid but hidden */
	assert_string_equal(esc("\xc2\x9b" "2J", GPULAT_ESC_TEXT), "\\xc2\\x9b2J");
	assert_string_equal(esc("a\xe2\x80\xae" "b", GPULAT_ESC_TEXT), "a\\xe2\\x80\\xaeb");
	assert_string_equal(esc("\xe2\x80\xa8", GPULAT_ESC_TEXT), "\\xe2\\x80\\xa8");
	/* U+00A0 is a printable character, not C1 */
	assert_string_equal(esc("\xc2\xa0", GPULAT_ESC_TEXT), "\xc2\xa0");
}

static void test_n_and_nul(void **state)
{
	(void)state;
	gpulat_escape_n(out, sizeof(out), "a\0b", 3, GPULAT_ESC_TEXT);
	assert_string_equal(out, "a\\x00b");
}

static void test_json(void **state)
{
	(void)state;
	assert_string_equal(esc("gfx", GPULAT_ESC_JSON), "gfx");
	assert_string_equal(esc("say \"hi\"", GPULAT_ESC_JSON), "say \\\"hi\\\"");
	assert_string_equal(esc("\n", GPULAT_ESC_JSON), "\\\\x0a");
	assert_string_equal(esc("a\\b", GPULAT_ESC_JSON), "a\\\\\\\\b");
	assert_string_equal(esc("0000:04:00\xae.0", GPULAT_ESC_JSON), "0000:04:00\\\\xae.0");
}

static void test_csv(void **state)
{
	(void)state;
	assert_string_equal(esc("gfx", GPULAT_ESC_CSV), "gfx");
	assert_string_equal(esc("a,b", GPULAT_ESC_CSV), "\"a,b\"");
	assert_string_equal(esc("say \"hi\"", GPULAT_ESC_CSV), "\"say \"\"hi\"\"\"");
	assert_string_equal(esc("a\r\nb", GPULAT_ESC_CSV), "a\\x0d\\x0ab");
	assert_string_equal(esc(" pad", GPULAT_ESC_CSV), "\" pad\"");
	/* formula injection */
	assert_string_equal(esc("=HYPERLINK(1)", GPULAT_ESC_CSV), "'=HYPERLINK(1)");
	assert_string_equal(esc("+1", GPULAT_ESC_CSV), "'+1");
	assert_string_equal(esc("@SUM(A1)", GPULAT_ESC_CSV), "'@SUM(A1)");
	assert_string_equal(esc("-1+2", GPULAT_ESC_CSV), "'-1+2");
	assert_string_equal(esc("=1,2", GPULAT_ESC_CSV), "\"'=1,2\"");
	/* a login shell's comm is a name */
	assert_string_equal(esc("-bash", GPULAT_ESC_CSV), "-bash");
}

static void test_truncation(void **state)
{
	char b[8];
	size_t n;

	(void)state;
	/* the whole length is returned, like snprintf */
	n = gpulat_escape(b, sizeof(b), "abcdefghij", GPULAT_ESC_TEXT);
	assert_int_equal(n, 10);
	assert_string_equal(b, "abcdefg");
	/* "abc" + "\x0a" just fits; "abcd" + "\x0a" does not: no half escape */
	n = gpulat_escape(b, sizeof(b), "abc\n", GPULAT_ESC_TEXT);
	assert_int_equal(n, 7);
	assert_string_equal(b, "abc\\x0a");
	n = gpulat_escape(b, sizeof(b), "abcd\n", GPULAT_ESC_TEXT);
	assert_int_equal(n, 8);
	assert_string_equal(b, "abcd");
	/* no half UTF-8 character: 6 bytes + a 3-byte € do not fit in 7 + NUL */
	gpulat_escape(b, sizeof(b), "abcdef\xe2\x82\xac", GPULAT_ESC_TEXT);
	assert_string_equal(b, "abcdef");
	/* no lone backslash at the end of a JSON string */
	gpulat_escape(b, sizeof(b), "abc\x01", GPULAT_ESC_JSON);
	assert_string_equal(b, "abc");
	/* len 0 and NULL dst only count */
	assert_int_equal(gpulat_escape(NULL, 0, "\n\n", GPULAT_ESC_TEXT), 8);
	assert_int_equal(gpulat_escape(b, 1, "x", GPULAT_ESC_TEXT), 1);
	assert_string_equal(b, "");
	/* GPULAT_ESC_SIZE is enough for the worst byte in every form */
	assert_true(gpulat_escape(NULL, 0, "\x01\x01", GPULAT_ESC_JSON) < GPULAT_ESC_SIZE(2));
	assert_true(gpulat_escape(NULL, 0, "=\"\"", GPULAT_ESC_CSV) < GPULAT_ESC_SIZE(3));
}

/* glibc's own decoder: valid UTF-8 without C0/C1 controls */
static void assert_clean_utf8(const char *s)
{
	mbstate_t st;
	size_t n = strlen(s), k;
	wchar_t wc;

	memset(&st, 0, sizeof(st));
	while (n) {
		k = mbrtowc(&wc, s, n, &st);
		assert_true(k != (size_t)-1 && k != (size_t)-2 && k != 0);
		assert_false(wc < 0x20 || (wc >= 0x7f && wc <= 0x9f));
		assert_false(wc >= 0x2028 && wc <= 0x202e);
		s += k;
		n -= k;
	}
}

static void test_random(void **state)
{
	static char text[GPULAT_ESC_SIZE(64)], json[GPULAT_ESC_SIZE(64) + 2];
	char in[64], doc[sizeof(json) + 8];
	int round, i, n;

	(void)state;
	assert_non_null(setlocale(LC_CTYPE, "C.UTF-8"));
	for (round = 0; round < 20000; round++) {
		struct json_object *o;
		size_t need;

		n = (int)(rnd() % 63);
		for (i = 0; i < n; i++) {
			uint64_t r = rnd();

			/* mostly UTF-8 lead/continuation bytes and ASCII edges */
			in[i] = (char)(r % 4 == 0 ? 0x80 + (r >> 8) % 0x80 : r % 4 == 1 ?
				       0xc0 + (r >> 8) % 0x38 : (r >> 8) % 0x100);
			if (!in[i])
				in[i] = '\\';
		}
		in[n] = '\0';
		need = gpulat_escape(text, sizeof(text), in, GPULAT_ESC_TEXT);
		assert_true(need < sizeof(text));
		assert_int_equal(strlen(text), need);
		assert_clean_utf8(text);

		gpulat_escape(json, sizeof(json), in, GPULAT_ESC_JSON);
		snprintf(doc, sizeof(doc), "[\"%s\"]", json);
		o = json_tokener_parse(doc);
		assert_non_null(o);
		assert_string_equal(json_object_get_string(json_object_array_get_idx(o, 0)), text);
		json_object_put(o);
	}
}

static void test_fputs(void **state)
{
	char big[1000], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	memset(big, '\n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_true(gpulat_escape_fputs(big, GPULAT_ESC_TEXT, fp) >= 0);
	assert_true(gpulat_escape_fputs("a,b", GPULAT_ESC_CSV, fp) >= 0);
	fclose(fp);
	assert_int_equal(len, 4 * 999 + 5);
	assert_memory_equal(buf, "\\x0a\\x0a", 8);
	assert_string_equal(buf + 4 * 999, "\"a,b\"");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_n_and_nul),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_fputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
