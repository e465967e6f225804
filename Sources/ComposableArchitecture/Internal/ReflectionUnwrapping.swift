import StepChanges

// The property wrappers a reflected state holds: written as the values they wrap, as their own
// `Codable` writes them when their values are `Codable`.

extension Shared: _ReflectionUnwrapping {
  public var _reflectedValue: Any { self.wrappedValue }
}

extension SharedReader: _ReflectionUnwrapping {
  public var _reflectedValue: Any { self.wrappedValue }
}

extension PresentationState: _ReflectionUnwrapping {
  public var _reflectedValue: Any { self.wrappedValue as Any }
}
