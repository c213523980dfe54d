# SPDX-License-Identifier: LGPL-2.1
#
# Install time, last: DATADIR/gpu-sched-trace/installed-files lists every file this install
# wrote with its sha256 (paths as installed, without DESTDIR), so that the next install's
# guard knows them as ours even when they cannot carry the "gpu-sched-trace" mark (the
# library's headers). A file changed since, or not listed, is not ours.
#
# In: GST_GUARD_LIST.

include("${CMAKE_CURRENT_LIST_DIR}/guard-why.cmake")	# GST_MANIFEST_REL
include("${GST_GUARD_LIST}")
string(STRIP "${GST_GUARD_FILES}" GST_GUARD_FILES)
string(REPLACE "\n" ";" GST_GUARD_FILES "${GST_GUARD_FILES}")
set(gst_text "# gpu-sched-trace: files installed to ${CMAKE_INSTALL_PREFIX} (sha256  path)\n")
foreach(rel IN LISTS GST_GUARD_FILES)
	if(rel STREQUAL "")
		continue()
	endif()
	if(IS_ABSOLUTE "${rel}")
		set(final "${rel}")
	else()
		set(final "${CMAKE_INSTALL_PREFIX}/${rel}")
	endif()
	if(final STREQUAL "${CMAKE_INSTALL_PREFIX}/${GST_MANIFEST_REL}")
		continue()
	endif()
	if(EXISTS "$ENV{DESTDIR}${final}" AND NOT IS_SYMLINK "$ENV{DESTDIR}${final}")
		file(SHA256 "$ENV{DESTDIR}${final}" sum)
		string(APPEND gst_text "${sum}  ${final}\n")
	endif()
endforeach()
file(WRITE "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${GST_MANIFEST_REL}" "${gst_text}")
message(STATUS "Installing: $ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${GST_MANIFEST_REL}")
