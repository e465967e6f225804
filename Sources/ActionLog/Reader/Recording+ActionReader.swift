import Foundation
import StepChanges

extension Recording {
  /// Decodes actions of `type` one after another, each as ``action(_:as:)`` decodes it, with
  /// what is found out about the type found out once: a replay going through many actions.
  ///
  /// An action type with generated code (``StepChanges/_JSONDecodable``) is read by that code
  /// called directly, and its record parsed once, its depth checked as it is parsed. Anything
  /// that way does not read (a migrated recording, another codec, a value generated code leaves
  /// to `Codable`, any error) is decoded by ``action(_:as:)``, which says what is wrong.
  public func actionReader<Action: Decodable>(
    as type: Action.Type = Action.self
  ) -> (Int) throws -> RecordedAction<Action> {
    guard self.codec is CompactJSONCodec, self.migrationSteps.isEmpty,
      _JSONGeneratedDecoding.isEnabled,
      let generated = Action.self as? any _JSONDecodable.Type
    else {
      return { [self] seq in try self.action(seq, as: Action.self) }
    }
    func reader<Generated: _JSONDecodable>(
      _: Generated.Type
    ) -> (Int) throws -> RecordedAction<Action> {
      // NB: `Generated` is `Action` opened: a value of one is a value of the other.
      precondition(Generated.self == Action.self)
      return { [self] seq in
        guard let recorded = try self.generatedAction(seq, as: Generated.self) else {
          return try self.action(seq, as: Action.self)
        }
        return unsafeBitCast(recorded, to: RecordedAction<Action>.self)
      }
    }
    return reader(generated)
  }

  /// Actions `seqs` of `type`, in order, each decoded as ``action(_:as:)`` decodes it, or the
  /// error it throws: as ``actionReader(as:)`` reads them, with what is looked up about the type
  /// looked up once for the whole run rather than for each action.
  public func actions<Action: Decodable>(
    _ seqs: ClosedRange<Int>, as type: Action.Type = Action.self
  ) -> [Result<RecordedAction<Action>, any Error>] {
    guard self.codec is CompactJSONCodec, self.migrationSteps.isEmpty,
      _JSONGeneratedDecoding.isEnabled,
      let generated = Action.self as? any _JSONDecodable.Type
    else {
      return seqs.map { seq in Result { try self.action(seq, as: Action.self) } }
    }
    func read<Generated: _JSONDecodable>(
      _: Generated.Type
    ) -> [Result<RecordedAction<Action>, any Error>] {
      // NB: `Generated` is `Action` opened: a value of one is a value of the other.
      precondition(Generated.self == Action.self)
      var results: [Result<RecordedAction<Action>, any Error>] = []
      results.reserveCapacity(seqs.count)
      self.storage.withUnsafeBytes { bytes in
        for seq in seqs {
          do {
            if let recorded = try self.generatedAction(seq, as: Generated.self, in: bytes) {
              results.append(.success(unsafeBitCast(recorded, to: RecordedAction<Action>.self)))
            } else {
              results.append(.success(try self.action(seq, as: Action.self)))
            }
          } catch {
            results.append(.failure(error))
          }
        }
      }
      return results
    }
    return read(generated)
  }

  /// Action `seq` read by its type's generated code alone: `nil` when that does not read it.
  private func generatedAction<Action: _JSONDecodable>(
    _ seq: Int, as type: Action.Type
  ) throws -> RecordedAction<Action>? {
    try self.storage.withUnsafeBytes { try self.generatedAction(seq, as: type, in: $0) }
  }

  /// ``generatedAction(_:as:)`` in the recording's `bytes`.
  @inline(__always)
  private func generatedAction<Action: _JSONDecodable>(
    _ seq: Int, as type: Action.Type, in bytes: UnsafeRawBufferPointer
  ) throws -> RecordedAction<Action>? {
    let line = try self.actionLine(seq)
    let payload = UnsafeRawBufferPointer(
      rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)])
    guard let tape = try? JSONTape(payload, maximumDepth: self.limits.maximumJSONDepth)
    else { return nil }
    let document = TapeDocument(tokens: tape.tokens, bytes: payload)
    let record = document.tokens.withUnsafeBufferPointer { tokens in
      let reader = _JSONReader(tokens: tokens, bytes: payload, source: document)
      return try? ActionRecord<Action>(_json: reader, at: 0) {
        try reader.member("value", of: 0, as: Action.self)
      }
    }
    guard let record else { return nil }
    return try self.recordedAction(seq, record, at: line)
  }
}
