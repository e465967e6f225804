import ComposableArchitecture

/// Bugs the example features once had and no longer do, which a test can bring back to show a
/// recording catching them. Empty unless a test sets it.
///
/// ```swift
/// withDependencies {
///   $0.reintroducedBugs = [.heartStaysFilledAfterRemovingFavorite]
/// } operation: { … }
/// ```
public struct ReintroducedBugs: OptionSet, Sendable {
  public let rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Songs, as first written: removing a song from the favourites left its heart filled in the
  /// library, so the next tap on that heart removed a favourite that was no longer there instead
  /// of adding it back.
  public static let heartStaysFilledAfterRemovingFavorite = Self(rawValue: 1 << 0)

  /// A contact's screen, as first written: any edit marked the form changed, even one that
  /// typed the saved value back, so Save stayed on for a form with nothing to save.
  public static let editedFormStaysChangedAfterUndo = Self(rawValue: 1 << 1)
}

extension ReintroducedBugs: DependencyKey {
  public static let liveValue: Self = []
  public static let testValue: Self = []
}

extension DependencyValues {
  /// The fixed bugs to bring back; none by default.
  public var reintroducedBugs: ReintroducedBugs {
    get { self[ReintroducedBugs.self] }
    set { self[ReintroducedBugs.self] = newValue }
  }
}
