# SPDX-License-Identifier: LGPL-2.1
#
# Install time: LIBDIR/pkgconfig/gpulat.pc with prefix= the prefix of this install (not the
# configured one: the .deb installs a /usr/local build to /usr, `--prefix P` moves it).
# The guard (install-guard.cmake) has already checked the destination is ours to replace.
#
# In: GST_PC_IN (lib/gpulat.pc.in), GST_PC_LIBDIR, GST_PC_INCLUDEDIR (CMAKE_INSTALL_LIBDIR
# and _INCLUDEDIR: relative to the prefix, or absolute), PROJECT_VERSION.

foreach(d LIBDIR INCLUDEDIR)
	if(IS_ABSOLUTE "${GST_PC_${d}}")
		set(GPULAT_PC_${d} "${GST_PC_${d}}")
	else()
		set(GPULAT_PC_${d} "\${prefix}/${GST_PC_${d}}")
	endif()
endforeach()
if(IS_ABSOLUTE "${GST_PC_LIBDIR}")
	set(gst_pc "$ENV{DESTDIR}${GST_PC_LIBDIR}/pkgconfig/gpulat.pc")
else()
	set(gst_pc "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${GST_PC_LIBDIR}/pkgconfig/gpulat.pc")
endif()
configure_file("${GST_PC_IN}" "${gst_pc}" @ONLY)
message(STATUS "Installing: ${gst_pc}")
