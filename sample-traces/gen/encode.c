// SPDX-License-Identifier: LGPL-2.1
/*
 * Encode one trace event payload (what the kernel's TP_fast_assign writes)
 * from named field values, using the offsets and sizes of the event's format.
 */
#include <errno.h>
#include <string.h>

#include "gen.h"

static void put_le(uint8_t *p, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* sizeof(struct trace_event_raw_X): fixed part padded to its alignment */
static int struct_size(const struct gen_format *fmt)
{
	int align = 4, i;

	for (i = 0; i < fmt->nfields; i++) {
		const struct gen_field *f = &fmt->fields[i];

		if (!f->array && !f->data_loc && f->size == 8)
			align = 8;
	}
	return (fmt->fixed_size + align - 1) & ~(align - 1);
}

static int put_value(const struct gen_format *fmt, const struct gen_fval *v,
		     uint8_t *buf, int buflen, int *dyn)
{
	const struct gen_field *f = gen_format_field(fmt, v->name);
	int len, i;

	if (!f) {
		fprintf(stderr, "gpu-trace-gen: %s has no field %s\n", fmt->name, v->name);
		return -EINVAL;
	}
	switch (v->kind) {
	case FK_NUM:
	case FK_PTR:
		put_le(buf + f->offset, v->num, f->size);
		return 0;
	case FK_STR:
		len = strlen(v->str) + 1;
		if (!f->data_loc) {
			memcpy(buf + f->offset, v->str, len < f->size ? len : f->size);
			return 0;
		}
		if (*dyn + len > buflen)
			return -ENOSPC;
		memcpy(buf + *dyn, v->str, len);
		put_le(buf + f->offset, ((uint32_t)len << 16) | (uint32_t)*dyn, 4);
		*dyn += len;
		return 0;
	case FK_U32ARR:
		for (i = 0; i < v->n && (i + 1) * 4 <= f->size; i++)
			put_le(buf + f->offset + 4 * i, v->arr[i], 4);
		return 0;
	}
	return -EINVAL;
}

/* Returns the payload length (multiple of 4) or a negative errno. */
int gen_encode(const struct gen_format *fmt, uint8_t flags, uint8_t pc, int pid,
	       const struct gen_fval *v, int nv, uint8_t *buf, int buflen)
{
	int dyn = struct_size(fmt);
	int i, ret;

	if (dyn > buflen)
		return -ENOSPC;
	memset(buf, 0, dyn);
	put_le(buf, fmt->id, 2);
	buf[2] = flags;
	buf[3] = pc;
	put_le(buf + 4, (uint32_t)pid, 4);
	for (i = 0; i < nv; i++) {
		ret = put_value(fmt, &v[i], buf, buflen, &dyn);
		if (ret)
			return ret;
	}
	while (dyn & 3) {
		if (dyn >= buflen)
			return -ENOSPC;
		buf[dyn++] = 0;
	}
	return dyn;
}
