#ifndef COMPOSABLE_REPLAY_ACTION_LOG_SCAN_H
#define COMPOSABLE_REPLAY_ACTION_LOG_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// Record kinds, as the envelope reader tells them apart.
enum {
  ALS_KIND_ACTION = 0,
  ALS_KIND_CHECKPOINT = 1,
  ALS_KIND_NOTE = 2,
  ALS_KIND_END = 3,
  /// A site record: its `seq` is the number it gives a source line.
  ALS_KIND_SITE = 4,
  /// A shared record: its `seq` is the action it follows.
  ALS_KIND_SHARED = 5,
};

/// What a record's payload starts with, as this library writes it:
/// `{"kind":"action","seq":12,"source":"effect","time":3400,"trigger":11,…`.
typedef struct {
  int64_t seq;
  /// An action's or an end record's time; -1 for other kinds.
  int64_t time;
  /// An effect action's trigger; -1 when there is none.
  int64_t trigger;
  int32_t kind;
} als_envelope;

/// Reads the envelope at the start of `count` payload bytes. Returns 1, or 0 when the payload
/// does not start the way this library writes it (numbers of 1 to 18 digits, each followed by
/// `,` or `}`).
int als_read_envelope(const uint8_t *payload, size_t count, als_envelope *envelope);

/// The checksum written in front of a payload (eight lower-case hex digits and a space, at
/// least nine bytes at `line`), or -1 when the prefix is not that.
int64_t als_read_prefix(const uint8_t *line);

/// Where a record is: its number in the file (the header is 1), the offset of its line, and
/// the length of its payload (-1 for an action the recorder could not record, of which only a
/// note is left).
typedef struct {
  ptrdiff_t record;
  ptrdiff_t offset;
  ptrdiff_t payload_length __attribute__((swift_name("payloadLength")));
} als_line_range __attribute__((swift_name("LineRange")));

/// An action line's place in four bytes: the offset of its line from the start of its segment
/// of the index, below `ALS_SEGMENT_LIMIT`, with `ALS_PLACE_UNRECORDED` set for an action the
/// recorder could not record, whose place is the note left instead. The payload's length is
/// measured from the line when it is wanted.
///
/// NB: The index of a long recording is most of the memory that opening it writes, and fresh
/// memory costs more to touch than the file costs to read: a sixth of `als_line_range`'s size.
typedef uint32_t als_place;

#define ALS_SEGMENT_LIMIT 0x80000000u
#define ALS_PLACE_UNRECORDED 0x80000000u

/// A line other than an action's: a checkpoint, a site, a note or an end record.
typedef struct {
  als_line_range range;
  int64_t seq;
  /// The seq of the last action line before it in the same scan; -1 when there was none.
  int64_t last_action_seq;
  /// An end record's time; -1 for the other kinds.
  int64_t end_time;
  int32_t kind;
} als_other_line;

/// The sequence number the next action line must have, kept as text too: the start of its
/// payload as this library writes it, up to its source, which each action line is compared with.
typedef struct {
  /// -1 until the first action line sets it.
  int64_t next;
  /// How many digits `next` has; 0 past 18, where no line matches.
  int32_t length;
  /// `{"kind":"action","seq":`, the digits of `next`, and `,"source":"`.
  uint8_t start[64];
} als_sequence;

/// What `als_scan_lines` found.
typedef struct {
  /// Action lines written to `actions`.
  size_t actions;
  /// Other lines written to `others`.
  size_t others;
  /// 1 when it stopped before a line it could not read.
  int stopped;
} als_scan_result;

/// Reads healthy record lines from `*offset` up to `end` and advances `*offset` past them,
/// numbering records from `*record`. The places of action lines go to `actions` (which must have
/// room for one per 60 bytes scanned, the shortest an action line can be), the other lines to
/// `others`; it returns when `others` is full or at `end`. Places are offsets from
/// `segment_start`, which must be less than `ALS_SEGMENT_LIMIT` before `end`.
///
/// Every line must end with a newline before `end`, hold at most `maximum_payload` bytes of
/// payload, and each action line must carry the sequence number that `sequence` expects (any,
/// for the first). An action's time and trigger are checked to be numbers but not read:
/// `als_read_envelope` reads them when they are wanted. It stops before a line that is
/// anything else (no newline in reach, too short or too long, a bad prefix, a checksum that
/// does not match, an envelope it cannot read, an action out of sequence) and says so.
als_scan_result als_scan_lines(const uint8_t *base, size_t *offset, size_t end,
                               size_t segment_start, size_t maximum_payload, ptrdiff_t *record,
                               als_sequence *sequence, als_place *actions,
                               als_other_line *others, size_t other_capacity);

#endif
