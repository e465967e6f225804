import Foundation

/// A point in time after which each shared value's first change keeps the value it replaced,
/// so that a state captured at this point and encoded later encodes as it was then.
///
/// A state holds its shared values by reference: a recorder that encodes on another thread
/// would otherwise read a value changed after the action it records.
public final class _SharedMoment: @unchecked Sendable {
  // NB: Unchecked: `earlier` and `next` are only reached under `lock`.
  private let lock = NSLock()
  private var earlier: [ObjectIdentifier: Any] = [:]
  private var next: _SharedMoment?

  /// The moment whose changes a state captured now encodes against, while one is set.
  @TaskLocal static var encoding: _SharedMoment?

  init() {}

  deinit {
    // NB: One after another, not each from the one before: a line of thousands of moments let
    // go at once would otherwise release them recursively, beyond the stack.
    var next = self.next
    self.next = nil
    while isKnownUniquelyReferenced(&next) {
      let following = next!.next
      next!.next = nil
      next = following
    }
  }

  /// Runs `body`, in which shared values encode as they were at this moment.
  public func encoding<R>(_ body: () throws -> R) rethrows -> R {
    try Self.$encoding.withValue(self, operation: body)
  }

  /// What the value of box `id` was at this moment, when it changed since; `nil` when it did
  /// not.
  func valueBeforeFirstChange(of id: ObjectIdentifier) -> Any? {
    var moment: _SharedMoment? = self
    while let current = moment {
      let (value, next) = current.lock.withLock { (current.earlier[id], current.next) }
      if let value { return value }
      moment = next
    }
    return nil
  }

  fileprivate func keep(_ value: Any, of id: ObjectIdentifier) {
    self.lock.withLock {
      if self.earlier[id] == nil { self.earlier[id] = value }
    }
  }

  fileprivate func follow(with next: _SharedMoment) {
    self.lock.withLock { self.next = next }
  }
}

/// The moments of one recorder, one after another: the newest keeps the values changes replace,
/// and each older one finds the later changes through the newer ones.
public final class _SharedMomentLine: @unchecked Sendable {
  // NB: Unchecked: `newest` is only reached under `lock`.
  private let lock = NSLock()
  private var newest: _SharedMoment?

  /// A line that keeps the changes of every shared value from its first ``mark()``.
  public init() {
    _SharedMoments.lines.withValue { $0[ObjectIdentifier(self)] = _SharedMoments.Weak(self) }
  }

  deinit {
    let id = ObjectIdentifier(self)
    _SharedMoments.lines.withValue { _ = $0.removeValue(forKey: id) }
  }

  /// A new moment, now: the state captured now encodes against it.
  public func mark() -> _SharedMoment {
    let moment = _SharedMoment()
    self.lock.withLock {
      self.newest?.follow(with: moment)
      self.newest = moment
    }
    return moment
  }

  fileprivate func keep(_ value: Any, of id: ObjectIdentifier) {
    self.lock.withLock { self.newest }?.keep(value, of: id)
  }
}

/// The lines of every recorder, which each change of a shared value is told.
enum _SharedMoments {
  final class Weak: @unchecked Sendable {
    // NB: Unchecked: only read and written under the registry's lock.
    weak var line: _SharedMomentLine?
    init(_ line: _SharedMomentLine) { self.line = line }
  }

  static let lines = _Locked<[ObjectIdentifier: Weak]>([:])

  /// Keeps `value`, which box `id` held before a change, in every line's newest moment.
  static func keep(_ value: Any, of id: ObjectIdentifier) {
    let lines = Self.lines.withValue { $0.isEmpty ? [] : $0.values.compactMap(\.line) }
    for line in lines { line.keep(value, of: id) }
  }
}
