# SPDX-License-Identifier: LGPL-2.1
# generate a steady-617 trace of EVENTS events into OUT, run hostile_stalls on it
execute_process(COMMAND ${GEN} -s steady-617 -o ${OUT} --events ${EVENTS}
		RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "gpu-trace-gen failed: ${rc}")
endif()
execute_process(COMMAND ${RUN} ${OUT} ${RSS} RESULT_VARIABLE rc)
file(REMOVE ${OUT})
string(REGEX REPLACE "\\.dat$" ".truth.json" truth ${OUT})
file(REMOVE ${truth})
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "hostile_stalls failed: ${rc}")
endif()
