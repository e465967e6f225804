/// Reads a decoding failure of a record as a change of the feature's types: a field the types
/// gained (missing from the record), a case they renamed (unknown to them), a value whose type
/// changed; and writes the migration step that would read the record again.
struct TypeChangeDiagnosis {
  /// What the failure says changed, in words.
  let change: String
  /// The migration step that would fix it, as Swift.
  let step: String

  /// A diagnosis of `error`, raised decoding a record whose value (`field` of the record) is of
  /// type `valueType`; `record` is the record's JSON. `nil` for a failure that is not a change
  /// of the types.
  init?(
    _ error: DecodingError, field: String, valueType: String, part: MigrationStep.Part,
    record: JSONValue?
  ) {
    let codingPath = error.codingPath
    guard codingPath.first?.stringValue == field else { return nil }
    let inner = Array(codingPath.dropFirst())
    let container = Self.pathText(inner)
    switch error {
    case let .keyNotFound(key, _):
      let name = key.stringValue
      self.change = """
        \(valueType) has a field "\(name)"\(container.isEmpty ? "" : " in \(container)") that \
        the recording lacks
        """
      let base = ["\(name.debugDescription)", "default: …"]
      self.step = ".addField(\(Self.arguments(base, path: container, part: part, kind: .field)))"
    case let .typeMismatch(type, context)
    where context.debugDescription.hasPrefix("Invalid number of keys found"):
      let found = record.flatMap { Self.value(at: codingPath, in: $0) }
      guard case .object(let members)? = found, members.count == 1, let old = members.keys.first
      else {
        self.change = """
          \(String(reflecting: type)) expects one of its cases, and the record has \
          \(Self.kind(of: found))
          """
        self.step = Self.custom(path: container, part: part)
        return
      }
      let cases = EnumCaseNames.of(type)
      self.change =
        "\"\(old)\" is not a case of \(String(reflecting: type))"
        + (cases.isEmpty ? "" : " (its cases: \(cases.joined(separator: ", ")))")
      let base = [old.debugDescription, "to: \"…\""]
      let arguments = Self.arguments(base, path: container, part: part, kind: .enumCase)
      self.step = ".renameCase(\(arguments))"
    case let .typeMismatch(type, _), let .valueNotFound(type, _):
      let found = record.flatMap { Self.value(at: codingPath, in: $0) }
      let parent = Self.pathText(inner.dropLast())
      self.change = """
        \(valueType) expects \(String(reflecting: type)) there, and the record has \
        \(Self.kind(of: found))
        """
      self.step = Self.custom(path: parent, part: part)
    default:
      return nil
    }
  }

  enum StepKind { case field, enumCase }

  /// A custom step over the value at `path`.
  private static func custom(path: String, part: MigrationStep.Part) -> String {
    let location = path.isEmpty ? "" : "in: \(path.debugDescription), "
    return ".custom(\"…\", \(location)of: .\(part.rawValue)) { value in … }"
  }

  /// A built-in step's arguments, leaving out `in:` and `of:` where they are the defaults.
  private static func arguments(
    _ base: [String], path: String, part: MigrationStep.Part, kind: StepKind
  ) -> String {
    var arguments = base
    let defaultPath = kind == .enumCase ? "**" : ""
    let defaultPart: MigrationStep.Part = kind == .enumCase ? .actions : .states
    // NB: `**` names the value itself too: a case at the top needs no path.
    if path != defaultPath, !(kind == .enumCase && path.isEmpty) {
      arguments.append("in: \(path.debugDescription)")
    }
    if part != defaultPart { arguments.append("of: .\(part.rawValue)") }
    return arguments.joined(separator: ", ")
  }

  /// A coding path in the migration path language, every index a wildcard: a change of the
  /// types holds for every element.
  static func pathText(_ path: some Collection<any CodingKey>) -> String {
    var text = ""
    for key in path {
      if key.intValue != nil {
        text += "[*]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  /// The JSON at a coding path.
  static func value(at path: [any CodingKey], in root: JSONValue) -> JSONValue? {
    var value: JSONValue? = root
    for key in path {
      switch value {
      case .object(let members)?: value = members[key.stringValue]
      case .array(let elements)?:
        guard let index = key.intValue, elements.indices.contains(index) else { return nil }
        value = elements[index]
      default: return nil
      }
    }
    return value
  }

  /// What a JSON value is, in words.
  static func kind(of value: JSONValue?) -> String {
    switch value {
    case nil: "nothing there"
    case .null?: "null"
    case .bool(let value)?: "\(value)"
    case .integer(let value)?: "the number \(value)"
    case .number(let value)?: "the number \(value)"
    case .string(let value)?: "the string \(JSONString.quoted(String(value.prefix(40))))"
    case .array(let values)?: "an array of \(values.count)"
    case .object(let members)?:
      members.isEmpty
        ? "an empty object"
        : "an object with "
          + members.keys.sorted().prefix(4).map { "\"\($0)\"" }.joined(separator: ", ")
    }
  }
}
