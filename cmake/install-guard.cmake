# SPDX-License-Identifier: LGPL-2.1
#
# Install-time guard, run before any file is copied (`cmake --install`, `make install`,
# CPack): nothing this project installs may replace a file it did not install.
#
# An existing destination is "ours" when it
#  - is a regular file (not a symbolic link, not a directory),
#  - carries the string "gpu-sched-trace" (every installed binary links gst-ident.c,
#    "@(#)gpu-sched-trace VERSION"; every installed text file names the project), and
#  - when installing to the live system (no DESTDIR), belongs to no Debian package
#    (dpkg-query -S): files of a package, ours included, are dpkg's to replace.
# Anything else stops the install with the list of files, before one is written.
#
# In: GST_GUARD_LIST (the file list written at generate time), CMAKE_INSTALL_PREFIX and
# $ENV{DESTDIR} as the install sees them.

include("${CMAKE_CURRENT_LIST_DIR}/guard-why.cmake")
include("${GST_GUARD_LIST}")
string(STRIP "${GST_GUARD_FILES}" GST_GUARD_FILES)
string(REPLACE "\n" ";" GST_GUARD_FILES "${GST_GUARD_FILES}")
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
	list(APPEND GST_GUARD_FILES "/etc/profile.d/gpu-sched-trace.sh")	# install-profile.cmake
endif()

set(gst_foreign "")
foreach(rel IN LISTS GST_GUARD_FILES)
	if(rel STREQUAL "")
		continue()
	endif()
	if(IS_ABSOLUTE "${rel}")
		set(dest "$ENV{DESTDIR}${rel}")
	else()
		set(dest "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${rel}")
	endif()
	gst_guard_why("${dest}" why)
	if(why)
		string(APPEND gst_foreign "\n  ${dest}: ${why}")
	endif()
endforeach()
if(gst_foreign)
	message(FATAL_ERROR "gpu-sched-trace: not installing, these files exist and are not "
		"ours to replace:${gst_foreign}\n"
		"Remove them, or install with another --prefix or DESTDIR.")
endif()
