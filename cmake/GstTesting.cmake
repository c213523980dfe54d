# SPDX-License-Identifier: LGPL-2.1
# Tests write only inside the build tree: every test of a directory that calls
# gst_tests_in_build_tree() runs with TMPDIR set to build/Testing/tmp, so
# mktemp(1), Python's tempfile and the C tests' scratch files land there.
set(GST_TEST_TMPDIR "${CMAKE_BINARY_DIR}/Testing/tmp")
file(MAKE_DIRECTORY "${GST_TEST_TMPDIR}")

function(_gst_tests_tmpdir)
	get_property(tests DIRECTORY PROPERTY TESTS)
	foreach(t IN LISTS tests)
		set_property(TEST "${t}" APPEND PROPERTY ENVIRONMENT "TMPDIR=${GST_TEST_TMPDIR}")
	endforeach()
endfunction()

# at the end of the calling directory, when all its tests exist
function(gst_tests_in_build_tree)
	cmake_language(DEFER DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" CALL _gst_tests_tmpdir)
endfunction()
