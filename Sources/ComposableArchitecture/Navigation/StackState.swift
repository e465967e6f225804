import CasePaths
import CustomDump
import Dependencies

/// The screens of a navigation stack, each with the ``StackElementID`` it was pushed with.
///
/// ```swift
/// @ObservableState
/// struct State {
///   var path = StackState<Path.State>()
/// }
/// …
/// state.path.append(.detail(Detail.State()))
/// state.path[id: 0, case: \.detail]?.name = "Blob"
/// ```
///
/// A screen appended gets the next identity from `@Dependency(\.stackElementID)`.
///
/// In a recording, an array of `{"element":STATE,"id":N}`, bottom first.
public struct StackState<Element> {
  private var elements: [StackElementID: Element] = [:]
  /// The identities of the screens, bottom first.
  public private(set) var ids: [StackElementID] = []
  /// The identities of the screens `forEach` last saw, so that it cancels the effects of those a
  /// parent removed after it ran (or before, outside it) when the next action reaches it. Not part
  /// of the value: equality, hashing and the recorded form leave it out.
  var mounted: [StackElementID] = []

  /// An empty stack.
  public init() {}

  /// A stack of `elements`, bottom first, each with a new identity.
  public init(_ elements: some Sequence<Element>) {
    self.append(contentsOf: elements)
  }

  /// The screen with an identity, or `nil`. Setting a screen for an identity not in the stack
  /// pushes it with that identity (as a test writes what a push did: `$0.path[id: 0] = …`);
  /// setting `nil` removes it.
  public subscript(id id: StackElementID) -> Element? {
    get { self.elements[id] }
    set {
      if let newValue {
        if self.elements[id] == nil { self.ids.append(id) }
        self.elements[id] = newValue
      } else {
        self.elements[id] = nil
        self.ids.removeAll { $0 == id }
      }
    }
  }

  /// The case of the screen with an identity: `state.path[id: 0, case: \.detail]`. Setting a
  /// value replaces the screen when it is in that case; setting `nil` pops it when it is. A change
  /// through the wrong case (or an identity not in the stack) is reported as an issue, as TCA's.
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case?
  where Element: CasePathable {
    _read { yield self[id: id, case: AnyCasePath(path)] }
    _modify { yield &self[id: id, case: AnyCasePath(path)] }
  }

  /// ``subscript(id:case:)`` with a case path made by `/Element.detail`, as TCA still takes.
  public subscript<Case>(id id: StackElementID, case path: AnyCasePath<Element, Case>) -> Case? {
    _read { yield self[id: id].flatMap(path.extract(from:)) }
    _modify {
      let root = self[id: id]
      var value = root.flatMap(path.extract(from:))
      let wasInCase = value != nil
      yield &value
      guard wasInCase else { return reportUnrelatedCaseModification(of: root) }
      self[id: id] = value.map(path.embed)
    }
  }

  /// Pushes a screen with a new identity.
  public mutating func append(_ element: Element) {
    @Dependency(\.stackElementID) var stackElementID
    self.append(element, id: stackElementID())
  }

  /// Pushes screens, each with a new identity.
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { self.append(element) }
  }

  mutating func append(_ element: Element, id: StackElementID) {
    self.ids.append(id)
    self.elements[id] = element
  }

  /// Pops the top screen.
  @discardableResult
  public mutating func removeLast() -> Element {
    let id = self.ids.removeLast()
    return self.elements.removeValue(forKey: id)!
  }

  /// Pops the screen with an identity and every screen above it; `false` when it is not there.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let index = self.ids.firstIndex(of: id) else { return false }
    for removed in self.ids[index...] { self.elements[removed] = nil }
    self.ids.removeSubrange(index...)
    return true
  }

  /// Pops every screen above the one with an identity; `false` when it is not there.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let index = self.ids.firstIndex(of: id) else { return false }
    return self.ids.indices.contains(index + 1) ? self.pop(from: self.ids[index + 1]) : true
  }

  /// Pops every screen.
  public mutating func removeAll() {
    self.ids.removeAll()
    self.elements.removeAll()
  }
}

extension StackState: RandomAccessCollection {
  public var startIndex: Int { self.ids.startIndex }
  public var endIndex: Int { self.ids.endIndex }

  /// The screen at a position, bottom first.
  public subscript(position: Int) -> Element {
    get { self.elements[self.ids[position]]! }
    set { self.elements[self.ids[position]] = newValue }
  }
}

extension StackState: MutableCollection {}

extension StackState: RangeReplaceableCollection {
  /// Replaces the screens in `subrange` with `newElements`, each pushed with a new identity:
  /// `removeLast(2)`, `insert(_:at:)` and the rest of a collection's edits, as TCA's stack has.
  public mutating func replaceSubrange<C: Collection>(
    _ subrange: Range<Int>, with newElements: C
  ) where C.Element == Element {
    @Dependency(\.stackElementID) var stackElementID
    for removed in self.ids[subrange] { self.elements[removed] = nil }
    let newIDs = newElements.map { _ in stackElementID() }
    self.ids.replaceSubrange(subrange, with: newIDs)
    for (id, element) in zip(newIDs, newElements) { self.elements[id] = element }
  }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.ids == rhs.ids && lhs.elements == rhs.elements
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.ids)
    for id in self.ids { hasher.combine(self.elements[id]) }
  }
}

extension StackState: Sendable where Element: Sendable {}

private enum StackEntryKeys: String, CodingKey {
  case element
  case id
}

extension StackState: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for id in self.ids {
      var entry = container.nestedContainer(keyedBy: StackEntryKeys.self)
      try entry.encode(self.elements[id], forKey: .element)
      try entry.encode(id, forKey: .id)
    }
  }
}

extension StackState: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let entry = try container.nestedContainer(keyedBy: StackEntryKeys.self)
      let id = try entry.decode(StackElementID.self, forKey: .id)
      guard self.elements[id] == nil else {
        throw DecodingError.dataCorruptedError(
          forKey: .id, in: entry,
          debugDescription: "Two screens of the stack have the identity \(id.rawValue).")
      }
      self.append(try entry.decode(Element.self, forKey: .element), id: id)
    }
    // NB: A stack read back (a checkpoint's) was run by its reducer as it is.
    self.mounted = self.ids
  }
}

extension StackState: CustomDumpReflectable {
  /// `[#0: Detail.State(…), #1: …]`: each screen with its identity, bottom first.
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: self.ids.map { id in
        (label: String?.none, value: (key: id, value: self.elements[id] as Any))
      },
      displayStyle: .dictionary
    )
  }
}

extension StackState: CustomReflectable {
  /// Each screen with its identity, bottom first: what a recording of a state without `Codable`
  /// writes, the shape of the stack's own `Codable` (`[{"element":…,"id":0}]`).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: self.ids.map { id in
        (label: String?.none, value: (element: self.elements[id]!, id: id) as Any)
      },
      displayStyle: .collection
    )
  }
}
