// NB: Over 400 lines on purpose: one translation unit, so that the line loop inlines its helpers
// (the checksum, the envelope and integer readers) as the scan's speed needs.

#include "action_log_scan.h"

#include <string.h>

#include "crc32c.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define PREFIX_LENGTH 9

// NB: The helpers the line scan calls are always inlined: it is compiled twice (see
// `scan_lines`), once for AVX2, and a compiler left to itself calls them there instead.
#define ALWAYS_INLINE static inline __attribute__((always_inline))

// MARK: - Numbers

// A non-negative integer of 1 to 18 digits at *cursor, followed by `,` or `}`; -1 otherwise.
//
// NB: A digit at a time. Eight-byte tricks (count the digits, combine them with three
// multiplications) make one long chain of dependent instructions, which measured slower for
// the 1-to-12-digit numbers of an envelope than this loop, whose steps overlap.
ALWAYS_INLINE int64_t read_integer(const uint8_t **cursor, const uint8_t *end) {
  const uint8_t *p = *cursor;
  const uint8_t *limit = end - p > 18 ? p + 18 : end;
  int64_t value = 0;
  while (p < limit) {
    uint8_t digit = (uint8_t)(*p - '0');
    if (digit >= 10) break;
    value = value * 10 + digit;
    p++;
  }
  if (p == *cursor || p >= end || (*p != ',' && *p != '}')) return -1;
  *cursor = p;
  return value;
}

// How many of the eight bytes, first byte in the low bits, are ASCII digits before the first
// that is not.
ALWAYS_INLINE int leading_digits(uint64_t word) {
  uint64_t high_nibble_wrong = (word & 0xF0F0F0F0F0F0F0F0ull) ^ 0x3030303030303030ull;
  uint64_t low_nibble_over_9 =
      ((word & 0x0F0F0F0F0F0F0F0Full) + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull;
  uint64_t not_digit = high_nibble_wrong | low_nibble_over_9;
  return not_digit ? __builtin_ctzll(not_digit) / 8 : 8;
}

// Moves past what `read_integer` would read, without computing its value: sixteen bytes at a
// time where the payload has room, eight otherwise, with no chain of multiplications. Returns 0
// where `read_integer` would return -1.
ALWAYS_INLINE int skip_integer(const uint8_t **cursor, const uint8_t *end) {
  const uint8_t *p = *cursor;
#if defined(__SSE2__)
  if (end - p >= 32) {
    // Sixteen bytes at a time: a byte is a digit when, less '0' + 128 (wrapping), it is below
    // -118 as a signed byte.
    const __m128i bias = _mm_set1_epi8((char)('0' + 128));
    const __m128i limit = _mm_set1_epi8((char)(-128 + 10));
    __m128i low = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)p), bias);
    uint32_t digits = (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(low, limit));
    if (digits == 0xFFFF) {
      __m128i high = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bias);
      digits |= (uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(high, limit)) << 16;
    }
    uint32_t others = ~digits;
    if (others == 0) return 0;
    int count = __builtin_ctz(others);
    if (count == 0 || count > 18 || (p[count] != ',' && p[count] != '}')) return 0;
    *cursor = p + count;
    return 1;
  }
#endif
  while (end - p >= 8 && p - *cursor <= 18) {
    uint64_t word;
    memcpy(&word, p, 8);
    int count = leading_digits(word);
    p += count;
    if (count < 8) break;
  }
  while (p < end && p - *cursor <= 18 && (uint8_t)(*p - '0') < 10) p++;
  ptrdiff_t digits = p - *cursor;
  if (digits == 0 || digits > 18 || p >= end || (*p != ',' && *p != '}')) return 0;
  *cursor = p;
  return 1;
}

// MARK: - Envelope

#define CONSUME(literal)                                                        \
  (end - cursor >= (ptrdiff_t)(sizeof(literal) - 1) &&                          \
           memcmp(cursor, literal, sizeof(literal) - 1) == 0                    \
       ? (cursor += sizeof(literal) - 1, 1)                                     \
       : 0)

int als_read_envelope(const uint8_t *payload, size_t count, als_envelope *envelope) {
  const uint8_t *cursor = payload;
  const uint8_t *end = payload + count;
  if (!CONSUME("{\"kind\":\"")) return 0;
  // NB: Most common first.
  if (CONSUME("action\",\"seq\":")) {
    envelope->kind = ALS_KIND_ACTION;
  } else if (CONSUME("checkpoint\",\"seq\":")) {
    envelope->kind = ALS_KIND_CHECKPOINT;
  } else if (CONSUME("note\",\"seq\":")) {
    envelope->kind = ALS_KIND_NOTE;
  } else if (CONSUME("end\",\"seq\":")) {
    envelope->kind = ALS_KIND_END;
  } else if (CONSUME("site\",\"site\":")) {
    envelope->kind = ALS_KIND_SITE;
  } else if (CONSUME("shared\",\"seq\":")) {
    envelope->kind = ALS_KIND_SHARED;
  } else {
    return 0;
  }
  int64_t seq = read_integer(&cursor, end);
  if (seq < 0) return 0;
  envelope->seq = seq;
  envelope->time = -1;
  envelope->trigger = -1;
  switch (envelope->kind) {
  case ALS_KIND_ACTION: {
    if (!CONSUME(",\"source\":\"send\",\"time\":") && !CONSUME(",\"source\":\"effect\",\"time\":"))
      return 0;
    int64_t time = read_integer(&cursor, end);
    if (time < 0) return 0;
    envelope->time = time;
    if (CONSUME(",\"trigger\":")) {
      int64_t trigger = read_integer(&cursor, end);
      if (trigger < 0) return 0;
      envelope->trigger = trigger;
    }
    break;
  }
  case ALS_KIND_END: {
    if (!CONSUME(",\"time\":")) return 0;
    int64_t time = read_integer(&cursor, end);
    if (time < 0) return 0;
    envelope->time = time;
    break;
  }
  default:
    break;
  }
  return 1;
}

// MARK: - Framing

int64_t als_read_prefix(const uint8_t *line) {
  if (line[8] != ' ') return -1;
  uint64_t word;
  memcpy(&word, line, 8);
  // Digits are 0x30...0x39 and letters 0x61...0x66: bit 6 tells them apart.
  uint64_t is_letter = (word >> 6) & 0x0101010101010101ull;
  uint64_t nibbles = (word & 0x0F0F0F0F0F0F0F0Full) + is_letter * 9;
  uint64_t expected_high = 0x3030303030303030ull + is_letter * 0x30;
  uint64_t over_nine = (nibbles + 0x0606060606060606ull) & 0x1010101010101010ull;
  if ((word & 0xF0F0F0F0F0F0F0F0ull) != expected_high) return -1;
  if (nibbles & 0xF0F0F0F0F0F0F0F0ull) return -1;  // no letter above 'f'
  if (over_nine != is_letter * 0x10) return -1;    // digits at most 9, letters at least 'a'
  // The first character is the most significant nibble.
  uint64_t value = __builtin_bswap64(nibbles);
  value = (value | (value >> 4)) & 0x00FF00FF00FF00FFull;
  value = (value | (value >> 8)) & 0x0000FFFF0000FFFFull;
  value = (value | (value >> 16)) & 0x00000000FFFFFFFFull;
  return (int64_t)value;
}

// MARK: - Lines

// Where the digits start in `als_sequence.start`, and what follows them.
#define SEQUENCE_DIGITS 23
#define SEQUENCE_SUFFIX ",\"source\":\""
#define SEQUENCE_SUFFIX_LENGTH 11

static void sequence_set(als_sequence *sequence, int64_t value) {
  char text[20];
  int length = 0;
  do {
    text[length++] = (char)('0' + value % 10);
    value /= 10;
  } while (value > 0);
  memcpy(sequence->start, "{\"kind\":\"action\",\"seq\":", SEQUENCE_DIGITS);
  for (int i = 0; i < length; i++) {
    sequence->start[SEQUENCE_DIGITS + i] = (uint8_t)text[length - 1 - i];
  }
  memcpy(sequence->start + SEQUENCE_DIGITS + length, SEQUENCE_SUFFIX, SEQUENCE_SUFFIX_LENGTH);
  sequence->length = length;
}

ALWAYS_INLINE void sequence_advance(als_sequence *sequence) {
  sequence->next++;
  uint8_t *digits = sequence->start + SEQUENCE_DIGITS;
  int i = sequence->length - 1;
  while (i >= 0 && digits[i] == '9') digits[i--] = '0';
  if (i >= 0) {
    digits[i]++;
  } else if (sequence->length < 18) {
    digits[0] = '1';
    digits[sequence->length] = '0';
    sequence->length++;
    memcpy(digits + sequence->length, SEQUENCE_SUFFIX, SEQUENCE_SUFFIX_LENGTH);
  } else {
    sequence->length = 0;  // past 18 digits: matches nothing, so the scan stops there
  }
}

#if defined(__SSE2__)
// Which of the 64 bytes at `a` equal those at `b`, one bit each, first byte lowest.
ALWAYS_INLINE uint64_t equal_bytes_64(const uint8_t *a, const uint8_t *b) {
  uint64_t mask = 0;
  for (int i = 0; i < 4; i++) {
    __m128i x = _mm_loadu_si128((const __m128i *)(a + 16 * i));
    __m128i y = _mm_loadu_si128((const __m128i *)(b + 16 * i));
    mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) << (16 * i);
  }
  return mask;
}

// Which of the 16 bytes at `a` equal those at `b`.
ALWAYS_INLINE uint32_t equal_bytes_16(const uint8_t *a, const char *b) {
  return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)a),
                                                    _mm_loadu_si128((const __m128i *)b)));
}
#endif

// Checks the rest of an action's envelope from its time on: a number, then, for an action fed
// back by an effect, `,"trigger":` and another.
ALWAYS_INLINE int skip_time_and_trigger(const uint8_t *cursor, const uint8_t *end) {
  if (!skip_integer(&cursor, end)) return 0;
  if (CONSUME(",\"trigger\":") && !skip_integer(&cursor, end)) return 0;
  return 1;
}

// Checks a line's envelope and reads what the index needs from it: its kind, its seq (an
// action's is compared with the one `sequence` expects), an end record's time. Returns 0 when
// the payload does not start the way this library writes it or an action is out of sequence.
ALWAYS_INLINE int scan_envelope(const uint8_t *payload, size_t count, als_sequence *sequence,
                                int32_t *kind, int64_t *seq, int64_t *end_time) {
  const uint8_t *cursor = payload;
  const uint8_t *end = payload + count;
#if defined(__SSE2__)
  // The common case, an action in sequence: its start up to the source compared with the one
  // expected, 64 bytes at once, and the source and `"time":` sixteen bytes at once.
  int32_t expected = SEQUENCE_DIGITS + sequence->length + SEQUENCE_SUFFIX_LENGTH;
  if (sequence->length > 0 && count >= 64 && (size_t)expected + 16 <= count) {
    uint64_t need = (1ull << expected) - 1;
    if ((equal_bytes_64(payload, sequence->start) & need) == need) {
      cursor += expected;
      // NB: The patterns are sixteen bytes long, for the loads; only their first 13 and 15
      // bytes are compared.
      int send = (equal_bytes_16(cursor, "send\",\"time\":...") & 0x1FFF) == 0x1FFF;
      int effect = (equal_bytes_16(cursor, "effect\",\"time\":.") & 0x7FFF) == 0x7FFF;
      if (!(send | effect)) return 0;
      cursor += send ? 13 : 15;
      *kind = ALS_KIND_ACTION;
      *seq = sequence->next;
      sequence_advance(sequence);
      return skip_time_and_trigger(cursor, end);
    }
  }
#endif
  if (!CONSUME("{\"kind\":\"")) return 0;
  if (CONSUME("action\",\"seq\":")) {
    *kind = ALS_KIND_ACTION;
    if (sequence->next < 0) {
      int64_t first = read_integer(&cursor, end);
      if (first < 0) return 0;
      sequence->next = first;
      sequence_set(sequence, first);
    } else {
      size_t length = (size_t)sequence->length;
      if (length == 0 || (size_t)(end - cursor) <= length) return 0;
      if (memcmp(cursor, sequence->start + SEQUENCE_DIGITS, length) != 0) return 0;
      if (cursor[length] != ',' && cursor[length] != '}') return 0;
      cursor += length;
    }
    *seq = sequence->next;
    sequence_advance(sequence);
    if (!CONSUME(",\"source\":\"send\",\"time\":") &&
        !CONSUME(",\"source\":\"effect\",\"time\":"))
      return 0;
    return skip_time_and_trigger(cursor, end);
  }
  if (CONSUME("checkpoint\",\"seq\":")) {
    *kind = ALS_KIND_CHECKPOINT;
  } else if (CONSUME("note\",\"seq\":")) {
    *kind = ALS_KIND_NOTE;
  } else if (CONSUME("end\",\"seq\":")) {
    *kind = ALS_KIND_END;
  } else if (CONSUME("site\",\"site\":")) {
    *kind = ALS_KIND_SITE;
  } else if (CONSUME("shared\",\"seq\":")) {
    *kind = ALS_KIND_SHARED;
  } else {
    return 0;
  }
  *seq = read_integer(&cursor, end);
  if (*seq < 0) return 0;
  *end_time = -1;
  if (*kind == ALS_KIND_END) {
    if (!CONSUME(",\"time\":")) return 0;
    *end_time = read_integer(&cursor, end);
    if (*end_time < 0) return 0;
  }
  return 1;
}

// The first newline in `length` bytes at `start`, or NULL. Lines are about a hundred bytes:
// inline, sixteen bytes at a time, costs less than a call to memchr.
static inline const uint8_t *find_newline(const uint8_t *start, size_t length) {
  const uint8_t *p = start;
  const uint8_t *end = start + length;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  while (end - p >= 16) {
    __m128i chunk = _mm_loadu_si128((const __m128i *)p);
    int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, newline));
    if (mask) return p + __builtin_ctz((unsigned)mask);
    p += 16;
  }
#endif
  return memchr(p, '\n', (size_t)(end - p));
}

#if defined(__x86_64__)
// The same, thirty-two bytes at a time, for processors with AVX2: half the instructions per line.
__attribute__((target("avx2"))) static inline const uint8_t *find_newline_wide(
    const uint8_t *start, size_t length) {
  const uint8_t *p = start;
  const uint8_t *end = start + length;
  const __m256i newline = _mm256_set1_epi8('\n');
  while (end - p >= 32) {
    __m256i chunk = _mm256_loadu_si256((const __m256i *)p);
    unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, newline));
    if (mask) return p + __builtin_ctz(mask);
    p += 32;
  }
  return find_newline(p, (size_t)(end - p));
}
#endif

// The shortest line that can be a record: `xxxxxxxx {"kind":"end","seq":1,"time":0}` and its
// newline. A line's newline is looked for past the bytes before it.
#define SHORTEST_LINE 40

// The body of `als_scan_lines`, compiled once per way of finding newlines (`wide` is a constant
// at each use).
ALWAYS_INLINE als_scan_result scan_lines(
    const uint8_t *base, size_t *offset, size_t end, size_t segment_start,
    size_t maximum_payload, ptrdiff_t *record,
    als_sequence *sequence, als_place *actions, als_other_line *others,
    size_t other_capacity, const int wide) {
  als_scan_result result = {0, 0, 0};
  size_t position = *offset;
  ptrdiff_t number = *record;
  while (position < end && result.others < other_capacity) {
    // Up to three lines at a time, so their checksums run side by side.
    const uint8_t *payloads[3];
    size_t lengths[3];
    int64_t written[3];
    size_t starts[3];
    int group = 0;
    size_t cursor = position;
    while (group < 3 && cursor < end) {
      size_t window = end - cursor;
      size_t longest = maximum_payload + PREFIX_LENGTH + 1;
      if (window > longest) window = longest;
      // NB: A shorter line is no record; looking past it joins it to the next, whose checksum
      // then fails, and the scan stops before it as it would have.
      if (window < SHORTEST_LINE) break;
      const uint8_t *from = base + cursor + SHORTEST_LINE - 1;
      size_t rest = window - (SHORTEST_LINE - 1);
#if defined(__x86_64__)
      const uint8_t *newline = wide ? find_newline_wide(from, rest) : find_newline(from, rest);
#else
      const uint8_t *newline = find_newline(from, rest);
#endif
      if (!newline) break;
      size_t line_end = (size_t)(newline - base);
      size_t length = line_end - cursor;
      if (length <= PREFIX_LENGTH) break;
      int64_t prefix = als_read_prefix(base + cursor);
      if (prefix < 0) break;
      starts[group] = cursor;
      payloads[group] = base + cursor + PREFIX_LENGTH;
      lengths[group] = length - PREFIX_LENGTH;
      written[group] = prefix;
      group++;
      cursor = line_end + 1;
    }
    uint32_t checksums[3];
    if (group == 3) {
      crc32c_three(payloads, lengths, checksums);
    } else {
      for (int i = 0; i < group; i++) checksums[i] = crc32c_extend(0, payloads[i], lengths[i]);
    }
    for (int i = 0; i < group; i++) {
      int32_t kind;
      int64_t seq, end_time;
      int64_t last_action_seq = sequence->next - 1;
      if ((int64_t)checksums[i] != written[i] ||
          !scan_envelope(payloads[i], lengths[i], sequence, &kind, &seq, &end_time)) {
        result.stopped = 1;
        goto done;
      }
      if (kind == ALS_KIND_ACTION) {
        actions[result.actions++] = (als_place)(starts[i] - segment_start);
      } else {
        als_other_line *other = &others[result.others++];
        other->range = (als_line_range){number, (ptrdiff_t)starts[i], (ptrdiff_t)lengths[i]};
        other->seq = seq;
        other->last_action_seq = last_action_seq < 0 ? -1 : last_action_seq;
        other->end_time = end_time;
        other->kind = kind;
      }
      number++;
      position = starts[i] + PREFIX_LENGTH + lengths[i] + 1;
      if (result.others == other_capacity) goto done;
    }
    if (group < 3 && position < end) {
      // The line after the group could not be framed.
      result.stopped = 1;
      goto done;
    }
  }
done:
  *offset = position;
  *record = number;
  return result;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static als_scan_result scan_lines_wide(
    const uint8_t *base, size_t *offset, size_t end, size_t segment_start,
    size_t maximum_payload, ptrdiff_t *record,
    als_sequence *sequence, als_place *actions, als_other_line *others,
    size_t other_capacity) {
  return scan_lines(base, offset, end, segment_start, maximum_payload, record, sequence, actions,
                    others, other_capacity, 1);
}
#endif

als_scan_result als_scan_lines(const uint8_t *base, size_t *offset, size_t end,
                               size_t segment_start, size_t maximum_payload, ptrdiff_t *record,
                               als_sequence *sequence, als_place *actions,
                               als_other_line *others, size_t other_capacity) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) {
    return scan_lines_wide(base, offset, end, segment_start, maximum_payload, record, sequence,
                           actions, others, other_capacity);
  }
#endif
  return scan_lines(base, offset, end, segment_start, maximum_payload, record, sequence, actions,
                    others, other_capacity, 0);
}
