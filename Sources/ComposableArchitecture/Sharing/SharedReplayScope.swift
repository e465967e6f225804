import Foundation

/// The shared values of a replay: storage of its own, so that a replay neither reads nor writes
/// the user's files or defaults, and the places of a decoded state that share one value.
///
/// In a scope (``run(_:)``), a key (`@Shared(.fileStorage(url))`) reaches the scope's value of
/// that name rather than its storage, and a decoded state's shared values join the values the
/// scope's holders say they share (``decode(holders:_:)``). A recording's changes from outside
/// reach the values through ``receive(name:json:onlyIfAbsent:)``.
public final class _SharedReplayScope: @unchecked Sendable {
  // NB: Unchecked: everything below is only reached under `lock`.
  private let lock = NSRecursiveLock()
  private var boxes: [String: any _AnySharedBox] = [:]
  private var names: [ObjectIdentifier: String] = [:]
  private var pending: [String: Data] = [:]
  private var decoding: [String: String] = [:]
  /// The names whose value the state being decoded has set.
  private var decoded: Set<String> = []
  /// Whether what is decoded sets the values it joins: a state does, an action does not (it
  /// carries them as they were when it was sent, and the replay has them as they are).
  private var decodingSetsValues = true
  /// The parts of values the scope's states hold apart from their wholes, and their links.
  private var parts: [_SharedPart] = []
  private var links: [SharedSubscription] = []
  private var rebasing: [String: Any] = [:]

  @TaskLocal static var current: _SharedReplayScope?

  /// Whether a scope is installed on this task: shared values decoded now join it, so they must
  /// be decoded here, in order, not on another thread.
  public static var isInstalled: Bool { Self.current != nil }

  /// An empty scope.
  public init() {}

  /// Whether the scope holds no shared value: a state replayed in it shares nothing.
  public var isEmpty: Bool {
    self.lock.withLock { self.boxes.isEmpty && self.pending.isEmpty }
  }

  /// The names of the values the scope holds.
  public var valueNames: [String] {
    self.lock.withLock { self.boxes.keys.sorted() }
  }

  /// Runs `body` in this scope: keys reach the scope's values, and decoded shared values join
  /// them.
  public func run<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$current.withValue(self, operation: body)
  }

  /// Decodes a state in this scope: the shared values at the places `holders` lists under one
  /// name (JSON Pointers into the state) become one value, which a key of that name reaches.
  /// `prefix` is where the state sits in what `body` decodes (`/value` in a record).
  public func decode<R>(
    holders: [String: [String]], under prefix: String = "", _ body: () throws -> R
  ) rethrows -> R {
    try self.decode(holders: holders, under: prefix, setsValues: true, body)
  }

  /// Decodes an action in this scope: the shared values it carries at the places `holders`
  /// lists join the scope's values of those names, which keep their values.
  public func decodeAction<R>(
    holders: [String: [String]], under prefix: String = "", _ body: () throws -> R
  ) rethrows -> R {
    try self.decode(holders: holders, under: prefix, setsValues: false, body)
  }

  private func decode<R>(
    holders: [String: [String]], under prefix: String, setsValues: Bool, _ body: () throws -> R
  ) rethrows -> R {
    self.lock.withLock {
      self.decoding = [:]
      self.decoded = []
      self.decodingSetsValues = setsValues
      for (name, paths) in holders {
        for path in paths { self.decoding[prefix + path] = name }
      }
    }
    defer {
      self.lock.withLock {
        self.decoding = [:]
        self.decoded = []
        self.decodingSetsValues = true
      }
    }
    let result = try self.run(body)
    // NB: A part's whole may be a value the scope had before: an action carries the part only.
    let names = Set(holders.keys).union(self.lock.withLock { self.boxes.keys })
    self.link(_SharedPart.parts(among: names))
    return result
  }

  /// Links each of `parts` whose part and whole the scope holds.
  private func link(_ parts: [_SharedPart]) {
    guard !parts.isEmpty else { return }
    self.lock.withLock {
      for part in parts where !self.parts.contains(part) {
        guard let partBox = self.boxes[part.name], let wholeBox = self.boxes[part.whole]
        else { continue }
        self.parts.append(part)
        self.links += part.link(part: partBox, whole: wholeBox)
      }
    }
  }

  /// Sets the value named `name` from its JSON, as a change from outside (its holders and
  /// listeners see it). A name no value has yet keeps the JSON for the first key or holder of
  /// it. With `onlyIfAbsent`, a value the scope has is left as it is.
  ///
  /// - Returns: Whether the scope took the value.
  @discardableResult
  public func receive(name: String, json: Data, onlyIfAbsent: Bool) throws -> Bool {
    if let box = self.lock.withLock({ self.boxes[name] }) {
      guard !onlyIfAbsent else { return false }
      try box.receive(json: json)
      return true
    }
    return self.lock.withLock {
      if onlyIfAbsent, self.pending[name] != nil { return false }
      self.pending[name] = json
      return true
    }
  }

  /// A copy of `state` whose shared values are copies of its own, in a scope of its own: a
  /// state that later changes of this scope's values leave as it is.
  public func snapshot<State: Decodable>(_ state: State) throws -> (State, _SharedReplayScope) {
    guard let encodable = state as? any Encodable else {
      throw _SharedReplayError.notEncodable(type: "\(State.self)")
    }
    let (holders, json) = try _SharedHolders.of(encodable)
    let copy = _SharedReplayScope()
    var replaced: [ObjectIdentifier: any _AnySharedBox] = [:]
    self.lock.withLock {
      copy.pending = self.pending
      for (name, box) in self.boxes {
        let new = box.copy()
        replaced[ObjectIdentifier(box)] = new
        copy.boxes[name] = new
        copy.names[ObjectIdentifier(new)] = name
      }
    }
    for holder in holders where replaced[holder.id] == nil {
      replaced[holder.id] = holder.box.copy()
    }
    for holder in holders {
      copy.rebasing[holder.path] = (holder.access as! any _RebasableAccess).rebasedAccess(replaced)
    }
    defer { copy.rebasing = [:] }
    let decoded = try copy.run { try JSONDecoder().decode(State.self, from: json) }
    copy.link(self.lock.withLock { self.parts })
    return (decoded, copy)
  }

  /// The value a key named `name` reaches in this scope: the scope's, else one made from the
  /// JSON the scope keeps for it, else from `initialValue`.
  func box<Value>(named name: String, initialValue: () -> Value?) -> _SharedBox<Value> {
    self.lock.withLock {
      if let box = self.boxes[name] as? _SharedBox<Value> { return box }
      var value: Value?
      if let json = self.pending[name], let type = Value.self as? any Decodable.Type {
        value = (try? JSONDecoder().decode(type, from: json)) as? Value
      }
      guard let value = value ?? initialValue() else {
        preconditionFailure(
          "The shared key \(name) holds no value in this replay and none was given.")
      }
      let box = _SharedBox(value: value, keyDescription: name, recordedName: name)
      if self.boxes[name] == nil {
        self.pending[name] = nil
        self.boxes[name] = box
        self.names[ObjectIdentifier(box)] = name
      }
      return box
    }
  }

  /// The access a decoded shared value at `path` joins, or `nil` when the place shares nothing
  /// the scope knows of.
  func join<Value>(
    at path: String, decode: () throws -> Value
  ) throws -> (any _SharedAccess<Value>)? {
    try self.lock.withLock {
      if let access = self.rebasing[path] as? any _SharedAccess<Value> { return access }
      guard let name = self.decoding[path] else { return nil }
      if let box = self.boxes[name] as? _SharedBox<Value> {
        if self.decodingSetsValues, self.decoded.insert(name).inserted {
          // NB: The value decoded is the recorded one. A box made for the name before it (by a
          // property's initial value, `@Shared(.inMemory("count")) var count = 0`, which runs
          // as the state is decoded) holds that initial value: it takes the recorded one.
          box.reset(try decode())
        }
        return _RootAccess(box: box, keyPath: \Value.self)
      }
      let box = _SharedBox(value: try decode(), keyDescription: name, recordedName: name)
      self.boxes[name] = box
      self.names[ObjectIdentifier(box)] = name
      self.pending[name] = nil
      self.decoded.insert(name)
      return _RootAccess(box: box, keyPath: \Value.self)
    }
  }
}

/// An access that can move to copies of its boxes, whatever its value type.
protocol _RebasableAccess {
  func rebasedAccess(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> Any
}

extension _RootAccess: _RebasableAccess {
  func rebasedAccess(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> Any { self.rebased(boxes) }
}
extension _MemberAccess: _RebasableAccess {
  func rebasedAccess(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> Any { self.rebased(boxes) }
}
extension _UnwrappedAccess: _RebasableAccess {
  func rebasedAccess(_ boxes: [ObjectIdentifier: any _AnySharedBox]) -> Any { self.rebased(boxes) }
}

/// Why a replay could not apply a recorded shared value.
enum _SharedReplayError: Error, CustomStringConvertible {
  case notDecodable(name: String, type: String)
  case notEncodable(type: String)
  case noPart(pointer: [String])

  var description: String {
    switch self {
    case let .notDecodable(name, type):
      "The shared value \(name) is a \(type), which is not Decodable: a replay cannot set it."
    case let .notEncodable(type):
      "\(type) is not Encodable: a replay cannot copy its shared values."
    case let .noPart(pointer):
      "A shared value has nothing at /\(pointer.joined(separator: "/")) to join a part to."
    }
  }
}
