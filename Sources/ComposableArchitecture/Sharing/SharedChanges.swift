import ConcurrencyExtras
import Foundation

/// A change of a shared value, as a recorder learns of it: which value, its new value, and
/// whether a reducer made it.
///
/// A shared value is an input of the features that hold it: a change made outside a store's
/// reducers (by another store, an effect, a test, or a file another program rewrote) is what a
/// replay of that store's actions cannot make again, and so what a recording keeps.
public struct SharedChange: @unchecked Sendable {
  // NB: Unchecked: `value` is a copy of a value type, only read.
  /// Which shared value changed: the same for every holder of it.
  public let id: ObjectIdentifier
  /// Its key, in words (`.fileStorage(/tmp/settings.json)`), or `nil` for a value shared
  /// without a key.
  public let key: String?
  /// The whole new value (a part written through `state.$settings.theme` reports the whole
  /// `settings`).
  public let value: Any
  /// The action whose reducer made the change, or `nil` when no reducer was running: an
  /// effect, another program, a test.
  public let context: ActionContext?
  /// Whether the key reported it from outside the app (a file rewritten, user defaults set
  /// elsewhere) rather than a holder writing it.
  public let isFromOutside: Bool
}

/// Where the changes of shared values are told.
public enum SharedChanges {
  private static let observers = LockIsolated<[Int: @Sendable (SharedChange) -> Void]>([:])
  private static let nextID = LockIsolated(0)

  /// Calls `observer` with every change of every shared value, on the thread that made it,
  /// until the returned subscription is cancelled or released.
  public static func observe(
    _ observer: @escaping @Sendable (SharedChange) -> Void
  ) -> SharedSubscription {
    let id = Self.nextID.withValue { id in
      defer { id += 1 }
      return id
    }
    Self.observers.withValue { $0[id] = observer }
    return SharedSubscription {
      Self.observers.withValue { _ = $0.removeValue(forKey: id) }
    }
  }

  static func tell(
    id: ObjectIdentifier, key: String?, value: @autoclosure () -> Any, isFromOutside: Bool
  ) {
    // NB: Nothing is made when nobody listens: the app's writes pay one lock.
    let observers = Self.observers.withValue { Array($0.values) }
    guard !observers.isEmpty else { return }
    let change = SharedChange(
      id: id, key: key, value: value(), context: ActionContext.current,
      isFromOutside: isFromOutside)
    for observer in observers { observer(change) }
  }
}
