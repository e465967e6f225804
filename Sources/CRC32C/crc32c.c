#include "crc32c.h"

// Reflected Castagnoli polynomial.
#define POLY 0x82f63b78u

static uint32_t table[8][256];

__attribute__((constructor)) static void crc32c_init_table(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t crc = n;
    for (int k = 0; k < 8; k++) crc = (crc & 1) ? (crc >> 1) ^ POLY : crc >> 1;
    table[0][n] = crc;
  }
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t crc = table[0][n];
    for (int k = 1; k < 8; k++) {
      crc = table[0][crc & 0xff] ^ (crc >> 8);
      table[k][n] = crc;
    }
  }
}

// Slicing-by-8: eight table lookups per eight bytes.
static uint32_t crc32c_software(uint32_t crc, const uint8_t *p, size_t n) {
  while (n && ((uintptr_t)p & 7)) {
    crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    n--;
  }
  while (n >= 8) {
    uint64_t word;
    __builtin_memcpy(&word, p, 8);
    word ^= crc;
    crc = table[7][word & 0xff] ^ table[6][(word >> 8) & 0xff] ^ table[5][(word >> 16) & 0xff] ^
          table[4][(word >> 24) & 0xff] ^ table[3][(word >> 32) & 0xff] ^
          table[2][(word >> 40) & 0xff] ^ table[1][(word >> 48) & 0xff] ^ table[0][word >> 56];
    p += 8;
    n -= 8;
  }
  while (n--) crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc32c_hardware(uint32_t crc,
                                                                   const uint8_t *p, size_t n) {
  // Unaligned eight-byte loads cost x86 nothing, and the one-byte instruction costs as much as
  // the eight-byte one: no alignment prologue, and a tail of at most three instructions.
  uint64_t c = crc;
  while (n >= 8) {
    uint64_t word;
    __builtin_memcpy(&word, p, 8);
    c = _mm_crc32_u64(c, word);
    p += 8;
    n -= 8;
  }
  uint32_t c32 = (uint32_t)c;
  if (n >= 4) {
    uint32_t word;
    __builtin_memcpy(&word, p, 4);
    c32 = _mm_crc32_u32(c32, word);
    p += 4;
    n -= 4;
  }
  if (n >= 2) {
    uint16_t word;
    __builtin_memcpy(&word, p, 2);
    c32 = _mm_crc32_u16(c32, word);
    p += 2;
    n -= 2;
  }
  if (n) c32 = _mm_crc32_u8(c32, *p);
  return c32;
}
#endif

uint32_t crc32c_extend(uint32_t crc, const void *data, size_t length) {
  const uint8_t *p = (const uint8_t *)data;
  crc = ~crc;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) return ~crc32c_hardware(crc, p, length);
#endif
  return ~crc32c_software(crc, p, length);
}
