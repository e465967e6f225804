import ConcurrencyExtras

/// What an effect a reducer returned does, without running it: its shape, the places that made
/// its asynchronous work, and the cancellation identifiers it made and cancelled.
///
/// The description middleware sees of an effect, as ``ActionContext`` describes where an action
/// came from: a recorder writes it, and a replay compares the effects today's reducer returns
/// with the recorded ones.
public indirect enum EffectShape: Hashable, Sendable, CustomStringConvertible {
  /// Nothing.
  case none
  /// Feeds an action back at once (the action itself is in the log, as the next one).
  case send
  /// Asynchronous work, made at a site.
  case run(CallSite)
  /// Effects that run at the same time.
  case merge([EffectShape])
  /// Effects that run one after the other.
  case concatenate([EffectShape])
  /// An effect made cancellable with an identifier, cancelling its earlier ones when asked to.
  case cancellable(id: EffectID, cancelInFlight: Bool, EffectShape)
  /// Cancels the in-flight effects with an identifier.
  case cancel(id: EffectID)

  /// The identifiers the effect makes cancellable.
  public var cancellableIDs: [EffectID] {
    switch self {
    case .none, .send, .run, .cancel: []
    case .merge(let effects), .concatenate(let effects): effects.flatMap(\.cancellableIDs)
    case .cancellable(let id, _, let effect): [id] + effect.cancellableIDs
    }
  }

  /// The identifiers the effect cancels.
  public var cancelledIDs: [EffectID] {
    switch self {
    case .none, .send, .run: []
    case .merge(let effects), .concatenate(let effects): effects.flatMap(\.cancelledIDs)
    case .cancellable(let id, let cancelInFlight, let effect):
      (cancelInFlight ? [id] : []) + effect.cancelledIDs
    case .cancel(let id): [id]
    }
  }

  /// `none`, `send`, `run at Todos/Todos.swift:80`, `merge(…)`, `cancellable(id, …)`.
  public var description: String {
    switch self {
    case .none: "none"
    case .send: "send"
    case .run(let site): "run at \(site)"
    case .merge(let effects): "merge(\(effects.map(\.description).joined(separator: ", ")))"
    case .concatenate(let effects):
      "concatenate(\(effects.map(\.description).joined(separator: ", ")))"
    case .cancellable(let id, let cancelInFlight, let effect):
      "cancellable(\(id)\(cancelInFlight ? ", cancelInFlight" : ""), \(effect))"
    case .cancel(let id): "cancel(\(id))"
    }
  }
}

extension Effect {
  /// What the effect does, without running it. Merges and concatenations of one effect are that
  /// effect, and `none` inside them is left out, so that equal work has one shape.
  public var shape: EffectShape {
    switch self.structure {
    case .none: return .none
    case .send: return .send
    case .run(_, let run, _): return .run(run.site)
    case .merge(let effects): return Self.combined(effects, EffectShape.merge)
    case .concatenate(let effects): return Self.combined(effects, EffectShape.concatenate)
    case .cancellable(let id, let cancelInFlight, let effect):
      return .cancellable(id: EffectID(.id(id)), cancelInFlight: cancelInFlight, effect.shape)
    case .cancel(.id(let id)): return .cancel(id: EffectID(.id(id)))
    case .cancel(.navigation(let path)): return .cancel(id: EffectID(.navigation(path)))
    }
  }

  private static func combined(
    _ effects: [Self], _ make: ([EffectShape]) -> EffectShape
  ) -> EffectShape {
    let shapes = effects.map(\.shape).filter { $0 != .none }
    switch shapes.count {
    case 0: return .none
    case 1: return shapes[0]
    default: return make(shapes)
    }
  }
}

/// A cancellation identifier as an ``EffectShape`` holds it: `CancelID.search`, or
/// `CancelID.search in todos[…]` for a child feature's, the same in every run of the same
/// actions. Made without building its text, which is written only when asked for: a recorder
/// describes effects on the thread that sends actions.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
  enum Storage: Sendable {
    case id(_CancelID)
    case navigation(NavigationIDPath)
    case text(String)
  }

  let storage: Storage

  init(_ storage: Storage) {
    self.storage = storage
  }

  /// An identifier as written: what a recording holds.
  public init(_ text: String) {
    self.storage = .text(text)
  }

  public var description: String {
    switch self.storage {
    case .text(let text):
      return text
    case .navigation(let path):
      return "the features at \(path.shapeDescription)"
    case .id(let id):
      let path =
        id.navigationIDPath.path.isEmpty ? "" : " in \(id.navigationIDPath.shapeDescription)"
      guard let base = id.id?.base else { return "the feature" + path }
      return "\(type(of: base)).\(base)" + path
    }
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.description == rhs.description
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.description)
  }
}

extension NavigationIDPath {
  /// `todos[UUID(…)]`, `destination[addItem]`, `path[#0]`: the children on the way, each with
  /// its identity, in words that do not change from one run to the next.
  var shapeDescription: String {
    self.path.map { element in
      let name = element.name ?? element.keyPath.childName
      guard let identity = element.identity else { return name }
      let parts = identityParts(identity.base)
      return parts.isEmpty ? name : "\(name)[\(parts.joined(separator: ", "))]"
    }.joined(separator: ".")
  }
}

extension AnyKeyPath {
  /// The last component of a key path: a stored property's name, or a tracked property's, as
  /// its state lists it; `child` for another computed one, whose description holds an address.
  var childName: String {
    let description = "\(self)"
    guard !description.contains("<computed") else { return self.observedPropertyName ?? "child" }
    return description.split(separator: ".").last.map(String.init) ?? "child"
  }
}

/// An identity in words: a presented enum's case and what its value is identified by, without
/// the absent parts.
private func identityParts(_ value: Any) -> [String] {
  // NB: `as? AnyHashable` succeeds for every hashable value: only a boxed one is unwrapped.
  if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
    return identityParts(hashable.base)
  }
  if value is EphemeralIdentity { return [] }
  if let parts = value as? [AnyHashable] {
    return parts.flatMap { identityParts($0.base) }
  }
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    return mirror.children.first.map { identityParts($0.value) } ?? []
  }
  // NB: A URL relative to a base describes itself as both ("memo.m4a -- file:///tmp/"); what
  // a recording holds, and a replay reads back, is its absolute form.
  if let url = value as? URL { return [url.absoluteString] }
  return ["\(value)"]
}
