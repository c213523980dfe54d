#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1
# Install the build into a DESTDIR under the build tree, build session-jobs.c
# in a directory of its own with nothing but `pkg-config --cflags --libs
# gpulat` (PKG_CONFIG_PATH / PKG_CONFIG_SYSROOT_DIR pointing into DESTDIR),
# run it on sample traces and check its job counts against their truth.
#
# check-pkgconfig.sh BUILD PREFIX LIBDIR SRCDIR WORK CC PYTHON TRACE...
set -eu
build=$1 prefix=$2 libdir=$3 src=$4 work=$5 cc=$6 python=$7
shift 7

fail() { echo "check-pkgconfig: $*" >&2; exit 1; }

case $libdir in
/*) ;;
*) libdir=$prefix/$libdir ;;
esac
rm -rf "$work"
mkdir -p "$work/consumer"
root=$work/destdir
DESTDIR=$root cmake --install "$build" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log"; fail "cmake --install"; }

pcdir=$root$libdir/pkgconfig
[ -f "$pcdir/gpulat.pc" ] || fail "no gpulat.pc in $pcdir"
for h in gpulat.h gpulat-session.h; do
	[ -f "$root$prefix/include/gpulat/$h" ] || fail "header $h not installed"
done
[ ! -e "$root$prefix/include/gpulat/gpulat-tracecmd.h" ] ||
	fail "libtracecmd's private prototypes are installed"
so=$(ls "$root$libdir"/libgpulat.so.* 2>/dev/null | head -1)
[ -n "$so" ] || fail "no libgpulat.so.* in $root$libdir"
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libgpulat.so.1" ] || fail "SONAME is '$soname', not libgpulat.so.1"
# internal symbols stay inside
if nm -D --defined-only "$so" | awk '{ print $3 }' | grep -q '^gpulat__'; then
	fail "libgpulat.so exports gpulat__ internals"
fi

# outside the source tree: the file and a compiler, nothing else of ours
cp "$src/session-jobs.c" "$work/consumer/"
cd "$work/consumer"
gpulat_flags=$(PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$root \
	pkg-config --cflags --libs gpulat) || fail "pkg-config gpulat"
case $gpulat_flags in
*"$root"*) ;;
*) fail "pkg-config flags do not point into DESTDIR: $gpulat_flags" ;;
esac
# the program reads traces with libtracecmd itself for its --push mode
host_flags=$(pkg-config --cflags --libs libtracecmd libtraceevent)
# shellcheck disable=SC2086
"$cc" -o session-jobs session-jobs.c $gpulat_flags $host_flags ||
	fail "building against the installed library"

LD_LIBRARY_PATH=$root$libdir
export LD_LIBRARY_PATH
# it runs on the installed copy, not the build tree's
ldd ./session-jobs | grep -q "$root$libdir/libgpulat.so.1" ||
	fail "session-jobs does not load the installed libgpulat.so.1"
"$python" "$src/check_jobs.py" ./session-jobs --file "$@" || fail "--file job counts"
"$python" "$src/check_jobs.py" ./session-jobs --push "$@" || fail "--push job counts"

case $libdir in
"$prefix"/*) rel=${libdir#"$prefix"/} ;;
*) echo "check-pkgconfig: ok (libdir $libdir is absolute: no relocated install)"; exit 0 ;;
esac
reloc=$work/reloc
cmake --install "$build" --prefix "$reloc" > "$work/reloc.log" 2>&1 ||
	{ cat "$work/reloc.log"; fail "cmake --install --prefix $reloc"; }
unset LD_LIBRARY_PATH
inc=$(PKG_CONFIG_PATH=$reloc/$rel/pkgconfig pkg-config --variable=includedir gpulat)
[ "$inc" = "$reloc/include" ] || fail "relocated gpulat.pc: includedir=$inc, not $reloc/include"
gpulat_flags=$(PKG_CONFIG_PATH=$reloc/$rel/pkgconfig pkg-config --cflags --libs gpulat)
rm -f session-jobs
# shellcheck disable=SC2086
"$cc" -o session-jobs session-jobs.c $gpulat_flags $host_flags ||
	fail "building against the relocated install"
LD_LIBRARY_PATH=$reloc/$rel ldd ./session-jobs | grep -q "$reloc/$rel/libgpulat.so.1" ||
	fail "session-jobs does not load the relocated libgpulat.so.1"
LD_LIBRARY_PATH=$reloc/$rel "$python" "$src/check_jobs.py" ./session-jobs --file "$1" ||
	fail "relocated: --file job counts"
echo "check-pkgconfig: ok"
