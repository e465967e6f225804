import Foundation

/// A shared record: what happened to the values a recorded state shares with others, after an
/// action (see the format article's "Shared values").
public struct RecordedShared: Sendable, Equatable {
  /// Where a shared value's change came from.
  public enum Source: String, Sendable, Codable, CaseIterable {
    /// Its key reported it from outside the app: a file another program rewrote, user defaults
    /// set elsewhere.
    case outside
    /// Something in the app other than the recorded store's reducers wrote it: an effect,
    /// another store, a test.
    case app
    /// A recorded reducer made a shared value from its key, and this is what the key held.
    case load
  }

  /// What the record says.
  public enum Change: Sendable, Equatable {
    /// The places of the state after the action that share each value, by the value's name,
    /// as JSON Pointers.
    case places([String: [String]])
    /// The places of action `seq` that carry shared values, by the value's name, as JSON
    /// Pointers into the action.
    case actionPlaces([String: [String]])
    /// The shared value `name` took `value`.
    case value(name: String, source: Source, value: JSONValue)
    /// The rest of the app wrote into the recorded state: `update` turns the state into what
    /// it became. A child's recording cut from an app's holds its parent's writes so.
    case stateWritten(update: [JSONPatchOperation])
  }

  /// The `source` of a ``Change/stateWritten(update:)`` record.
  public static let parentSource = "parent"

  /// The action the record follows: 0 for one before the first action. A replay applies it
  /// before action `seq + 1`.
  public let seq: Int
  /// What it says.
  public let change: Change

  /// Creates a record.
  public init(seq: Int, change: Change) {
    self.seq = seq
    self.change = change
  }
}

extension Recording {
  /// Whether the recording holds shared records.
  public var hasSharedRecords: Bool {
    !self.sharedLines.isEmpty
  }

  /// The shared records, in the order written.
  ///
  /// - Throws: ``ActionLogError`` when one cannot be read: where it is, and what is wrong.
  public func sharedRecords() throws -> [RecordedShared] {
    try self.sharedLines.map { seq, line in
      // NB: Read as written: migrations reach states and actions, not what they share.
      let record = try self.storage.withUnsafeBytes { bytes in
        try self.codec.decode(
          SharedRecord<JSONValue>.self,
          from: UnsafeRawBufferPointer(
            rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)]))
      }
      if let places = record.where {
        return RecordedShared(
          seq: seq,
          change: record.of == RecordKind.action.rawValue
            ? .actionPlaces(places) : .places(places))
      }
      if let update = record.update, record.source == RecordedShared.parentSource {
        return RecordedShared(seq: seq, change: .stateWritten(update: update))
      }
      // NB: A `null` value decodes as no value.
      guard let name = record.shared, let sourceName = record.source,
        let source = RecordedShared.Source(rawValue: sourceName)
      else {
        throw ActionLogError.unreadable(
          path: self.url?.path ?? "the recording",
          reason: """
            record \(line.record) (byte \(line.offset)), a shared record, has neither "where", \
            nor "shared" with a known "source" (outside, app or load), nor "update" from "parent"
            """)
      }
      return RecordedShared(
        seq: seq, change: .value(name: name, source: source, value: record.value ?? .null))
    }
  }

  /// What the rest of the app wrote into the recorded state after each action (0: before the
  /// first), in the order written: the ``RecordedShared/Change/stateWritten(update:)`` records of
  /// a child's recording cut from an app's. Empty for most recordings.
  public func stateWrites() throws -> [Int: [[JSONPatchOperation]]] {
    guard self.hasSharedRecords else { return [:] }
    if let loaded = self.stateWritesMemo.loaded { return loaded }
    var writes: [Int: [[JSONPatchOperation]]] = [:]
    for record in try self.sharedRecords() {
      if case let .stateWritten(update) = record.change {
        writes[record.seq, default: []].append(update)
      }
    }
    self.stateWritesMemo.loaded = writes
    return writes
  }

  /// The places of the state after action `seq` that share each value: those of the last
  /// `where` record after `seq` itself, or `nil` when there is none.
  public func sharedPlaces(after seq: Int) throws -> [String: [String]]? {
    var places: [String: [String]]?
    for record in try self.sharedRecords() where record.seq == seq {
      if case let .places(found) = record.change { places = found }
    }
    return places
  }
}

/// A recording's state writes, read once.
final class StateWritesMemo: @unchecked Sendable {
  private let lock = NSLock()
  private var value: [Int: [[JSONPatchOperation]]]?

  var loaded: [Int: [[JSONPatchOperation]]]? {
    get { self.lock.withLock { self.value } }
    set { self.lock.withLock { self.value = newValue } }
  }
}
