/* SHA-256 hex digests for artifact checksums in bundle manifests. Where the processor has the
 * SHA extensions (x86 SHA-NI, asked once through cpuid) the blocks go through them, about ten
 * times fewer instructions than the portable code; elsewhere Debian's libmd (libmd-dev) hashes.
 * Both give the same digest (tests/unit/test_base.c holds them to each other and to known
 * vectors). */
#ifndef FLYPROF_BASE_SHA256_H
#define FLYPROF_BASE_SHA256_H

#include <stddef.h>

/* Lower-case hex digest of data[0..n) into hex[65] (NUL-terminated). */
void sha256_hex(const void *data, size_t n, char hex[65]);
/* The same through libmd only, whatever the processor: the reference the fast path is checked
 * against. */
void sha256_hex_generic(const void *data, size_t n, char hex[65]);
/* 1 when sha256_hex takes the SHA-extension path on this processor. */
int sha256_accelerated(void);

#endif
