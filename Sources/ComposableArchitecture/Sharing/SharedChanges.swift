import ConcurrencyExtras
import Foundation

/// A change of a shared value, as a recorder learns of it: which value, its new value, and
/// whether a reducer made it. A feature that takes a value from a key (`@Shared(.fileStorage(…))`
/// in a state made by a reducer) is told too, as ``Kind-swift.enum/obtained``: the value it
/// read is an input of that reducer.
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
  /// Its key as recordings name it (`.fileStorage(settings.json)`: a file by its name, which
  /// another machine shares), or `nil` for a value shared without a key.
  public let name: String?
  /// The whole new value (a part written through `state.$settings.theme` reports the whole
  /// `settings`).
  public let value: Any
  /// The action whose reducer made the change, or `nil` when no reducer was running: an
  /// effect, another program, a test.
  public let context: ActionContext?
  /// What happened.
  public let kind: Kind

  /// Whether the key reported it from outside the app (a file rewritten, user defaults set
  /// elsewhere) rather than a holder writing it.
  public var isFromOutside: Bool { self.kind == .fromOutside }

  /// What happened to a shared value.
  public enum Kind: Sendable, Equatable {
    /// A holder wrote it.
    case write
    /// Its key reported a new value from outside the app.
    case fromOutside
    /// A shared value was made: from its key, and read what `value` holds; or without a key
    /// (``Shared/init(value:)``), holding `value`.
    case obtained
  }
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
    id: ObjectIdentifier, key: String?, name: String?, value: @autoclosure () -> Any,
    kind: SharedChange.Kind
  ) {
    // NB: Nothing is made when nobody listens: the app's writes pay one lock.
    let observers = Self.observers.withValue { Array($0.values) }
    guard !observers.isEmpty else { return }
    let change = SharedChange(
      id: id, key: key, name: name, value: value(), context: ActionContext.current, kind: kind)
    for observer in observers { observer(change) }
  }
}
