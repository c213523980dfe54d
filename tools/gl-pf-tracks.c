// SPDX-License-Identifier: LGPL-2.1
/*
 * --perfetto: the tracks. One GPU track per (file, device), under it one
 * track per (file, device, ring), under that the ring's lanes (as many as
 * jobs were in flight at once; they share the ring's name, which the UI
 * merges into one row), its depth counter and its signals and idle instants;
 * one process track per submitting (file, pid). Created on first use, their
 * descriptors written right away.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl-pf-int.h"

char *pf_strdup(struct gl_pf *pf, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		pf->err = -ENOMEM;
	return d;
}

const char *pf_label(struct gl_pf *pf, int file, const char *dev, const char *ring,
		     char *buf, size_t len)
{
	if (pf->opts.ring_label)
		return pf->opts.ring_label(pf->opts.data, file, dev, ring, buf, len);
	snprintf(buf, len, "%s", ring ? ring : "?");
	return buf;
}

struct pf_dev *pf_dev(struct gl_pf *pf, int file, const char *dev)
{
	char name[PF_NAME_LEN];
	struct pf_dev *d, *tmp;
	size_t i;

	if (!dev)
		dev = "";
	for (i = 0; i < pf->ndevs; i++)
		if (pf->devs[i].file == file && !strcmp(pf->devs[i].dev, dev))
			return &pf->devs[i];
	tmp = realloc(pf->devs, (pf->ndevs + 1) * sizeof(*tmp));
	if (!tmp) {
		pf->err = -ENOMEM;
		return NULL;
	}
	pf->devs = tmp;
	d = &pf->devs[pf->ndevs];
	memset(d, 0, sizeof(*d));
	d->file = file;
	d->dev = pf_strdup(pf, dev);
	if (!d->dev)
		return NULL;
	pf->ndevs++;
	/* before 6.17 the events name no device: one GPU group per file */
	snprintf(name, sizeof(name), "GPU%s%s", *dev ? " " : "", dev);
	d->uuid = pf_new_track(pf, 0, name, *dev ? "PCI device (drm_sched dev field)" :
			       "all rings of the trace (no device field before Linux 6.17)",
			       false);
	return d->uuid ? d : NULL;
}

/* a top-level group that is no GPU (gl_pf_mark()), e.g. "Display" */
struct pf_dev *pf_group(struct gl_pf *pf, const char *name)
{
	struct pf_dev *d, *tmp;
	size_t i;

	for (i = 0; i < pf->ndevs; i++)
		if (pf->devs[i].file == -1 && !strcmp(pf->devs[i].dev, name))
			return &pf->devs[i];
	tmp = realloc(pf->devs, (pf->ndevs + 1) * sizeof(*tmp));
	if (!tmp) {
		pf->err = -ENOMEM;
		return NULL;
	}
	pf->devs = tmp;
	d = &pf->devs[pf->ndevs];
	memset(d, 0, sizeof(*d));
	d->file = -1;
	d->dev = pf_strdup(pf, name);
	if (!d->dev)
		return NULL;
	pf->ndevs++;
	d->uuid = pf_new_track(pf, 0, name, NULL, false);
	return d->uuid ? d : NULL;
}

struct pf_ring *pf_ring(struct gl_pf *pf, int file, const char *dev, const char *ring,
			const char *ring_name)
{
	char label[PF_NAME_LEN], desc[PF_NAME_LEN];
	struct pf_ring *r = pf->last_ring, **tmp;
	struct pf_dev *d;
	size_t i;

	if (!dev)
		dev = "";
	if (!ring)
		ring = "?";
	/* the strings are interned: the same pointers as last time, mostly */
	if (r && r->file == file && r->ring_key == ring && r->dev_key == dev)
		return r;
	if (r && r->file == file && !strcmp(r->ring, ring) && !strcmp(r->dev, dev))
		goto hit;
	for (i = 0; i < pf->nrings; i++) {
		r = pf->rings[i];
		if (r->file == file && !strcmp(r->ring, ring) && !strcmp(r->dev, dev))
			goto hit;
	}
	d = pf_dev(pf, file, dev);
	if (!d)
		return NULL;
	tmp = realloc(pf->rings, (pf->nrings + 1) * sizeof(*tmp));
	if (!tmp) {
		pf->err = -ENOMEM;
		return NULL;
	}
	pf->rings = tmp;
	r = calloc(1, sizeof(*r));
	if (!r) {
		pf->err = -ENOMEM;
		return NULL;
	}
	r->file = file;
	r->dev = pf_strdup(pf, dev);
	r->ring = pf_strdup(pf, ring);
	r->label = pf_strdup(pf, pf_label(pf, file, dev, ring, label, sizeof(label)));
	if (!r->dev || !r->ring || !r->label) {
		free(r->dev);
		free(r->ring);
		free(r->label);
		free(r);
		return NULL;
	}
	pf->rings[pf->nrings++] = r;
	r->ring_key = ring;
	r->dev_key = dev;
	/* pointer labels (<= 5.18): the name the ring's fence timelines tell */
	if (ring_name && strcmp(ring_name, ring))
		snprintf(desc, sizeof(desc), "GPU ring %s (%s)", r->label, ring_name);
	else
		snprintf(desc, sizeof(desc), "GPU ring %s", r->label);
	r->uuid = pf_new_track(pf, d->uuid, r->label, desc, false);
	r->depth_uuid = pf_new_track(pf, r->uuid, "depth",
				     "jobs queued and not done (queue to done)", true);
	if (!r->uuid || !r->depth_uuid)
		return NULL;
	return pf->last_ring = r;
 hit:
	r->ring_key = ring;
	r->dev_key = dev;
	return pf->last_ring = r;
}

/*
 * The first lane of @r free before @begin. Strictly before: a slice starting
 * where another ends on the same track would depend on the order of the two
 * packets in the file.
 */
uint64_t pf_lane(struct gl_pf *pf, struct pf_ring *r, uint64_t begin, uint64_t end)
{
	struct pf_lane *tmp;
	size_t i;

	for (i = 0; i < r->nlanes; i++) {
		if (r->lanes[i].end < begin) {
			r->lanes[i].end = end;
			return r->lanes[i].uuid;
		}
	}
	tmp = realloc(r->lanes, (r->nlanes + 1) * sizeof(*tmp));
	if (!tmp) {
		pf->err = -ENOMEM;
		return 0;
	}
	r->lanes = tmp;
	/* same name as the ring: the UI shows a ring's lanes as one track */
	tmp[r->nlanes].uuid = pf_new_track(pf, r->uuid, r->label, NULL, false);
	tmp[r->nlanes].end = end;
	return tmp[r->nlanes++].uuid;
}

uint64_t pf_child(struct gl_pf *pf, uint64_t *uuid, uint64_t parent, const char *name,
		  const char *desc)
{
	if (!*uuid)
		*uuid = pf_new_track(pf, parent, name, desc, false);
	return *uuid;
}

static uint64_t proc_hash(int file, int pid)
{
	uint64_t h = ((uint64_t)(unsigned int)file << 32) | (unsigned int)pid;

	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static int proc_grow(struct gl_pf *pf)
{
	size_t cap = pf->procs_cap ? pf->procs_cap * 2 : 64, i;
	struct pf_proc *n = calloc(cap, sizeof(*n));

	if (!n)
		return pf->err = -ENOMEM;
	for (i = 0; i < pf->procs_cap; i++) {
		struct pf_proc *o = &pf->procs[i];
		size_t k;

		if (!o->uuid)
			continue;
		for (k = proc_hash(o->file, o->pid) & (cap - 1); n[k].uuid; k = (k + 1) & (cap - 1))
			;
		n[k] = *o;
	}
	free(pf->procs);
	pf->procs = n;
	pf->procs_cap = cap;
	return 0;
}

/*
 * The track of a submitting process. The pid is the queue event's, i.e. the
 * submitting task (the kernel's pid, which is a thread id): the trace does
 * not record thread groups.
 */
uint64_t pf_proc(struct gl_pf *pf, int file, int pid, const char *comm)
{
	Gst__Perfetto__ProcessDescriptor pd = GST__PERFETTO__PROCESS_DESCRIPTOR__INIT;
	pf_track t = GST__PERFETTO__TRACK_DESCRIPTOR__INIT;
	struct pf_proc *p;
	size_t k;

	if ((pf->nprocs + 1) * 2 > pf->procs_cap && proc_grow(pf) < 0)
		return 0;
	for (k = proc_hash(file, pid) & (pf->procs_cap - 1); pf->procs[k].uuid;
	     k = (k + 1) & (pf->procs_cap - 1)) {
		p = &pf->procs[k];
		if (p->file == file && p->pid == pid)
			return p->uuid;
	}
	p = &pf->procs[k];
	p->file = file;
	p->pid = pid;
	p->uuid = pf->next_uuid++;
	pf->nprocs++;

	t.has_uuid = true;
	t.uuid = p->uuid;
	pd.has_pid = true;
	pd.pid = pid;
	pd.process_name = (char *)(comm && *comm ? comm : NULL);
	t.process = &pd;
	if (pf_emit_track(pf, &t) < 0)
		return 0;
	return p->uuid;
}

struct pf_ring *ring_find(struct gl_pf *pf, const char *dev, const char *ring)
{
	size_t i;

	for (i = 0; i < pf->nrings; i++)
		if (!strcmp(pf->rings[i]->dev, dev ? dev : "") &&
		    !strcmp(pf->rings[i]->ring, ring ? ring : "?"))
			return pf->rings[i];
	return NULL;
}
