/// What can go wrong reading or writing an action log. Every case says where (file, record
/// number, byte offset, coding path) and what the user can do.
public enum ActionLogError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case unreadable(path: String, reason: String)
  /// The file exists already: the writer never overwrites a recording.
  case fileExists(path: String)
  /// Another recorder is writing the file: it holds the file's lock. `writer` names its
  /// process (`process 4242 (MyApp)`) where the system says which it is.
  case beingWritten(path: String, writer: String)
  /// The file could not be created or written.
  case writeFailed(path: String, reason: String)
  /// The file is empty: a recording starts with a header.
  case empty(path: String)
  /// The first record is not a valid header.
  case missingHeader(path: String, reason: String)
  /// The file was written by a newer version of the format.
  case unsupportedVersion(path: String, found: Int, supported: Int)
  /// A record could not be decoded as the type asked for.
  case undecodable(record: Int, offset: Int, codingPath: String, reason: String)
  /// A record holds a value the feature's types cannot rebuild as they are (a class, an enum
  /// with values, without `Decodable`): `reason` names it, where it is, and what to add. Every
  /// step still reads from the recorded changes; replaying stops here.
  case notRebuildable(record: Int, offset: Int, reason: String)
  /// A record holds a value today's types do not decode, in a way a migration step would fix:
  /// a field they gained, a case renamed. `value` says which (`action 4`, `the initial state`),
  /// `change` what differs, `step` the migration step as Swift.
  case typesChanged(
    record: Int, offset: Int, value: String, codingPath: String, change: String, step: String)
  /// A record nests JSON deeper than the limit.
  case tooDeep(record: Int, offset: Int, limit: Int)
  /// There is no action with this sequence number.
  case noSuchAction(seq: Int, count: Int)
  /// There is no checkpoint after this action.
  case noSuchCheckpoint(seq: Int)
  /// The recorder could not record this action; a note stands in its place.
  case actionNotRecorded(seq: Int, note: String)
  /// The writer has been closed.
  case closed(path: String)

  public var description: String {
    switch self {
    case let .unreadable(path, reason):
      return "Cannot read \(path): \(reason). Check that the file exists and is readable."
    case let .fileExists(path):
      return """
        \(path) exists already, and a recording never overwrites a file. Choose another path, or \
        move the old recording away first.
        """
    case let .beingWritten(path, writer):
      return """
        \(path) is being recorded by another recorder, in \(writer): two recorders must not write \
        one file. Give this one another path, or close the other first.
        """
    case let .writeFailed(path, reason):
      return """
        Cannot write the recording \(path): \(reason). Check free space and permissions; every \
        record written before this error is intact.
        """
    case let .empty(path):
      return """
        \(path) is empty: a recording starts with a header record. The recorder was probably \
        stopped before it wrote anything; record again.
        """
    case let .missingHeader(path, reason):
      return """
        \(path) does not start with a valid header record (\(reason)). It may not be an action \
        log, or its first line is damaged; nothing can be replayed without the header.
        """
    case let .unsupportedVersion(path, found, supported):
      return """
        \(path) uses log format version \(found), but this reader supports version \(supported) \
        and older. Update ComposableReplay to read it.
        """
    case let .undecodable(record, offset, codingPath, reason):
      let path = codingPath.isEmpty ? "" : " at \(codingPath)"
      return """
        Record \(record) (byte offset \(offset)) cannot be decoded\(path): \(sentence(reason)) The \
        recording may come from another version of the feature; replay it with the code that \
        recorded it, or record it again.
        """
    case let .notRebuildable(record, offset, reason):
      return "Record \(record) (byte offset \(offset)) cannot be replayed: \(reason)"
    case let .typesChanged(record, offset, value, codingPath, change, step):
      let path = codingPath.isEmpty ? "" : " at \(codingPath)"
      return """
        Record \(record) (byte offset \(offset)), \(value), cannot be decoded\(path): \(change). \
        If the types changed since the recording was made, migrate it rather than record it \
        again: raise the feature's schema version and add the step \(step) to the migration \
        from the recording's version (FeatureSchema, in the README's "I changed my types").
        """
    case let .tooDeep(record, offset, limit):
      return """
        Record \(record) (byte offset \(offset)) nests JSON deeper than \(limit) levels, the \
        limit this reader accepts. Raise ReadLimits.maximumJSONDepth if the state really is that \
        deep.
        """
    case let .noSuchAction(seq, count):
      return "There is no action \(seq): the recording holds actions 1 to \(count)."
    case let .noSuchCheckpoint(seq):
      return "There is no checkpoint after action \(seq)."
    case let .actionNotRecorded(seq, note):
      return """
        Action \(seq) was not recorded: \(note). Replay cannot pass it; start again from a \
        checkpoint after it.
        """
    case let .closed(path):
      return "The writer for \(path) is closed: start a new recording to record more."
    }
  }
}

/// `reason` as a sentence: ended by one full stop, whether or not it had one.
private func sentence(_ reason: String) -> String {
  reason.hasSuffix(".") ? reason : reason + "."
}
