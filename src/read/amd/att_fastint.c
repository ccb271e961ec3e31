/* The tables of the AVX2 row paths of att_fastint.h (att_fast_rows_avx2), built once when
 * the program starts: they depend on nothing but the row shape, and building them takes a few
 * microseconds. */
#include "read/amd/att_fastint.h"

#if ATT_FAST_AVX2

const int8_t att_fast_tail16[32] = {
    -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
    0,	  1,	2,    3,    4,	  5,	6,    7,    8,	  9,	10,   11,   12,	  13,	14,   15};

uint8_t att_fast_row5_id[1u << ATT_FAST_ROW5_KEY_BITS];
_Alignas(16) int8_t att_fast_row5_shuf[256][16];
_Alignas(16) int8_t att_fast_row2_shuf[9][17][16];

/* Rows of 5: every tail "a,b,c,d]" of a 5-integer row with 1..4 digits each that fits 16 bytes gets
 * an id (1..255; 0 is "no such tail") under its key, the bit pattern of its three commas and ']'
 * counted from the tail's first byte, and a shuffle that right-aligns the digits of a, b, c, d
 * into four 4-byte lanes (-128: a zero byte). Rows of 2: att_fast_row2_shuf. */
__attribute__((constructor)) static void att_fast_row_tables(void)
{
	unsigned id = 0;
	for (unsigned c = 0; c < 256; c++) {
		unsigned len[4] = {1 + (c & 3), 1 + (c >> 2 & 3), 1 + (c >> 4 & 3), 1 + (c >> 6)};
		unsigned key = 0, start = 0;
		int8_t shuf[16];
		for (int i = 0; i < 4; i++) {
			unsigned stop = start + len[i]; /* the separator after the number */
			key |= 1u << stop;
			for (unsigned j = 0; j < 4; j++) {
				int src = (int)stop - 4 + (int)j;
				shuf[4 * i + j] = src >= (int)start ? (int8_t)src : (int8_t)-128;
			}
			start = stop + 1;
		}
		if (start - 1 > 16) /* the ']' must lie within the tail's 16-byte load + 1 */
			continue;
		id++;
		att_fast_row5_id[key] = (uint8_t)id;
		memcpy(att_fast_row5_shuf[id], shuf, sizeof shuf);
	}
	for (int a = 1; a <= 8; a++)
		for (int e = a + 2; e <= 16 && e - a - 1 <= 8; e++)
			for (int j = 0; j < 8; j++) {
				int x = a - 8 + j,
				    y = e - 8 + j; /* x's and y's digit for lane byte j */
				att_fast_row2_shuf[a][e][j] = x >= 0 ? (int8_t)x : (int8_t)-128;
				att_fast_row2_shuf[a][e][8 + j] = y > a ? (int8_t)y : (int8_t)-128;
			}
}

#endif
