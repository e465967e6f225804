import ActionLog
import ComposableArchitecture
import Foundation

/// What a recorder keeps of the values its state shares: where they sit (at the start and at
/// each checkpoint, so that a replay decoding a state shares them again), their changes that
/// the recorded reducers did not make, and what a key held when a recorded reducer read it.
///
/// A value shared without a key is named `#1`, `#2`… in the order the recorder met it; a keyed
/// one by its key (``ComposableArchitecture/SharedChange/name``).
final class SharedValueRecording: @unchecked Sendable {
  // NB: Unchecked: everything below is only reached under `lock`.
  /// The moments the states handed to the writer encode against.
  let moments = _SharedMomentLine()
  private let lock = NSLock()
  private var names: [ObjectIdentifier: String] = [:]
  /// The values the recorded state was seen to hold, or its reducers to read from a key.
  private var known: Set<ObjectIdentifier> = []
  private var nextUnkeyed = 1
  /// Values shared without a key that the last state did not hold, until the next action.
  private var notHeld: Set<ObjectIdentifier> = []
  private var subscription: SharedSubscription?

  func keep(_ subscription: SharedSubscription) {
    self.lock.withLock { self.subscription = subscription }
  }

  func stop() {
    let subscription = self.lock.withLock {
      defer { self.subscription = nil }
      return self.subscription
    }
    subscription?.cancel()
  }

  /// The places of `state` that hold shared values, by name; `nil` when it holds none.
  ///
  /// A place holding a part of a value (`state.$settings.theme`) is listed under the value's
  /// name and where the part sits in it, as a JSON Pointer after `#`
  /// (`.fileStorage(settings.json)#/theme`), when the state holds the whole value too and its
  /// JSON shows the part there: a replay joins the two again.
  func places(of state: some Encodable) -> [String: [String]]? {
    guard _SharedHolders.anyExist,
      let (holders, json) = try? _SharedHolders.of(state), !holders.isEmpty
    else { return nil }
    return self.lock.withLock {
      var places: [String: [String]] = [:]
      for holder in holders {
        self.known.insert(holder.id)
        self.notHeld.remove(holder.id)
      }
      var wholes: [ObjectIdentifier: (name: String, path: String)] = [:]
      for holder in holders where holder.isWhole {
        let name: String
        if let keyed = holder.name {
          name = keyed
        } else if let known = self.names[holder.id] {
          name = known
        } else {
          name = "#\(self.nextUnkeyed)"
          self.nextUnkeyed += 1
          self.names[holder.id] = name
        }
        places[name, default: []].append(holder.path)
        wholes[holder.id] = wholes[holder.id] ?? (name, holder.path)
      }
      let parts = holders.filter { !$0.isWhole && wholes[$0.id] != nil }
      if !parts.isEmpty, let root = try? JSONDecoder().decode(JSONValue.self, from: json) {
        for part in parts {
          guard let whole = wholes[part.id],
            let pointer = Self.pointer(of: part, in: root, wholeAt: whole.path)
          else { continue }
          places["\(whole.name)#\(pointer)", default: []].append(part.path)
        }
      }
      return places.isEmpty ? nil : places
    }
  }

  /// Where `part` sits in its whole value, as a JSON Pointer, when the state's JSON shows it
  /// there: the stored properties' names, or (for a property wrapper's `_name`) the coding keys
  /// synthesized `Codable` gives them; else the one place in the whole whose JSON is the part's.
  private static func pointer(
    of part: _SharedHolder, in root: JSONValue, wholeAt wholePath: String
  ) -> String? {
    guard let value = root.value(atPointer: part.path) else { return nil }
    if let names = part.memberNames, !names.isEmpty {
      let candidates = [names, names.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }]
      for candidate in candidates {
        let pointer = _SharedHolders.pointer(candidate)
        if root.value(atPointer: wholePath + pointer) == value { return pointer }
      }
    }
    return root.value(atPointer: wholePath).flatMap { Self.onlyPlace(of: value, in: $0) }
  }

  /// The JSON Pointer of the one place in `whole` (not the whole itself) whose value is `part`;
  /// `nil` when there is none, or more than one.
  static func onlyPlace(of part: JSONValue, in whole: JSONValue) -> String? {
    var found: [String] = []
    func search(_ value: JSONValue, _ path: [String]) {
      guard found.count < 2 else { return }
      if !path.isEmpty, value == part {
        found.append(_SharedHolders.pointer(path))
        return
      }
      switch value {
      case let .array(elements):
        for (index, element) in elements.enumerated() { search(element, path + [String(index)]) }
      case let .object(members):
        for (key, member) in members { search(member, path + [key]) }
      default:
        break
      }
    }
    search(whole, [])
    return found.count == 1 ? found[0] : nil
  }

  /// The places of `action` that carry shared values, by name: a whole under its name, a part
  /// (a pushed screen's state holding `$syncUps[id: id]`) under its whole's name, `#`, and where
  /// it sits in the whole. `nil` when it carries none.
  func actionPlaces(of action: some Encodable) -> [String: [String]]? {
    // NB: Sent on every action while the state holds shared values: its JSON is made only for
    // the parts it carries, which are found in it.
    guard let holders = try? _SharedHolders.holders(in: action), !holders.isEmpty else {
      return nil
    }
    let root =
      holders.contains { !$0.isWhole }
      ? (try? JSONEncoder().encode(action)).flatMap {
        try? JSONDecoder().decode(JSONValue.self, from: $0)
      } : nil
    return self.lock.withLock {
      var places: [String: [String]] = [:]
      for holder in holders {
        let name: String
        if let keyed = holder.name {
          name = keyed
        } else if let known = self.names[holder.id] {
          name = known
        } else if holder.isWhole {
          name = "#\(self.nextUnkeyed)"
          self.nextUnkeyed += 1
          self.names[holder.id] = name
        } else {
          continue
        }
        guard !holder.isWhole else {
          places[name, default: []].append(holder.path)
          continue
        }
        guard let part = root?.value(atPointer: holder.path),
          let wholeJSON = try? holder.wholeValueJSON(),
          let whole = try? JSONDecoder().decode(JSONValue.self, from: wholeJSON),
          let pointer = Self.pointer(named: holder.memberNames, of: part, in: whole)
            ?? Self.onlyPlace(of: part, in: whole)
        else { continue }
        places["\(name)#\(pointer)", default: []].append(holder.path)
      }
      return places.isEmpty ? nil : places
    }
  }

  /// The pointer `names` make, when `whole` holds `part` there.
  private static func pointer(
    named names: [String]?, of part: JSONValue, in whole: JSONValue
  )
    -> String?
  {
    guard let names, !names.isEmpty else { return nil }
    for candidate in [names, names.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }] {
      let pointer = _SharedHolders.pointer(candidate)
      if whole.value(atPointer: pointer) == part { return pointer }
    }
    return nil
  }

  /// The name of a value shared without a key, when the recorder met it in a state.
  func name(of id: ObjectIdentifier) -> String? {
    self.lock.withLock { self.names[id] }
  }

  /// Whether the recorded state was seen to hold the value, or its reducers to read it.
  func isKnown(_ id: ObjectIdentifier) -> Bool {
    self.lock.withLock { self.known.contains(id) }
  }

  /// Whether the recorded state was seen to hold a shared value, or its reducers to make one:
  /// until then, the recorder pays nothing for shared values.
  var holdsShared: Bool {
    self.lock.withLock { !self.known.isEmpty }
  }

  /// Notes that a recorded reducer read the value from its key.
  func noteObtained(_ id: ObjectIdentifier) {
    _ = self.lock.withLock { self.known.insert(id) }
  }

  /// Whether a value shared without a key may be held by the last state: it was not looked
  /// for in it since the last action.
  func mayBeHeld(_ id: ObjectIdentifier) -> Bool {
    self.lock.withLock { !self.notHeld.contains(id) }
  }

  func markNotHeld(_ id: ObjectIdentifier) {
    _ = self.lock.withLock { self.notHeld.insert(id) }
  }

  /// Forgets which values the last state did not hold: the next state may.
  func actionFinished() {
    self.lock.withLock {
      if !self.notHeld.isEmpty { self.notHeld.removeAll() }
    }
  }
}

/// A state or an action as it was at a moment: the shared values it holds encode as they were
/// then, whatever changed since (see ``ComposableArchitecture/_SharedMoment``).
struct ValueAtMoment: Encodable, Sendable {
  let value: any Encodable & Sendable
  let moment: _SharedMoment

  func encode(to encoder: any Encoder) throws {
    try self.moment.encoding { try self.value.encode(to: encoder) }
  }
}

/// A shared value's new value, which the writer encodes.
struct SharedValueBox: Encodable, @unchecked Sendable {
  // NB: Unchecked: a copy of a value type, only encoded.
  let value: any Encodable

  func encode(to encoder: any Encoder) throws {
    try self.value.encode(to: encoder)
  }
}

extension Recorder {
  /// Records a shared value's change that the recorded reducers did not make, or what a key
  /// held when a recorded reducer read it.
  func sharedValueChanged(_ change: SharedChange) {
    let (finished, isOwn, isClosed, last) = self.books.lock.withLock {
      let finished = self.books.finished(context: change.context)
      return (finished.count, finished.isOwn, self.books.isClosed, self.lastState.value)
    }
    guard !isClosed else { return }
    let source: RecordedShared.Source
    switch change.kind {
    case .obtained:
      guard isOwn else { return }
      self.sharedValues.noteObtained(change.id)
      source = .load
    case .write:
      guard !isOwn else { return }
      source = .app
    case .fromOutside:
      source = .outside
    }
    if change.kind != .obtained, !self.sharedValues.isKnown(change.id) {
      // NB: A value the state was not seen to hold: it may have come to hold it since the last
      // places were written. If it does, where it sits is written first, so a replay finds
      // it; if not, the change is none of this recording's business.
      guard let last, self.sharedValues.mayBeHeld(change.id) else { return }
      guard let places = self.sharedValues.places(of: self.encoding.sharedSource(last)),
        self.sharedValues.isKnown(change.id)
      else {
        self.sharedValues.markNotHeld(change.id)
        return
      }
      self.append(.shared(seq: finished, .places(places)))
    }
    guard let name = change.name ?? self.sharedValues.name(of: change.id) else { return }
    guard let value = change.value as? any Encodable else {
      self.append(
        .note(
          seq: finished,
          text:
            "The shared value \(name) changed, but a \(type(of: change.value)) is not Encodable: a replay cannot apply the change."
        ))
      return
    }
    self.append(
      .shared(
        seq: finished, .value(name: name, source: source, value: SharedValueBox(value: value))))
  }
}
