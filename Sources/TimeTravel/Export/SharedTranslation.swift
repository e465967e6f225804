import ActionLog

/// An app recording's shared records, as a child's recording holds them: the places under the
/// child, as pointers into the child's state (or action), and the changes of the values it holds.
struct SharedTranslation {
  private var places: [(seq: Int, places: [String: [String]])] = []
  private var actionPlaces: [Int: [String: [String]]] = [:]
  private var values: [Int: [RecordedShared.Change]] = [:]
  /// The names of the values the child's state holds somewhere.
  private(set) var names: Set<String> = []

  init(app: Recording) throws {
    guard app.hasSharedRecords else { return }
    for record in try app.sharedRecords() {
      switch record.change {
      case let .places(found): self.places.append((record.seq, found))
      case let .actionPlaces(found): self.actionPlaces[record.seq] = found
      case .value: self.values[record.seq, default: []].append(record.change)
      case .stateWritten: continue
      }
    }
  }

  /// The places of the state after app step `step` (the last `where` record at or before it)
  /// that lie under `pointer`, relative to it; `nil` when none does.
  mutating func places(atOrBefore step: Int, below pointer: [String]) -> [String: [String]]? {
    guard let found = self.places.last(where: { $0.seq <= step })?.places else { return nil }
    let translated = Self.translate(found, below: pointer)
    for name in translated.keys { self.names.insert(Self.wholeName(name)) }
    return translated.isEmpty ? nil : translated
  }

  /// The places of app action `step` that carry shared values and lie under `pointer` (where the
  /// child's action sits in it), relative to it.
  func actionPlaces(of step: Int, below pointer: [String]) -> [String: [String]]? {
    guard let found = self.actionPlaces[step] else { return nil }
    let translated = Self.translate(found, below: pointer)
    return translated.isEmpty ? nil : translated
  }

  /// Appends the changes recorded after app action `seq` of the values the child holds.
  func appendValues(after seq: Int, to composer: inout RecordingComposer) throws {
    for change in self.values[seq] ?? [] {
      guard case let .value(name, _, _) = change, self.names.contains(Self.wholeName(name))
      else {
        continue
      }
      try composer.appendShared(change)
    }
  }

  private static func translate(
    _ places: [String: [String]], below pointer: [String]
  ) -> [String: [String]] {
    let prefix = pointer.map { "/" + Self.escape($0) }.joined()
    var translated: [String: [String]] = [:]
    for (name, pointers) in places {
      let inside = pointers.compactMap { place -> String? in
        guard Self.isBelow(place, start: prefix) else { return nil }
        return String(place.dropFirst(prefix.count))
      }
      if !inside.isEmpty { translated[name] = inside }
    }
    return translated
  }

  private static func isBelow(_ place: String, start prefix: String) -> Bool {
    place == prefix || place.hasPrefix(prefix + "/")
  }

  /// `.fileStorage(settings.json)` for a part `.fileStorage(settings.json)#/theme`.
  private static func wholeName(_ name: String) -> String {
    name.range(of: "#/").map { String(name[..<$0.lowerBound]) } ?? name
  }

  private static func escape(_ token: String) -> String {
    token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }
}
