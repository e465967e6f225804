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

#if defined(__x86_64__)
// Three independent checksums at once: the instruction takes three cycles to give its result
// but can start every cycle, so three chains run in the time of one.
__attribute__((target("sse4.2"))) static void crc32c_three_hardware(const uint8_t *const data[3],
                                                                    const size_t lengths[3],
                                                                    uint32_t results[3]) {
  uint64_t a = 0xffffffffu, b = 0xffffffffu, c = 0xffffffffu;
  const uint8_t *pa = data[0], *pb = data[1], *pc = data[2];
  size_t shortest = lengths[0];
  if (lengths[1] < shortest) shortest = lengths[1];
  if (lengths[2] < shortest) shortest = lengths[2];
  size_t words = shortest / 8;
  for (size_t i = 0; i < words; i++) {
    uint64_t wa, wb, wc;
    __builtin_memcpy(&wa, pa, 8);
    __builtin_memcpy(&wb, pb, 8);
    __builtin_memcpy(&wc, pc, 8);
    a = _mm_crc32_u64(a, wa);
    b = _mm_crc32_u64(b, wb);
    c = _mm_crc32_u64(c, wc);
    pa += 8;
    pb += 8;
    pc += 8;
  }
  size_t done = words * 8;
  results[0] = ~crc32c_hardware((uint32_t)a, pa, lengths[0] - done);
  results[1] = ~crc32c_hardware((uint32_t)b, pb, lengths[1] - done);
  results[2] = ~crc32c_hardware((uint32_t)c, pc, lengths[2] - done);
}
#endif

void crc32c_three(const uint8_t *const data[3], const size_t lengths[3], uint32_t results[3]) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) {
    crc32c_three_hardware(data, lengths, results);
    return;
  }
#endif
  for (int i = 0; i < 3; i++) results[i] = crc32c_extend(0, data[i], lengths[i]);
}

uint32_t crc32c_extend(uint32_t crc, const void *data, size_t length) {
  const uint8_t *p = (const uint8_t *)data;
  crc = ~crc;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("sse4.2")) return ~crc32c_hardware(crc, p, length);
#endif
  return ~crc32c_software(crc, p, length);
}
