/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * The fuzz input format of fuzz_core (shared by the harness and the corpus
 * extractor). Everything little-endian.
 *
 *   header (16 bytes)
 *     [0]     flags: FZ_F_*
 *     [1]     max open jobs (with FZ_F_MAXOPEN; 0 = 1)
 *     [2]     stall threshold: 0 = default, else 2^(v & 63) ns
 *     [3]     top_n of the statistics
 *     [4]     worst_by metric (any value; the library must clamp it)
 *     [5]     linger: 0 = default, else 2^(v & 63) ns
 *     [6]     era forced on the tracker (with FZ_F_ERA; any value)
 *     [7]     reserved
 *     [8..15] u64 base timestamp
 *   format section, up to the first NUL byte (or the end of the input):
 *     chunks, each starting at a line "%%SYS <system>\n" followed by one
 *     event format text (name:, ID:, format:, fields, print fmt:) given to
 *     tep_parse_event() as is (NOT NUL terminated, any bytes); or a line
 *     "%%COMM <pid> <comm>\n" registering a task name.
 *   records, after the NUL, each:
 *     u8  op:  bits 0-2: 0-4 record, 5 lost(cpu, count = len),
 *                        6 lost_range(cpu, ts - len, ts, 0), 7 skip
 *              bit 3: write the id of parsed event number (op >> 4) into
 *                     the first two payload bytes (common_type)
 *     u8  cpu (bit 7 set: the cpu is -1 - (cpu & 0x7f), a hostile value)
 *     s32 timestamp delta (may be negative: timestamps going backwards)
 *     u16 payload length (clamped to the bytes left)
 *     payload
 */
#ifndef _FUZZ_INPUT_H
#define _FUZZ_INPUT_H

#define FZ_HDR_LEN	16
#define FZ_REC_HDR_LEN	8

enum {
	FZ_F_BIGENDIAN	= 1 << 0,	/* the "file" is big-endian */
	FZ_F_LONG4	= 1 << 1,	/* long size 4 */
	FZ_F_SIGNALS	= 1 << 2,	/* gpulat_tracker_set_signal_expected(true) */
	FZ_F_ERA_AUTO	= 1 << 3,	/* set the tracker era from the binding */
	FZ_F_MAXOPEN	= 1 << 4,	/* gpulat_tracker_set_max_open(hdr[1]) */
	FZ_F_ERA	= 1 << 5,	/* gpulat_tracker_set_era(hdr[6]) */
	FZ_F_NOSTATS	= 1 << 6,	/* skip the statistics */
	FZ_F_LATEWARN	= 1 << 7,	/* set the binding warn callback late */
};

enum {
	FZ_OP_LOST	= 5,
	FZ_OP_LOST_RANGE = 6,
	FZ_OP_SKIP	= 7,
	FZ_OP_SETID	= 1 << 3,
};

#define FZ_SYS_TAG	"%%SYS "
#define FZ_COMM_TAG	"%%COMM "

#endif /* _FUZZ_INPUT_H */
