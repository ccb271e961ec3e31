#include "base/sha256.h"

#include <sha2.h>
#include <stdint.h>

void sha256_hex(const void *data, size_t n, char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	uint8_t d[SHA256_DIGEST_LENGTH];
	SHA2_CTX c;
	SHA256Init(&c);
	SHA256Update(&c, data, n);
	SHA256Final(d, &c);
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}
