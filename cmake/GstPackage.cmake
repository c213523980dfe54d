# SPDX-License-Identifier: LGPL-2.1
#
# The Debian package (`make deb` = `cpack -G DEB` in the build directory). It installs what
# `cmake --install --prefix /usr` installs, into Debian's directories: libdir is the multiarch
# lib/x86_64-linux-gnu (top CMakeLists.txt), so the plugins land in the libtraceevent and
# KernelShark plugin directories those Debian packages search, and plain `trace-cmd report`
# and `kernelshark -p gpu_jobs` find them. /etc/profile.d/gpu-sched-trace.sh puts the
# trace-cmd front on PATH for `trace-cmd gpu-latency`; the system's /usr/bin/trace-cmd is
# never touched. Depends come from the binaries' shared libraries (dpkg-shlibdeps).

set(gst_multiarch "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
if(CMAKE_LIBRARY_ARCHITECTURE AND NOT CMAKE_INSTALL_LIBDIR STREQUAL gst_multiarch)
	message(STATUS "Debian package: CMAKE_INSTALL_LIBDIR is ${CMAKE_INSTALL_LIBDIR}, not "
		"${gst_multiarch}: the .deb's plugins would not be found (reconfigure for `make deb`)")
endif()

# the copyright file and the PATH snippet, in every install (the snippet only for /usr)
gst_install_files(DESTINATION ${CMAKE_INSTALL_DOCDIR} FILES ${PROJECT_SOURCE_DIR}/packaging/copyright)
install(CODE "set(GST_PROFILE_IN \"${PROJECT_SOURCE_DIR}/packaging/profile.sh\")
set(GST_FRONT_DIR \"${GST_FRONT_DIR}\")
include(\"${PROJECT_SOURCE_DIR}/cmake/install-profile.cmake\")" COMPONENT runtime)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpu-sched-trace)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "gpu-sched-trace contributors")
set(CPACK_PACKAGE_CONTACT
    "gpu-sched-trace maintainers <maintainers@users.noreply.a-seed-804e5704.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "GPU job latency from the DRM GPU scheduler's trace events")
# (CPack puts the summary first and indents these lines itself)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Plugins for trace-cmd and KernelShark that turn the Linux DRM GPU
scheduler's trace events (gpu_scheduler, dma_fence, amdgpu) into GPU jobs:
queue, run, done and fence signal, per ring, process and DRM client, for
every kernel era.
.
This package has the libtraceevent plugin for trace-cmd report, the
trace-cmd gpu-latency report (through a trace-cmd front that
/etc/profile.d puts on PATH), the KernelShark plugin gpu_jobs and the
gpu-kshark launcher.")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)		# gpu-sched-trace_VERSION_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "trace-cmd")	# the front and the plugin serve trace-cmd
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "kernelshark")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/packaging/conffiles")
set(CPACK_STRIP_FILES ON)
# Install with prefix /usr into DESTDIR=staging: install-time decisions (no bindir front under
# /usr, the profile.d snippet) see the package's real prefix
set(CPACK_SET_DESTDIR ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}_${PROJECT_VERSION}")

# With libgpulat (lib/): two packages from the two install components. gpu-sched-trace
# (runtime: everything above and libgpulat.so.1, with a shlibs file) and gpu-sched-trace-dev
# (devel: headers, gpulat.pc, the libgpulat.so link), as Debian splits a library's -dev part.
if(TARGET gpulat_shared)
	set(CPACK_DEB_COMPONENT_INSTALL ON)
	set(CPACK_COMPONENTS_ALL runtime devel)
	set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gpu-sched-trace)
	set(CPACK_DEBIAN_RUNTIME_FILE_NAME DEB-DEFAULT)
	set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "trace-cmd")
	set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/packaging/conffiles")
	set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)	# (no per-component form in CMake 3.25)
	set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}
.
It also has the shared core library libgpulat.")
	set(CPACK_DEBIAN_DEVEL_PACKAGE_NAME gpu-sched-trace-dev)
	set(CPACK_DEBIAN_DEVEL_FILE_NAME DEB-DEFAULT)
	set(CPACK_DEBIAN_DEVEL_PACKAGE_SECTION libdevel)
	set(CPACK_DEBIAN_DEVEL_PACKAGE_DEPENDS
	    "gpu-sched-trace (= ${PROJECT_VERSION}), libtraceevent-dev, libtracecmd-dev, libzstd-dev")
	set(CPACK_DEBIAN_DEVEL_PACKAGE_SHLIBDEPS OFF)
	set(CPACK_COMPONENT_DEVEL_DESCRIPTION "libgpulat development files
The headers, pkg-config file (gpulat.pc) and link of libgpulat, the core of
gpu-sched-trace: event binding for every kernel era, job tracking,
statistics and the session API.")
	set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION_SUMMARY}")
	unset(CPACK_DEBIAN_PACKAGE_DEPENDS)
	unset(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA)
endif()
include(CPack)
