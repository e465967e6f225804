import CustomDump

/// What changed between two values, in `CustomDump.diff`'s words, line for line, at the cost of
/// what changed rather than of the whole value.
///
/// It compares with `==` first, and walks only into structs and collections whose parts differ:
/// unchanged fields are dumped a level deep and unchanged runs of elements are counted
/// (`… (999 unchanged)`), as `CustomDump.diff` writes them, without dumping or mirroring the
/// elements themselves. Each part that differs is handed to `CustomDump.diff` on its own, and
/// anything it cannot walk faithfully (classes, custom dumps, reordered elements) goes to
/// `CustomDump.diff` whole.
///
/// - Returns: The diff, or `nil` when the values dump alike.
public func prunedDiff<T>(_ lhs: T, _ rhs: T) -> String? {
  // NB: Without `==`, equal parts cannot be told apart cheaply: CustomDump walks it all.
  guard let equal = areEqual(lhs, rhs) else { return CustomDump.diff(lhs, rhs) }
  if equal { return nil }
  var lines: [String] = []
  var differ = PrunedDiffer()
  guard let walkable = differ.node(lhs, rhs, label: nil, separator: "", indent: 0, into: &lines)
  else { return CustomDump.diff(lhs, rhs) }
  return walkable ? lines.joined(separator: "\n") : CustomDump.diff(lhs, rhs)
}

/// Whether two values are equal by `==`, when they are of one `Equatable` type; `nil` when that
/// cannot be known without mirrors.
func areEqual(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let lhs = lhs as? any Equatable else { return nil }
  func open<Value: Equatable>(_ lhs: Value) -> Bool? {
    guard let rhs = rhs as? Value else { return nil }
    return lhs == rhs
  }
  return open(lhs)
}

private struct PrunedDiffer {
  /// Writes the diff of one part, named `label` (`nil` at the root), followed by `separator`,
  /// at `indent`.
  ///
  /// - Returns: `nil` or `false` at the root when the whole diff must be left to CustomDump.
  mutating func node(
    _ lhs: Any, _ rhs: Any, label: String?, separator: String, indent: Int,
    into lines: inout [String]
  ) -> Bool? {
    let kind = Self.kind(of: lhs, rhs)
    switch kind {
    case let .structure(lhsChildren, rhsChildren):
      // NB: A struct whose own `==` differs from its parts' is CustomDump's to describe.
      guard lhsChildren.count == rhsChildren.count,
        zip(lhsChildren, rhsChildren).contains(where: { areEqual($0.value, $1.value) == false }),
        let header = Self.header(of: lhs)
      else { break }
      lines.append(Self.line(" ", indent, (label.map { "\($0): " } ?? "") + header))
      for index in lhsChildren.indices {
        let (left, right) = (lhsChildren[index], rhsChildren[index])
        let childSeparator = index == lhsChildren.count - 1 ? "" : ","
        self.child(
          left.value, right.value, label: left.label ?? "", separator: childSeparator,
          indent: indent + 2, into: &lines)
      }
      lines.append(Self.line(" ", indent, ")" + separator))
      return true

    case let .collection(lhsElements, rhsElements):
      guard let changes = lhsElements.elementChanges(against: rhsElements) else { break }
      // CustomDump aligns elements by a minimal edit script: the elements that changed in place
      // are that script only when none of them equals an element on the other side.
      guard !changes.changedMatchesAnother else {
        guard let label else { return nil }
        return self.delegate(lhs, rhs, label, separator, indent, &lines)
      }
      let count = changes.count
      let changed = changes.changed
      lines.append(Self.line(" ", indent, (label.map { "\($0): " } ?? "") + "["))
      var start = 0
      for index in changed + [count] {
        let run = index - start
        let isEnd = index == count
        if run == 1 {
          self.dump(
            rhsElements.element(at: start), label: "[\(start)]", separator: isEnd ? "" : ",",
            indent: indent + 2, into: &lines)
        } else if run > 1 {
          lines.append(Self.line(" ", indent + 2, "… (\(run) unchanged)" + (isEnd ? "" : ",")))
        }
        guard !isEnd else { break }
        self.child(
          lhsElements.element(at: index), rhsElements.element(at: index), label: "[\(index)]",
          separator: index == count - 1 ? "" : ",", indent: indent + 2, into: &lines)
        start = index + 1
      }
      lines.append(Self.line(" ", indent, "]" + separator))
      return true

    case .other:
      break
    }
    guard let label else { return nil }
    return self.delegate(lhs, rhs, label, separator, indent, &lines)
  }

  /// A field or an element: dumped a level deep when unchanged, walked or delegated otherwise.
  mutating func child(
    _ lhs: Any, _ rhs: Any, label: String, separator: String, indent: Int,
    into lines: inout [String]
  ) {
    switch areEqual(lhs, rhs) {
    case true?:
      self.dump(rhs, label: label, separator: separator, indent: indent, into: &lines)
    case false?:
      _ = self.node(lhs, rhs, label: label, separator: separator, indent: indent, into: &lines)
    case nil:
      _ = self.delegate(lhs, rhs, label, separator, indent, &lines)
    }
  }

  /// Hands a part to CustomDump, nested as it would be: inside a stand-in struct with the part's
  /// label and a placeholder beside it (a struct of one field is dumped whole).
  mutating func delegate(
    _ lhs: Any, _ rhs: Any, _ label: String, _ separator: String, _ indent: Int,
    _ lines: inout [String]
  ) -> Bool {
    let last = separator.isEmpty
    guard
      let text = CustomDump.diff(
        Labelled(label: label, value: lhs, isLast: last),
        Labelled(label: label, value: rhs, isLast: last))
    else {
      self.dump(rhs, label: label, separator: separator, indent: indent, into: &lines)
      return true
    }
    lines += Self.inner(text.split(separator: "\n", omittingEmptySubsequences: false), indent)
    return true
  }

  /// An unchanged part, as CustomDump writes it: a level deep.
  func dump(
    _ value: Any, label: String, separator: String, indent: Int, into lines: inout [String]
  ) {
    var text = ""
    customDump(
      Labelled(label: label, value: value, isLast: separator.isEmpty), to: &text, maxDepth: 1)
    let dumped = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "  " + $0 }[...]
    lines += Self.inner(Array(dumped), indent)
  }

  /// The lines of a stand-in's dump or diff that belong to its part, at `indent`.
  static func inner<Line: StringProtocol>(_ lines: [Line], _ indent: Int) -> [String] {
    let padding = String(repeating: " ", count: indent)
    return lines.dropFirst().dropLast().compactMap { line in
      // "M   label: …": a marker, a space, the stand-in's two spaces of indentation.
      let marker = line.first ?? " "
      let content = line.dropFirst(4)
      if content.hasPrefix(Labelled.placeholder) { return nil }
      return "\(marker) \(padding)\(content)"
    }
  }

  static func line(_ marker: Character, _ indent: Int, _ text: String) -> String {
    "\(marker) \(String(repeating: " ", count: indent))\(text)"
  }

  /// `Type(` as CustomDump names a struct, by type: CustomDump's naming is costly.
  static let headers = LockIsolated<[ObjectIdentifier: String?]>([:])

  /// `Type(` as CustomDump names a struct.
  static func header(of value: Any) -> String? {
    let type = ObjectIdentifier(Swift.type(of: value))
    if let header = Self.headers.withValue({ $0[type] }) { return header }
    var text = ""
    customDump(value, to: &text, maxDepth: 0)
    let header = text.hasSuffix("(…)") ? String(text.dropLast(2)) : nil
    Self.headers.withValue { $0[type] = header }
    return header
  }

  enum Kind {
    case structure([Mirror.Child], [Mirror.Child])
    case collection(any ComparableElements, any ComparableElements)
    case other
  }

  /// How CustomDump would walk two values, when it is one of the ways this walks faithfully.
  static func kind(of lhs: Any, _ rhs: Any) -> Kind {
    for value in [lhs, rhs] {
      if value is any CustomDumpStringConvertible || value is any CustomDumpRepresentable
        || value is any _CustomDiffObject || type(of: value) is AnyClass
      {
        return .other
      }
    }
    guard type(of: lhs) == type(of: rhs) else { return .other }
    // NB: Collections whose mirror is their elements (a mirror would copy and box them all).
    if !(lhs is any CustomDumpReflectable), let lhs = lhs as? any ComparableElements,
      let rhs = rhs as? any ComparableElements
    {
      return .collection(lhs, rhs)
    }
    let lhsMirror = Self.mirror(lhs)
    let rhsMirror = Self.mirror(rhs)
    switch (lhsMirror.displayStyle, rhsMirror.displayStyle) {
    case (.struct?, .struct?):
      let lhsChildren = Array(lhsMirror.children)
      let rhsChildren = Array(rhsMirror.children)
      // NB: A struct of one field is dumped whole; macros' hidden fields are filtered out.
      guard lhsChildren.count > 1,
        lhsChildren.allSatisfy({ !($0.label ?? "_$").hasPrefix("_$") }),
        zip(lhsChildren, rhsChildren).allSatisfy({ $0.label == $1.label })
      else { return .other }
      return .structure(lhsChildren, rhsChildren)
    default:
      return .other
    }
  }

  static func mirror(_ value: Any) -> Mirror {
    (value as? any CustomDumpReflectable)?.customDumpMirror ?? Mirror(reflecting: value)
  }
}

/// A stand-in struct holding one part under its label, so that CustomDump writes the part as it
/// writes a nested one, with a placeholder field beside it.
private struct Labelled: CustomDumpReflectable {
  static let placeholder = "__prunedDiffPlaceholder"
  let label: String
  let value: Any
  /// Whether the part comes last (no separator after it), so the placeholder goes first.
  let isLast: Bool

  var customDumpMirror: Mirror {
    let part = (label: Optional(self.label), value: self.value)
    let placeholder = (label: Optional(Self.placeholder), value: 0 as Any)
    return Mirror(
      self, children: self.isLast ? [placeholder, part] : [part, placeholder],
      displayStyle: .struct)
  }
}

/// What the elements of two collections of one type have changed, in place.
struct ElementChanges {
  /// How many elements each has.
  var count: Int
  /// The offsets whose elements differ.
  var changed: [Int]
  /// Whether an element that changed equals some element on the other side: the edit script
  /// CustomDump finds may then move it rather than change it in place.
  var changedMatchesAnother: Bool
}

/// A collection whose elements can be compared with `==` without mirrors or boxes.
protocol ComparableElements {
  /// The changes from `self` to `other`, a collection of the same type and length; `nil` for
  /// another type or another length.
  func elementChanges(against other: any ComparableElements) -> ElementChanges?
  /// The element at `offset`, boxed.
  func element(at offset: Int) -> Any
}

extension ComparableElements where Self: RandomAccessCollection, Element: Equatable {
  func elementChanges(against other: any ComparableElements) -> ElementChanges? {
    guard let other = other as? Self, other.count == self.count else { return nil }
    // NB: Compared through buffers: this runs unspecialized, and iterators would cost more than
    // the comparisons.
    let compared = self.withContiguousStorageIfAvailable { left in
      other.withContiguousStorageIfAvailable { right in changes(left, right) }
    }
    return (compared ?? nil)
      ?? Array(self).withUnsafeBufferPointer { left in
        Array(other).withUnsafeBufferPointer { right in changes(left, right) }
      }
  }

  func element(at offset: Int) -> Any {
    self[self.index(self.startIndex, offsetBy: offset)]
  }
}

private func changes<Element: Equatable>(
  _ left: UnsafeBufferPointer<Element>, _ right: UnsafeBufferPointer<Element>
) -> ElementChanges {
  var changed: [Int] = []
  for offset in left.indices where left[offset] != right[offset] {
    changed.append(offset)
  }
  let matches = changed.contains { offset in
    right.contains(left[offset]) || left.contains(right[offset])
  }
  return ElementChanges(count: left.count, changed: changed, changedMatchesAnother: matches)
}

extension Array: ComparableElements where Element: Equatable {}
extension ContiguousArray: ComparableElements where Element: Equatable {}
extension IdentifiedArray: ComparableElements where Element: Equatable {}
