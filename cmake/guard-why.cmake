# SPDX-License-Identifier: LGPL-2.1
#
# gst_guard_why(): is an existing file ours to replace? See install-guard.cmake.
#
# Ours: a regular file that carries the string "gpu-sched-trace" or is listed, with its
# sha256, in the manifest the last install wrote (GST_MANIFEST, for files that cannot carry
# the mark: the library's headers); a symbolic link whose target, in the same directory, is
# ours (libgpulat.so -> libgpulat.so.1 -> libgpulat.so.1.1.0); and, on the live system, no
# file that belongs to a Debian package.

# where the manifest lives, relative to the prefix (install-manifest.cmake writes it)
set(GST_MANIFEST_REL "share/gpu-sched-trace/installed-files")
if(NOT DEFINED GST_MANIFEST)
	set(GST_MANIFEST "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${GST_MANIFEST_REL}")
endif()

# gst_guard_manifest_has(PATH OUT): PATH is in the manifest with its current sha256
function(gst_guard_manifest_has path out)
	set(${out} FALSE PARENT_SCOPE)
	if(NOT GST_MANIFEST OR NOT EXISTS "${GST_MANIFEST}")
		return()
	endif()
	file(SHA256 "${path}" sum)
	file(STRINGS "${GST_MANIFEST}" lines)
	# the manifest lists paths without DESTDIR, as installed
	string(LENGTH "$ENV{DESTDIR}" dl)
	string(SUBSTRING "${path}" ${dl} -1 final)
	# (list(FIND), not IN_LIST: install scripts run without the project's policies)
	list(FIND lines "${sum}  ${final}" at)
	if(at GREATER -1)
		set(${out} TRUE PARENT_SCOPE)
	endif()
endfunction()

# gst_guard_why(PATH OUT): empty when PATH is free or ours, else the reason it is not ours
function(gst_guard_why path out)
	set(${out} "" PARENT_SCOPE)
	if(IS_SYMLINK "${path}")
		file(READ_SYMLINK "${path}" target)
		get_filename_component(dir "${path}" DIRECTORY)
		if(target MATCHES "/" OR NOT EXISTS "${dir}/${target}")
			set(${out} "a symbolic link to ${target}" PARENT_SCOPE)
			return()
		endif()
		gst_guard_why("${dir}/${target}" why)
		if(why)
			set(${out} "a symbolic link to ${target}, which is ${why}" PARENT_SCOPE)
		endif()
		return()
	endif()
	if(NOT EXISTS "${path}")
		return()
	endif()
	if(IS_DIRECTORY "${path}")
		set(${out} "a directory" PARENT_SCOPE)
		return()
	endif()
	file(STRINGS "${path}" mark REGEX "gpu-sched-trace" LIMIT_COUNT 1)
	if(NOT mark)
		gst_guard_manifest_has("${path}" listed)
		if(NOT listed)
			set(${out} "not installed by gpu-sched-trace" PARENT_SCOPE)
			return()
		endif()
	endif()
	if("$ENV{DESTDIR}" STREQUAL "")
		find_program(GST_DPKG_QUERY dpkg-query)
		if(GST_DPKG_QUERY)
			execute_process(COMMAND ${GST_DPKG_QUERY} -S "${path}"
					RESULT_VARIABLE rc OUTPUT_VARIABLE owner ERROR_QUIET)
			if(rc EQUAL 0)
				string(REGEX REPLACE ":.*" "" owner "${owner}")
				set(${out} "belongs to the Debian package ${owner}" PARENT_SCOPE)
			endif()
		endif()
	endif()
endfunction()
