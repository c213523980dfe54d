#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# capture-formats.sh OUTDIR KVER...
#
# Copy the real tracefs event formats of the GPU drivers of Debian kernels
# into OUTDIR/linux-<major.minor>-debian/SYSTEM/EVENT/format, without a GPU:
# boot each kernel under qemu (TCG) and insmod the driver modules from the
# unpacked image package. Loading a module registers its tracepoints even when
# no device probes, so the formats are those a machine with the GPU would see.
#
# KVER is a Debian kernel ABI, e.g. 6.1.0-57-amd64 or 6.12.117+deb12-amd64
# (apt-cache search linux-image-6.12). Drivers tried, each with its
# dependencies in modprobe order: DRIVERS (default below). A module that does
# not exist in that kernel or does not load is recorded in
# OUTDIR/linux-*/LOAD.txt with the reason; the others are still captured.
#
# Environment: GST_CAPTURE_CACHE (download/unpack cache, default
# ${XDG_CACHE_HOME:-~/.cache}/gpu-sched-trace), GST_QEMU_TIMEOUT (s, 900),
# GST_KEEP_WORK=1, DRIVERS.
#
# Needs: apt-get, dpkg-deb, depmod + modprobe (kmod), xz, qemu-system-x86_64,
# busybox (static), cpio, gzip, tar. Not part of the test suite (network,
# minutes of TCG).

set -euo pipefail

PROG=capture-formats.sh
STEP=start
SRCDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die()
{
	echo "$PROG: FAILED at step '$STEP': $*" >&2
	exit 1
}
trap 'echo "$PROG: FAILED at step '\''$STEP'\'' (exit $?)" >&2' ERR
step()
{
	STEP="$*"
	echo "$PROG: == $STEP" >&2
}

[ $# -ge 2 ] || { echo "usage: $PROG OUTDIR KVER..." >&2; exit 2; }
OUTDIR=$(cd "$1" && pwd) || die "no directory $1"
shift
CACHE=${GST_CAPTURE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpu-sched-trace}
QEMU_TIMEOUT=${GST_QEMU_TIMEOUT:-900}
# drm and gpu-sched first: their events exist for every driver below
DRIVERS=${DRIVERS:-"drm gpu-sched amdgpu radeon i915 xe nouveau virtio-gpu vmwgfx"}
# whole systems always copied (the rest: every system the modules added)
ALWAYS="dma_fence drm gpu_scheduler"

for c in apt-get dpkg-deb depmod modprobe xz qemu-system-x86_64 cpio gzip; do
	command -v $c > /dev/null || die "missing host tool $c (scripts/install-deps --capture)"
done
[ -x /bin/busybox ] && ! ldd /bin/busybox > /dev/null 2>&1 ||
	die "/bin/busybox is not a static binary (install busybox-static)"

WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/gst-formats.XXXXXX")
cleanup()
{
	if [ "${GST_KEEP_WORK:-0}" = 1 ]; then
		echo "$PROG: work directory kept: $WORK" >&2
	else
		rm -rf "$WORK"
	fi
}
trap cleanup EXIT

capture_one()
{
	local kver=$1 root deb ver mm dest ir
	root=$CACHE/root-$kver
	mm=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
	dest=$OUTDIR/linux-$mm-debian

	step "$kver: download and unpack linux-image-$kver"
	mkdir -p "$CACHE/debs"
	deb=$(ls "$CACHE"/debs/linux-image-"$kver"_*.deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		(cd "$CACHE/debs" && apt-get download "linux-image-$kver") \
			> "$WORK/dl.log" 2>&1 || die "apt-get download linux-image-$kver: $(tail -1 "$WORK/dl.log")"
		deb=$(ls "$CACHE"/debs/linux-image-"$kver"_*.deb | head -1)
	fi
	ver=$(dpkg-deb -f "$deb" Version)
	if [ ! -f "$root/.formats-v1" ]; then
		rm -rf "$root.formats"
		mkdir -p "$root.formats"
		dpkg-deb -x "$deb" "$root.formats"
		# no modules.dep in the package: build one for modprobe -d
		depmod -b "$root.formats" "$kver"
		rm -rf "$root"
		mv "$root.formats" "$root"
		touch "$root/.formats-v1"
	fi

	step "$kver: module load order"
	ir=$WORK/ir-$kver
	rm -rf "$ir"
	mkdir -p "$ir"/{bin,lib/modules,proc,sys,dev,tmp}
	cp /bin/busybox "$ir/bin/busybox"
	: > "$ir/load.list"
	local d line f base seen=" "
	for d in virtio_pci virtio_blk $DRIVERS; do
		if ! modprobe -d "$root" -S "$kver" --show-depends "$d" > "$WORK/dep.txt" 2> "$WORK/dep.err"; then
			echo "$d - not in linux-image-$kver: $(head -1 "$WORK/dep.err")" >> "$ir/load.list"
			continue
		fi
		while read -r line; do
			case "$line" in
			insmod\ *) f=$(echo "$line" | awk '{ print $2 }') ;;
			*) continue ;;	# builtin
			esac
			base=$(basename "$f"); base=${base%%.ko*}
			case "$f" in
			*.ko.xz) [ -f "$ir/lib/modules/$base.ko" ] || xz -dc "$f" > "$ir/lib/modules/$base.ko" ;;
			*.ko.zst) [ -f "$ir/lib/modules/$base.ko" ] || zstd -qdc "$f" > "$ir/lib/modules/$base.ko" ;;
			*) cp -n "$f" "$ir/lib/modules/$base.ko" ;;
			esac
			echo "$d $base" >> "$ir/load.list"
		done < "$WORK/dep.txt"
	done
	cp "$SRCDIR/formats-init.sh" "$ir/init"
	chmod 755 "$ir/init"
	echo "$ALWAYS" > "$ir/always.list"
	(cd "$ir" && find . | cpio -o -H newc --quiet | gzip -1 > "$WORK/initrd-$kver.gz")

	step "$kver: boot qemu, load the modules, read tracefs"
	truncate -s 64M "$WORK/out.img"
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -cpu max -smp 1 -m 2048 \
		-nographic -no-reboot -nodefaults -serial stdio \
		-kernel "$root/boot/vmlinuz-$kver" -initrd "$WORK/initrd-$kver.gz" \
		-drive file="$WORK/out.img",format=raw,if=virtio \
		-append "console=ttyS0 panic=-1 loglevel=4 quiet" \
		< /dev/null > "$WORK/console-$kver.log" 2>&1 || {
		tail -20 "$WORK/console-$kver.log" >&2
		die "qemu failed or timed out"
	}
	rm -rf "$WORK/res"
	mkdir -p "$WORK/res"
	tar -xf "$WORK/out.img" -C "$WORK/res" 2>/dev/null ||
		{ tail -20 "$WORK/console-$kver.log" >&2; die "no result archive from the guest"; }
	[ -d "$WORK/res/events" ] || die "guest returned no events: $(cat "$WORK/res/status" 2>/dev/null)"

	step "$kver: write $dest"
	mkdir -p "$dest"
	local sys
	for sys in $(cat "$WORK/res/systems.txt"); do
		rm -rf "${dest:?}/$sys"
		cp -r "$WORK/res/events/$sys" "$dest/$sys"
	done
	{
		echo "# Debian linux-image-$kver $ver, $(cat "$WORK/res/version.txt")"
		echo "# captured by sample-traces/capture/capture-formats.sh (qemu TCG, no GPU)"
		echo "# driver: module: result"
		cat "$WORK/res/load.txt"
		echo "# event systems copied: $(tr '\n' ' ' < "$WORK/res/systems.txt")"
	} > "$dest/LOAD.txt"
	grep -E 'insmod|failed|Unknown symbol|disagrees' "$WORK/res/dmesg.txt" | head -20 >> "$dest/LOAD.txt" || true
	echo "$PROG: $kver: $(find "$dest" -name format | wc -l) formats in $dest" >&2
}

for k in "$@"; do
	capture_one "$k"
done
