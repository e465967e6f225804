/// How a recording ended, as found when it was opened.
public enum RecordingEnding: Sendable, Equatable, CustomStringConvertible {
  /// The recorder closed it cleanly: it ends with an `end` record.
  case clean
  /// Every record is whole, but there is no `end` record: the recording was cut short (the app
  /// crashed or was killed) between two records.
  case unterminated
  /// The last line is incomplete (no newline): the recording was cut short while a record was
  /// being written. Everything before `offset` is kept.
  case tornTail(offset: Int, length: Int)
  /// Reading stopped at a damaged record; every record before it is kept. Open with
  /// ``RecoveryMode/skipDamagedRecords`` to read past it.
  case damaged(RecordProblem)

  public var description: String {
    switch self {
    case .clean:
      return "complete"
    case .unterminated:
      return "cut short: no end record (the recorder did not close it)"
    case let .tornTail(offset, length):
      return """
        cut short: the last \(length) bytes, from byte offset \(offset), are an incomplete record
        """
    case let .damaged(problem):
      return "stopped at \(problem)"
    }
  }
}

/// What a reader does when it meets a damaged record.
public enum RecoveryMode: Sendable, Equatable {
  /// Stop there and keep every record before it: the recording as it was up to that point.
  case stopAtFirstDamage
  /// Skip damaged records and go on; each skipped record is listed in
  /// ``Recording/skippedRecords``.
  case skipDamagedRecords
}

/// Something worth knowing about a recording that does not stop it from being read.
public enum RecordingWarning: Sendable, Equatable, CustomStringConvertible {
  /// A record of a kind this reader does not know; a newer writer may add kinds, so it is
  /// skipped.
  case unknownKind(String, record: Int, offset: Int)
  /// A note the recorder wrote.
  case note(seq: Int, text: String)
  /// Bytes after the end record.
  case dataAfterEnd(offset: Int)
  /// The end record's action count differs from the actions read.
  case endCountMismatch(end: Int, actions: Int)

  public var description: String {
    switch self {
    case let .unknownKind(kind, record, offset):
      return "record \(record) (byte offset \(offset)) has the unknown kind \"\(kind)\"; skipped"
    case let .note(seq, text):
      return "note after action \(seq): \(text)"
    case let .dataAfterEnd(offset):
      return "there is data after the end record, from byte offset \(offset); ignored"
    case let .endCountMismatch(end, actions):
      return "the end record counts \(end) actions, but \(actions) were read"
    }
  }
}
