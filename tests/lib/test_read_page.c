// SPDX-License-Identifier: LGPL-2.1
/*
 * The reader's page walker (lib/read-page.h) against libtraceevent's
 * kbuffer, the oracle: on every ring-buffer page of the v6 traces given
 * (their flyrecord CPU data is the pages as the kernel wrote them) and on
 * pages built here with every record type (small and large data records,
 * padding, time extends, absolute time stamps with the top bits carried,
 * events lost before the page with and without a stored count), little-
 * and big-endian, 8- and 4-byte longs. Each record must have kbuffer's
 * timestamp, offset, payload pointer, sizes and missed-event count, and
 * both must end the page at the same record.
 *
 *   test_read_page V6_TRACE...
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <event-parse.h>
#include <kbuffer.h>
#include <trace-cmd.h>

#include "gpulat-tracecmd.h"
#include "read-page.h"
#include "test-util.h"

#define SYN_PAGE	4096
#define SYN_PAGES	3000

static char **traces;
static int ntraces;

/* walk @page with both; the records compared; returns how many */
static unsigned int compare_page(unsigned char *page, uint32_t page_size, bool big, bool long8)
{
	struct kbuffer *kb = kbuffer_alloc(long8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   big ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	struct gpulat__pgw w;
	unsigned long long ts;
	unsigned int n = 0;
	bool more;
	void *data;

	assert_non_null(kb);
	gpulat__pgw_init(&w, big, long8);
	kbuffer_load_subbuffer(kb, page);
	more = gpulat__pgw_load(&w, page, page_size);
	for (;;) {
		data = kbuffer_read_event(kb, &ts);
		assert_int_equal(more, data != NULL);
		if (!data)
			break;
		assert_ptr_equal(w.data + w.index, data);
		assert_int_equal(w.ts, ts);
		assert_int_equal(w.curr + w.start, kbuffer_curr_offset(kb));
		assert_int_equal((int)(w.next - w.index), kbuffer_event_size(kb));
		assert_int_equal((int)(w.next - w.curr), kbuffer_curr_size(kb));
		assert_int_equal(gpulat__pgw_missed(&w), kbuffer_missed_events(kb));
		n++;
		kbuffer_next_event(kb, NULL);
		more = gpulat__pgw_next(&w);
	}
	kbuffer_free(kb);
	return n;
}

/* every page of every CPU of each v6 trace */
static void test_trace_pages(void **state)
{
	unsigned long long records = 0, pages = 0;
	int t;

	(void)state;
	for (t = 0; t < ntraces; t++) {
		struct tracecmd_input *h = tracecmd_open_head(traces[t], 0);
		unsigned char *d;
		uint64_t off, size, p;
		uint32_t psize;
		size_t len, fly;
		FILE *fp;
		int cpu, cpus;
		bool big, long8;

		assert_non_null(h);
		cpus = tracecmd_cpus(h);
		psize = (uint32_t)tracecmd_page_size(h);
		big = tep_is_file_bigendian(tracecmd_get_tep(h));
		long8 = tracecmd_long_size(h) != 4;
		tracecmd_close(h);

		fp = fopen(traces[t], "rb");
		assert_non_null(fp);
		fseek(fp, 0, SEEK_END);
		len = (size_t)ftell(fp);
		rewind(fp);
		d = malloc(len + 16);
		assert_non_null(d);
		assert_int_equal(fread(d, 1, len, fp), len);
		fclose(fp);
		assert_int_equal(d[10], '6');
		/* the flyrecord table: per CPU a u64 offset and a u64 size */
		d[len] = 0;
		for (fly = 0; fly + 10 < len && memcmp(d + fly, "flyrecord", 10); fly++)
			;
		assert_true(fly + 10 + 16 * (size_t)cpus <= len);
		for (cpu = 0; cpu < cpus; cpu++) {
			memcpy(&off, d + fly + 10 + 16 * cpu, 8);
			memcpy(&size, d + fly + 18 + 16 * cpu, 8);
			assert_true(off + size <= len);
			for (p = 0; p + psize <= size; p += psize) {
				records += compare_page(d + off + p, psize, big, long8);
				pages++;
			}
		}
		free(d);
	}
	printf("# %llu records on %llu pages of %d traces: as kbuffer\n", records, pages,
	       ntraces);
	assert_true(pages > 0 && records > pages);
}

/* a u32 / u64 as the page's byte order has it */
static void put32(unsigned char *p, uint32_t v, bool big)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (big ? 24 - 8 * i : 8 * i));
}

static void put64(unsigned char *p, uint64_t v, bool big)
{
	put32(p + (big ? 4 : 0), (uint32_t)v, big);
	put32(p + (big ? 0 : 4), (uint32_t)(v >> 32), big);
}

/* a record header: type_len and time delta where each byte order keeps them */
static uint32_t hdr(uint32_t type, uint32_t delta, bool big)
{
	return big ? type << 27 | (delta & ((1u << 27) - 1)) : (delta << 5) | type;
}

/* a page of random well-formed records of every type; its number of data records */
static unsigned int build_page(unsigned char *page, bool big, bool long8)
{
	uint32_t start = long8 ? 16 : 12, pos = 0, room, type, len;
	uint64_t commit, ts = rnd();
	unsigned char *data = page + start;
	unsigned int n = 0;

	memset(page, 0xa5, SYN_PAGE);
	/* room for a stored lost count after the records */
	room = SYN_PAGE - start - 8;
	/* some pages' time near the top: absolute stamps carry the top 5 bits */
	if (rnd() % 2)
		ts |= 0xf8ULL << 56;
	put64(page, ts, big);
	/* the largest record is 116 bytes (type_len 28) */
	while (pos + 128 < room && rnd() % 40) {
		uint32_t delta = (uint32_t)(rnd() & ((1u << 27) - 1));

		switch (rnd() % 8) {
		case 0:	/* a large data record: type_len 0, its length + 4 */
			len = 4 * (uint32_t)(1 + rnd() % 12);
			put32(data + pos, hdr(0, delta, big), big);
			put32(data + pos + 4, len + 4, big);
			pos += 8 + len;
			n++;
			break;
		case 1:	/* padding, its length from its length word */
			len = 4 * (uint32_t)(rnd() % 6);
			put32(data + pos, hdr(29, rnd() % 3 ? delta : 0, big), big);
			put32(data + pos + 4, len + 4, big);
			pos += 4 + 4 + len;
			break;
		case 2:	/* time extend */
		case 3:	/* absolute time stamp */
			type = rnd() % 2 ? 30 : 31;
			put32(data + pos, hdr(type, delta, big), big);
			put32(data + pos + 4, (uint32_t)rnd(), big);
			pos += 8;
			break;
		default:	/* a small data record of type_len words */
			type = 1 + (uint32_t)(rnd() % 28);
			put32(data + pos, hdr(type, delta, big), big);
			pos += 4 + 4 * type;
			n++;
			break;
		}
	}
	commit = pos;
	switch (rnd() % 4) {
	case 0:	/* events lost before the page, their count stored after it */
		commit |= 3ULL << 30;
		if (long8)
			put64(data + pos, rnd() % 100000, big);
		else
			put32(data + pos, (uint32_t)(rnd() % 100000), big);
		break;
	case 1:	/* lost, count unknown */
		commit |= 1ULL << 31;
		break;
	default:
		break;
	}
	if (long8)
		put64(page + 8, commit, big);
	else
		put32(page + 8, (uint32_t)commit, big);
	return n;
}

static void test_built_pages(void **state)
{
	static unsigned char page[SYN_PAGE];
	unsigned long long records = 0, want = 0;
	int i, k;

	(void)state;
	for (k = 0; k < 4; k++) {
		bool big = k & 1, long8 = !(k & 2);

		for (i = 0; i < SYN_PAGES; i++) {
			want += build_page(page, big, long8);
			records += compare_page(page, SYN_PAGE, big, long8);
		}
	}
	/* both walked every data record that was built */
	assert_int_equal(records, want);
	printf("# %llu records on %d built pages: as kbuffer\n", records, 4 * SYN_PAGES);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_pages),
		cmocka_unit_test(test_built_pages),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s V6_TRACE...\n", argv[0]);
		return 2;
	}
	traces = argv + 1;
	ntraces = argc - 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
