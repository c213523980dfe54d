# SPDX-License-Identifier: LGPL-2.1
#
# Convenience front to CMake. The two set-up commands of the README:
#   make demo    install deps, build, run gpu-latency on a bundled sample trace
#   make check   install deps, build, run the whole ctest suite
# Other targets: build, install, bench, asan, clean.

BUILD	?= build
JOBS	?= $(shell nproc)
CMAKE_FLAGS ?=
DEMO_TRACE ?= sample-traces/real/deps.dat

.PHONY: all deps configure build demo check install bench asan clean

all: build

deps:
	scripts/install-deps

configure:
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: deps build
	$(BUILD)/tools/trace-cmd-gpu-latency $(DEMO_TRACE)

check: deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

install: build
	cmake --install $(BUILD)

bench: deps build
	bench/run-bench $(BUILD)

asan:
	$(MAKE) check BUILD=build-asan CMAKE_FLAGS="-DGST_SANITIZE=ON -DGST_WERROR=ON"

clean:
	rm -rf $(BUILD) build-asan
