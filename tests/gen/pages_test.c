// SPDX-License-Identifier: LGPL-2.1
/*
 * Unit test of the generator's ring-buffer page writer (sample-traces/gen/
 * pages.c), decoded with libtraceevent's own kbuffer parser: small events,
 * events too big for type_len (length word), deltas needing TIME_EXTEND,
 * page overflow into the next page, and a dropped range that flags the next
 * page with the number of missed events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>

#include "gen.h"

#define NEV	400

static int failures;

#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, __VA_ARGS__); \
	fputc('\n', stderr); } } while (0)

struct want {
	uint64_t	ts;
	int		len;
	uint8_t		fill;
	bool		drop;
};

static void make_events(struct want *w)
{
	uint64_t ts = 1000000000ULL;
	int i;

	for (i = 0; i < NEV; i++) {
		ts += (i % 50 == 7) ? (1ULL << 28) + 12345 : 137ULL * (i % 13);
		w[i].ts = ts;
		w[i].len = (i % 9 == 4) ? 200 : 8 + 4 * (i % 20);	/* 200 > 28 * 4 */
		w[i].fill = (uint8_t)(i + 1);
		w[i].drop = i >= 150 && i < 160;
	}
}

static void write_events(const char *dir, const struct want *w)
{
	struct gen_pages p;
	uint8_t buf[256];
	int i;

	CHECK(!gen_pages_open(&p, 1, dir), "open");
	for (i = 0; i < NEV; i++) {
		memset(buf, w[i].fill, sizeof(buf));
		CHECK(!gen_pages_write(&p, 0, w[i].ts, buf, w[i].len, w[i].drop),
		      "write %d", i);
	}
	CHECK(gen_pages_write(&p, 0, w[NEV - 1].ts - 1, buf, 8, false) < 0,
	      "time going backwards must be refused");
	CHECK(p.dropped == 10, "dropped %llu", (unsigned long long)p.dropped);
	CHECK(!gen_pages_close(&p), "close");
}

static int check_page(struct kbuffer *kb, const struct want *w, int next, bool *seen_missed)
{
	unsigned long long ts;
	void *data;

	while (next < NEV && w[next].drop)
		next++;
	if (kbuffer_missed_events(kb)) {
		CHECK(next == 160, "missed events flagged before event %d", next);
		CHECK(kbuffer_missed_events(kb) == 10, "missed count %d",
		      kbuffer_missed_events(kb));
		*seen_missed = true;
	}
	for (data = kbuffer_read_event(kb, &ts); data; data = kbuffer_next_event(kb, &ts)) {
		while (next < NEV && w[next].drop)
			next++;
		CHECK(next < NEV, "extra event");
		if (next >= NEV)
			break;
		CHECK(ts == w[next].ts, "event %d ts %llu != %llu", next, ts,
		      (unsigned long long)w[next].ts);
		CHECK(kbuffer_event_size(kb) == w[next].len, "event %d size %d != %d",
		      next, kbuffer_event_size(kb), w[next].len);
		CHECK(((uint8_t *)data)[w[next].len - 1] == w[next].fill, "event %d data", next);
		next++;
	}
	return next;
}

/*
 * A CPU may hold at most INT_MAX bytes of pages (libtracecmd before 3.3
 * keeps a CPU file's size in an int): @n one-page events on CPU 1 of a
 * count-only writer, one small event on CPU 0. Returns gen_pages_close().
 */
static int write_pages(uint64_t n, struct gen_pages *p)
{
	static uint8_t big[4000];	/* 4008 bytes with its header: one a page */
	uint64_t i;

	CHECK(!gen_pages_open(p, 2, NULL), "open");
	CHECK(!gen_pages_write(p, 0, 1000, big, 8, false), "cpu 0");
	for (i = 0; i < n; i++)
		if (gen_pages_write(p, 1, 2000 + i, big, sizeof(big), false)) {
			CHECK(0, "write %llu refused", (unsigned long long)i);
			break;
		}
	return gen_pages_close(p);
}

static void test_cpu_limit(void)
{
	const uint64_t most = 2147483647ULL / 4096;	/* INT_MAX / page */
	struct gen_pages p;
	int ret;

	ret = write_pages(most, &p);
	CHECK(ret == 0, "%llu pages: close %d", (unsigned long long)most, ret);
	CHECK(p.cpu[1].pages == most, "%llu pages counted", (unsigned long long)p.cpu[1].pages);
	ret = write_pages(most + 1, &p);
	CHECK(ret == -EFBIG, "%llu pages: close %d, not -EFBIG", (unsigned long long)most + 1, ret);
	CHECK(p.err_cpu == 1, "the CPU past the limit is %d, not 1", p.err_cpu);
	CHECK(p.cpu[1].pages == most, "%llu pages kept", (unsigned long long)p.cpu[1].pages);
	CHECK(gen_pages_cpu_max() == most * 4096, "gen_pages_cpu_max %llu",
	      (unsigned long long)gen_pages_cpu_max());
}

int main(void)
{
	char dir[] = "gen-pages-test.XXXXXX";	/* in the build tree (ctest runs here) */
	static struct want w[NEV];
	static uint8_t page[GEN_PAGE_SIZE];
	struct kbuffer *kb;
	bool seen_missed = false;
	char path[64];
	int next = 0, pages = 0;
	FILE *fp;

	if (!mkdtemp(dir))
		return 2;
	test_cpu_limit();
	make_events(w);
	write_events(dir, w);
	snprintf(path, sizeof(path), "%s/cpu0.raw", dir);
	fp = fopen(path, "rb");
	kb = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	while (fp && fread(page, sizeof(page), 1, fp) == 1) {
		pages++;
		kbuffer_load_subbuffer(kb, page);
		next = check_page(kb, w, next, &seen_missed);
	}
	CHECK(next == NEV, "decoded up to event %d of %d", next, NEV);
	CHECK(pages > 2, "only %d pages", pages);
	CHECK(seen_missed, "no page flagged with missed events");
	kbuffer_free(kb);
	if (fp)
		fclose(fp);
	unlink(path);
	rmdir(dir);
	printf("pages_test: %d pages, %s\n", pages, failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
