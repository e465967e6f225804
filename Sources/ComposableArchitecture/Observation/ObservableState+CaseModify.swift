extension CasePathable where Self: ObservableState {
  /// The value of a case, read and written in place, as TCA's tests write state changes
  /// through an enum: `$0.destination?.counter?.count = 1`.
  ///
  /// Writing changes the value of the current case only: when the enum is in another case, or
  /// the new value is `nil`, nothing changes (switch cases with `state = .counter(…)`).
  public subscript<Value>(
    dynamicMember keyPath: KeyPath<Self.AllCasePaths, AnyCasePath<Self, Value>>
  ) -> Value? {
    get { Self.allCasePaths[keyPath: keyPath].extract(from: self) }
    set {
      let casePath = Self.allCasePaths[keyPath: keyPath]
      guard casePath.extract(from: self) != nil, let newValue else { return }
      self = casePath.embed(newValue)
    }
  }
}
