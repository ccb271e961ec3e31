/* SHA-256 hex digests for artifact checksums in bundle manifests. The hashing itself is
 * Debian's libmd (libmd-dev); this header keeps the one call the bundle code needs. */
#ifndef FLYPROF_BASE_SHA256_H
#define FLYPROF_BASE_SHA256_H

#include <stddef.h>

/* Lower-case hex digest of data[0..n) into hex[65] (NUL-terminated). */
void sha256_hex(const void *data, size_t n, char hex[65]);

#endif
