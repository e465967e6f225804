import Foundation

/// One change of a feature's types, made to a recording's JSON before it is decoded: what turns a
/// value recorded with the old types into one today's types decode.
///
/// Paths are the language redactions use (`todos[*]`, `**`, `settings`), naming the objects the
/// step changes; the empty path is the state, action or captured values itself. An enum case is
/// a field named after the case, so renaming a case renames that field wherever the path leads.
///
/// ```swift
/// Migration(from: 1,
///   .addField("isLoading", default: false),
///   .renameCase("incrementTapped", to: "incrementButtonTapped"),
///   .removeField("legacyID", in: "todos[*]")
/// )
/// ```
public struct MigrationStep: Sendable, CustomStringConvertible {
  /// Which values of a recording a step changes.
  public enum Part: String, Sendable {
    /// The initial state and every checkpoint.
    case states
    /// Every action.
    case actions
    /// The dependency values captured with each action, by dependency name.
    case dependencies
  }

  enum Operation: Sendable {
    case rename(String, to: String)
    case add(String, JSONValue)
    case remove(String)
    case custom(@Sendable (inout JSONValue) throws -> Void)
  }

  /// The values it changes.
  public let part: Part
  let path: MigrationPath
  let operation: Operation
  /// The step as Swift, for messages and a migrated recording's header.
  public let description: String
  /// Why the step cannot be applied, found when it was made (a path that does not parse, a
  /// default that does not encode).
  let problem: String?

  init(
    part: Part, path: String, operation: Operation, description: String, problem: String? = nil
  ) {
    self.part = part
    self.description = description
    switch MigrationPath.parse(path) {
    case .success(let parsed):
      self.path = parsed
      self.problem = problem
    case .failure(let error):
      self.path = MigrationPath(pattern: nil, text: path)
      self.problem = problem ?? "\(error)"
    }
    self.operation = operation
  }

  /// Renames an enum case: the field named `old` becomes `new` in the objects `path` names.
  ///
  /// - Parameters:
  ///   - path: Where the enum's values are; by default anywhere (`**`).
  ///   - part: Actions by default; `.states` for an enum in the state.
  public static func renameCase(
    _ old: String, to new: String, in path: String = "**", of part: Part = .actions
  ) -> Self {
    Self(
      part: part, path: path, operation: .rename(old, to: new),
      description: Self.swift(
        "renameCase", [old.debugDescription, "to: \(new.debugDescription)"],
        path: path, defaultPath: "**", part: part, defaultPart: .actions)
    )
  }

  /// Renames a field of the objects `path` names.
  public static func renameField(
    _ old: String, to new: String, in path: String = "", of part: Part = .states
  ) -> Self {
    Self(
      part: part, path: path, operation: .rename(old, to: new),
      description: Self.swift(
        "renameField", [old.debugDescription, "to: \(new.debugDescription)"],
        path: path, defaultPath: "", part: part, defaultPart: .states)
    )
  }

  /// Adds a field, with a value, to the objects `path` names that lack it: what a field the
  /// types gained since the recording holds.
  ///
  /// - Parameter value: Encoded as the recorder would encode it (`false`, `0`, `""`, `[]`).
  public static func addField(
    _ name: String, default value: some Encodable & Sendable, in path: String = "",
    of part: Part = .states
  ) -> Self {
    var problem: String?
    var json = JSONValue.null
    do {
      let data = try JSONEncoder().encode(value)
      json = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      problem = "its default value does not encode as JSON: \(error)"
    }
    return Self(
      part: part, path: path, operation: .add(name, json),
      description: Self.swift(
        "addField", [name.debugDescription, "default: \(json.text)"],
        path: path, defaultPath: "", part: part, defaultPart: .states),
      problem: problem
    )
  }

  /// Removes a field from the objects `path` names: what a field the types lost since the
  /// recording holds.
  public static func removeField(
    _ name: String, in path: String = "", of part: Part = .states
  ) -> Self {
    Self(
      part: part, path: path, operation: .remove(name),
      description: Self.swift(
        "removeField", [name.debugDescription],
        path: path, defaultPath: "", part: part, defaultPart: .states)
    )
  }

  /// Changes each value `path` names with your own code: a case split in two, a payload whose
  /// type changed. `name` says what it does, in messages and in a migrated recording's header.
  public static func custom(
    _ name: String, in path: String = "", of part: Part,
    _ transform: @escaping @Sendable (inout JSONValue) throws -> Void
  ) -> Self {
    Self(
      part: part, path: path, operation: .custom(transform),
      description: ".custom(\(name.debugDescription)"
        + (path.isEmpty ? "" : ", in: \(path.debugDescription)") + ", of: .\(part.rawValue))"
    )
  }

  private static func swift(
    _ name: String, _ arguments: [String], path: String, defaultPath: String, part: Part,
    defaultPart: Part
  ) -> String {
    var arguments = arguments
    if path != defaultPath { arguments.append("in: \(path.debugDescription)") }
    if part != defaultPart { arguments.append("of: .\(part.rawValue)") }
    return ".\(name)(\(arguments.joined(separator: ", ")))"
  }

  /// The key the step looks for, quoted as a record writes it, when the step can change
  /// nothing in a record that does not hold it: a rename's old name, a removed member's.
  var needle: [UInt8]? {
    guard self.problem == nil else { return nil }
    switch self.operation {
    case .rename(let old, _), .remove(let old):
      var bytes: [UInt8] = []
      JSONString.write(old, into: &bytes)
      return bytes
    case .add, .custom:
      return nil
    }
  }

  /// Applies the step to one value of its part (a state, an action or captured values): how a
  /// test checks a migration on the JSON it changes.
  public func apply(to value: inout JSONValue) throws {
    if let problem { throw MigrationError.invalidStep(self.description, problem: problem) }
    var steps: [JSONPathStep] = []
    try self.visit(&value, at: &steps)
  }

  private func visit(_ value: inout JSONValue, at steps: inout [JSONPathStep]) throws {
    if self.path.matches(steps) {
      try self.change(&value)
    }
    guard self.path.mayMatchBelow(steps) else { return }
    switch value {
    case .object(var members):
      value = .null  // NB: Keeps `members` uniquely referenced while it changes.
      for key in members.keys.sorted() {
        steps.append(.key(key))
        try self.visit(&members[key]!, at: &steps)
        steps.removeLast()
      }
      value = .object(members)
    case .array(var elements):
      value = .null
      for index in elements.indices {
        steps.append(.index(index))
        try self.visit(&elements[index], at: &steps)
        steps.removeLast()
      }
      value = .array(elements)
    default:
      break
    }
  }

  private func change(_ value: inout JSONValue) throws {
    switch self.operation {
    case .custom(let transform):
      try transform(&value)
    case .rename(let old, let new):
      guard case .object(var members) = value, let moved = members.removeValue(forKey: old)
      else { return }
      members[new] = moved
      value = .object(members)
    case .add(let name, let initial):
      guard case .object(var members) = value, members[name] == nil else { return }
      members[name] = initial
      value = .object(members)
    case .remove(let name):
      guard case .object(var members) = value, members.removeValue(forKey: name) != nil
      else { return }
      value = .object(members)
    }
  }
}

/// Where a step applies: a redaction-style path, or the empty path for the value itself.
struct MigrationPath: Sendable {
  /// `nil` for the empty path.
  let pattern: RedactionPath?
  let text: String

  static func parse(_ text: String) -> Result<MigrationPath, RedactionPathError> {
    guard !text.isEmpty, text != "." else {
      return .success(MigrationPath(pattern: nil, text: text))
    }
    return Result { try RedactionPath(text) }
      .mapError { $0 as! RedactionPathError }
      .map { MigrationPath(pattern: $0, text: text) }
  }

  func matches(_ steps: [JSONPathStep]) -> Bool {
    guard let pattern else { return steps.isEmpty }
    if pattern.isAnyDepth { return true }
    return pattern.matchesExactly(steps)
  }

  /// Whether a path below `steps` may match: the walk stops where none can.
  func mayMatchBelow(_ steps: [JSONPathStep]) -> Bool {
    guard let pattern else { return false }
    if pattern.isAnyDepth { return true }
    return pattern.mayMatchBelow(steps)
  }
}

// MARK: - Redaction paths through migrations

extension Redactions {
  /// These redactions, named as the migrated values name them: a field or case a step renames is
  /// renamed in the paths that go through it, and a path to a field a step removes is dropped.
  /// A recording's redaction paths name its own types; read at a later version, or written by
  /// `replay migrate`, they must name today's.
  public func migrated(by steps: [MigrationStep]) -> Redactions {
    func migrate(_ paths: [RedactionPath], _ part: MigrationStep.Part) -> [RedactionPath] {
      var result: [RedactionPath] = []
      for path in paths {
        var current: RedactionPath? = path
        for step in steps where step.part == part {
          current = current.flatMap(step.rewriting)
        }
        if let current, !result.contains(current) { result.append(current) }
      }
      return result
    }
    return Redactions(
      statePaths: migrate(self.state, .states), actionPaths: migrate(self.actions, .actions))
  }
}

extension MigrationStep {
  /// A redaction path as this step's change of the values leaves it: renamed where it goes
  /// through a field the step renames, `nil` where it leads into a field the step removes.
  func rewriting(_ redaction: RedactionPath) -> RedactionPath? {
    let name: String
    switch self.operation {
    case .rename(let old, _), .remove(let old): name = old
    case .add, .custom: return redaction
    }
    let components = redaction.components
    // Where the step's objects are, in the redaction path: right after a prefix equal to the
    // step's path, or anywhere for a step at any depth.
    let prefix = self.path.pattern?.components ?? []
    let anyDepth = self.path.pattern?.isAnyDepth ?? false
    var changed = components
    var touched = false
    for index in components.indices where components[index] == .key(name) {
      let before = Array(components[..<index])
      guard anyDepth || before == prefix else { continue }
      switch self.operation {
      case .rename(_, let new):
        changed[index] = .key(new)
        touched = true
      case .remove:
        return nil
      case .add, .custom:
        break
      }
    }
    guard touched else { return redaction }
    return RedactionPath(components: changed, description: RedactionPath.text(of: changed))
  }
}

extension RedactionPath {
  /// A path's text from its components: `todos[*].title`, `**.password`, `login.*`.
  static func text(of components: [Component]) -> String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): text += text.isEmpty ? key : ".\(key)"
      case .anyKey: text += text.isEmpty ? "*" : ".*"
      case .index(let index): text += "[\(index)]"
      case .anyIndex: text += "[*]"
      case .anyDepth: text += text.isEmpty ? "**" : ".**"
      }
    }
    return text
  }
}
