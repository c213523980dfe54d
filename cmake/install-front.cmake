# SPDX-License-Identifier: LGPL-2.1
#
# Install time: the trace-cmd front also as BINDIR/trace-cmd, so that `trace-cmd gpu-latency`
# works with BINDIR on PATH (trace-cmd 3.1.6 has no external subcommands). Decided here, with
# the prefix the install really uses (`cmake --install --prefix`), not at configure time:
#  - never for the prefixes / and /usr: BINDIR/trace-cmd there is the system's trace-cmd
#    (the .deb puts the libexec directory on PATH through /etc/profile.d instead);
#  - never over an existing file that is not ours (cmake/install-guard.cmake says what
#    "ours" is). The copy in the libexec directory is installed in every case.
#
# In: GST_FRONT (the built front), GST_BINDIR, GST_FRONT_DIR (relative to the prefix).

include("${CMAKE_CURRENT_LIST_DIR}/guard-why.cmake")

set(gst_dest "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${GST_BINDIR}/trace-cmd")
set(gst_why "")
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr" OR CMAKE_INSTALL_PREFIX STREQUAL "/")
	set(gst_why "that is where the system's trace-cmd lives")
else()
	gst_guard_why("${gst_dest}" gst_why)
endif()
if(gst_why)
	message(STATUS "gpu-sched-trace: not installing the trace-cmd front as "
		"${CMAKE_INSTALL_PREFIX}/${GST_BINDIR}/trace-cmd (${gst_why}); for "
		"`trace-cmd gpu-latency` put ${CMAKE_INSTALL_PREFIX}/${GST_FRONT_DIR} first on PATH")
else()
	# (file(INSTALL) adds DESTDIR itself)
	file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${GST_BINDIR}"
	     TYPE PROGRAM FILES "${GST_FRONT}")
endif()
