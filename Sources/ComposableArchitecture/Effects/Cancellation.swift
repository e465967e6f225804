import ConcurrencyExtras
import Dependencies

extension Effect {
  /// Turns an effect into one that can be cancelled by identifier with ``cancel(id:)``.
  ///
  /// Identifiers are scoped to the feature that created the effect: a child presented with
  /// ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)`` or an element of
  /// ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)`` has its own namespace, and
  /// its effects are cancelled when its state goes away.
  ///
  /// ```swift
  /// case .searchQueryChanged(let query):
  ///   state.query = query
  ///   return .run { send in
  ///     try await clock.sleep(for: .milliseconds(300))
  ///     await send(.search(query))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: The effect's identifier.
  ///   - cancelInFlight: Whether any in-flight effect with the same identifier should be cancelled
  ///     before starting this new one.
  /// - Returns: A new effect that is capable of being cancelled by an identifier.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = self.operation { return .none }
    @Dependency(\.navigationIDPath) var navigationIDPath
    return Self(
      operation: .cancellable(
        _CancelID(id: id, navigationIDPath: navigationIDPath),
        cancelInFlight: cancelInFlight,
        self
      )
    )
  }

  /// An effect that cancels any in-flight effect with the given identifier.
  ///
  /// - Parameter id: An effect identifier.
  /// - Returns: A new effect that cancels.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    @Dependency(\.navigationIDPath) var navigationIDPath
    return Self(operation: .cancel(.id(_CancelID(id: id, navigationIDPath: navigationIDPath))))
  }

  /// Makes the effect cancellable as part of the feature at a navigation path.
  func _cancellable(navigationIDPath: NavigationIDPath) -> Self {
    if case .none = self.operation { return .none }
    return Self(
      operation: .cancellable(
        _CancelID(navigationIDPath: navigationIDPath), cancelInFlight: false, self
      )
    )
  }

  /// Cancels every effect of the feature at a navigation path, and of the features below it.
  static func _cancel(navigationIDPath: NavigationIDPath) -> Self {
    Self(operation: .cancel(.navigation(navigationIDPath)))
  }
}

/// An effect's cancellation identifier, scoped to the navigation path of the feature that made it.
@usableFromInline
struct _CancelID: Hashable, Sendable {
  let id: AnyHashableSendable?
  // NB: The identifier's type, hashed with it, as TCA's: identifiers of empty types (`enum
  // CancelID { case timer }` in one feature and another) hash apart.
  let discriminator: ObjectIdentifier?
  let navigationIDPath: NavigationIDPath

  init(id: some Hashable & Sendable, navigationIDPath: NavigationIDPath) {
    self.id = AnyHashableSendable(id)
    self.discriminator = ObjectIdentifier(type(of: id))
    self.navigationIDPath = navigationIDPath
  }

  init(navigationIDPath: NavigationIDPath) {
    self.id = nil
    self.discriminator = nil
    self.navigationIDPath = navigationIDPath
  }
}

/// What a cancel effect cancels.
@usableFromInline
enum _CancelTarget: Sendable {
  /// The effects registered with an identifier, by the feature at the identifier's navigation
  /// path or by one presented below it (a parent's cancel reaches its children's, as TCA's).
  case id(_CancelID)
  /// The effects of every feature at or below a navigation path.
  case navigation(NavigationIDPath)

  func matches(_ cancelID: _CancelID) -> Bool {
    switch self {
    case let .id(id):
      return id.id == cancelID.id && id.discriminator == cancelID.discriminator
        && cancelID.navigationIDPath.starts(with: id.navigationIDPath)
    case let .navigation(path):
      return cancelID.navigationIDPath.starts(with: path)
    }
  }
}
