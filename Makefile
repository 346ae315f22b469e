# warpsim: one non-recursive Makefile.
#   make          build build/warpsim
#   make test     build and run every test (last line: "N passed, N failed")
#   make asan     the tests under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench    simulation-speed benchmarks (see docs/bench.md)
#   make run      the main job: a small paper-style experiment and its table
CC      ?= cc
BUILD   ?= build
WERROR  ?=
OPT     ?= -O3 -flto=auto
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wwrite-strings -Wvla -Wno-unused-parameter
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(WERROR) $(CFLAGS) -Isrc -MMD -MP
LDLIBS  += -lm

# Shared reference data (GPGPU-Sim configs) lives beside the repository.
SHARED  ?= ../shared
GPGPUSIM_GTX480 ?= $(SHARED)/data/gpgpusim/SM2_GTX480/gpgpusim.config

LIB_SRC  := $(sort $(wildcard src/*/*.c src/*/*/*.c))
LIB_SRC  := $(filter-out src/cli/main.c,$(LIB_SRC))
TEST_SRC := $(sort $(wildcard tests/unit/*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/cli/main.o

.PHONY: all test test-cluster asan bench run clean golden-update
all: $(BUILD)/warpsim

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libwarpsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/warpsim: $(MAIN_OBJ) $(BUILD)/libwarpsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The test table is generated from the TEST(name) lines of tests/unit/*.c.
$(BUILD)/test_list.h: $(TEST_SRC)
	@mkdir -p $(BUILD)
	@sed -n 's/^TEST(\([A-Za-z0-9_]*\)).*/X(\1)/p' $(TEST_SRC) > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/runner.o: tests/runner.c $(BUILD)/test_list.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(BUILD) -c $< -o $@

$(BUILD)/unit_tests: $(BUILD)/tests/runner.o $(TEST_OBJ) $(BUILD)/libwarpsim.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

test: $(BUILD)/warpsim $(BUILD)/unit_tests
	WARPSIM=$(BUILD)/warpsim GPGPUSIM_GTX480=$(GPGPUSIM_GTX480) $(BUILD)/unit_tests $(TESTS)

# A real one-node Slurm cluster runs a sweep emitted with --emit slurm (needs root; installs
# Debian's Slurm and munge when missing).
test-cluster: $(BUILD)/warpsim
	WARPSIM=$(BUILD)/warpsim bash tests/cluster/slurm.sh

asan:
	$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 CFLAGS="-g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	        LDLIBS="-lm -fsanitize=address,undefined" test

bench: $(BUILD)/warpsim
	$(BUILD)/warpsim bench --gpgpusim-config $(GPGPUSIM_GTX480)

run: $(BUILD)/warpsim
	$(BUILD)/warpsim sweep experiments/fup-small --results results/fup-small
	$(BUILD)/warpsim report results/fup-small

golden-update: $(BUILD)/warpsim
	WARPSIM=$(BUILD)/warpsim GOLDEN_UPDATE=1 $(BUILD)/unit_tests golden

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
