import ActionLog
import ComposableArchitecture
import ConcurrencyExtras

/// Captures the values a reducer reads from recordable dependencies, for one action at a time.
///
/// The capturing dependency values are built once and reused while the dependencies the store
/// passes in stay the same, which they do from one action to the next: building them costs a
/// copy of the dependency storage and a closure per dependency, more than the reducer often
/// costs. A read is captured only while an action is open and only when it comes from that
/// action's reduce; effects created during the action keep the capturing dependencies, but they
/// run outside the store's call to the reducer, so their reads are not recorded.
final class DependencyCapture: Sendable {
  private let dependencies: [RecordableDependency]
  private let open = LockIsolated<(actionID: UInt64?, values: [String: [String]])>((nil, [:]))
  private let cache = LockIsolated<(base: DependencyValues, capturing: DependencyValues)?>(nil)

  init(_ dependencies: [RecordableDependency]) {
    self.dependencies = dependencies
  }

  /// Runs `body` with capturing dependencies, and returns what it read.
  func capture<R>(actionID: UInt64?, _ body: () -> R) -> (R, CapturedValues) {
    let capturing = self.capturingDependencies(for: DependencyValues._current)
    self.open.withValue { $0 = (actionID, [:]) }
    let result = DependencyValues.$_current.withValue(capturing, operation: body)
    let values = self.open.withValue { open in
      defer { open = (nil, [:]) }
      return open.values
    }
    return (result, CapturedValues(values))
  }

  private func capturingDependencies(for base: DependencyValues) -> DependencyValues {
    if let cached = self.cache.value, Self.isIdentical(cached.base, base) {
      return cached.capturing
    }
    // NB: Built inside the library's `withDependencies` (which starts from `base`, the current
    // values): wrapping a dependency reads its live value without using it, and only there is
    // that not an access a test context reports.
    let dependencies = self.dependencies
    let built = withDependencies {
      for dependency in dependencies {
        let name = dependency.name
        dependency.record(&$0) { [weak self] text in
          self?.record(text, for: name)
        }
      }
    } operation: {
      DependencyValues._current
    }
    // NB: Keeping `base` also keeps its storage shared, so it cannot change in place: a bitwise
    // match later means the very same values.
    self.cache.setValue((base, built))
    return built
  }

  private func record(_ text: String, for name: String) {
    let current = ActionContext.current?.id
    self.open.withValue {
      guard $0.actionID != nil, $0.actionID == current else { return }
      $0.values[name, default: []].append(text)
    }
  }

  private static func isIdentical(_ lhs: DependencyValues, _ rhs: DependencyValues) -> Bool {
    withUnsafeBytes(of: lhs) { lhs in
      withUnsafeBytes(of: rhs) { rhs in lhs.elementsEqual(rhs) }
    }
  }
}

/// Answers a replayed reducer's dependency reads with the values recorded for one action, and
/// notes reads beyond them.
public final class DependencyPlayback: Sendable {
  private let storage: LockIsolated<(remaining: [String: ArraySlice<String>], overruns: [String: Int])>

  /// Prepares to answer with `captured`.
  public init(_ captured: CapturedValues) {
    self.storage = LockIsolated((captured.values.mapValues { $0[...] }, [:]))
  }

  /// Installs replaying versions of `dependencies` into `values`.
  public func install(_ dependencies: [RecordableDependency], into values: inout DependencyValues) {
    for dependency in dependencies {
      let name = dependency.name
      dependency.replay(&values) { [weak self] in
        self?.storage.withValue {
          if let value = $0.remaining[name]?.popFirst() { return value }
          $0.overruns[name, default: 0] += 1
          return nil
        }
      }
    }
  }

  /// How many reads of each dependency found no recorded value left: the reducer read more than
  /// it did when it was recorded.
  public var overruns: [String: Int] {
    self.storage.value.overruns
  }

  /// How many recorded values of each dependency the reducer did not read.
  public var unread: [String: Int] {
    self.storage.value.remaining.compactMapValues { $0.isEmpty ? nil : $0.count }
  }
}
