extension Optional {
  /// Mutates the wrapped value in place, without a copy, when there is one.
  mutating func _modifyIfPresent<R>(_ body: (inout Wrapped) -> R) -> R? {
    guard case .some(var wrapped) = self else { return nil }
    self = nil
    defer { self = .some(wrapped) }
    return body(&wrapped)
  }
}
