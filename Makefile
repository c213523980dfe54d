# SPDX-License-Identifier: LGPL-2.1
#
# Convenience front to CMake. The two set-up commands of the README:
#   make demo    install the demo's deps, build the tool, run gpu-latency on a bundled trace
#   make check   install the suite's deps, build everything, run the whole ctest suite
# Other targets: build, install, deb, bench, asan, clean.

BUILD	?= build
JOBS	?= $(shell nproc)
CMAKE_FLAGS ?=
DEMO_TRACE ?= sample-traces/real/deps.dat

.PHONY: all deps deps-demo configure build demo check install deb bench asan clean

all: build

deps:
	scripts/install-deps --check

deps-demo:
	scripts/install-deps --demo

configure:
	cmake -S . -B $(BUILD) -DBUILD_TESTING=ON $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# only the tool, without the tests (their packages are not installed for the demo)
demo: deps-demo
	cmake -S . -B $(BUILD) -DBUILD_TESTING=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS) --target trace-cmd-gpu-latency
	$(BUILD)/tools/trace-cmd-gpu-latency $(DEMO_TRACE)

check: deps build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

install: build
	cmake --install $(BUILD)

# the Debian package (CPack): $(BUILD)/gpu-sched-trace_VERSION_ARCH.deb
deb: build
	cd $(BUILD) && cpack -G DEB

bench: deps build
	bench/run-bench $(BUILD)

asan:
	$(MAKE) check BUILD=build-asan CMAKE_FLAGS="-DGST_SANITIZE=ON -DGST_WERROR=ON"

clean:
	rm -rf $(BUILD) build-asan
