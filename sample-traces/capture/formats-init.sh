#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# /init of the capture-formats.sh initramfs: insmod the modules of load.list
# in order (each driver after its dependencies), then copy the format files of
# every event system they added (and always.list) to a tar on /dev/vda.

/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
T=/sys/kernel/tracing
OUT=/tmp/out
mkdir -p $OUT/events
: > $OUT/load.txt

ls $T/events > /tmp/before.txt
loaded=" "
while read -r drv mod rest; do
	if [ "$mod" = - ]; then
		echo "$drv: -: $rest" >> $OUT/load.txt
		continue
	fi
	case "$loaded" in *" $mod "*) continue ;; esac
	if msg=$(insmod /lib/modules/$mod.ko 2>&1); then
		loaded="$loaded$mod "
		echo "$drv: $mod: loaded" >> $OUT/load.txt
	else
		echo "$drv: $mod: insmod failed: $msg" >> $OUT/load.txt
	fi
done < /load.list

ls $T/events > /tmp/after.txt
{
	for s in $(cat /always.list); do echo "$s"; done
	grep -vxF -f /tmp/before.txt /tmp/after.txt
} | sort -u > /tmp/sys.txt
: > $OUT/systems.txt
for s in $(cat /tmp/sys.txt); do
	[ -d $T/events/$s ] || continue
	echo "$s" >> $OUT/systems.txt
	for e in $T/events/$s/*/; do
		e=${e%/}
		[ -f "$e/format" ] || continue
		mkdir -p "$OUT/events/$s/${e##*/}"
		cat "$e/format" > "$OUT/events/$s/${e##*/}/format"
	done
done
cat /proc/version > $OUT/version.txt
dmesg > $OUT/dmesg.txt
echo ok > $OUT/status
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tar -cf /dev/vda -C $OUT .
sync
poweroff -f
