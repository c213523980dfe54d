# SPDX-License-Identifier: LGPL-2.1
#
# Install time, prefix /usr only (the .deb, `cmake --install --prefix /usr`): there the front
# cannot be BINDIR/trace-cmd (that is the system's trace-cmd), so /etc/profile.d puts its
# libexec directory first on PATH for login shells. Never over a file that is not ours.
#
# In: GST_PROFILE_IN (packaging/profile.sh), GST_FRONT_DIR (relative to the prefix).

if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr")
	return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/guard-why.cmake")
set(GST_FRONT_FULL_DIR "${CMAKE_INSTALL_PREFIX}/${GST_FRONT_DIR}")
set(gst_profile "/etc/profile.d/gpu-sched-trace.sh")
gst_guard_why("$ENV{DESTDIR}${gst_profile}" gst_why)
if(gst_why)
	message(FATAL_ERROR "gpu-sched-trace: not installing: $ENV{DESTDIR}${gst_profile} "
		"exists and is not ours to replace (${gst_why})")
endif()
configure_file("${GST_PROFILE_IN}" "$ENV{DESTDIR}${gst_profile}" @ONLY)
message(STATUS "Installing: $ENV{DESTDIR}${gst_profile}")
