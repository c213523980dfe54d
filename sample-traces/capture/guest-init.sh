#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# /init of the capture initramfs (see capture.sh).  Loads the kernel's own
# drm + gpu-sched modules, starts trace-cmd, loads mock_gpu with the scenario's
# parameters, waits for the scenario to finish, stops trace-cmd and writes
# trace.dat (+ logs) as a tar archive onto the raw virtio disk /dev/vda.

/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mkdir -p /proc /sys /dev /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null

OUT=/tmp/out
mkdir -p $OUT
STATUS=ok

log()
{
	echo "gst-guest: $*"
	echo "$*" >> $OUT/guest.log
}

fail()
{
	STATUS="failed: $*"
	log "FAILED: $*"
}

finish()
{
	echo "$STATUS" > $OUT/status
	dmesg > $OUT/dmesg.txt 2>/dev/null
	cat /proc/version > $OUT/version.txt
	tar -cf /dev/vda -C $OUT . && log "results written to /dev/vda"
	sync
	poweroff -f
}

. /scenario.conf

log "kernel $(uname -r), scenario $SCENARIO"

for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
	 virtio_pci virtio_blk drm gpu-sched; do
	insmod /lib/modules/$m.ko || { fail "insmod $m"; finish; }
done

# wait for the output disk
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b /dev/vda ] || { fail "no /dev/vda"; finish; }

[ -d /sys/kernel/tracing/events/gpu_scheduler ] || {
	fail "no gpu_scheduler events in tracefs"; finish; }

cd /tmp || { fail "no /tmp"; finish; }

# kms scenarios: load mock_kms and run the frame clients (one per line of
# KMS_CLIENTS, each logging to $OUT/client-COMM.log), wait for all of them
run_kms()
{
	[ -n "${KMS_ARGS:-}" ] || return 0
	[ "$STATUS" = ok ] || return 0
	# shellcheck disable=SC2086
	insmod /lib/modules/mock_kms.ko $KMS_ARGS || { fail "insmod mock_kms $KMS_ARGS"; return; }
	i=0
	while [ ! -c /dev/dri/card0 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -c /dev/dri/card0 ] || { fail "no /dev/dri/card0"; return; }
	PIDS=""
	echo "$KMS_CLIENTS" > /tmp/clients.txt
	while read -r line; do
		[ -n "$line" ] || continue
		comm=$(echo "$line" | sed 's/.*-N \([^ ]*\).*/\1/')
		# shellcheck disable=SC2086
		/bin/frame_client $line -o $OUT/client-$comm.log > $OUT/client-$comm.err 2>&1 &
		PIDS="$PIDS $!"
		log "frame_client $comm started (pid $!)"
	done < /tmp/clients.txt
	for p in $PIDS; do
		wait "$p" || fail "frame_client pid $p exited with $?"
	done
	log "frame clients done"
}

# load mock_gpu with the scenario and wait until it reports that it finished
run_scenario()
{
	# shellcheck disable=SC2086
	insmod /lib/modules/mock_gpu.ko $MOCK_ARGS || { fail "insmod mock_gpu $MOCK_ARGS"; }
	run_kms
	i=0
	while [ "$STATUS" = ok ] &&
	      [ "$(cat /sys/module/mock_gpu/parameters/finished)" != 1 ]; do
		sleep 0.2
		i=$((i + 1))
		[ $i -gt "${SCENARIO_TIMEOUT:-1500}" ] && { fail "scenario did not finish"; break; }
	done
}

# watch scenario: trace-cmd gpu-latency --watch in its own tracefs instance
# instead of trace-cmd record; the trace it saves at the alert comes back
watch_run()
{
	T=/sys/kernel/tracing
	mkdir -p $OUT/saved
	ls $T/instances > $OUT/instances-before.txt
	# shellcheck disable=SC2086
	/bin/trace-cmd-gpu-latency --watch $WATCH_ARGS --save-dir $OUT/saved \
		> $OUT/watch-output.txt 2>&1 &
	WPID=$!
	i=0
	until grep -q '^watching' $OUT/watch-output.txt 2>/dev/null; do
		sleep 0.2
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 $WPID 2>/dev/null; then
			fail "trace-cmd-gpu-latency --watch did not start"
			return
		fi
	done
	ls $T/instances > $OUT/instances-during.txt
	log "watch running (pid $WPID)"
	run_scenario
	sleep 2.5
	kill -INT $WPID
	wait $WPID
	echo "$?" > $OUT/watch-exit.txt
	log "watch exited with $(cat $OUT/watch-exit.txt)"
	ls $T/instances > $OUT/instances-after.txt
	cat $T/tracing_on > $OUT/top-tracing_on.txt
	cat $T/set_event > $OUT/top-set_event.txt
	cat $T/buffer_size_kb > $OUT/top-buffer_size_kb.txt
}
if [ "$SCENARIO" = watch ]; then
	watch_run
	finish
fi
# text scenario variant (GST_TEXT=1): the same recording twice, as the
# tracefs `trace` text (read first: reading it consumes nothing) and as the
# trace.dat that `trace-cmd extract` then takes out of the same buffers
if [ "${TEXT:-0}" = 1 ]; then
	T=/sys/kernel/tracing
	# shellcheck disable=SC2086
	trace-cmd start -b 4096 $TRACE_EVENTS > $OUT/record.log 2>&1 ||
		{ fail "trace-cmd start"; finish; }
	log "trace-cmd start done"
	run_scenario
	sleep 0.3
	echo 0 > $T/tracing_on
	log "scenario finished, tracing stopped"
	cat $T/trace > $OUT/trace.txt
	echo 0 > $T/options/irq-info
	cat $T/trace > $OUT/trace-noirq.txt
	echo 1 > $T/options/irq-info
	echo 1 > $T/options/latency-format
	cat $T/trace > $OUT/trace-latency.txt
	echo 0 > $T/options/latency-format
	cat $T/per_cpu/cpu*/stats > $OUT/stats.txt
	trace-cmd extract -o /tmp/trace.dat >> $OUT/record.log 2>&1 ||
		fail "trace-cmd extract"
	log "trace-cmd extract exited"
	[ -s /tmp/trace.dat ] && mv /tmp/trace.dat $OUT/trace.dat
	[ -d /sys/module/mock_kms ] && rmmod mock_kms
	rmmod mock_gpu 2>/dev/null && log "rmmod mock_gpu exited with 0"
	finish
fi

# shellcheck disable=SC2086
trace-cmd record -o /tmp/trace.dat -b 4096 $TRACE_EVENTS > $OUT/record.log 2>&1 &
TPID=$!
i=0
# trace-cmd buffers its "Hit Ctrl^C" message: wait until it has enabled
# the events and turned tracing on instead
EV=/sys/kernel/tracing/events/gpu_scheduler/drm_sched_job/enable
while [ "$(cat $EV)" != 1 ] || [ "$(cat /sys/kernel/tracing/tracing_on)" != 1 ]; do
	sleep 0.2
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $TPID 2>/dev/null; then
		fail "trace-cmd record did not start"
		finish
	fi
done
sleep 1
log "trace-cmd record running (pid $TPID)"

# shellcheck disable=SC2086
insmod /lib/modules/mock_gpu.ko $MOCK_ARGS || { fail "insmod mock_gpu $MOCK_ARGS"; }
run_kms

if [ "$STATUS" = ok ]; then
	i=0
	while [ "$(cat /sys/module/mock_gpu/parameters/finished)" != 1 ]; do
		sleep 0.2
		i=$((i + 1))
		if [ $i -gt "${SCENARIO_TIMEOUT:-1500}" ]; then
			fail "scenario did not finish"
			break
		fi
	done
	log "scenario finished"
fi
sleep 0.3

kill -INT $TPID
wait $TPID
log "trace-cmd record exited with $?"
if [ -s /tmp/trace.dat ]; then
	mv /tmp/trace.dat $OUT/trace.dat
else
	fail "no trace.dat"
fi

# exercise the modules' exit paths (after recording; a hang must not block us)
if [ -d /sys/module/mock_kms ]; then
	rmmod mock_kms && log "rmmod mock_kms exited with 0"
fi
if [ -d /sys/module/mock_gpu ]; then
	rmmod mock_gpu &
	RPID=$!
	i=0
	while kill -0 $RPID 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.2
		i=$((i + 1))
	done
	if kill -0 $RPID 2>/dev/null; then
		log "rmmod mock_gpu did not finish within 10 s"
	else
		wait $RPID
		log "rmmod mock_gpu exited with $?"
	fi
fi
finish
