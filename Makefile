# flyprof build. `make` builds build/flyprof; `make test` builds and runs every test;
# `make asan` runs the suite under ASan+UBSan; `make format-check` checks clang-format.
CC      ?= cc
PKGS    := libelf libdw msgpack
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
WERROR  ?= -Werror
OPT     ?= -O2 -g
SAN     ?=
CFLAGS  += -std=c17 -D_GNU_SOURCE $(OPT) -Wall -Wextra $(WERROR) -Wshadow -Wno-unused-parameter \
           -Wstrict-prototypes -Wmissing-prototypes -Wvla -pthread $(SAN) $(PKG_CFLAGS) -Isrc
LDLIBS  += $(PKG_LIBS) -lm -pthread
LDFLAGS += $(SAN)
BUILD   ?= build

SRC_ALL  := $(sort $(shell find src -name '*.c'))
HDR_ALL  := $(sort $(shell find src -name '*.h'))
LIB_SRC  := $(filter-out src/cli/main.c,$(SRC_ALL))
DATA     := $(sort $(wildcard data/*))
LIB_OBJ  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/gen/data_blobs.o
MAIN_OBJ := $(BUILD)/obj/cli/main.o
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJ := $(patsubst tests/unit/%.c,$(BUILD)/obj/tests/unit/%.o,$(UNIT_SRC))
FAKE_SRC := $(sort $(wildcard tests/fake/*.c))
FAKES    := $(patsubst tests/fake/%.c,$(BUILD)/fake/%,$(FAKE_SRC))
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
TOOLS    := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(filter-out tests/tools/embed.c,$(TOOL_SRC)))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OBJ := $(patsubst tests/fuzz/%.c,$(BUILD)/obj/tests/fuzz/%.o,$(FUZZ_SRC) tests/fuzz/replay_main.c)
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCHES  := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

.PHONY: all test unit e2e asan format format-check deps clean demo bench fuzz check-layers

all: $(BUILD)/flyprof $(BUILD)/unit-tests $(BUILD)/fuzz-replay $(FAKES) $(TOOLS) $(BENCHES)

deps:
	scripts/install-deps.sh

$(BUILD)/libflyprof.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/flyprof: $(MAIN_OBJ) $(BUILD)/libflyprof.a
	@echo "  LD $@"; $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/unit-tests: $(UNIT_OBJ) $(BUILD)/libflyprof.a
	@echo "  LD $@"; $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/fuzz-replay: $(FUZZ_OBJ) $(BUILD)/libflyprof.a
	@echo "  LD $@"; $(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/obj/tests/fuzz/%.o: tests/fuzz/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(CFLAGS) -Isrc -MMD -MP -c -o $@ $<

# Real coverage-guided fuzzing with libFuzzer (clang): FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 30
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang OPT="-O1 -g" \
	    SAN="-fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libflyprof.a
	@mkdir -p build-fuzz/fuzz
	@for src in $(FUZZ_SRC); do \
	    t=$$(basename $$src .c); \
	    clang -std=c17 -D_GNU_SOURCE -DFLYPROF_LIBFUZZER -O1 -g -Isrc \
	        -fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) -o build-fuzz/fuzz/$$t $$src \
	        build-fuzz/libflyprof.a $(LDLIBS) || exit 1; \
	done
	tests/fuzz/run-libfuzzer.sh build-fuzz/fuzz $(FUZZ_SECONDS)

$(BUILD)/fake/%: tests/fake/%.c $(BUILD)/libflyprof.a
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libflyprof.a
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libflyprof.a
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# data/ is embedded into the binary (src/base/data.h).
$(BUILD)/embed: tests/tools/embed.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -o $@ $<

$(BUILD)/gen/data_blobs.c: $(BUILD)/embed $(DATA)
	@mkdir -p $(dir $@)
	$(BUILD)/embed $@ $(DATA)

$(BUILD)/obj/gen/data_blobs.o: $(BUILD)/gen/data_blobs.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wno-missing-prototypes -c -o $@ $<

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/tests/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(CFLAGS) -Isrc -MMD -MP -c -o $@ $<

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# Real data the tests read in place (never copied into the repository): the rocprofv3 corpus
# and the Nsight Compute samples beside this checkout. Tests that need them skip, saying so,
# when they are absent.
FLYPROF_CORPUS  ?= $(if $(wildcard ../shared/corpus),$(abspath ../shared/corpus),)
FLYPROF_SAMPLES ?= $(if $(wildcard ../shared/samples),$(abspath ../shared/samples),)
export FLYPROF_CORPUS FLYPROF_SAMPLES

# The whole suite: unit tests, then end-to-end tests of the built binary. Prints one
# "N passed, N failed" line per runner and a total line last.
test: all
	@tests/run-all.sh $(BUILD)

unit: $(BUILD)/unit-tests
	$(BUILD)/unit-tests

e2e: all
	tests/e2e/run.sh $(BUILD)

asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	    SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test

demo: all
	@scripts/demo.sh $(BUILD)

bench: all
	bench/run.sh $(BUILD)

format:
	clang-format -i $(SRC_ALL) $(HDR_ALL) $(UNIT_SRC) $(wildcard tests/unit/*.h) $(FAKE_SRC) $(TOOL_SRC) $(BENCH_SRC) $(FUZZ_SRC) tests/fuzz/replay_main.c tests/fuzz/fuzz.h

format-check:
	clang-format --dry-run --Werror $(SRC_ALL) $(HDR_ALL) $(UNIT_SRC) $(wildcard tests/unit/*.h) $(FAKE_SRC) $(TOOL_SRC) $(BENCH_SRC) $(FUZZ_SRC) tests/fuzz/replay_main.c tests/fuzz/fuzz.h

check-layers:
	scripts/check-layers.sh

clean:
	rm -rf build build-asan build-fuzz
