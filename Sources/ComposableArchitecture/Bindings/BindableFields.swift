import StepChanges

/// A state whose fields bindings name in a recording: ``ObservableState()`` writes the
/// conformance, listing the stored properties.
public protocol _BindableFields {
  /// The fields, each with its name and key path.
  static var _$bindableFields: [_BindableField<Self>] { get }
}

/// A field of state that a binding can write: its name, and how its value is recorded.
public struct _BindableField<Root>: @unchecked Sendable {
  // NB: Unchecked: the key path is immutable and only read.
  /// The stored property's name.
  public let name: String
  let keyPath: PartialKeyPath<Root>
  let encode:
    (
      @Sendable (BindingAction<Root>, inout KeyedEncodingContainer<BindingCodingKeys>) throws ->
        Void
    )?
  let decode: (@Sendable (KeyedDecodingContainer<BindingCodingKeys>) throws -> BindingAction<Root>)?

  /// A field whose values a binding cannot compare (not `Equatable`), so that a recording
  /// cannot hold its bindings.
  public init<Value>(_ name: String, _ keyPath: WritableKeyPath<Root, Value>) {
    self.name = name
    self.keyPath = keyPath
    self.encode = nil
    self.decode = nil
  }

  /// A field whose values are not `Codable` (an enum whose raw value is a `LocalizedStringKey`,
  /// a model declared without `Codable`): a recording holds its bindings as reflection writes
  /// the value, and reads them back the same way.
  public init<Value: Equatable & SendableMetatype>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) {
    self.name = name
    self.keyPath = keyPath
    nonisolated(unsafe) let keyPath = keyPath
    self.encode = { action, container in
      let value: Value = try Self.value(of: action, named: name, at: container.codingPath)
      try container.encode(_ReflectedValue(value), forKey: .value)
    }
    self.decode = { container in
      .recorded(
        keyPath,
        try _RecordCoding.reflectedValue(Value.self, from: container.superDecoder(forKey: .value))
      )
    }
  }

  /// A field whose values a recording holds.
  // NB: Not `Sendable`: Swift 6 picks this initializer for a field of a type that is `Codable`
  // and `Equatable` and reports a missing `Sendable` only afterwards, as an error. Every type
  // that is not isolated to an actor is `SendableMetatype`, public or not.
  public init<Value: Codable & Equatable & SendableMetatype>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value>
  ) {
    self.name = name
    self.keyPath = keyPath
    nonisolated(unsafe) let keyPath = keyPath
    self.encode = { action, container in
      let value: Value = try Self.value(of: action, named: name, at: container.codingPath)
      try container.encode(value, forKey: .value)
    }
    self.decode = { container in
      .recorded(keyPath, try container.decode(Value.self, forKey: .value))
    }
  }
}

extension _BindableField {
  /// The value `action` writes, of the field's type.
  static func value<Value>(
    of action: BindingAction<Root>, named name: String, at codingPath: [any CodingKey]
  ) throws -> Value {
    guard let value = action.value as? Value else {
      throw EncodingError.invalidValue(
        action.value,
        EncodingError.Context(
          codingPath: codingPath,
          debugDescription:
            "A binding of '\(name)' holds a \(type(of: action.value)), not a \(Value.self)."
        ))
    }
    return value
  }
}

/// The keys of a recorded binding.
public enum BindingCodingKeys: String, CodingKey {
  case name
  case value
}

/// The field of `Root` at `keyPath`, when `Root` lists its fields.
func _bindableField<Root>(of keyPath: PartialKeyPath<Root>) -> _BindableField<Root>? {
  guard let fields = Root.self as? any _BindableFields.Type else { return nil }
  func open<T: _BindableFields>(_: T.Type) -> [_BindableField<Root>] {
    (T._$bindableFields as? [_BindableField<Root>]) ?? []
  }
  return open(fields).first { $0.keyPath == keyPath }
}

extension BindingAction: Encodable where Root: _BindableFields {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: BindingCodingKeys.self)
    guard let field = Root._$bindableFields.first(where: { $0.keyPath == self.keyPath }) else {
      throw EncodingError.invalidValue(
        self.value,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: """
            A binding writes a field of \(Root.self) that is not one of its stored properties \
            (\(Root._$bindableFields.map(\.name).joined(separator: ", "))): only those are \
            recorded.
            """
        ))
    }
    guard let encode = field.encode else {
      throw EncodingError.invalidValue(
        self.value,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: """
            The field '\(field.name)' of \(Root.self) is not Equatable: a recording cannot hold \
            its bindings, which are compared by value.
            """
        ))
    }
    try container.encode(field.name, forKey: .name)
    try encode(self, &container)
  }
}

extension BindingAction: Decodable where Root: _BindableFields {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: BindingCodingKeys.self)
    let name = try container.decode(String.self, forKey: .name)
    let fields = Root._$bindableFields
    guard let field = fields.first(where: { $0.name == name }) else {
      throw DecodingError.dataCorruptedError(
        forKey: .name, in: container,
        debugDescription: """
          \(Root.self) has no field '\(name)' (it has \
          \(fields.map(\.name).joined(separator: ", "))): the recording was made with other \
          types. A migration that renames the field renames its bindings too.
          """)
    }
    guard let decode = field.decode else {
      throw DecodingError.dataCorruptedError(
        forKey: .name, in: container,
        debugDescription:
          "The field '\(name)' of \(Root.self) is not Equatable: its bindings cannot be read.")
    }
    self = try decode(container)
  }
}
