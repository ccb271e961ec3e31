#include "base/sha256.h"

#include <sha2.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define SHA256_HAVE_NI 1
#endif

static void to_hex(const uint8_t d[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[d[i] >> 4];
		hex[2 * i + 1] = digits[d[i] & 15];
	}
	hex[64] = '\0';
}

void sha256_hex_generic(const void *data, size_t n, char hex[65])
{
	uint8_t d[SHA256_DIGEST_LENGTH];
	SHA2_CTX c;
	SHA256Init(&c);
	SHA256Update(&c, data, n);
	SHA256Final(d, &c);
	to_hex(d, hex);
}

#ifdef SHA256_HAVE_NI
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/* The 64 rounds of each 64-byte block with the SHA extensions (sha256rnds2 does two rounds,
 * sha256msg1/msg2 the message schedule), four rounds a step: quad q of the schedule lives in
 * w[q % 4], computed from the four before it while they are still in use. The state is kept
 * as the instructions want it, ABEF and CDGH. */
__attribute__((target("sha,sse4.1"))) static void ni_blocks(uint32_t st[8], const uint8_t *p,
							    size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[0]), 0xB1); /* CDAB */
	__m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[4]), 0x1B);	 /* EFGH */
	__m128i s0 = _mm_alignr_epi8(tmp, s1, 8);					 /* ABEF */
	s1 = _mm_blend_epi16(s1, tmp, 0xF0);						 /* CDGH */
	for (; nblocks; nblocks--, p += 64) {
		__m128i save0 = s0, save1 = s1, w[4];
#pragma GCC unroll 16
		for (int g = 0; g < 16; g++) {
			int q = g & 3;
			if (g < 4)
				w[q] = _mm_shuffle_epi8(
				    _mm_loadu_si128((const __m128i *)(p + 16 * g)), bswap);
			__m128i m =
			    _mm_add_epi32(w[q], _mm_loadu_si128((const __m128i *)&K[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, m);
			if (g >= 3 && g <= 14) { /* quad g+1 from quads g-3..g */
				int nx = (q + 1) & 3;
				w[nx] =
				    _mm_add_epi32(w[nx], _mm_alignr_epi8(w[q], w[(q + 3) & 3], 4));
				w[nx] = _mm_sha256msg2_epu32(w[nx], w[q]);
			}
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
			if (g >= 1 && g <= 12) /* first half of quad g+3 */
				w[(q + 3) & 3] = _mm_sha256msg1_epu32(w[(q + 3) & 3], w[q]);
		}
		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
	}
	tmp = _mm_shuffle_epi32(s0, 0x1B);   /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xB1);    /* DCHG */
	s0 = _mm_blend_epi16(tmp, s1, 0xF0); /* DCBA */
	s1 = _mm_alignr_epi8(s1, tmp, 8);    /* HGFE */
	_mm_storeu_si128((__m128i *)&st[0], s0);
	_mm_storeu_si128((__m128i *)&st[4], s1);
}

static void ni_hex(const void *data, size_t n, char hex[65])
{
	uint32_t st[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	const uint8_t *p = data;
	ni_blocks(st, p, n / 64);
	/* the tail, the 0x80 byte and the bit length in big-endian: one or two more blocks */
	uint8_t last[128] = {0};
	size_t rest = n % 64, nb = rest < 56 ? 1 : 2;
	if (rest)
		memcpy(last, p + n - rest, rest);
	last[rest] = 0x80;
	uint64_t bits = (uint64_t)n * 8;
	for (int i = 0; i < 8; i++)
		last[nb * 64 - 1 - i] = (uint8_t)(bits >> (8 * i));
	ni_blocks(st, last, nb);
	uint8_t d[32];
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			d[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
	to_hex(d, hex);
}

/* cpuid leaf 7 EBX bit 29 (SHA), leaf 1 ECX bits 9 and 19 (SSSE3, SSE4.1); asked once. */
static int detect_ni(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19)))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return (b >> 29) & 1;
}
#endif

int sha256_accelerated(void)
{
#ifdef SHA256_HAVE_NI
	static _Atomic int known = -1; /* -1: not asked yet (cpuid traps in a VM: ask once) */
	int k = known;
	if (k < 0)
		known = k = detect_ni();
	return k;
#else
	return 0;
#endif
}

void sha256_hex(const void *data, size_t n, char hex[65])
{
#ifdef SHA256_HAVE_NI
	if (sha256_accelerated()) {
		ni_hex(data, n, hex);
		return;
	}
#endif
	sha256_hex_generic(data, n, hex);
}
