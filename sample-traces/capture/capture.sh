#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# capture.sh SCENARIO OUT.dat
#
# Record a real gpu_scheduler trace from a real (Debian 6.1) kernel without a
# GPU: boot the kernel under qemu (TCG), load the kernel's own gpu-sched.ko and
# our mock_gpu.ko (rings driven by hrtimers), record with trace-cmd inside the
# guest and bring trace.dat back on a raw virtio disk.
#
# Scenarios: steady, deps, saturated, stall (see scenario_args below),
# kms-60 and kms-2crtc (mock_kms.ko: a KMS device with hrtimer vblanks and
# frame_client processes in the guest; OUT.CLIENT.log is each client's own
# log of its frames, and drm vblank events are recorded with -C mono), and
# watch: instead of trace-cmd record, run `trace-cmd-gpu-latency --watch` (its
# own tracefs instance) while mock_gpu runs a stall; OUT.dat is the trace it
# saved at the alert, OUT.watch/ holds its output, exit code and the tracefs
# instances before, during and after (GST_WATCH_BIN: the binary to use).
#
# Environment:
#   GST_KVER            kernel ABI to use (default 6.1.0-57-amd64)
#   GST_CAPTURE_CACHE   download/unpack cache
#                       (default ${XDG_CACHE_HOME:-~/.cache}/gpu-sched-trace)
#   GST_QEMU_TIMEOUT    seconds before qemu is killed (default 600)
#   GST_KEEP_WORK=1     keep the temporary work directory (for debugging)
#   GST_MOCK_EXTRA      extra mock_gpu module parameters (appended)
#   GST_SEED            seed= for mock_gpu (default 1)
#   GST_TEXT=1          record with trace-cmd start/extract and save the tracefs
#                       text of the same recording beside OUT.dat: OUT.trace.txt
#                       (default layout), OUT.trace-noirq.txt (no irq-info),
#                       OUT.trace-latency.txt (latency-format), OUT.stats.txt
#   GST_WATCH_BIN       trace-cmd-gpu-latency for the watch scenario
#   GST_WATCH_ARGS      its options (default: --interval 1 --explain --fail-if max.total>50ms)
#
# Needs: apt-get, dpkg, qemu-system-x86_64, busybox (static), cpio, gzip, tar,
# trace-cmd, gcc-12, make.  When run as root, missing packages are installed.

set -euo pipefail

PROG=capture.sh
STEP="start"
SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die()
{
	echo "$PROG: FAILED at step '$STEP': $*" >&2
	exit 1
}

on_err()
{
	echo "$PROG: FAILED at step '$STEP' (command exited with $1; see messages above)" >&2
	exit 1
}
trap 'on_err $?' ERR

step()
{
	STEP="$*"
	echo "$PROG: == $STEP" >&2
}

usage()
{
	echo "usage: $PROG SCENARIO OUT.dat   (SCENARIO: steady deps saturated stall kms-60 kms-2crtc)" >&2
	exit 2
}

[ $# -eq 2 ] || usage
SCENARIO=$1
OUT=$2

KVER=${GST_KVER:-6.1.0-57-amd64}
CACHE=${GST_CAPTURE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpu-sched-trace}
QEMU_TIMEOUT=${GST_QEMU_TIMEOUT:-600}
SEED=${GST_SEED:-1}
TRACE_EVENTS="-e gpu_scheduler -e dma_fence -e irq -e sched:sched_switch -e sched:sched_waking"
# kms scenarios: mock_kms.ko parameters and the frame_client command lines
# (one per line; -o is added), set by scenario_args
KMS_ARGS=""
KMS_CLIENTS=""

# mock_gpu parameters per scenario (module parameters, see mock_gpu.c)
scenario_args()
{
	case "$1" in
	steady)
		# two rings, two clients, steady frame-like submission
		echo "rings=gfx,comp credits=2,2 dur_us=1500,800 jitter_pct=20" \
		     "clients=glxgears:gfx,Xorg:gfx+comp jobs=100,60" \
		     "gap_us=5000,8000 gap_jitter_pct=10 burst=1,1"
		;;
	deps)
		# three rings, dependencies across rings on most jobs
		echo "rings=gfx,comp,sdma0 credits=2,2,2 dur_us=1500,1000,600" \
		     "jitter_pct=25 clients=glxgears:gfx+sdma0,clpeak:comp+sdma0" \
		     "jobs=80,60 gap_us=3000,4000 gap_jitter_pct=20 burst=2,1 dep_pct=60"
		;;
	saturated)
		# gfx has one credit and more work than time: long queue waits
		echo "rings=gfx,comp credits=1,2 dur_us=4000,500 jitter_pct=15" \
		     "clients=glxgears:gfx,Xorg:comp jobs=120,40" \
		     "gap_us=4500,5000 gap_jitter_pct=10 burst=3,1"
		;;
	watch)
		# steady work for a few seconds with one 80 ms job: a --fail-if alert
		echo "rings=gfx,comp credits=2,2 dur_us=1500,800 jitter_pct=20" \
		     "clients=glxgears:gfx,Xorg:gfx+comp jobs=500,250" \
		     "gap_us=5000,8000 gap_jitter_pct=10 burst=1,1" \
		     "stall_job=250 stall_us=80000"
		;;
	stall)
		# a 120 ms job in the middle and one job left running at the end
		echo "rings=gfx,comp credits=2,2 dur_us=1500,800 jitter_pct=20" \
		     "clients=glxgears:gfx,Xorg:gfx+comp jobs=80,40" \
		     "gap_us=4000,8000 gap_jitter_pct=10 burst=1,1" \
		     "stall_job=40 stall_us=120000 unfinished=1"
		;;
	kms-60)
		# one 60 Hz CRTC, one vblank-event client: frames late because of
		# long GPU jobs, late submissions and a dependency wait
		echo "rings=gfx,comp credits=2,2 dur_us=1500,800 clients=none"
		;;
	kms-2crtc)
		# 60 Hz + 144 Hz: a vblank-event client on CRTC 0 and a page-flip
		# client (no drm_vblank_event_queued) on CRTC 1, on separate rings
		echo "rings=gfx,comp credits=2,2 dur_us=1500,800 clients=none"
		;;
	*)
		return 1
		;;
	esac
}

kms_args()
{
	case "$1" in
	kms-60)
		KMS_ARGS="crtcs=1 period_us=16667"
		KMS_CLIENTS="-N webgl -m vblank -c 0 -n 120 -d 4000 -L 20,50,51,90 -l 30000 -S 35,70 -s 22000 -D 100,110 -e 25000 -G 1 -p 16667"
		;;
	kms-2crtc)
		KMS_ARGS="crtcs=2 period_us=16667,6944"
		KMS_CLIENTS="-N webgl -m vblank -c 0 -n 100 -d 4000 -L 15,40 -l 30000 -S 60 -s 22000 -p 16667
-N mpv -m flip -c 1 -n 220 -g 1 -d 2000 -L 30,80,130 -l 12000 -S 100,150 -s 9000 -p 6944"
		;;
	esac
}

MOCK_ARGS=$(scenario_args "$SCENARIO") || {
	STEP="arguments"
	die "unknown scenario '$SCENARIO' (use steady, deps, saturated, stall, kms-60, kms-2crtc or watch)"
}
WATCH_ARGS=${GST_WATCH_ARGS:---interval 1 --explain --fail-if max.total>50ms}
if [ "$SCENARIO" = watch ]; then
	[ -x "${GST_WATCH_BIN:-}" ] || {
		STEP="arguments"
		die "the watch scenario needs GST_WATCH_BIN=path/to/trace-cmd-gpu-latency"
	}
fi
MOCK_ARGS="$MOCK_ARGS seed=$SEED ${GST_MOCK_EXTRA:-}"
kms_args "$SCENARIO"
if [ -n "$KMS_ARGS" ]; then
	# -C mono: the vblank's `time` and the record timestamps in one clock
	TRACE_EVENTS="-C mono $TRACE_EVENTS -e drm:drm_vblank_event -e drm:drm_vblank_event_queued -e drm:drm_vblank_event_delivered"
fi

OUT_DIR=$(cd "$(dirname "$OUT")" 2>/dev/null && pwd) ||
	{ STEP="arguments"; die "output directory of $OUT does not exist"; }
OUT_ABS=$OUT_DIR/$(basename "$OUT")

WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/gst-capture.XXXXXX")
cleanup()
{
	if [ -n "${QEMU_PID:-}" ]; then
		kill "$QEMU_PID" 2>/dev/null || true
	fi
	if [ "${GST_KEEP_WORK:-0}" = 1 ]; then
		echo "$PROG: work directory kept: $WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

# --------------------------------------------------------------------------
step "host tools"
PKGS_NEEDED=""
need()
{
	# need COMMAND PACKAGE
	command -v "$1" > /dev/null 2>&1 || PKGS_NEEDED="$PKGS_NEEDED $2"
}
need qemu-system-x86_64 qemu-system-x86
need cpio cpio
need trace-cmd trace-cmd
need gcc-12 gcc-12
need make make
need gzip gzip
need dpkg-deb dpkg
if [ ! -x /bin/busybox ] || ldd /bin/busybox > /dev/null 2>&1; then
	PKGS_NEEDED="$PKGS_NEEDED busybox-static"
fi
if [ -n "$PKGS_NEEDED" ]; then
	if [ "$(id -u)" != 0 ]; then
		die "missing packages:$PKGS_NEEDED (run as root or: sudo apt-get install$PKGS_NEEDED)"
	fi
	step "install host packages:$PKGS_NEEDED"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -q > "$WORK/apt.log" 2>&1 ||
		die "apt-get update failed: $(tail -1 "$WORK/apt.log")"
	# shellcheck disable=SC2086
	apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends \
		$PKGS_NEEDED >> "$WORK/apt.log" 2>&1 ||
		die "apt-get install$PKGS_NEEDED failed: $(tail -1 "$WORK/apt.log")"
fi
if [ ! -x /bin/busybox ] || ldd /bin/busybox > /dev/null 2>&1; then
	die "/bin/busybox is not a static binary (install busybox-static)"
fi

# --------------------------------------------------------------------------
step "download kernel packages for $KVER"
DEBS=$CACHE/debs
mkdir -p "$DEBS"
# one capture at a time fills the cache (released when the script exits)
if command -v flock > /dev/null 2>&1; then
	exec 9> "$CACHE/.lock"
	flock -w 900 9 || die "cache $CACHE is locked by another capture"
fi
have_debs()
{
	local p
	for p in linux-image-"$KVER" linux-headers-"$KVER" \
		 linux-headers-"${KVER%-*}"-common linux-kbuild-; do
		ls "$DEBS"/"$p"*.deb > /dev/null 2>&1 || return 1
	done
}
if ! have_debs; then
	kver_pkg()
	{
		apt-cache show "linux-image-$KVER" 2>/dev/null |
			awk '/^Version:/ { print $2; exit }'
	}
	KPKGVER=$(kver_pkg || true)
	if [ -z "$KPKGVER" ] && [ "$(id -u)" = 0 ]; then
		apt-get -o DPkg::Lock::Timeout=600 update -q > "$WORK/apt.log" 2>&1 ||
			die "apt-get update failed: $(tail -1 "$WORK/apt.log")"
		KPKGVER=$(kver_pkg || true)
	fi
	[ -n "$KPKGVER" ] || die "apt knows no package linux-image-$KVER (apt-get update?)"
	KMAJ=$(echo "$KVER" | cut -d. -f1-2)
	(cd "$DEBS" && apt-get download "linux-image-$KVER=$KPKGVER" \
		"linux-headers-$KVER=$KPKGVER" \
		"linux-headers-${KVER%-*}-common=$KPKGVER" \
		"linux-kbuild-$KMAJ=$KPKGVER") > "$WORK/download.log" 2>&1 ||
		die "apt-get download failed: $(grep -E '^(E|W):' "$WORK/download.log" | head -1)"
fi

# --------------------------------------------------------------------------
step "unpack kernel packages"
ROOT=$CACHE/root-$KVER
# guest modules, in load order (no modules.dep in the package: insmod them)
GUEST_MODS="drivers/virtio/virtio_ring drivers/virtio/virtio
	drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci_legacy_dev
	drivers/virtio/virtio_pci drivers/block/virtio_blk
	drivers/gpu/drm/drm drivers/gpu/drm/scheduler/gpu-sched"
if [ ! -f "$ROOT/.unpacked-v2" ]; then
	rm -rf "$ROOT"
	mkdir -p "$ROOT"
	for d in "$DEBS"/*.deb; do
		case "$(basename "$d")" in
		linux-image-*) continue ;;
		esac
		dpkg-deb -x "$d" "$ROOT" || die "dpkg-deb -x $d failed"
	done
	# keep only the kernel and the few modules the guest needs (~15 MB
	# instead of ~500 MB)
	IMG=$WORK/image
	mkdir -p "$IMG"
	dpkg-deb -x "$(ls "$DEBS"/linux-image-"$KVER"_*.deb | head -1)" "$IMG" ||
		die "dpkg-deb -x linux-image-$KVER failed"
	mkdir -p "$ROOT/boot"
	cp "$IMG/boot/vmlinuz-$KVER" "$ROOT/boot/"
	for m in $GUEST_MODS; do
		f=$(ls "$IMG/lib/modules/$KVER/kernel/$m".ko* 2>/dev/null | head -1)
		[ -n "$f" ] || die "kernel module $m missing from linux-image-$KVER"
		mkdir -p "$ROOT/lib/modules/$KVER/kernel/$(dirname "$m")"
		cp "$f" "$ROOT/lib/modules/$KVER/kernel/$(dirname "$m")/"
	done
	rm -rf "$IMG"
	# the headers Makefile includes the -common tree by absolute path
	sed -i "s|^include /usr/src/|include $ROOT/usr/src/|" \
		"$ROOT/usr/src/linux-headers-$KVER/Makefile"
	touch "$ROOT/.unpacked-v2"
fi
KDIR=$ROOT/usr/src/linux-headers-$KVER
MODDIR=$ROOT/lib/modules/$KVER/kernel
VMLINUZ=$ROOT/boot/vmlinuz-$KVER
[ -f "$VMLINUZ" ] || die "no $VMLINUZ in the unpacked image package"
ls "$MODDIR"/drivers/gpu/drm/scheduler/gpu-sched.ko* > /dev/null 2>&1 ||
	die "gpu-sched.ko missing from linux-image-$KVER"

exec 9>&-	# cache ready: release the lock

# --------------------------------------------------------------------------
step "build mock_gpu.ko and mock_kms.ko"
mkdir -p "$WORK/build"
cp "$SRCDIR/mock_gpu.c" "$SRCDIR/mock_kms.c" "$SRCDIR/mock_kms.h" "$WORK/build/"
echo 'obj-m := mock_gpu.o mock_kms.o' > "$WORK/build/Kbuild"
make -C "$KDIR" M="$WORK/build" modules > "$WORK/build.log" 2>&1 || {
	grep -E 'error|Error' "$WORK/build.log" | head -5 >&2
	die "module build failed (make -C $KDIR M=... modules)"
}
if [ -n "$KMS_ARGS" ]; then
	step "build frame_client (static)"
	# the drm uAPI headers of the guest kernel (the host has no libdrm-dev)
	UAPI=$(ls -d "$ROOT"/usr/src/linux-headers-"${KVER%-*}"-common/include/uapi)
	gcc-12 -static -O2 -Wall -Wextra -D__user= -I"$SRCDIR" -idirafter "$UAPI" \
		-o "$WORK/build/frame_client" "$SRCDIR/frame_client.c" > "$WORK/client.log" 2>&1 || {
		head -5 "$WORK/client.log" >&2
		die "frame_client build failed"
	}
fi

# --------------------------------------------------------------------------
step "build initramfs"
IR=$WORK/initramfs
mkdir -p "$IR"/{bin,sbin,usr/bin,usr/sbin,lib/modules,lib64,proc,sys,dev,tmp,etc}
cp /bin/busybox "$IR/bin/busybox"
ln -s busybox "$IR/bin/sh"
cp "$(command -v trace-cmd)" "$IR/bin/trace-cmd"
ldd "$(command -v trace-cmd)" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' |
while read -r lib; do
	[ -n "$lib" ] || continue
	mkdir -p "$IR$(dirname "$lib")"
	cp -L "$lib" "$IR$lib"
done
# usrmerge: /lib64 and /lib are the same as /usr/lib*
for m in $GUEST_MODS; do
	f=$MODDIR/$m.ko
	[ -f "$f" ] || f=$(ls "$f".* 2>/dev/null | head -1)
	[ -f "$f" ] || die "kernel module $m missing"
	case "$f" in
	*.ko) cp "$f" "$IR/lib/modules/" ;;
	*.ko.xz) xz -dc "$f" > "$IR/lib/modules/$(basename "$m").ko" ;;
	*.ko.zst) zstd -qdc "$f" > "$IR/lib/modules/$(basename "$m").ko" ;;
	*) die "unknown module compression: $f" ;;
	esac
done
cp "$WORK/build/mock_gpu.ko" "$WORK/build/mock_kms.ko" "$IR/lib/modules/"
[ -n "$KMS_ARGS" ] && cp "$WORK/build/frame_client" "$IR/bin/frame_client"
if [ "$SCENARIO" = watch ]; then
	cp "$GST_WATCH_BIN" "$IR/bin/trace-cmd-gpu-latency"
	ldd "$GST_WATCH_BIN" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }' |
	while read -r lib; do
		[ -n "$lib" ] || continue
		mkdir -p "$IR$(dirname "$lib")"
		cp -L "$lib" "$IR$lib"
	done
fi
cp "$SRCDIR/guest-init.sh" "$IR/init"
chmod 755 "$IR/init"
cat > "$IR/scenario.conf" <<EOF
SCENARIO='$SCENARIO'
MOCK_ARGS='$MOCK_ARGS'
TRACE_EVENTS='$TRACE_EVENTS'
WATCH_ARGS='$WATCH_ARGS'
TEXT='${GST_TEXT:-0}'
KMS_ARGS='$KMS_ARGS'
KMS_CLIENTS='$KMS_CLIENTS'
EOF
(cd "$IR" && find . | cpio -o -H newc --quiet | gzip -1 > "$WORK/initrd.gz") ||
	die "cpio/gzip of the initramfs failed"

# --------------------------------------------------------------------------
step "boot qemu and record (scenario $SCENARIO)"
truncate -s 64M "$WORK/out.img"
timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 1024 \
	-nographic -no-reboot -nodefaults -serial stdio \
	-kernel "$VMLINUZ" -initrd "$WORK/initrd.gz" \
	-drive file="$WORK/out.img",format=raw,if=virtio \
	-append "console=ttyS0 panic=-1 loglevel=4 quiet" \
	< /dev/null > "$WORK/console.log" 2>&1 || {
	rc=$?
	tail -20 "$WORK/console.log" >&2
	[ $rc = 124 ] && die "qemu timed out after ${QEMU_TIMEOUT}s"
	die "qemu exited with $rc"
}

# --------------------------------------------------------------------------
step "extract trace.dat"
mkdir -p "$WORK/result"
tar -xf "$WORK/out.img" -C "$WORK/result" 2>/dev/null || {
	tail -20 "$WORK/console.log" >&2
	die "no result archive on the output disk (guest did not finish)"
}
status=$(cat "$WORK/result/status" 2>/dev/null || echo "no status")
if [ "$status" != ok ]; then
	cat "$WORK/result/guest.log" "$WORK/result/record.log" >&2 2>/dev/null || true
	die "guest reported: $status"
fi
if [ "$SCENARIO" = watch ]; then
	rm -rf "${OUT_ABS%.dat}.watch"
	mkdir -p "${OUT_ABS%.dat}.watch"
	cp "$WORK/result/"watch-*.txt "$WORK/result/"instances-*.txt "$WORK/result/"top-*.txt \
		"${OUT_ABS%.dat}.watch/"
	saved=$(ls "$WORK/result/saved/"alert-*.dat 2>/dev/null | head -1)
	[ -n "$saved" ] || die "the watch saved no trace (see ${OUT_ABS%.dat}.watch/watch-output.txt)"
	cp "$WORK/result/saved/"alert-*.dat "${OUT_ABS%.dat}.watch/"
	cp "$saved" "$WORK/result/trace.dat"
fi
[ -s "$WORK/result/trace.dat" ] || die "guest returned an empty trace.dat"
if grep -E 'WARNING:|BUG:|Oops|Call Trace' "$WORK/result/dmesg.txt" > "$WORK/dmesg-bad" 2>/dev/null; then
	echo "$PROG: warning: the guest kernel logged problems:" >&2
	head -5 "$WORK/dmesg-bad" >&2
fi
grep -q 'rmmod mock_gpu exited with 0' "$WORK/result/guest.log" ||
	echo "$PROG: warning: rmmod mock_gpu failed in the guest (trace is fine)" >&2
cp "$WORK/result/trace.dat" "$OUT_ABS"
# GST_TEXT=1: the tracefs text of the same recording beside it
if [ "${GST_TEXT:-0}" = 1 ]; then
	[ -s "$WORK/result/trace.txt" ] || die "guest returned no tracefs text"
	for v in trace trace-noirq trace-latency; do
		cp "$WORK/result/$v.txt" "${OUT_ABS%.dat}.$v.txt"
	done
	cp "$WORK/result/stats.txt" "${OUT_ABS%.dat}.stats.txt"
fi

# kms scenarios: each client's own log of its frames, OUT.COMM.log
if [ -n "$KMS_ARGS" ]; then
	for f in "$WORK/result/"client-*.log; do
		[ -f "$f" ] || die "no client logs came back"
		grep -q '^end ' "$f" || { tail -3 "$f" >&2; die "client $(basename "$f") did not finish"; }
		c=$(basename "$f" .log)
		cp "$f" "${OUT_ABS%.dat}.${c#client-}.log"
	done
fi

step "check trace"
n=$(trace-cmd report "$OUT_ABS" 2>/dev/null | grep -c 'drm_sched_job:' || true)
[ "$n" -gt 0 ] || die "trace has no drm_sched_job events"
echo "$PROG: wrote $OUT ($(stat -c %s "$OUT_ABS") bytes, $n drm_sched_job events," \
     "kernel $(awk '{ print $3 }' "$WORK/result/version.txt"))" >&2
