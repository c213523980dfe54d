/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mock_kms - interface of the mock KMS device (mock_kms.c) for its
 * user-space client (frame_client.c), and mock_gpu's submit hooks.
 *
 * Copyright (C) 2026 gpu-sched-trace contributors
 */
#ifndef MOCK_KMS_H
#define MOCK_KMS_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <drm/drm.h>
#else
#include <stdint.h>
#include <drm/drm.h>
#endif

/* DRM_IOCTL_MOCK_KMS_SUBMIT: a job on mock_gpu ring @ring (its index in
 * rings=) of @dur_us, depending on the latest job of @dep_ring (-1: none);
 * queued in the caller's context. Out: @handle for DRM_IOCTL_MOCK_KMS_WAIT. */
struct drm_mock_kms_submit {
	__u32 ring;
	__s32 dep_ring;
	__u32 dur_us;
	__u32 handle;
};

/* DRM_IOCTL_MOCK_KMS_WAIT: wait up to @timeout_ns for job @handle; out:
 * @done_ns, the CLOCK_MONOTONIC time its finished fence signalled. */
struct drm_mock_kms_wait {
	__u32 handle;
	__u32 pad;
	__s64 timeout_ns;
	__u64 done_ns;
};

#define DRM_MOCK_KMS_SUBMIT 0x00
#define DRM_MOCK_KMS_WAIT   0x01
#define DRM_IOCTL_MOCK_KMS_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MOCK_KMS_SUBMIT, struct drm_mock_kms_submit)
#define DRM_IOCTL_MOCK_KMS_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MOCK_KMS_WAIT, struct drm_mock_kms_wait)

#ifdef __KERNEL__
struct drm_sched_entity;
struct dma_fence;

/* exported by mock_gpu.ko */
int mock_gpu_ring_index(const char *name);
int mock_gpu_entity_init(struct drm_sched_entity *e, int ring);
int mock_gpu_push(struct drm_sched_entity *e, int ring, void *owner, int dep_ring, u64 dur_ns,
		  struct dma_fence **finished);
#endif

#endif /* MOCK_KMS_H */
