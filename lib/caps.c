// SPDX-License-Identifier: LGPL-2.1
/*
 * Memory caps against hostile traces, in one place: jobs in flight (the
 * tracker), groups per kind (the statistics), rings and tasks the diagnosis
 * follows. Each has a default sized for real traces; a cap that is hit is
 * counted and said in one warning by whoever holds it.
 *
 * GPULAT_MAX_OPEN, GPULAT_MAX_GROUPS and GPULAT_MAX_TASKS in the environment
 * lower (or raise) them: the tests reach the caps with small traces
 * (tests/damaged/hostile.py), and a user with a machine to spare can raise
 * them. An unparsable or zero value keeps the default.
 */
#include <stdlib.h>

#include "gpulat-int.h"

static size_t env_cap(const char *name, size_t def)
{
	const char *v = getenv(name);
	unsigned long long n;
	char *end;

	if (!v || !*v)
		return def;
	n = strtoull(v, &end, 0);
	if (*end || !n || n > SIZE_MAX / 2)
		return def;
	return (size_t)n;
}

size_t gpulat__cap(enum gpulat__cap_kind k)
{
	switch (k) {
	case GPULAT_CAP_OPEN:
		return env_cap("GPULAT_MAX_OPEN", GPULAT_MAX_OPEN_DEFAULT);
	case GPULAT_CAP_GROUPS:
		return env_cap("GPULAT_MAX_GROUPS", GPULAT_MAX_GROUPS_DEFAULT);
	case GPULAT_CAP_TASKS:
		return env_cap("GPULAT_MAX_TASKS", GPULAT_MAX_TASKS_DEFAULT);
	}
	return SIZE_MAX;
}
