import StepChanges

// A step's update worked out from the values, as the writer writes it into an action record.

extension JSONPatchOperation {
  /// The operations that turn `old` into `new`, worked out from the values by the code the
  /// `@ObservableState` macro generates (``StepChanges/_StepChanging``), visiting only what
  /// differs: the operations a comparison of their JSON makes. `nil` where the values cannot
  /// say: a type without that code, a shared value, a value that does not encode.
  public static func changes<State>(
    from old: State, to new: State, codec: any RecordCodec = CompactJSONCodec()
  ) -> [JSONPatchOperation]? {
    guard let new = new as? any _StepChanging else { return nil }
    var sink = PatchSink { value in
      // NB: The values most changes hold, as the codec writes them, without writing them.
      switch value {
      case let string as String: return .string(string)
      case let bool as Bool: return .bool(bool)
      case let int as Int: return .integer(Int64(int))
      default: return try JSONValue.parse(codec.encode(AnyEncodable(value: value)))
      }
    }
    // NB: The state's type opened once: its members are compared without casting it again.
    func compare<Changing: _StepChanging>(_ new: Changing) -> Bool {
      guard let old = old as? Changing else { return false }
      if !new._isIdentical(to: old) { new._appendStepChanges(from: old, at: [], into: &sink) }
      return true
    }
    guard compare(new) else { return nil }
    return sink.failure == nil ? sink.operations : nil
  }
}

/// Collects a state's changes as JSON Patch operations, each value encoded as the record codec
/// writes it.
struct PatchSink: StepChangeSink {
  let encode: (any Encodable) throws -> JSONValue
  var operations: [JSONPatchOperation] = []
  var failure: (any Error)?

  init(encode: @escaping (any Encodable) throws -> JSONValue) {
    self.encode = encode
  }

  mutating func add(_ path: [String], _ value: any Encodable) {
    self.operation(.add, path, value)
  }

  mutating func remove(_ path: [String]) {
    self.operations.append(JSONPatchOperation(.remove, path))
  }

  mutating func replace(_ path: [String], _ value: any Encodable) {
    self.operation(.replace, path, value)
  }

  mutating func cannotCompare(_ path: [String]) {
    struct SharedByReference: Error {}
    self.failure = SharedByReference()
  }

  mutating func compare(_ path: [String], _ old: any Encodable, _ new: any Encodable) {
    do {
      for var operation in try self.encode(old).changes(to: try self.encode(new)) {
        operation.path = path + operation.path
        operation.from = operation.from.map { path + $0 }
        self.operations.append(operation)
      }
    } catch {
      self.failure = error
    }
  }

  private mutating func operation(
    _ kind: JSONPatchOperation.Kind, _ path: [String], _ value: any Encodable
  ) {
    do {
      self.operations.append(JSONPatchOperation(kind, path, try self.encode(value)))
    } catch {
      self.failure = error
    }
  }
}
