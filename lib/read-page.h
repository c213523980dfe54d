/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Walking the records of one ring-buffer page, for read-zstd.c.
 *
 * read-zstd.c walked each page with libtraceevent's kbuffer: six calls a
 * record (read, three offsets and sizes, missed events, next), each
 * through a pointer to the byte-order reader, ~330 instructions a record
 * of which kbuffer_next_event() alone was 220 (callgrind, gpu-latency -j1
 * on a 4.6 M-event shape-dense v6 trace: 1.46 G of 4.98 G instructions).
 * This walker is inline and gives the same records, timestamps, offsets,
 * sizes and missed-event counts as libtraceevent 1.7.1's kbuffer
 * (tests/lib/test_read_page compares the two on every page of the sample
 * traces and on pages built with every record type).
 *
 * The page format (the kernel's ring buffer, as trace.dat keeps it):
 *  - header: u64 timestamp, then the commit as a long (4 or 8 bytes, the
 *    file's long size): bytes of records in its low 27 bits, bit 31 set
 *    when events were lost before the page, bit 30 when their count is
 *    stored (a long) just after the records; the records follow;
 *  - a record: a u32 header of type_len (5 bits) and time_delta (27 bits),
 *    the low bits of the u32 in a little-endian file, the high ones in a
 *    big-endian one. type_len 1-28: a data record of type_len * 4 bytes;
 *    0: a data record whose length + 4 is the next u32 (rounded up to 4);
 *    29: padding, its length the next u32 counted from that u32;
 *    30: time extend, 31: absolute time stamp (8 bytes in all): the
 *    next u32 << 27 + time_delta; an absolute stamp keeps the top 5 bits
 *    of the current time. Every record's time_delta adds to the page's
 *    time, padding's too.
 *
 * Where a damaged page would make kbuffer read outside the page (a header
 * at its last bytes, a stored lost count past its end) the walker stops or
 * says "unknown" instead; every other record is kbuffer's.
 */
#ifndef _GPULAT_READ_PAGE_H
#define _GPULAT_READ_PAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define GPULAT__RB_COMMIT_MASK		((1u << 27) - 1)
#define GPULAT__RB_MISSED_EVENTS	(1ull << 31)
#define GPULAT__RB_MISSED_STORED	(1ull << 30)
#define GPULAT__RB_TS_SHIFT		27
#define GPULAT__RB_TS_MSB		(0xf8ull << 56)

enum {
	GPULAT__RB_PADDING	= 29,
	GPULAT__RB_TIME_EXTEND	= 30,
	GPULAT__RB_TIME_STAMP	= 31,
};

struct gpulat__pgw {
	const unsigned char	*data;		/* the page's records */
	uint64_t		ts;		/* of the current record */
	int64_t			lost;		/* before the page: 0, -1 unknown, a count */
	uint32_t		size;		/* bytes of records (the commit) */
	uint32_t		avail;		/* bytes after the header in the page */
	uint32_t		curr;		/* the current record's header, from data */
	uint32_t		index;		/* its payload */
	uint32_t		next;		/* the record after it */
	uint32_t		start;		/* of data in the page: 16 or 12 */
	bool			big;		/* big-endian file */
	bool			swap;		/* its byte order is not the host's */
	bool			long8;		/* 8-byte longs (the commit) */
};

static inline uint32_t gpulat__pgw_u32(const struct gpulat__pgw *w, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return w->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t gpulat__pgw_u64(const struct gpulat__pgw *w, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return w->swap ? __builtin_bswap64(v) : v;
}

static inline void gpulat__pgw_init(struct gpulat__pgw *w, bool big_endian_file, bool long8)
{
	memset(w, 0, sizeof(*w));
	w->big = big_endian_file;
	w->swap = big_endian_file != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	w->long8 = long8;
	w->start = long8 ? 16 : 12;
}

/* kbuffer's next_event(): the next data record, false past the last */
static inline bool gpulat__pgw_next(struct gpulat__pgw *w)
{
	uint32_t v, type, len, p;
	uint64_t delta, ext;

	for (;;) {
		w->curr = w->next;
		if (w->next >= w->size || w->curr > w->avail - 4)
			return false;
		v = gpulat__pgw_u32(w, w->data + w->curr);
		type = w->big ? v >> 27 : v & 31;
		delta = w->big ? v & ((1u << 27) - 1) : v >> 5;
		p = w->curr + 4;
		if (type >= 1 && type <= 28) {
			/* the common case: a data record of type_len words */
			w->ts += delta;
			w->index = p;
			w->next = p + type * 4;
			return true;
		}
		if (p > w->avail - 4)
			return false;	/* its length word is past the page */
		switch (type) {
		case 0:
			len = (gpulat__pgw_u32(w, w->data + p) - 4 + 3) & ~3u;
			w->ts += delta;
			w->index = p + 4;
			w->next = p + 4 + len;
			return true;
		case GPULAT__RB_PADDING:
			w->ts += delta;
			w->index = p;
			w->next = p + gpulat__pgw_u32(w, w->data + p);
			break;
		default:	/* time extend, time stamp */
			ext = ((uint64_t)gpulat__pgw_u32(w, w->data + p) << GPULAT__RB_TS_SHIFT) + delta;
			if (type == GPULAT__RB_TIME_STAMP)
				w->ts = ext | (w->ts & GPULAT__RB_TS_MSB);
			else
				w->ts += ext;
			w->index = p + 4;
			w->next = p + 4;
			break;
		}
	}
}

/*
 * kbuffer_load_subbuffer(): @page of @page_size bytes (its header checked by
 * gpulat__page_ok()); true when it holds a record, then the current one
 */
static inline bool gpulat__pgw_load(struct gpulat__pgw *w, const unsigned char *page,
				    uint32_t page_size)
{
	uint64_t commit = w->long8 ? gpulat__pgw_u64(w, page + 8) : gpulat__pgw_u32(w, page + 8);
	uint32_t ll = w->long8 ? 8 : 4;

	w->ts = gpulat__pgw_u64(w, page);
	w->data = page + w->start;
	w->avail = page_size - w->start;
	w->size = (uint32_t)commit & GPULAT__RB_COMMIT_MASK;
	if (!(commit & GPULAT__RB_MISSED_EVENTS))
		w->lost = 0;
	else if (!(commit & GPULAT__RB_MISSED_STORED) || w->size > w->avail - ll)
		w->lost = -1;	/* not stored, or stored past the page */
	else
		w->lost = (int64_t)(w->long8 ? gpulat__pgw_u64(w, w->data + w->size) :
					       gpulat__pgw_u32(w, w->data + w->size));
	w->curr = 0;
	w->index = 0;
	w->next = 0;
	return gpulat__pgw_next(w);
}

/* kbuffer_missed_events(): only a record at the page's very start has them */
static inline int gpulat__pgw_missed(const struct gpulat__pgw *w)
{
	return w->curr ? 0 : (int)w->lost;
}

#endif /* _GPULAT_READ_PAGE_H */
