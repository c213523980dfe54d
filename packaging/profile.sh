# SPDX-License-Identifier: LGPL-2.1
# gpu-sched-trace: `trace-cmd gpu-latency` through the trace-cmd front (trace-cmd 3.1.6
# has no external subcommands). The front runs trace-cmd-WORD when it exists and the
# system's trace-cmd, unchanged, for every other word.
case ":$PATH:" in
*":@GST_FRONT_FULL_DIR@:"*) ;;
*) PATH="@GST_FRONT_FULL_DIR@:$PATH" ;;
esac
