import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What changed between two values of a state, worked out from the values rather than from their
/// JSON: the code the `@ObservableState` macro generates visits only what differs, and tells a
/// sink each change as a JSON Patch operation (RFC 6902) whose value is still a Swift value.
///
/// The operations are those a comparison of the two values' JSON makes (members in the order of
/// their names, removals first; an array compared where its ends stop agreeing): where the
/// values alone cannot say (an enum, a dictionary, a type without generated code, elements in
/// another order), the sink is asked to compare the two values' JSON itself.

/// Where a state's changes go.
public protocol StepChangeSink {
  /// `value` was added at `path` (an object's member, or an array's element).
  mutating func add(_ path: [String], _ value: any Encodable)
  /// What was at `path` was removed.
  mutating func remove(_ path: [String])
  /// What was at `path` became `value`.
  mutating func replace(_ path: [String], _ value: any Encodable)
  /// What is at `path` went from `old` to `new`, which the sink compares as JSON.
  mutating func compare(_ path: [String], _ old: any Encodable, _ new: any Encodable)
  /// What is at `path` cannot be compared from the values: a shared value, which both states
  /// hold by reference. The sink must work the changes out otherwise.
  mutating func cannotCompare(_ path: [String])
}

/// A value whose changes generated code works out: a struct of an `@ObservableState` state.
public protocol _StepChanging {
  /// Tells `sink` what changed from `old` to `self`, at `path`.
  func _appendStepChanges<Sink: StepChangeSink>(
    from old: Self, at path: [String], into sink: inout Sink)
  /// Whether every member is the same bits as `other`'s (see ``_StepChanges/isIdentical(_:_:)``):
  /// member by member, so that the padding between them does not count.
  func _isIdentical(to other: Self) -> Bool
}

extension _StepChanging {
  fileprivate func _appendStepChanges<Sink: StepChangeSink>(
    fromAny old: Any, at path: [String], into sink: inout Sink
  ) {
    self._appendStepChanges(from: old as! Self, at: path, into: &sink)
  }
}

/// A collection that encodes as a JSON array of its elements: `Array`, `IdentifiedArray`.
public protocol _StepChangingArray {
  associatedtype _Element
  var _stepElements: [_Element] { get }
}

extension Array: _StepChangingArray {
  public var _stepElements: [Element] { self }
}

/// An `Optional`, told apart at run time.
private protocol _StepChangingOptional {
  func _appendOptionalChanges<Sink: StepChangeSink>(
    from old: Any, at path: [String], into sink: inout Sink)
}

extension Optional: _StepChangingOptional {
  fileprivate func _appendOptionalChanges<Sink: StepChangeSink>(
    from old: Any, at path: [String], into sink: inout Sink
  ) {
    switch (old as! Self, self) {
    case (nil, nil):
      return
    case let (old?, new?):
      _StepChanges.value(old, new, at: path, into: &sink)
    default:
      // NB: Inside an array, `nil` is `null`: the element is replaced.
      _StepChanges.replace(path, self, into: &sink)
    }
  }
}

extension _StepChangingArray {
  fileprivate func _appendArrayChanges<Sink: StepChangeSink>(
    from old: Any, at path: [String], into sink: inout Sink
  ) {
    _StepChanges.elements(
      (old as! Self)._stepElements, self._stepElements, at: path, into: &sink,
      whole: (old, self))
  }
}

/// The runtime of the generated code.
public enum _StepChanges {
  /// The members of one object (a struct), compared twice, as the JSON comparison tells them:
  /// first for the members removed, then for the rest, each time in the order of the members'
  /// names.
  public struct Object<Sink: StepChangeSink> {
    /// Where the object is.
    public let path: [String]
    /// Whether this pass is the one for removed members.
    public private(set) var isRemovals = true
    /// Where the changes go.
    public var sink: Sink

    /// Starts the object at `path`, telling `sink`; the removals come first.
    public init(path: [String], sink: Sink) {
      self.path = path
      self.sink = sink
    }

    /// Goes on to the members that were not removed.
    public mutating func nextPass() {
      self.isRemovals = false
    }

    /// The sink, once every member was compared.
    public consuming func finish(into sink: inout Sink) {
      sink = self.sink
    }
  }

  /// Compares member `key` of an object whose value has generated code (or says it cannot be
  /// compared from its bits).
  @inlinable
  public static func member<Value: _StepChanging, Sink>(
    _ key: String, _ old: Value, _ new: Value, in object: inout Object<Sink>
  ) {
    if object.isRemovals || old._isIdentical(to: new) { return }
    value(old, new, at: object.path + [key], into: &object.sink)
  }

  /// Compares member `key` of an object, an array of values with generated code.
  @inlinable
  public static func member<Element: _StepChanging, Sink>(
    _ key: String, _ old: [Element], _ new: [Element], in object: inout Object<Sink>
  ) {
    if object.isRemovals || isIdentical(old, new) { return }
    generatedElements(old, new, at: object.path + [key], into: &object.sink, whole: (old, new))
  }

  /// Compares member `key` of an object: a value whose member is always written.
  @inlinable
  public static func member<Value, Sink>(
    _ key: String, _ old: Value, _ new: Value, in object: inout Object<Sink>
  ) {
    if object.isRemovals || isIdentical(old, new) { return }
    value(old, new, at: object.path + [key], into: &object.sink)
  }

  /// Compares member `key` of an object whose value is optional: absent when `nil`, as
  /// `Codable` writes it.
  @inlinable
  public static func member<Value, Sink>(
    _ key: String, _ old: Value?, _ new: Value?, in object: inout Object<Sink>
  ) {
    switch (old, new) {
    case (nil, nil):
      return
    case let (old?, new?):
      if object.isRemovals || isIdentical(old, new) { return }
      value(old, new, at: object.path + [key], into: &object.sink)
    case (_?, nil):
      if object.isRemovals { object.sink.remove(object.path + [key]) }
    case let (nil, new?):
      if !object.isRemovals { add(object.path + [key], new, into: &object.sink) }
    }
  }

  /// Compares two values at `path`.
  public static func value<Value, Sink: StepChangeSink>(
    _ old: Value, _ new: Value, at path: [String], into sink: inout Sink
  ) {
    if isIdentical(old, new) { return }
    if replacesLeaf(old, new, at: path, into: &sink) { return }
    // NB: An optional first: a cast to a protocol looks through it.
    if let new = new as? any _StepChangingOptional {
      new._appendOptionalChanges(from: old, at: path, into: &sink)
    } else if let new = new as? any _StepChanging {
      new._appendStepChanges(fromAny: old, at: path, into: &sink)
    } else if let new = new as? any _StepChangingArray {
      new._appendArrayChanges(from: old, at: path, into: &sink)
    } else if let equal = isEqual(old, new), equal {
      return
    } else {
      sink.compare(path, encodable(old), encodable(new))
    }
  }

  /// A number, a Boolean, a UUID or a string, told by its type alone (no cast): replaced when
  /// it changed, as a comparison of its JSON would. `false` for any other type.
  ///
  /// Values of these types whose bits differ differ, but for strings, which are compared.
  static func replacesLeaf<Value, Sink: StepChangeSink>(
    _ old: Value, _ new: Value, at path: [String], into sink: inout Sink
  ) -> Bool {
    func replace<Leaf: Encodable>(_: Leaf.Type) -> Bool {
      sink.replace(path, unsafeBitCast(new, to: Leaf.self))
      return true
    }
    switch ObjectIdentifier(Value.self) {
    case ObjectIdentifier(String.self):
      let (old, new) = (unsafeBitCast(old, to: String.self), unsafeBitCast(new, to: String.self))
      if old != new { sink.replace(path, new) }
      return true
    case ObjectIdentifier(Bool.self): return replace(Bool.self)
    case ObjectIdentifier(Int.self): return replace(Int.self)
    case ObjectIdentifier(Int64.self): return replace(Int64.self)
    case ObjectIdentifier(Int32.self): return replace(Int32.self)
    case ObjectIdentifier(UInt.self): return replace(UInt.self)
    case ObjectIdentifier(UInt64.self): return replace(UInt64.self)
    case ObjectIdentifier(UUID.self): return replace(UUID.self)
    default: return false
    }
  }

  /// A value as the sink writes it: by its own `Encodable`, else by reflection, in the shape
  /// synthesized `Codable` would give it.
  @usableFromInline
  static func encodable(_ value: Any) -> any Encodable {
    value as? any Encodable ?? _ReflectedValue(value)
  }

  /// The elements of two arrays at `path`: the common ends stay; what lies between is compared
  /// pair by pair, then the rest removed (from the end) or added. Between ends of the same
  /// length with more than one element, the elements may have moved: the sink compares the
  /// whole arrays' JSON, which says.
  static func elements<Element, Sink: StepChangeSink>(
    _ old: [Element], _ new: [Element], at path: [String], into sink: inout Sink,
    whole: (old: Any, new: Any)
  ) {
    if let type = Element.self as? any _StepChanging.Type {
      func generated<E: _StepChanging>(_: E.Type) {
        // NB: The same type: reinterpreted, not cast element by element.
        let (old, new) = (unsafeBitCast(old, to: [E].self), unsafeBitCast(new, to: [E].self))
        self.generatedElements(old, new, at: path, into: &sink, whole: whole)
      }
      return generated(type)
    }
    let equal = equality(of: Element.self)
    self.elements(
      old, new, at: path, into: &sink, whole: whole,
      same: { isIdentical($0, $1) ? true : equal?($0, $1) },
      diff: { value($0, $1, at: $2, into: &$3) })
  }

  /// ``elements(_:_:at:into:whole:)`` of elements with generated code, which is called
  /// directly.
  public static func generatedElements<Element: _StepChanging, Sink: StepChangeSink>(
    _ old: [Element], _ new: [Element], at path: [String], into sink: inout Sink,
    whole: (old: Any, new: Any)
  ) {
    let equal = equality(of: Element.self)
    self.elements(
      old, new, at: path, into: &sink, whole: whole,
      same: { $0._isIdentical(to: $1) ? true : equal?($0, $1) },
      diff: { old, new, path, sink in
        if !old._isIdentical(to: new) { new._appendStepChanges(from: old, at: path, into: &sink) }
      })
  }

  /// ``elements(_:_:at:into:whole:)`` with `same`, which says whether two elements are equal
  /// (or `nil` when it cannot), and `diff`, which compares two.
  static func elements<Element, Sink: StepChangeSink>(
    _ old: [Element], _ new: [Element], at path: [String], into sink: inout Sink,
    whole: (old: Any, new: Any), same: (Element, Element) -> Bool?,
    diff: (_ old: Element, _ new: Element, _ path: [String], _ sink: inout Sink) -> Void
  ) {
    // NB: An element whose bytes are those of the other is the same; one whose bytes differ
    // (a changed member, or only the padding between members) is asked about.
    let stride = MemoryLayout<Element>.stride
    let size = MemoryLayout<Element>.size
    let bitwise = !(Element.self is AnyClass) && size > 0
    let ends: (prefix: Int, suffix: Int)? = old.withUnsafeBytes { oldBytes in
      new.withUnsafeBytes { newBytes in
        func sameBytes(_ left: Int, _ right: Int) -> Bool {
          bitwise
            && memcmp(
              oldBytes.baseAddress! + left * stride, newBytes.baseAddress! + right * stride, size)
              == 0
        }
        // NB: Runs of elements whose bytes agree are skipped a block at a time.
        func sameBlock(_ left: Int, _ right: Int, _ count: Int) -> Bool {
          bitwise
            && memcmp(
              oldBytes.baseAddress! + left * stride, newBytes.baseAddress! + right * stride,
              count * stride) == 0
        }
        let block = 32
        var prefix = 0
        while prefix < min(old.count, new.count) {
          if prefix + block <= min(old.count, new.count), sameBlock(prefix, prefix, block) {
            prefix += block
            continue
          }
          if sameBytes(prefix, prefix) {
            prefix += 1
            continue
          }
          guard let equal = same(old[prefix], new[prefix]) else { return nil }
          guard equal else { break }
          prefix += 1
        }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix {
          let (left, right) = (old.count - 1 - suffix, new.count - 1 - suffix)
          if suffix + block <= min(old.count, new.count) - prefix,
            sameBlock(left - block + 1, right - block + 1, block)
          {
            suffix += block
            continue
          }
          if sameBytes(left, right) {
            suffix += 1
            continue
          }
          guard let equal = same(old[left], new[right]) else { return nil }
          guard equal else { break }
          suffix += 1
        }
        return (prefix, suffix)
      }
    }
    guard let (prefix, suffix) = ends else {
      return compareWhole(whole, at: path, into: &sink)
    }
    let oldMiddle = old.count - prefix - suffix
    let newMiddle = new.count - prefix - suffix
    if oldMiddle == newMiddle, oldMiddle > 1 {
      return compareWhole(whole, at: path, into: &sink)
    }
    let paired = min(oldMiddle, newMiddle)
    for offset in 0..<paired {
      diff(old[prefix + offset], new[prefix + offset], path + [String(prefix + offset)], &sink)
    }
    if oldMiddle > paired {
      for index in ((prefix + paired)..<(prefix + oldMiddle)).reversed() {
        sink.remove(path + [String(index)])
      }
    }
    for index in (prefix + paired)..<(prefix + newMiddle) {
      add(path + [String(index)], new[index], into: &sink)
    }
  }

  static func compareWhole<Sink: StepChangeSink>(
    _ whole: (old: Any, new: Any), at path: [String], into sink: inout Sink
  ) {
    sink.compare(path, encodable(whole.old), encodable(whole.new))
  }

  @usableFromInline
  static func add<Value, Sink: StepChangeSink>(
    _ path: [String], _ value: Value, into sink: inout Sink
  ) {
    sink.add(path, encodable(value))
  }

  static func replace<Value, Sink: StepChangeSink>(
    _ path: [String], _ value: Value, into sink: inout Sink
  ) {
    sink.replace(path, encodable(value))
  }

  /// Whether two values are the same bits: for a value type, the same value (a copy-on-write
  /// buffer shared, a number unchanged), read without reading what the buffers hold. Never for
  /// a class, whose object may have changed in place.
  @inlinable
  public static func isIdentical<Value>(_ old: Value, _ new: Value) -> Bool {
    guard !(Value.self is AnyClass) else { return false }
    return withUnsafeBytes(of: old) { old in
      withUnsafeBytes(of: new) { new in
        guard let left = old.baseAddress, let right = new.baseAddress else { return true }
        return memcmp(left, right, old.count) == 0
      }
    }
  }

  /// Whether two generated values are the same bits, member by member.
  @inlinable
  public static func isIdentical<Value: _StepChanging>(_ old: Value, _ new: Value) -> Bool {
    old._isIdentical(to: new)
  }

  /// Whether two values are equal, when their type is `Equatable`; `nil` when it is not.
  static func isEqual<Value>(_ old: Value, _ new: Value) -> Bool? {
    equality(of: Value.self).map { $0(old, new) }
  }

  /// `==` of `Value`, when it is `Equatable`: its conformance looked up once, for every pair
  /// of elements compared with it, and no value boxed.
  static func equality<Value>(of type: Value.Type) -> ((Value, Value) -> Bool)? {
    guard let equatable = type as? any Equatable.Type else { return nil }
    func opened<E: Equatable>(_: E.Type) -> (Value, Value) -> Bool {
      // NB: `E` is `Value`.
      { unsafeBitCast($0, to: E.self) == unsafeBitCast($1, to: E.self) }
    }
    return opened(equatable)
  }
}
