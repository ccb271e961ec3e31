/* Test code objects compiled at test time from tests/fixtures/fake_kernel.cl by Debian's
 * clang (tests/fixtures/build-codeobj.sh). Built once per test run. */
#ifndef FLYPROF_TESTS_UNIT_FIXTURE_CODEOBJ_H
#define FLYPROF_TESTS_UNIT_FIXTURE_CODEOBJ_H

#include <stddef.h>

/* Path of fake_kernel.hsaco (debug = 1) or fake_kernel_nodebug.hsaco (debug = 0), or NULL
 * when clang/ld.lld are missing or the build failed (the caller SKIPs). Static storage. */
const char *fixture_codeobj(int debug);
/* Reads a whole file into a heap buffer (caller frees), or NULL. */
unsigned char *fixture_read(const char *path, size_t *len);

#endif
