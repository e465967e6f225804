import Dependencies
import IssueReporting

/// Dismisses the feature that reads it, from inside its effects:
///
/// ```swift
/// @Dependency(\.dismiss) var dismiss
/// …
/// return .run { _ in await self.dismiss() }
/// ```
///
/// Inside a feature presented through ``PresentationState`` it sends the parent's `.dismiss`;
/// anywhere else it reports an issue and does nothing.
public struct DismissEffect: Sendable {
  let dismiss: @MainActor @Sendable () -> Void

  init(_ dismiss: @escaping @MainActor @Sendable () -> Void) {
    self.dismiss = dismiss
  }

  /// Dismisses the presented feature.
  public func callAsFunction() async {
    await self.dismiss()
  }
}

extension DismissEffect {
  /// The dismissal of a presented feature: what its reducer's effects read. It sends the
  /// `.dismiss` of the presentation whose effect is running, which the presentation reducer
  /// sets for each of its feature's effects.
  static let presented = DismissEffect {
    guard let dismiss = PresentationDismissal.current else {
      reportNotPresented()
      return
    }
    dismiss()
  }
}

/// How the running effect of a presented feature dismisses it.
// NB: A task-local rather than a dependency: a store runs each effect with the dependencies of
// the reducer that made it, and the presentation's `send` exists only once the effect runs.
enum PresentationDismissal {
  @TaskLocal static var current: (@MainActor @Sendable () -> Void)?
}

private enum DismissKey: DependencyKey {
  static let liveValue = DismissEffect(reportNotPresented)
  static let testValue = DismissEffect(reportNotPresented)
}

@MainActor
private func reportNotPresented() {
  reportIssue(
    """
    A feature asked to be dismissed ("dismiss()"), but it is not presented: only a feature run \
    by "ifLet" over a "PresentationState" ("\\.$destination") can dismiss itself. To fix this, \
    present the feature, or have its parent set its state to nil.
    """
  )
}

private enum IsPresentedKey: DependencyKey {
  static let liveValue = false
  static let testValue = false
}

extension DependencyValues {
  /// Dismisses the feature that reads it: see ``DismissEffect``.
  public var dismiss: DismissEffect {
    get { self[DismissKey.self] }
    set { self[DismissKey.self] = newValue }
  }

  /// Whether the feature that reads it is presented through ``PresentationState``.
  public var isPresented: Bool {
    get { self[IsPresentedKey.self] }
    set { self[IsPresentedKey.self] = newValue }
  }
}
