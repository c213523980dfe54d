# SPDX-License-Identifier: LGPL-2.1
#
# Install time, last: when the prefix is not one libtraceevent or KernelShark search, say in
# one line each what plain `trace-cmd report` and `kernelshark -p gpu_jobs` need. (The trace-cmd
# front and gpu-kshark find this install's plugins by themselves.)
#
# In: GST_TEP_DIR, GST_KSHARK_DIR (relative to the prefix, or absolute; KSHARK empty when not
# built), GST_TEP_SYSTEM_DIR (libtraceevent's own directory), GST_KSHARK_SYSTEM_DIR
# (KernelShark's, the only one `-p NAME` looks in).

function(gst_note_full out dir)
	if(IS_ABSOLUTE "${dir}")
		set(${out} "${dir}" PARENT_SCOPE)
	else()
		set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
	endif()
endfunction()

gst_note_full(gst_tep "${GST_TEP_DIR}")
file(TO_CMAKE_PATH "${gst_tep}" gst_tep)
# libtraceevent 1.7 searches its own directory, $TRACEEVENT_PLUGIN_DIR, ~/.local/lib/traceevent/plugins
if(NOT gst_tep STREQUAL GST_TEP_SYSTEM_DIR AND
   NOT gst_tep STREQUAL "$ENV{HOME}/.local/lib/traceevent/plugins")
	message(STATUS "gpu-sched-trace: for plain `trace-cmd report` (without the front): "
		"export TRACEEVENT_PLUGIN_DIR=${gst_tep}")
endif()
if(GST_KSHARK_DIR)
	gst_note_full(gst_ks "${GST_KSHARK_DIR}")
	if(NOT gst_ks STREQUAL GST_KSHARK_SYSTEM_DIR)
		message(STATUS "gpu-sched-trace: `kernelshark -p gpu_jobs` looks only in "
			"${GST_KSHARK_SYSTEM_DIR}: use gpu-kshark, or kernelshark -p "
			"${gst_ks}/plugin-gpu_jobs.so")
	endif()
endif()
