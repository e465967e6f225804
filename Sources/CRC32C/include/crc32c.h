#ifndef COMPOSABLE_REPLAY_CRC32C_H
#define COMPOSABLE_REPLAY_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Extends a CRC-32C (Castagnoli) checksum with `length` bytes at `data`.
///
/// Start with 0; the result of one call can be passed as `crc` to the next to checksum data in
/// pieces. Uses the SSE4.2 `crc32` instruction when the processor has it, and a table otherwise.
uint32_t crc32c_extend(uint32_t crc, const void *data, size_t length);

/// The CRC-32C of three byte ranges at once, faster than one after another.
void crc32c_three(const uint8_t *const data[3], const size_t lengths[3], uint32_t results[3]);

#endif
