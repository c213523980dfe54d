#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1
#
# The .deb's control fields and file list: Depends computed from the shared libraries,
# files in Debian's directories (the libtraceevent and KernelShark plugin directories their
# Debian packages search), man pages, copyright, and never the system's /usr/bin/trace-cmd.
# With DEV (gpu-sched-trace-dev): libgpulat.so.1 in DEB, its -dev parts in DEV.
#   check-deb-contents.sh DEB TEP_SYSTEM_DIR KS_SYSTEM_DIR [DEV]
set -euo pipefail
deb=$1 tep_sys=$2 ks_sys=$3 dev=${4:-}
fail() { echo "FAIL: $*" >&2; exit 1; }

dep=$(dpkg-deb -f "$deb" Depends)
for d in trace-cmd libtraceevent1 libtracecmd1 libc6; do
	grep -qE "(^|, )$d( |,|$)" <<<"$dep" || fail "Depends has no $d: $dep"
done
files=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\.||')
want="$tep_sys/plugin_gpu_sched.so
/usr/bin/trace-cmd-gpu-latency
/usr/libexec/gpu-sched-trace/bin/trace-cmd
/usr/share/man/man1/trace-cmd-gpu-latency.1.gz
/usr/share/doc/gpu-sched-trace/copyright
/etc/profile.d/gpu-sched-trace.sh"
if [ -n "$ks_sys" ]; then
	want="$want
$ks_sys/plugin-gpu_jobs.so
/usr/bin/gpu-kshark
/usr/bin/gpu-kshark-rings
/usr/share/man/man1/gpu-kshark.1.gz
/usr/share/man/man1/gpu-kshark-rings.1.gz"
fi
libdir=$(dirname "$(dirname "$tep_sys")")
if [ -n "$dev" ]; then
	want="$want
$libdir/libgpulat.so.1"
fi
while read -r f; do
	grep -qxF -- "$f" <<<"$files" || fail "not in the package: $f"
done <<<"$want"
if [ -n "$dev" ]; then
	dfiles=$(dpkg-deb -c "$dev" | awk '{ print $6 }' | sed 's|^\.||')
	for f in "$libdir/pkgconfig/gpulat.pc" "$libdir/libgpulat.so" /usr/include/gpulat/gpulat.h \
		 /usr/include/gpulat/gpulat-session.h; do
		grep -qxF -- "$f" <<<"$dfiles" || fail "not in the -dev package: $f"
	done
	grep -q '^/usr/include/gpulat/\|pkgconfig' <<<"$files" && fail "-dev files in the runtime package"
	ddep=$(dpkg-deb -f "$dev" Depends)
	grep -q "gpu-sched-trace (= " <<<"$ddep" || fail "-dev Depends: $ddep"
	dup=$(comm -12 <(grep -v '/$' <<<"$files" | sort) <(grep -v '/$' <<<"$dfiles" | sort))
	[ -z "$dup" ] || fail "files in both packages: $dup"
	# not `| grep -q`: with pipefail, tar killed by SIGPIPE after an early match fails it
	ctrl=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)
	grep -q shlibs <<<"$ctrl" || fail "no shlibs file for libgpulat"
fi
# Debian policy 12.1: man pages gzip -9n compressed (no name or time stamp in the header)
man=$(grep '^/usr/share/man/.*[^/]$' <<<"$files" || true)
[ -n "$man" ] || fail "no man pages"
raw=$(grep -v '\.gz$' <<<"$man" || true)
[ -z "$raw" ] || fail "man pages not gzipped: $raw"
tree=$(dirname "$deb")/contents	# (beside the .deb: in the build tree)
rm -rf "$tree"
dpkg-deb -x "$deb" "$tree"
while read -r f; do
	grep -q '^\.TH ' <<<"$(gzip -dc "$tree$f")" || fail "$f: not a gzipped man page"
	flg=$(od -An -tu1 -j3 -N1 "$tree$f" | tr -d ' ')
	[ "$flg" = 0 ] || fail "$f: gzip header has a name or comment (gzip -n)"
done <<<"$man"
if grep -qx '/usr/bin/trace-cmd' <<<"$files"; then
	fail "the package contains /usr/bin/trace-cmd (the system's)"
fi
bad=$(grep -vE '^/(usr|etc/profile\.d)(/|$)|^/etc/$|^/$' <<<"$files" || true)
[ -z "$bad" ] || fail "files outside /usr: $bad"
grep -q '^/etc/profile.d/gpu-sched-trace.sh$' <<<"$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)" ||
	fail "/etc/profile.d/gpu-sched-trace.sh is not a conffile"
echo "deb contents: ok ($(wc -l <<<"$files") entries; Depends: $dep)"
