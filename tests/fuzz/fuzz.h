/* Fuzz targets for every reader of external data. Each tests/fuzz/fuzz_<name>.c defines
 *
 *     FUZZ_TARGET(name) { ...parse data[0..size), check invariants, free... return 0; }
 *
 * Built two ways:
 *   - `make fuzz`: one libFuzzer binary per target (clang -fsanitize=fuzzer,address,undefined),
 *     run for FUZZ_SECONDS each from the seeds listed in tests/fuzz/seeds.txt;
 *   - in the normal suite (`make test`, and under ASan in CI): build/fuzz-replay runs every
 *     target over its seeds and a fixed number of deterministic mutations of them (bit flips,
 *     truncations, splices), so malformed input is exercised on every CI run.
 * A target must never crash, leak or trip a sanitizer; a reader that rejects input must do it
 * with an fp_err (BAD_INPUT with file and position), which a target may assert. */
#ifndef FLYPROF_TESTS_FUZZ_FUZZ_H
#define FLYPROF_TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);
void fuzz_register(const char *name, fuzz_fn fn);

#ifdef FLYPROF_LIBFUZZER
#define FUZZ_TARGET(name)                                                                          \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                              \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name)                                                                          \
	static int fuzz_##name(const uint8_t *data, size_t size);                                  \
	__attribute__((constructor)) static void fuzz_reg_##name(void)                             \
	{                                                                                          \
		fuzz_register(#name, fuzz_##name);                                                 \
	}                                                                                          \
	static int fuzz_##name(const uint8_t *data, size_t size)
#endif

#endif
