# flyprof build. `make` builds build/flyprof; `make test` builds and runs every test;
# `make asan` runs the suite under ASan+UBSan; `make format-check` checks clang-format.
CC      ?= cc
PKGS    := libelf libdw msgpack libmd
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Those libraries (and libdw's zlib, liblzma and libbz2) are linked statically: loading and
# relocating seven shared libraries took 2-3 ms and ~50 page faults of every command, a quarter
# of bubbles on a small kernel (bench/RESULTS.md), and the binary then also runs where they are
# not installed (the GPU machine). STATIC_DEPS=0 links them as shared libraries.
STATIC_DEPS ?= 1
ifeq ($(STATIC_DEPS),1)
PKG_LIBS   := -Wl,-Bstatic $(filter-out -pthread -lpthread,$(shell pkg-config --static --libs $(PKGS) 2>/dev/null)) -Wl,-Bdynamic
else
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
endif
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
LIB_OBJ  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(BUILD)/obj/gen/data_blobs.o $(BUILD)/obj/gen/build_info.o
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

.PHONY: all test unit e2e asan format format-check deps clean demo bench fuzz check-layers test-deps install

all: $(BUILD)/flyprof $(BUILD)/unit-tests $(BUILD)/fuzz-replay $(FAKES) $(TOOLS) $(BENCHES)

# Debian packages: `make deps` for building and running the tool, `make test-deps` for what the
# test suite adds (clang/LLVM, clang-format).
deps:
	scripts/install-deps.sh tool

test-deps:
	scripts/install-deps.sh test

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

# The commit --version names; the file is rewritten only when the commit changes.
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- src data Makefile 2>/dev/null || echo -dirty)
$(BUILD)/gen/build_info.c: FORCE
	@mkdir -p $(dir $@)
	@printf 'const char flyprof_commit[] = "%s";\n' '$(COMMIT)' >$@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/obj/gen/build_info.o: $(BUILD)/gen/build_info.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Wno-missing-prototypes -c -o $@ $<

FORCE:

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

# The demo builds only the binary it runs, in parallel.
NPROC ?= $(shell nproc 2>/dev/null || echo 2)
demo:
	@$(MAKE) --no-print-directory -j$(NPROC) $(BUILD)/flyprof
	@scripts/demo.sh $(BUILD)

bench: all
	bench/run.sh $(BUILD)

format:
	clang-format -i $(SRC_ALL) $(HDR_ALL) $(UNIT_SRC) $(wildcard tests/unit/*.h) $(FAKE_SRC) $(TOOL_SRC) $(BENCH_SRC) $(FUZZ_SRC) tests/fuzz/replay_main.c tests/fuzz/fuzz.h

format-check:
	clang-format --dry-run --Werror $(SRC_ALL) $(HDR_ALL) $(UNIT_SRC) $(wildcard tests/unit/*.h) $(FAKE_SRC) $(TOOL_SRC) $(BENCH_SRC) $(FUZZ_SRC) tests/fuzz/replay_main.c tests/fuzz/fuzz.h

check-layers:
	scripts/check-layers.sh

# make install [PREFIX=/usr/local] [DESTDIR=...]: the binary, its data, the skills, man pages
# and bash/zsh completion, the last two generated from the command table by the binary.
PREFIX ?= /usr/local
install: $(BUILD)/flyprof
	@set -e; d="$(DESTDIR)$(PREFIX)"; \
	install -d "$$d/bin" "$$d/share/man/man1" "$$d/share/flyprof/data" \
	    "$$d/share/bash-completion/completions" "$$d/share/zsh/site-functions"; \
	install -m 755 $(BUILD)/flyprof "$$d/bin/flyprof"; \
	install -m 644 $(DATA) "$$d/share/flyprof/data/"; \
	cp -R skills templates "$$d/share/flyprof/"; \
	install -d "$$d/share/flyprof/scripts"; \
	install -m 755 scripts/preflight.sh scripts/new_flydsl_task.sh "$$d/share/flyprof/scripts/"; \
	$(BUILD)/flyprof --man >"$$d/share/man/man1/flyprof.1"; \
	for c in $$($(BUILD)/flyprof --command-names); do \
	    $(BUILD)/flyprof --man=$$c >"$$d/share/man/man1/flyprof-$$c.1"; done; \
	$(BUILD)/flyprof --completion=bash >"$$d/share/bash-completion/completions/flyprof"; \
	$(BUILD)/flyprof --completion=zsh >"$$d/share/zsh/site-functions/_flyprof"; \
	echo "installed flyprof into $$d"

clean:
	rm -rf build build-asan build-fuzz
