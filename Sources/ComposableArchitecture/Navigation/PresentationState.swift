import CustomDump

/// The state of a feature presented by its parent: a sheet, an alert, a drill-down, or an enum of
/// destinations. `nil` when nothing is presented.
///
/// Written as a property wrapper, the way TCA's features write it:
///
/// ```swift
/// @ObservableState
/// struct State: Codable, Equatable {
///   @Presents var destination: Destination.State?
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
///
/// and run with ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` over its
/// projection, `\.$destination`.
///
/// In a recording, a property wrapped this way is encoded under its own name as the value it
/// wraps (`null` when nothing is presented).
@propertyWrapper
public struct PresentationState<State> {
  // NB: Boxed, as in TCA, so that a feature can present itself (`@Presents var child:
  // State?` inside `State`): a value type cannot hold itself inline. Copied on write.
  private var storage: Storage
  /// The presentation `ifLet` last saw, so that it cancels the effects of one a parent dismissed
  /// after it ran (or before, outside it) when the next action reaches it. Not part of the value:
  /// equality, hashing and the recorded form leave it out.
  var presentedID: NavigationID?

  final class Storage: @unchecked Sendable {
    // NB: Unchecked: a storage shared by two values is only read; a write first makes it unique.
    var state: State?
    /// Who observes what is presented: kept by the copies of the value, and by a copy made on
    /// write.
    let observers: _PresentationObservers
    init(_ state: State?, observers: _PresentationObservers = _PresentationObservers()) {
      self.state = state
      self.observers = observers
    }
  }

  /// What is presented, or `nil`.
  public var wrappedValue: State? {
    get {
      self.storage.observers.access()
      return self.storage.state
    }
    set {
      let old = _$modifyIdentity(self.storage.state)
      if old.isKnown, old == _$modifyIdentity(newValue) {
        self.write(newValue)
      } else {
        // NB: Not a mutation wrapped in a closure: a copy of `self` held by it would make every
        // write copy the storage.
        let observers = self.storage.observers
        observers.willSet()
        self.write(newValue)
        observers.didSet()
      }
    }
    _modify {
      self.makeUnique()
      let before = _$modifyIdentity(self.storage.state)
      yield &self.storage.state
      self.tellObservers(unlessStill: before)
    }
  }

  /// Presents `wrappedValue`, or nothing.
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presentation itself, for ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``:
  /// `\.$destination`. Replacing it keeps its observers, who are told when what is presented
  /// changes.
  public var projectedValue: Self {
    get { self }
    set {
      let before = _$modifyIdentity(self.storage.state)
      let observers = self.storage.observers
      self = newValue
      self.keep(observers, unlessStill: before)
    }
    _modify {
      let before = _$modifyIdentity(self.storage.state)
      let observers = self.storage.observers
      yield &self
      self.keep(observers, unlessStill: before)
    }
  }

  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&self.storage) {
      self.storage = Storage(self.storage.state, observers: self.storage.observers)
    }
  }

  private mutating func write(_ state: State?) {
    if isKnownUniquelyReferenced(&self.storage) {
      self.storage.state = state
    } else {
      self.storage = Storage(state, observers: self.storage.observers)
    }
  }

  /// Tells the observers of a change, unless what is presented is still the state it was.
  private func tellObservers(unlessStill before: _ModifyIdentity) {
    guard !before.isKnown || _$modifyIdentity(self.storage.state) != before else { return }
    self.storage.observers.willSet()
    self.storage.observers.didSet()
  }

  /// After the whole value was written: the observers it had stay its own.
  private mutating func keep(
    _ observers: _PresentationObservers, unlessStill before: _ModifyIdentity
  ) {
    guard self.storage.observers !== observers else { return }
    self.storage = Storage(self.storage.state, observers: observers)
    self.tellObservers(unlessStill: before)
  }
}

extension PresentationState {
  /// The presented state's case, through a case path made by `/Destination.detail`: setting a
  /// value replaces the presented state when it is in that case; setting `nil` dismisses it when
  /// it is. A change through the wrong case (or when nothing is presented) is reported as an issue,
  /// as TCA's.
  public subscript<Case>(case path: AnyCasePath<State, Case>) -> Case? {
    _read { yield self.wrappedValue.flatMap(path.extract(from:)) }
    _modify {
      let root = self.wrappedValue
      var value = root.flatMap(path.extract(from:))
      let wasInCase = value != nil
      yield &value
      guard wasInCase else { return reportUnrelatedCaseModification(of: root) }
      self.wrappedValue = value.map(path.embed)
    }
  }

  /// ``subscript(case:)-(AnyCasePath<State,Case>)`` with a case key path: `$destination[case:
  /// \.detail]`.
  public subscript<Case>(case path: CaseKeyPath<State, Case>) -> Case? where State: CasePathable {
    _read { yield self[case: AnyCasePath(path)] }
    _modify { yield &self[case: AnyCasePath(path)] }
  }
}

/// `@Presents var destination: Destination.State?`: TCA's name for ``PresentationState``.
public typealias Presents<State> = PresentationState<State>

extension PresentationState: Equatable where State: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.wrappedValue)
  }
}

extension PresentationState: @unchecked Sendable where State: Sendable {}

extension PresentationState: CustomReflectable {
  /// What is presented, as the one child a mirror shows.
  public var customMirror: Mirror {
    Mirror(self, children: ["wrappedValue": self.wrappedValue as Any], displayStyle: .struct)
  }
}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: CustomDumpRepresentable {
  /// What is presented, as a diff shows it.
  public var customDumpValue: Any {
    self.wrappedValue as Any
  }
}

/// The registrar of those who observe what a ``PresentationState`` presents (`withObservationTracking
/// { state.destination }`), told when it is presented, dismissed or replaced, not when it changes
/// in place.
///
/// Not generic, so that the key path it is observed by is made once: a key path into a generic
/// type is made anew, from its type's mangled name, each time it is written.
final class _PresentationObservers: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private var presented: Void { () }

  func access() { self.registrar.access(self, keyPath: \.presented) }
  func willSet() { self.registrar.willSet(self, keyPath: \.presented) }
  func didSet() { self.registrar.didSet(self, keyPath: \.presented) }
}
