/* SHA-256 (FIPS 180-4), for artifact checksums in bundle manifests. */
#ifndef FLYPROF_BASE_SHA256_H
#define FLYPROF_BASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t fill;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, unsigned char out[32]);
/* Hex digest of data into hex[65]. */
void sha256_hex(const void *data, size_t n, char hex[65]);

#endif
