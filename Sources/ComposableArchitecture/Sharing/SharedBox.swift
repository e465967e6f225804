import Foundation

#if os(Linux)
  import Synchronization
#endif

/// The storage of one shared value, which every ``Shared`` of it reads and writes.
///
/// It holds the value, and in a test the value as of the last assertion (its snapshot) while a
/// change is waiting to be asserted. A box made for a key saves each change through the key and
/// takes the changes the key reports from outside (a file another program rewrote).
final class _SharedBox<Root>: _AnySharedBox, @unchecked Sendable {
  // NB: Unchecked: every stored property is read and written under `lock`.
  private let lock = NSRecursiveLock()
  // NB: In memory of its own, under `lock`: a change's closure may read the value it changes
  // (`$items.withLock { $0.remove(id: item.id) }`, where `item` shares `items`), as TCA allows,
  // and reads it as the change has left it so far. A stored property would make that read an
  // exclusivity violation, which stops the process.
  private let storage: UnsafeMutablePointer<Root>
  private var value: Root {
    get { self.storage.pointee }
    set { self.storage.pointee = newValue }
    _modify { yield &self.storage.pointee }
  }
  private var snapshot: Root?
  private var subscription: SharedSubscription?
  private var listeners: [Int: @Sendable (Root) -> Void] = [:]
  private var nextListener = 0
  private let save: (@Sendable (Root) -> Void)?
  /// What the key is, in words (`fileStorage(/tmp/settings.json)`), or `nil` for a value shared
  /// without a key.
  let keyDescription: String?
  /// The key's name in recordings (`.fileStorage(settings.json)`), or `nil` without a key.
  let recordedName: String?

  init(
    value: Root, keyDescription: String? = nil, recordedName: String? = nil,
    save: (@Sendable (Root) -> Void)? = nil
  ) {
    self.storage = .allocate(capacity: 1)
    self.storage.initialize(to: value)
    self.keyDescription = keyDescription
    self.recordedName = recordedName ?? keyDescription
    self.save = save
    _SharedBoxCount.change(by: 1)
  }

  deinit {
    self.subscription?.cancel()
    self.storage.deinitialize(count: 1)
    self.storage.deallocate()
    _SharedBoxCount.change(by: -1)
  }

  /// Keeps `subscription` for as long as the box lives.
  func keep(_ subscription: SharedSubscription) {
    self.lock.withLock { self.subscription = subscription }
  }

  var current: Root {
    self.lock.withLock { self.value }
  }

  /// The value as of the last assertion while a change waits to be asserted, else the value.
  var expected: Root {
    self.lock.withLock { self.snapshot ?? self.value }
  }

  var hasSnapshot: Bool {
    self.lock.withLock { self.snapshot != nil }
  }

  /// The value as a state captured at `moment` holds it: what it was before the first change
  /// since, else the value.
  func value(asOf moment: _SharedMoment?) -> Root {
    self.lock.withLock {
      guard let moment, let earlier = moment.valueBeforeFirstChange(of: ObjectIdentifier(self))
      else { return self.value }
      return earlier as! Root
    }
  }

  /// Changes the value, saves it through the key, and tells the listeners.
  func modify<R>(_ body: (inout Root) throws -> R) rethrows -> R {
    let (result, newValue) = try self.lock.withLock {
      let old = self.value
      let result = try body(&self.value)
      // NB: Under the lock, so that a state being encoded reads either the old value or this.
      _SharedMoments.keep(old, of: ObjectIdentifier(self))
      // NB: Saved under the lock too: a change the key reports from outside is taken (or found
      // overtaken) before or after this change is saved, never in between.
      self.save?(self.value)
      return (result, self.value)
    }
    self.tell(newValue)
    SharedChanges.tell(
      id: ObjectIdentifier(self), key: self.keyDescription, name: self.recordedName,
      value: newValue, kind: .write)
    return result
  }

  /// Takes a value the key reports from outside: neither saved again nor tracked. With
  /// `isCurrent`, only if it still holds under the lock (the app did not change the value since).
  func receive(_ newValue: Root, if isCurrent: (@Sendable () -> Bool)? = nil) {
    let taken = self.lock.withLock {
      if let isCurrent, !isCurrent() { return false }
      _SharedMoments.keep(self.value, of: ObjectIdentifier(self))
      self.value = newValue
      return true
    }
    guard taken else { return }
    self.tell(newValue)
    SharedChanges.tell(
      id: ObjectIdentifier(self), key: self.keyDescription, name: self.recordedName,
      value: newValue, kind: .fromOutside)
  }

  /// Sets the value, telling no one: a replay's value set from a decoded state.
  func reset(_ newValue: Root) {
    self.lock.withLock { self.value = newValue }
  }

  /// Changes the snapshot (made from the value first when there is none): an assertion's
  /// expectation.
  func modifyExpected<R>(_ body: (inout Root) throws -> R) rethrows -> R {
    try self.lock.withLock {
      var expected = self.snapshot ?? self.value
      defer { self.snapshot = expected }
      return try body(&expected)
    }
  }

  func takeSnapshotIfNeeded() {
    self.lock.withLock {
      if self.snapshot == nil { self.snapshot = self.value }
    }
  }

  func clearSnapshot() {
    self.lock.withLock { self.snapshot = nil }
  }

  /// Calls `listener` with each new value until the returned token is cancelled.
  func listen(_ listener: @escaping @Sendable (Root) -> Void) -> SharedSubscription {
    let id = self.lock.withLock {
      defer { self.nextListener += 1 }
      self.listeners[self.nextListener] = listener
      return self.nextListener
    }
    return SharedSubscription { [weak self] in
      self?.lock.withLock { _ = self?.listeners.removeValue(forKey: id) }
    }
  }

  fileprivate func tell(_ newValue: Root) {
    let listeners = self.lock.withLock { Array(self.listeners.values) }
    for listener in listeners { listener(newValue) }
  }
}

/// A ``_SharedBox`` of any value type.
protocol _AnySharedBox: AnyObject, Sendable {
  var hasSnapshot: Bool { get }
  var keyDescription: String? { get }
  var recordedName: String? { get }
  func clearSnapshot()
  /// A new box holding this one's value, with the same names.
  func copy() -> any _AnySharedBox
  /// The value, as JSON; `nil` when it is not `Encodable`.
  func encodedValue() throws -> Data?
  /// Takes a value from JSON, as from outside: told to listeners and observers, not saved.
  func receive(json: Data) throws
  /// Takes a value from JSON; with `telling`, its listeners hear of it (observers do not).
  func set(json: Data, telling: Bool) throws
  /// Calls `listener` after each change, until the returned token is cancelled.
  func listenForChanges(_ listener: @escaping @Sendable () -> Void) -> SharedSubscription
}

extension _SharedBox {
  func copy() -> any _AnySharedBox {
    _SharedBox(
      value: self.current, keyDescription: self.keyDescription, recordedName: self.recordedName)
  }

  func encodedValue() throws -> Data? {
    guard let value = self.current as? any Encodable else { return nil }
    return try JSONEncoder().encode(value)
  }

  func receive(json: Data) throws {
    self.receive(try self.decode(json: json))
  }

  func set(json: Data, telling: Bool) throws {
    let value = try self.decode(json: json)
    self.reset(value)
    if telling { self.tell(value) }
  }

  func listenForChanges(_ listener: @escaping @Sendable () -> Void) -> SharedSubscription {
    self.listen { _ in listener() }
  }

  private func decode(json: Data) throws -> Root {
    guard let type = Root.self as? any Decodable.Type else {
      throw _SharedReplayError.notDecodable(
        name: self.recordedName ?? "a shared value", type: "\(Root.self)")
    }
    return try JSONDecoder().decode(type, from: json) as! Root
  }
}

/// How many shared values exist, so a recorder that finds none pays nothing for them: one
/// atomic load per action.
enum _SharedBoxCount {
  #if os(Linux)
    private static let count = Atomic<Int>(0)

    static func change(by delta: Int) {
      count.add(delta, ordering: .relaxed)
    }

    static var isZero: Bool { count.load(ordering: .relaxed) == 0 }
  #else
    // NB: `Atomic` needs macOS 15; a lock elsewhere.
    private static let count = _Locked(0)

    static func change(by delta: Int) {
      count.withValue { $0 += delta }
    }

    static var isZero: Bool { count.withValue { $0 == 0 } }
  #endif
}

/// Ends a subscription when cancelled, or when it goes away.
public final class SharedSubscription: Sendable {
  private let onCancel: LockIsolatedClosure

  /// A subscription that calls `cancel` once, when cancelled or released.
  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.onCancel = LockIsolatedClosure(cancel)
  }

  /// Ends the subscription.
  public func cancel() {
    self.onCancel.callOnce()
  }

  deinit {
    self.onCancel.callOnce()
  }
}

/// A closure called at most once.
final class LockIsolatedClosure: @unchecked Sendable {
  // NB: Unchecked: `body` is read and cleared under `lock`.
  private let lock = NSLock()
  private var body: (@Sendable () -> Void)?

  init(_ body: @escaping @Sendable () -> Void) {
    self.body = body
  }

  func callOnce() {
    let body = self.lock.withLock {
      defer { self.body = nil }
      return self.body
    }
    body?()
  }
}

/// A value of any type behind a lock, for values that need not be `Sendable` themselves.
final class _Locked<Value>: @unchecked Sendable {
  // NB: Unchecked: `value` is only reached under `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try self.lock.withLock { try body(&self.value) }
  }
}

/// Calls `onChange` when `signature` gives something else than it did half a second before: a
/// watch where the system says nothing of changes.
func _pollForChanges(
  _ label: String, signature: @escaping @Sendable () -> String,
  onChange: @escaping @Sendable (String) -> Void
) -> SharedSubscription {
  let last = _Locked(signature())
  let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
  timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
  timer.setEventHandler {
    let now = signature()
    let changed = last.withValue { last in
      defer { last = now }
      return last != now
    }
    if changed { onChange(now) }
  }
  timer.resume()
  let held = _Locked(timer)
  return SharedSubscription { held.withValue { $0.cancel() } }
}
