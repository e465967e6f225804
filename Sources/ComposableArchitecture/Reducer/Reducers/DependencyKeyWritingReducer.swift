import Dependencies

extension Reducer {
  /// Sets the dependency value of the specified key path to the given value for this reducer and
  /// the effects it creates.
  ///
  /// ```swift
  /// Todos()
  ///   .dependency(\.uuid, .incrementing)
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A key path that indicates the property of the `DependencyValues` structure to
  ///     update.
  ///   - value: The new value to set for the item specified by `keyPath`.
  /// - Returns: A reducer that has the given value set in its dependencies.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { $0[keyPath: keyPath] = value }
  }

  /// Transforms the dependency value of the specified key path with the given function for this
  /// reducer and the effects it creates.
  ///
  /// - Parameters:
  ///   - keyPath: A key path that indicates the property of the `DependencyValues` structure to
  ///     transform.
  ///   - transform: A closure that is handed a mutable instance of the value specified by the key
  ///     path.
  /// - Returns: A reducer that has the transformed value in its dependencies.
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer behind ``Reducer/dependency(_:_:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  let base: Base
  let update: (inout DependencyValues) -> Void

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(self.update) {
      self.base.reduce(into: &state, action: action)
    }
  }
}

extension _DependencyKeyWritingReducer {
  /// ``Reducer/dependency(_:_:)`` on a reducer that already writes dependencies: one reducer that
  /// writes them all, of the same type, the value written closest to the base winning as when
  /// they nest.
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value>,
    _ value: Value
  ) -> Self {
    let inner = self.update
    return Self(base: self.base) { dependencies in
      dependencies[keyPath: keyPath] = value
      inner(&dependencies)
    }
  }

  /// ``Reducer/transformDependency(_:transform:)`` on a reducer that already writes
  /// dependencies, fused as ``dependency(_:_:)`` is.
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V>,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> Self {
    let inner = self.update
    return Self(base: self.base) { dependencies in
      transform(&dependencies[keyPath: keyPath])
      inner(&dependencies)
    }
  }
}
