import CustomDump

extension StatePath {
  /// The first place where two values of the same type differ, walking their stored properties
  /// in order: the deepest path whose values differ while their children cannot be matched up
  /// one to one (a leaf, another enum case, collections of other lengths). `nil` when they
  /// dump alike.
  ///
  /// ```swift
  /// StatePath.firstDifference(recorded, replayed)  // library.songs[5].isFavorite
  /// ```
  public static func firstDifference(_ first: Any, _ second: Any) -> StatePath? {
    var components: [Component] = []
    var (left, right) = (first, second)
    guard String(customDumping: left) != String(customDumping: right) else { return nil }
    // NB: Invariant: `left` and `right` dump differently.
    descending: while true {
      let leftMirror = Self.mirror(of: left)
      let rightMirror = Self.mirror(of: right)
      let leftChildren = Array(leftMirror.children)
      let rightChildren = Array(rightMirror.children)
      guard leftMirror.displayStyle == rightMirror.displayStyle,
        !leftChildren.isEmpty, leftChildren.count == rightChildren.count,
        zip(leftChildren, rightChildren).allSatisfy({ $0.label == $1.label })
      else { break }
      if leftMirror.displayStyle == .dictionary {
        // Entries by key: two equal dictionaries may list them in different orders.
        let leftEntries = Self.keyedEntries(of: leftMirror)
        let rightEntries = Dictionary(
          Self.keyedEntries(of: rightMirror).map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        guard leftEntries.count == leftChildren.count, rightEntries.count == leftEntries.count,
          let (key, leftValue, rightValue) = leftEntries.sorted(by: { $0.key < $1.key })
            .lazy.compactMap({ entry in
              rightEntries[entry.key].map { (entry.key, entry.value, $0) }
            })
            .first(where: { String(customDumping: $0.1) != String(customDumping: $0.2) }),
          Set(leftEntries.map(\.key)) == Set(rightEntries.keys)
        else { break }
        // A stack's screens are keyed by identity (`#0`), a dictionary's values by name.
        let isStack = leftChildren.contains { child in
          Mirror(reflecting: child.value).children.first.map { !($0.value is String) } ?? false
        }
        components.append(
          isStack ? .id(key.hasPrefix("#") ? String(key.dropFirst()) : key) : .name(key))
        (left, right) = (leftValue, rightValue)
        continue
      }
      let isCollection = [.collection, .set].contains(leftMirror.displayStyle)
      for (index, (leftChild, rightChild)) in zip(leftChildren, rightChildren).enumerated() {
        guard String(customDumping: leftChild.value) != String(customDumping: rightChild.value)
        else { continue }
        if isCollection || leftChild.label == nil {
          components.append(.index(index))
        } else if let label = leftChild.label {
          // A property wrapper's storage, `_destination`, is named as its property.
          let isStorage =
            label.hasPrefix("_") && !leftChildren.contains { $0.label == String(label.dropFirst()) }
          components.append(.name(isStorage ? String(label.dropFirst()) : label))
        }
        (left, right) = (leftChild.value, rightChild.value)
        continue descending
      }
      break
    }
    return StatePath(components: components)
  }

  /// Whether two paths name the same property, whatever the indices: `todos[3].title` and
  /// `todos[0].title` do.
  public func isSameProperty(as other: StatePath) -> Bool {
    guard self.components.count == other.components.count else { return false }
    return zip(self.components, other.components).allSatisfy {
      switch ($0, $1) {
      case let (.name(left), .name(right)): left == right
      case (.index, .index), (.id, .id): true
      default: false
      }
    }
  }
}

extension StatePath {
  /// A dictionary's entries with their keys written out: names, or a stack's identities (`#0`).
  static func keyedEntries(of mirror: Mirror) -> [(key: String, value: Any)] {
    mirror.children.compactMap { child in
      Self.pair(child.value).map { ($0.key as? String ?? "\($0.key)", $0.value) }
    }
  }
}
