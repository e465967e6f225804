import CustomDump

extension StatePath {
  /// One value inside another, as a path reaches it: what a debugger lists under a state.
  public struct Child {
    /// Its name as a path writes it: `title`, `[3]`, a dictionary's key.
    public let label: String
    /// The step of a path that leads to it.
    public let component: Component
    /// The value.
    public let value: Any
  }

  /// The values a path can reach in `value`, one step down, in order: a struct's or an enum
  /// case's properties (a property wrapper's value under the property's name), a collection's
  /// elements (a presentation as what it presents, a stack as its screens), a dictionary's
  /// entries. Empty for a value with nothing inside.
  public static func children(of value: Any) -> [Child] {
    let mirror = Self.mirror(of: value)
    switch mirror.displayStyle {
    case .collection?, .set?:
      return mirror.children.enumerated().map { index, child in
        Child(label: "[\(index)]", component: .index(index), value: child.value)
      }
    case .dictionary?:
      return mirror.children.enumerated().compactMap { index, child in
        guard let pair = Self.pair(child.value) else { return nil }
        let key = "\(pair.key)"
        return Child(label: key, component: .name(key), value: pair.value)
      }
    default:
      let labels = mirror.children.compactMap(\.label)
      return mirror.children.enumerated().map { index, child in
        guard var label = child.label else {
          return Child(label: ".\(index)", component: .index(index), value: child.value)
        }
        // A property wrapper's storage, `_destination`, is named as its property.
        if label.hasPrefix("_"), !labels.contains(String(label.dropFirst())) {
          label.removeFirst()
        }
        return Child(label: label, component: .name(label), value: child.value)
      }
    }
  }

  /// Whether `value`'s children are elements by position (a collection), rather than named.
  public static func isIndexed(_ value: Any) -> Bool {
    let style = Self.mirror(of: value).displayStyle
    return style == .collection || style == .set
  }

  /// This path with one more step.
  public func appending(_ component: Component) -> StatePath {
    StatePath(components: self.components + [component])
  }

  /// The empty path: the state itself.
  public static var root: StatePath { StatePath(components: []) }
}

extension StatePath {
  /// How many values ``children(of:)`` lists in `value`, without listing them.
  public static func childCount(of value: Any) -> Int {
    Self.mirror(of: value).children.count
  }
}
