/// The rules a recording's index keeps, whichever scan reads it: the sequential `Scanner`,
/// record by record, and the parallel `FastScan`, line by line in C (which compares each
/// action's seq, as text, with the next one expected) and chunk by chunk where chunks are joined.
///
/// - The header is the first record, and the only one.
/// - Actions are numbered from 1 with no gap: each is the one after the last read.
/// - A checkpoint follows the action it is the state after: its seq is an action already read.
/// - The end record is the last record, and counts the actions.
/// - A last line without a newline is a torn tail: the records before it are kept, and it is
///   reported, never rewritten.
/// - When damaged records are skipped, a gap stands for the actions they held, but for no more
///   than the file could hold, whatever a seq claims.
enum IndexRules {
  /// The bytes of the shortest line that can hold an action:
  /// `xxxxxxxx {"kind":"action","seq":1,"source":"send","time":0}` and a newline.
  static let shortestActionLine = 60

  /// Whether an action numbered `seq` comes next after `count` actions.
  static func isNextAction(_ seq: Int, after count: Int) -> Bool {
    seq == count + 1
  }

  /// Whether a checkpoint after action `seq` is in its place once `count` actions are read.
  static func isPlacedCheckpoint(_ seq: Int, after count: Int) -> Bool {
    seq >= 1 && seq <= count
  }

  /// Whether an end record counting `seq` actions agrees with the `count` read.
  static func endAgrees(_ seq: Int, with count: Int) -> Bool {
    seq == count
  }

  /// The most actions a gap may stand for in a file of `size` bytes.
  static func maximumLostActions(inFileOf size: Int) -> Int {
    size / Self.shortestActionLine
  }
}
