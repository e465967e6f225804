import ActionLog

/// Where one child feature's state sits in an app's recorded state, and which of the app's
/// actions reach it: a state path (`path[id: 0].detail`, `destination.addItem`, `todos[id: …]`)
/// read as TCA scopes a child, on recorded JSON alone.
///
/// A name is a stored property (a `Scope`, or `@Presents var destination`, whose value is what
/// is presented or `null`) or an enum case (a destination's or a stack's `Path`, whose value is
/// `{"case": {"_0": state}}`); an identity picks a stack's screen (`{"id": 0, "element": …}`) or
/// an identified array's element. The action that reaches the child is found along the same
/// path, as the architecture encodes it: a case named as the property (`{"name": {"_0": …}}`),
/// through a presentation (`{"presented": {"_0": …}}`) or an element (`{"element": {"id": …,
/// "action": …}}`).
struct ChildRoute: Sendable {
  /// The path, with indices turned into the identities of the elements they named where the
  /// child started.
  private(set) var components: [StatePath.Component]

  init(_ path: StatePath) {
    self.components = path.components
  }

  /// The path as given, or with identities in place of indices.
  var path: StatePath { StatePath(components: self.components) }

  /// What an app action does to the child.
  enum Routed: Equatable {
    /// It reaches the child as `action`; `pointer` is where that sits in the app's action.
    case action(JSONValue, pointer: [String])
    /// It dismisses the child's presentation.
    case dismissed
    /// It pops the stack the child is on from the screen `id`.
    case popped(id: String)
    /// It does not reach the child.
    case elsewhere
  }

  /// The child's state in an app's state, and its JSON Pointer tokens; `nil` when the child is
  /// not there (not presented, popped, another case, no such element).
  func locate(in state: JSONValue) -> (value: JSONValue, pointer: [String])? {
    var value = state
    var pointer: [String] = []
    for component in self.components {
      switch component {
      case let .name(name):
        guard let next = Self.member(name, of: value, pointer) else { return nil }
        (value, pointer) = next
      case let .id(id):
        guard case let .array(elements) = value,
          let index = elements.firstIndex(where: {
            Self.identity(of: $0).map { Self.matches($0, id) } ?? false
          })
        else { return nil }
        (value, pointer) = Self.screen(elements[index], pointer + [String(index)])
      case let .index(index):
        guard case let .array(elements) = value, index < elements.count else { return nil }
        (value, pointer) = Self.screen(elements[index], pointer + [String(index)])
      }
      if value == .null { return nil }
    }
    return (value, pointer)
  }

  /// Replaces each index by the identity of the element it names in `state`, where it has one:
  /// the child is that element for as long as it exists, wherever it moves.
  mutating func fixIdentities(in state: JSONValue) {
    var value = state
    var fixed: [StatePath.Component] = []
    for component in self.components {
      switch component {
      case let .name(name):
        guard let next = Self.member(name, of: value, []) else { return }
        value = next.value
        fixed.append(component)
      case let .id(id):
        guard case let .array(elements) = value,
          let element = elements.first(where: {
            Self.identity(of: $0).map { Self.matches($0, id) } ?? false
          })
        else { return }
        value = Self.screen(element, []).value
        fixed.append(component)
      case let .index(index):
        guard case let .array(elements) = value, index < elements.count else { return }
        fixed.append(Self.identity(of: elements[index]).map(StatePath.Component.id) ?? component)
        value = Self.screen(elements[index], []).value
      }
    }
    self.components = fixed
  }

  /// Whether an action recorded as `bytes` may reach the child: it starts with the route's
  /// first case, as a recorder writes it (`{"path":`). What does not is elsewhere.
  func mayReach(_ bytes: [UInt8]) -> Bool {
    guard case let .name(name)? = self.components.first else { return true }
    let prefix = Array("{\"\(name)\":".utf8)
    return bytes.starts(with: prefix)
  }

  /// What `action`, an app's action, does to the child.
  func route(_ action: JSONValue) -> Routed {
    var value = action
    var pointer: [String] = []
    for component in self.components {
      switch component {
      case let .name(name):
        guard case let .object(members) = value, members.count == 1, let inner = members[name]
        else { return .elsewhere }
        (value, pointer) = (inner, pointer + [name])
        if let payload = Self.soleValue(of: value) {
          (value, pointer) = (payload, pointer + ["_0"])
        }
        if case let .object(wrapper) = value, wrapper.count == 1 {
          if let presented = wrapper["presented"], let inner = Self.soleValue(of: presented) {
            (value, pointer) = (inner, pointer + ["presented", "_0"])
          } else if wrapper["dismiss"] != nil {
            return .dismissed
          }
        }
      case let .id(id):
        guard case let .object(members) = value, members.count == 1 else { return .elsewhere }
        if case let .object(element)? = members["element"], let identity = element["id"],
          let inner = element["action"]
        {
          guard Self.matches(Self.text(of: identity), id) else { return .elsewhere }
          (value, pointer) = (inner, pointer + ["element", "action"])
        } else if case let .object(pop)? = members["popFrom"], let identity = pop["id"] {
          return .popped(id: Self.text(of: identity))
        } else {
          return .elsewhere
        }
      case .index:
        // NB: Fixed to an identity where the child starts; an element without one is not
        // reached by its index.
        return .elsewhere
      }
    }
    return .action(value, pointer: pointer)
  }

  /// A property, or the value of an enum case, of a state's JSON.
  private static func member(
    _ name: String, of value: JSONValue, _ pointer: [String]
  ) -> (value: JSONValue, pointer: [String])? {
    guard case let .object(members) = value else { return nil }
    if let member = members[name] {
      // An enum case with one value: `{"detail": {"_0": …}}`.
      if members.count == 1, let payload = Self.soleValue(of: member) {
        return (payload, pointer + [name, "_0"])
      }
      return (member, pointer + [name])
    }
    return nil
  }

  /// A stack's screen is its `element`; anything else is itself.
  private static func screen(
    _ value: JSONValue, _ pointer: [String]
  ) -> (value: JSONValue, pointer: [String]) {
    if case let .object(members) = value, members.count == 2, members["id"] != nil,
      let element = members["element"]
    {
      return (element, pointer + ["element"])
    }
    return (value, pointer)
  }

  /// The `_0` of `{"_0": …}`.
  private static func soleValue(of value: JSONValue) -> JSONValue? {
    guard case let .object(members) = value, members.count == 1 else { return nil }
    return members["_0"]
  }

  /// An element's identity: its `id`, or, for one whose `id` is computed from a property (a
  /// row's `song.id`), the `id` of the one property that has one.
  private static func identity(of element: JSONValue) -> String? {
    guard case let .object(members) = element else { return nil }
    if let id = members["id"] { return Self.text(of: id) }
    let nested = members.values.compactMap { member -> JSONValue? in
      guard case let .object(inner) = member else { return nil }
      return inner["id"]
    }
    return nested.count == 1 ? Self.text(of: nested[0]) : nil
  }

  private static func text(of identity: JSONValue) -> String {
    if case let .string(text) = identity { return text }
    return identity.text
  }

  /// `0` and `#0` name a screen; a UUID in any case.
  private static func matches(_ identity: String, _ wanted: String) -> Bool {
    // NB: Identities fixed from the state match exactly: what a walk over every step compares.
    if identity == wanted { return true }
    let wanted = wanted.hasPrefix("#") ? wanted.dropFirst() : wanted[...]
    // NB: ASCII letters in either case (a UUID typed in lowercase); anything else as it is.
    return identity.utf8.elementsEqual(wanted.utf8) { left, right in
      left == right || left | 0x20 == right | 0x20 && (left | 0x20) >= 0x61 && (left | 0x20) <= 0x7A
    }
  }
}
