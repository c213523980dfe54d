// SPDX-License-Identifier: LGPL-2.1
/*
 * replay: run files (or every file of directories) through
 * LLVMFuzzerTestOneInput without libFuzzer, for the default test suite.
 *
 *   fuzz_core_replay PATH...
 *
 * A crash or an invariant violation aborts (non-zero exit, the failing file
 * is named on stderr first). Exit 0 when every input ran; 2 on usage or I/O
 * errors; an empty directory is an error (the corpus must not vanish).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t n;
	FILE *f;

	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	/* exactly sized: reads past the input are caught by ASan */
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, st.st_size, f);
	fclose(f);
	/* named before running: the last name printed is the culprit */
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int run_path(const char *path, unsigned long *count)
{
	struct dirent *de;
	struct stat st;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0;
	DIR *d;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return run_file(path);
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *full;

		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn;

			cap = cap ? cap * 2 : 64;
			nn = realloc(names, cap * sizeof(*nn));
			if (!nn) {
				ret = -1;
				break;
			}
			names = nn;
		}
		if (asprintf(&full, "%s/%s", path, de->d_name) < 0) {
			ret = -1;
			break;
		}
		names[n++] = full;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (!ret && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			(*count)++;
			ret = run_file(names[i]);
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int i, first = 1;

	if (argc > 1 && !strcmp(argv[1], "-v"))
		first = 2;	/* accepted for compatibility: names are always printed */
	if (first >= argc) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (i = first; i < argc; i++)
		if (run_path(argv[i], &count) < 0)
			return 2;
	if (!count) {
		fprintf(stderr, "replay: no inputs found\n");
		return 2;
	}
	fprintf(stderr, "replay: %lu inputs ran clean\n", count);
	return 0;
}
