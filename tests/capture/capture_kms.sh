#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
# capture_kms.sh CAPTURE.SH TOOL WORKDIR: record the kms-2crtc scenario under
# qemu (mock KMS device, a vblank-event and a page-flip client), derive its
# frame facts from the clients' own logs and check `TOOL --frames` against
# them (cause checks off: a fresh capture's scheduler noise decides those).
set -euo pipefail

capture=$1 tool=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
"$capture" kms-2crtc "$work/kms-2crtc.dat"
python3 "$here/../../sample-traces/capture/frames_facts.py" "$work/kms-2crtc.dat" 16667,6944 \
	"$work"/kms-2crtc.*.log > "$work/kms-2crtc.frames.json"
python3 "$here/check_kms_frames.py" --no-causes "$tool" "$work" "$work/unpacked"
