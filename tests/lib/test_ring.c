// SPDX-License-Identifier: LGPL-2.1
/*
 * Ring names (gpulat-ring.h): the canonical label and the --ring / ring=
 * selector rule every front end uses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpulat.h"

static void test_label(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(gpulat_ring_label(buf, sizeof(buf), "0000:03:00.0", "gfx_0.0.0"),
			    "0000:03:00.0/gfx_0.0.0");
	assert_string_equal(gpulat_ring_label(buf, sizeof(buf), "", "gfx"), "gfx");
	assert_string_equal(gpulat_ring_label(buf, sizeof(buf), NULL, "gfx"), "gfx");
	assert_string_equal(gpulat_ring_label(buf, sizeof(buf), "", NULL), "?");
	/* truncated, never overflowing */
	assert_string_equal(gpulat_ring_label(buf, 6, "0000:03:00.0", "gfx"), "0000:");
}

static void test_match(void **state)
{
	(void)state;
	assert_true(gpulat_ring_match("gfx", "", "gfx", NULL));
	assert_false(gpulat_ring_match("gf", "", "gfx", NULL));
	assert_false(gpulat_ring_match("gfx", "", "gfx_0.0.0", NULL));
	/* the label as reports print it */
	assert_true(gpulat_ring_match("0000:03:00.0/gfx", "0000:03:00.0", "gfx", NULL));
	assert_false(gpulat_ring_match("0000:0b:00.0/gfx", "0000:03:00.0", "gfx", NULL));
	assert_false(gpulat_ring_match("0000:03:00.0/", "0000:03:00.0", "gfx", NULL));
	assert_true(gpulat_ring_match("gfx", "0000:03:00.0", "gfx", NULL));
	/* every spelling the project prints (issue 16) */
	assert_true(gpulat_ring_match("03:00.0/gfx", "0000:03:00.0", "gfx", NULL));
	assert_true(gpulat_ring_match("gfx@03:00.0", "0000:03:00.0", "gfx", NULL));
	assert_true(gpulat_ring_match("gfx@0000:03:00.0", "0000:03:00.0", "gfx", NULL));
	assert_false(gpulat_ring_match("gfx@0b:00.0", "0000:03:00.0", "gfx", NULL));
	assert_false(gpulat_ring_match("3:00.0/gfx", "0000:03:00.0", "gfx", NULL));
	assert_true(gpulat_dev_match("03:00.0", "0000:03:00.0"));
	assert_false(gpulat_dev_match("03:00.0", "0001:03:00.0"));
	assert_false(gpulat_dev_match("", "0000:03:00.0"));
	/* <= 5.18: the name and the address the trace holds */
	assert_true(gpulat_ring_match("gfx_0.0.0", "", "gfx_0.0.0", "0xffff888103f102c8"));
	assert_true(gpulat_ring_match("0xffff888103f102c8", "", "gfx_0.0.0",
				      "0xffff888103f102c8"));
	assert_false(gpulat_ring_match("0xffff888103f0a2c8", "", "gfx_0.0.0",
				       "0xffff888103f102c8"));
	assert_false(gpulat_ring_match(NULL, "", "gfx", NULL));
	assert_false(gpulat_ring_match("gfx", "", NULL, NULL));
}

static void test_is_ptr(void **state)
{
	(void)state;
	assert_true(gpulat_ring_is_ptr("0xffff888103f102c8"));
	assert_false(gpulat_ring_is_ptr("gfx"));
	assert_false(gpulat_ring_is_ptr("0"));
	assert_false(gpulat_ring_is_ptr(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_is_ptr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
