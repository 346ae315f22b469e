# warpsim: one non-recursive Makefile.
#   make          build build/warpsim
#   make test     build and run every test (last line: "N passed, N failed")
#   make asan     the tests, CUDA programs and suite under AddressSanitizer + UBSan
#   make bench    simulation-speed benchmarks (see docs/bench.md)
#   make run      the main job: a small paper-style experiment and its table
#   make correlation  warpsim against GPGPU-Sim on tools/correlation/set (docs/correlation.md)
#   make trace-roundtrip  every suite workload: PTX run -> Accel-Sim trace -> trace run, same stats
CC      ?= cc
BUILD   ?= build
WERROR  ?=
OPT     ?= -O3 -flto=auto
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wwrite-strings -Wvla -Wno-unused-parameter
CFLAGS  ?= $(OPT) -g
# -fPIC: the same objects go into warpsim and into the libcuda/libcudart replacements.
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(WERROR) $(CFLAGS) -fPIC -Isrc -Iinclude -MMD -MP
LDLIBS  += -lzstd -lm

LIB_SRC  := $(sort $(wildcard src/*/*.c src/*/*/*.c))
LIB_SRC  := $(filter-out src/cli/main.c src/api/nvrtc_ptx.c,$(LIB_SRC))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/cli/main.o

.PHONY: all test test-unit test-cluster test-workloads asan bench run correlation clean golden-update workloads fuzz fuzz-build fuzz-smoke trace-roundtrip
all: $(BUILD)/warpsim $(BUILD)/lib/libcuda.so.1 $(BUILD)/lib/libcudart.so.13 $(BUILD)/lib/libwarpsim-nvrtc.so workloads

# A fresh machine may lack libzstd's headers: tools/deps.sh installs them once (stamp file).
$(BUILD)/.deps:
	@mkdir -p $(BUILD)
	@sh tools/deps.sh $(CC) && touch $@

$(BUILD)/%.o: %.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libwarpsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/warpsim: $(MAIN_OBJ) $(BUILD)/libwarpsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The CUDA driver-API replacement: only the cu* entry points are exported (libcuda.map), so
# warpsim's own symbols never clash with a host program's. Every driver object is linked whole:
# an entry point nothing inside calls must still be exported.
DRV_OBJ := $(BUILD)/src/api/driver.o $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/api/driver_*.c))
$(BUILD)/lib/libcuda.so.1: $(DRV_OBJ) $(BUILD)/libwarpsim.a src/api/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=src/api/libcuda.map \
	      -o $@ $(DRV_OBJ) $(BUILD)/libwarpsim.a $(LDLIBS)
	ln -sf libcuda.so.1 $(BUILD)/lib/libcuda.so

# The CUDA runtime replacement for programs built by nvcc 13 with -cudart shared: cuda*, __cuda*
# and warpsim_* exported under the version node libcudart.so.13, which those programs import.
RT_OBJ := $(BUILD)/src/api/runtime.o $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/api/runtime_*.c))
$(BUILD)/lib/libcudart.so.13: $(RT_OBJ) $(BUILD)/libwarpsim.a src/api/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcudart.so.13 -Wl,--version-script=src/api/libcudart.map \
	      -o $@ $(RT_OBJ) $(BUILD)/libwarpsim.a $(LDLIBS)
	ln -sf libcudart.so.13 $(BUILD)/lib/libcudart.so

# NVRTC programs under warpsim exec, which preloads it: PTX where they ask for a cubin
# (nvrtc_ptx.c). Only the nvrtc* entry points it defines; it needs no libnvrtc to load.
$(BUILD)/lib/libwarpsim-nvrtc.so: $(BUILD)/src/api/nvrtc_ptx.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -shared -o $@ $< -ldl -lpthread

# Suite workloads: workloads/<suite>/<name>/{kernel.cu, kernel.ptx, kernel.ptxinfo, host.c}.
# The host program embeds the PTX and links against our libcuda (found through its rpath).
WL_HOSTS := $(sort $(wildcard workloads/*/*/host.c))
WL_BINS  := $(patsubst workloads/%/host.c,$(BUILD)/workloads/%/host,$(WL_HOSTS))
# WL_SAN: the sanitizers of `make asan`, so that the host programs load their runtimes first.
WL_SAN    ?=
WL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g -Wall -Wextra -Wno-unused-parameter $(WERROR) \
            -Iinclude/cuda -Iworkloads/common $(WL_SAN)
workloads: $(WL_BINS)

.PRECIOUS: $(BUILD)/workloads/%/ptx.c
$(BUILD)/workloads/%/ptx.c: workloads/%/kernel.ptx workloads/common/embed.sh
	@mkdir -p $(dir $@)
	sh workloads/common/embed.sh $< $(wildcard workloads/$*/kernel.ptxinfo) > $@.tmp && mv $@.tmp $@

$(BUILD)/workloads/wl.o: workloads/common/wl.c workloads/common/wl.h include/cuda/cuda.h
	@mkdir -p $(dir $@)
	$(CC) $(WL_CFLAGS) -c $< -o $@

$(BUILD)/workloads/%/host: workloads/%/host.c $(BUILD)/workloads/%/ptx.c $(BUILD)/workloads/wl.o \
                           $(wildcard workloads/common/*.h workloads/*/common/*.h) $(BUILD)/lib/libcuda.so.1
	$(CC) $(WL_CFLAGS) -o $@ $< $(BUILD)/workloads/$*/ptx.c $(BUILD)/workloads/wl.o \
	      -L$(BUILD)/lib -l:libcuda.so.1 -Wl,-rpath,'$$ORIGIN/../../../lib' -lm

# The test table is generated from the TEST(name) lines of tests/unit/*.c.
$(BUILD)/test_list.h: $(TEST_SRC)
	@mkdir -p $(BUILD)
	@sed -n 's/^TEST(\([A-Za-z0-9_]*\)).*/X(\1)/p' $(TEST_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/runner.o: tests/runner.c $(BUILD)/test_list.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD) -c $< -o $@

$(BUILD)/unit_tests: $(BUILD)/tests/runner.o $(TEST_OBJ) $(BUILD)/libwarpsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# make test: the unit tests, then every suite workload (test-workloads). TESTS=substring runs
# only the matching unit tests.
RUN_UNIT = WARPSIM=$(BUILD)/warpsim $(BUILD)/unit_tests $(TESTS)
test: all $(BUILD)/unit_tests
	$(RUN_UNIT)
	sh tests/workloads.sh $(BUILD)

test-unit: $(BUILD)/warpsim $(BUILD)/lib/libcuda.so.1 $(BUILD)/lib/libcudart.so.13 $(BUILD)/lib/libwarpsim-nvrtc.so \
           $(BUILD)/unit_tests
	$(RUN_UNIT)

# Every suite workload at its small size on the timing model, each checked against its CPU
# reference (a failed check fails its run), and, when nvcc is present, the checked-in PTX
# compared with what nvcc produces from the .cu.
test-workloads: all
	sh tests/workloads.sh $(BUILD)

# A real one-node Slurm cluster runs a sweep emitted with --emit slurm (needs root; installs
# Debian's Slurm and munge when missing).
test-cluster: $(BUILD)/warpsim
	WARPSIM=$(BUILD)/warpsim bash tests/cluster/slurm.sh

# make asan: warpsim, its libcuda and libcudart, and the suite's host programs built with
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/); then the unit tests, which run
# the CUDA programs of tests/cudart and tests/hostile and the goldens' suite workloads on those
# libraries, and the workloads of experiments/suite-asan (the whole suite takes about 15 minutes
# on 2 cores under the sanitizers; the subset a few). A sanitized warpsim preloads the sanitizer
# runtimes into the programs it runs (cmd_exec.c), since nvcc's programs are not instrumented.
ASAN_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
asan:
	$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 CFLAGS="-g $(ASAN_SAN)" WL_SAN="$(ASAN_SAN)" \
	        LDLIBS="-lzstd -lm -fsanitize=address,undefined" all test-unit
	sh tests/workloads.sh build-asan experiments/suite-asan

# The divergent benchmark runs on configs/gpgpusim/gtx480.config (GPGPU-Sim's GTX480 machine).
# Fuzzing with clang's libFuzzer: one harness per parser in tests/fuzz/, seeded from the
# repository's inputs (tests/fuzz/run.sh). make fuzz-smoke runs each for FUZZ_SECONDS (CI);
# make fuzz FUZZ_TARGET=ptx FUZZ_SECONDS=600 runs one campaign. See docs/reliability.md.
FUZZ_TARGETS := ptx fatbin lz4 elf config gpgpusim synth spec manifest json trace
FUZZ_TARGET  ?= ptx
FUZZ_SECONDS ?= 10
FUZZ_BUILD   := build-fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
fuzz-build:
	$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang OPT=-O1 \
	        CFLAGS="-g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" $(FUZZ_BUILD)/libwarpsim.a
	@for t in $(FUZZ_TARGETS); do \
	    clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer -Isrc \
	          -o $(FUZZ_BUILD)/fuzz_$$t tests/fuzz/fuzz_$$t.c $(FUZZ_BUILD)/libwarpsim.a -lzstd -lm || exit 1; \
	done

fuzz-smoke: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	    echo "fuzz $$t ($(FUZZ_SECONDS) s)"; \
	    sh tests/fuzz/run.sh $(FUZZ_BUILD) $$t $(FUZZ_SECONDS) > $(FUZZ_BUILD)/fuzz_$$t.log 2>&1 || \
	        { tail -40 $(FUZZ_BUILD)/fuzz_$$t.log; echo "fuzz $$t: FAILED (input in $(FUZZ_BUILD)/)"; exit 1; }; \
	done; echo "fuzz-smoke: every target ran $(FUZZ_SECONDS) s without a finding"

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_TARGET) $(FUZZ_SECONDS)

bench: $(BUILD)/warpsim
	$(BUILD)/warpsim bench

# Every suite workload at its small size run from PTX with --trace-out, then from the trace: the
# two runs' stats must be identical (docs/traces.md; the unit tests do three of them).
trace-roundtrip: all
	sh tools/trace_roundtrip.sh $(BUILD)

run: all
	$(BUILD)/warpsim sweep experiments/fup-small --results results/fup-small
	$(BUILD)/warpsim report results/fup-small

# A report, not a test. With GPGPUSIM_ROOT set to a built GPGPU-Sim it measures GPGPU-Sim too,
# otherwise it reads GPGPU-Sim's stored numbers; CORRELATION_ARGS passes options (--jobs 2, ...).
correlation: all
	BUILD=$(BUILD) python3 tools/correlation/correlate.py $(CORRELATION_ARGS)

golden-update: $(BUILD)/warpsim
	WARPSIM=$(BUILD)/warpsim GOLDEN_UPDATE=1 $(BUILD)/unit_tests golden

clean:
	rm -rf build build-asan build-fuzz

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
