extension StatePath {
  /// A path read in state after state of one type, as a search reads what it watches: where it
  /// goes through stored properties and elements by position, the way there is found once, in a
  /// first state, and taken again without looking anything up.
  ///
  /// What it reads is what ``StatePath/value(in:)`` reads: a state where the way found does not
  /// go (a value of another type on the way, an element that is not there) is read by
  /// `value(in:)` itself.
  struct Reader {
    let path: StatePath
    private let steps: [Step]?

    private enum Step {
      /// A stored property of a value of one type, by key path.
      case property(of: ObjectIdentifier, AnyKeyPath)
      /// An element of a collection, by position.
      case element(Int)
    }

    /// A reader of `path`, the way found in `sample`.
    init(_ path: StatePath, in sample: Any) {
      self.path = path
      var steps: [Step] = []
      var value = sample
      for component in path.components {
        switch component {
        case let .index(index):
          guard let indexed = StatePath.unwrapped(value) as? any _PathIndexable,
            let element = indexed._element(at: index)
          else {
            self.steps = nil
            return
          }
          steps.append(.element(index))
          value = element
        case let .name(name):
          guard let keyPath = StatePath.storedPropertyKeyPath(name, of: value),
            let property = value[keyPath: keyPath]
          else {
            self.steps = nil
            return
          }
          steps.append(.property(of: ObjectIdentifier(type(of: value)), keyPath))
          value = property
        case .id:
          self.steps = nil
          return
        }
      }
      self.steps = steps
    }

    /// The value at the path in `root`, as ``StatePath/value(in:)`` reads it.
    func value(in root: Any) throws -> Any {
      guard let steps = self.steps else { return try self.path.value(in: root) }
      var value = root
      for step in steps {
        switch step {
        case let .property(type, keyPath):
          guard ObjectIdentifier(Swift.type(of: value)) == type,
            let property = value[keyPath: keyPath]
          else { return try self.path.value(in: root) }
          value = property
        case let .element(index):
          guard let indexed = StatePath.unwrapped(value) as? any _PathIndexable,
            let element = indexed._element(at: index)
          else { return try self.path.value(in: root) }
          value = element
        }
      }
      return value
    }
  }
}
