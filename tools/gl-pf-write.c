// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto, the file side: packets packed by protobuf-c (the generated code
 * of proto/perfetto_subset.proto) and streamed into a temporary file next to
 * the output, renamed into place only when the whole trace was read.
 *
 * Every packet is packed as a Trace message holding that one packet: a
 * sequence of serialized Trace messages is itself a valid Trace (repeated
 * fields concatenate), so the file grows packet by packet and no packet is
 * kept after it was written. All packets share one trusted sequence; the
 * first clears its incremental state and carries the interned names, every
 * later one depends on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gl-perfetto.h"

#define PFW_SEQ_ID	1
#define PFW_FLUSH	(256 * 1024)	/* bytes buffered before a write() */

/* room for one packet of @need bytes (with framing) in the buffer and scratch */
static int pfw_grow(struct gl_pfw *w, size_t need)
{
	if (need > w->scratch_cap) {
		uint8_t *n = realloc(w->scratch, need);

		if (!n)
			return -ENOMEM;
		w->scratch = n;
		w->scratch_cap = need;
	}
	if (w->len + need > w->cap) {
		uint8_t *n = realloc(w->buf, w->len + need);

		if (!n)
			return -ENOMEM;
		w->buf = n;
		w->cap = w->len + need;
	}
	return 0;
}

static int pfw_flush(struct gl_pfw *w)
{
	size_t off = 0;

	while (off < w->len) {
		ssize_t n = write(w->fd, w->buf + off, w->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (size_t)n;
	}
	w->bytes += w->len;
	w->len = 0;
	return 0;
}

/**
 * gl_pfw_open - create the temporary file for @path
 *
 * The temporary file is "@path.tmpXXXXXX" in the same directory, so that the
 * final rename() is atomic and never crosses a file system.
 *
 * Return: 0, or a negative errno with a one-line message in @err.
 */
int gl_pfw_open(struct gl_pfw *w, const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path);

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->path = strdup(path);
	w->tmp = malloc(n + sizeof(".tmpXXXXXX"));
	w->cap = PFW_FLUSH + 4096;
	w->buf = malloc(w->cap);
	if (!w->path || !w->tmp || !w->buf) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		gl_pfw_abort(w);
		return -ENOMEM;
	}
	memcpy(w->tmp, path, n);
	memcpy(w->tmp + n, ".tmpXXXXXX", sizeof(".tmpXXXXXX"));
	w->fd = mkstemp(w->tmp);
	if (w->fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot create the output: %s", path, strerror(e));
		free(w->tmp);
		w->tmp = NULL;	/* nothing to unlink */
		gl_pfw_abort(w);
		return -e;
	}
	/* mkstemp() gives 0600; an export is an ordinary file (0666 & ~umask).
	 * A failing fchmod() is not fatal: the file is still the user's own. */
	{
		mode_t um = umask(0);

		umask(um);
		(void)!fchmod(w->fd, 0666 & ~um);
	}
	return 0;
}

/**
 * gl_pfw_packet - pack one packet and append it to the file
 * @w: writer
 * @p: the packet; its sequence fields are set here
 *
 * Return: 0, or a negative errno (write error, out of memory).
 */
/* the packet in w->scratch (@len bytes), framed as a Trace field */
static int pfw_append(struct gl_pfw *w, size_t len)
{
	Gst__Perfetto__TraceChunk t = GST__PERFETTO__TRACE_CHUNK__INIT;
	ProtobufCBinaryData bin = { .len = len, .data = w->scratch };

	t.n_packet = 1;
	t.packet = &bin;
	w->len += gst__perfetto__trace_chunk__pack(&t, w->buf + w->len);
	w->packets++;
	if (w->len >= PFW_FLUSH) {
		int ret = pfw_flush(w);

		if (ret < 0)
			return w->err = ret;
	}
	return 0;
}

/* room for a packet of at most @size bytes; its framing takes at most 16 */
static int pfw_room(struct gl_pfw *w, size_t size)
{
	if (w->len + size + 16 > w->cap) {
		int ret = pfw_flush(w);

		if (ret < 0)
			return w->err = ret;
	}
	if (pfw_grow(w, size + 16) < 0)
		return w->err = -ENOMEM;
	return 0;
}

/**
 * gl_pfw_packet - pack one packet and append it to the file
 * @w: writer
 * @p: the packet; its sequence fields are set here
 *
 * Return: 0, or a negative errno (write error, out of memory).
 */
int gl_pfw_packet(struct gl_pfw *w, Gst__Perfetto__TracePacket *p)
{
	size_t size;

	if (w->err)
		return w->err;
	p->optional_trusted_packet_sequence_id_case =
		GST__PERFETTO__TRACE_PACKET__OPTIONAL_TRUSTED_PACKET_SEQUENCE_ID_TRUSTED_PACKET_SEQUENCE_ID;
	p->trusted_packet_sequence_id = PFW_SEQ_ID;
	p->has_sequence_flags = true;
	if (!w->packets) {
		p->sequence_flags = GST__PERFETTO__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED;
		p->has_first_packet_on_sequence = true;
		p->first_packet_on_sequence = true;
	} else {
		p->sequence_flags = GST__PERFETTO__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	}
	size = gst__perfetto__trace_packet__get_packed_size(p);
	if (pfw_room(w, size) < 0)
		return w->err;
	return pfw_append(w, gst__perfetto__trace_packet__pack(p, w->scratch));
}

/**
 * gl_pfw_event - pack one track event packet (after the first packet)
 * @w: writer
 * @p: the packet; its sequence fields are set here
 * @bound: an upper bound of its packed size, from its contents (saves
 *	protobuf-c one walk of the whole packet: gl-perfetto.c ev_bound())
 * @interned: it refers to the sequence's interned names
 *
 * Return: 0, or a negative errno.
 */
int gl_pfw_event(struct gl_pfw *w, Gst__Perfetto__TrackEventPacket *p, size_t bound,
		 bool interned)
{
	if (w->err)
		return w->err;
	if (!w->packets)
		return w->err = -EINVAL;	/* the interned data come first */
	p->has_trusted_packet_sequence_id = true;
	p->trusted_packet_sequence_id = PFW_SEQ_ID;
	if (interned) {
		p->has_sequence_flags = true;
		p->sequence_flags = GST__PERFETTO__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE;
	}
	if (pfw_room(w, bound) < 0)
		return w->err;
	return pfw_append(w, gst__perfetto__track_event_packet__pack(p, w->scratch));
}

/* a slice end or counter value (at most 64 bytes packed, see its fields) */
int gl_pfw_core(struct gl_pfw *w, Gst__Perfetto__TrackEventCorePacket *p)
{
	if (w->err)
		return w->err;
	if (!w->packets)
		return w->err = -EINVAL;
	p->has_trusted_packet_sequence_id = true;
	p->trusted_packet_sequence_id = PFW_SEQ_ID;
	if (pfw_room(w, 64) < 0)
		return w->err;
	return pfw_append(w, gst__perfetto__track_event_core_packet__pack(p, w->scratch));
}

static void pfw_free(struct gl_pfw *w)
{
	free(w->scratch);
	w->scratch = NULL;
	free(w->buf);
	free(w->tmp);
	free(w->path);
	w->buf = NULL;
	w->tmp = NULL;
	w->path = NULL;
}

/**
 * gl_pfw_commit - write what is buffered and rename the file into place
 *
 * Return: 0, or a negative errno with a one-line message in @err (the
 * temporary file is removed then, and @path is left as it was).
 */
int gl_pfw_commit(struct gl_pfw *w, char *err, size_t errlen)
{
	int ret = w->err ? w->err : pfw_flush(w);

	if (close(w->fd) < 0 && !ret)
		ret = -errno;
	w->fd = -1;
	if (!ret && rename(w->tmp, w->path) < 0)
		ret = -errno;
	if (ret < 0) {
		snprintf(err, errlen, "%s: write error: %s", w->path, strerror(-ret));
		unlink(w->tmp);
	}
	pfw_free(w);
	return ret;
}

/* drop the temporary file: nothing of a failed export stays behind */
void gl_pfw_abort(struct gl_pfw *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->tmp)
		unlink(w->tmp);
	pfw_free(w);
}
