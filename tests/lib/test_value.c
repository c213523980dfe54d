// SPDX-License-Identifier: LGPL-2.1
/*
 * The report model's value (gpulat-report.h): a caller cannot be trapped by
 * where a string lives. A string a getter builds (an address, a joined list)
 * lives in the value itself, so a copy of the value carries its own; a
 * string the row owns is the row's; a caller's struct is written only as far
 * as its @sz says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gpulat.h"
#include "gpulat-report.h"

static const struct gpulat_field *job_field(const char *name)
{
	const struct gpulat_field *f = gpulat_field_find(GPULAT_ROW_JOB, name);

	assert_non_null(f);
	return f;
}

static void test_copy_keeps_built_string(void **state)
{
	struct gpulat_job j = { .ring = "gfx", .fence_ptr = 0xffff888103f0a2c8ULL };
	struct gpulat_value v = { .sz = sizeof(v) }, w;

	(void)state;
	gpulat_field_get(job_field("fence_ptr"), &j, &v);
	assert_int_equal(v.type, GPULAT_V_STR);
	w = v;
	/* the original ends (here: overwritten); the copy keeps its string */
	memset(&v, 0xa5, sizeof(v));
	assert_string_equal(gpulat_value_str(&w), "0xffff888103f0a2c8");
}

static void test_row_string_is_the_rows(void **state)
{
	struct gpulat_job j = { .ring = "gfx_0.0.0" };
	struct gpulat_value v = { .sz = sizeof(v) };

	(void)state;
	gpulat_field_get(job_field("ring"), &j, &v);
	assert_int_equal(v.type, GPULAT_V_STR);
	assert_ptr_equal(gpulat_value_str(&v), j.ring);
	/* not a string: no string */
	gpulat_field_get(job_field("pid"), &j, &v);
	assert_null(gpulat_value_str(&v));
}

static void test_lists(void **state)
{
	struct gpulat_job j = { .ring = "gfx", .lost_stages = 0xf, .hang = ~0u };
	struct gpulat_value v = { .sz = sizeof(v) };
	const char *s;

	(void)state;
	gpulat_field_get(job_field("lost_stages"), &j, &v);
	assert_int_equal(v.type, GPULAT_V_LIST);
	assert_string_equal(gpulat_value_str(&v), "queue|run|done|signal");
	/* every bit set: the known names, within the value (ASan checks the rest) */
	gpulat_field_get(job_field("hang"), &j, &v);
	s = gpulat_value_str(&v);
	assert_non_null(s);
	assert_string_equal(s, "timedout|error|banned");
	j.lost_stages = 0;
	gpulat_field_get(job_field("lost_stages"), &j, &v);
	assert_string_equal(gpulat_value_str(&v), "");
}

static void test_sized(void **state)
{
	struct gpulat_job j = { .ring = "gfx", .pid = 42 };
	struct gpulat_value v;
	unsigned char raw[sizeof(v) + 16];

	(void)state;
	/* a struct of the size a caller knows: nothing written past it */
	memset(raw, 0x5a, sizeof(raw));
	memcpy(raw, &(size_t){ sizeof(v) }, sizeof(size_t));
	gpulat_field_get(job_field("pid"), &j, (struct gpulat_value *)raw);
	memcpy(&v, raw, sizeof(v));
	assert_int_equal(v.sz, sizeof(v));
	assert_int_equal(v.type, GPULAT_V_I64);
	assert_int_equal(v.i, 42);
	for (size_t i = sizeof(v); i < sizeof(raw); i++)
		assert_int_equal(raw[i], 0x5a);
	/* smaller than the first layout: a null value, the size kept */
	memset(&v, 0, sizeof(v));
	v.sz = offsetof(struct gpulat_value, buf);
	v.type = GPULAT_V_U64;
	gpulat_field_get(job_field("pid"), &j, &v);
	assert_int_equal(v.type, GPULAT_V_NULL);
	assert_int_equal(v.sz, offsetof(struct gpulat_value, buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_keeps_built_string),
		cmocka_unit_test(test_row_string_is_the_rows),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_sized),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
