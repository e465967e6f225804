import ActionLog
import ComposableArchitecture

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A recorder's bookkeeping, under one lock: sequence numbers, where actions came from, and the
/// dependency values the open action's reducer reads.
///
/// The store's thread takes the lock twice per action: at ``begin(context:)`` and at
/// ``finish(seq:checkpointInterval:)``. The recorder keeps its last state under the same lock
/// (`lock` is shared for that), so nothing else is locked on the way.
///
/// The capturing dependency values are built once and reused while the dependencies the store
/// passes in stay the same, which they do from one action to the next: building them costs a
/// copy of the dependency storage and a closure per dependency, more than the reducer often
/// costs. A store whose root reducer records builds them into its own dependencies when it is
/// created (``prepare(storeDependencies:)``), and then runs every action with them in place:
/// nothing is pushed. A read is captured only while an action is open and only when it comes
/// from that action's reduce; effects created during the action keep the capturing
/// dependencies, but they run outside the store's call to the reducer, so their reads are not
/// recorded.
final class RecorderBookkeeping: @unchecked Sendable {
  /// Guards everything below, and the recorder's last state.
  let lock = Lock()

  private let dependencies: [RecordableDependency]

  /// What `lock` guards.
  private struct Books {
    var lastSeq = 0
    var lastCheckpoint = 0
    var isClosed = false
    var ids = ActionIDMap()
    var open: (actionID: UInt64, values: [String: [String]])?
    /// The thread reducing the open action.
    var openThread: pthread_t?
    var cache: (base: DependencyValues, capturing: DependencyValues)?
    /// The capturing values a store was created with.
    var installed: DependencyValues?
  }

  // NB: In memory of its own rather than stored properties: the lock already keeps accesses
  // apart, and a class's stored property pays a dynamic exclusivity check on each of them, a
  // few per action.
  private let books = UnsafeMutablePointer<Books>.allocate(capacity: 1)

  init(_ dependencies: [RecordableDependency]) {
    self.dependencies = dependencies
    self.books.initialize(to: Books())
  }

  deinit {
    self.books.deinitialize(count: 1)
    self.books.deallocate()
  }

  /// What ``begin(context:)`` hands the recording reducer.
  struct Opened {
    var seq: Int
    var origin: RecordedOrigin
    /// The action's context: the store's, or one made for a reducer called outside a store.
    var context: ActionContext
    /// The dependency values to reduce with; `nil` when those in effect are the capturing ones
    /// a store was created with.
    var dependencies: DependencyValues?
    /// The moment the action was sent, when the state holds shared values: an action that
    /// carries one (a pushed screen's state) encodes it as it was then.
    var moment: _SharedMoment? = nil
  }

  /// Reserves the next sequence number for an action, works out where it came from, and starts
  /// capturing its reducer's reads; `nil` once closed. Call it holding ``lock``.
  func begin(context: ActionContext?, base: DependencyValues) -> Opened? {
    guard !self.books.pointee.isClosed else { return nil }
    self.books.pointee.lastSeq += 1
    let seq = self.books.pointee.lastSeq
    var origin = RecordedOrigin.send
    let opened: ActionContext
    if let context {
      self.books.pointee.ids.record(id: context.id, seq: seq)
      if case let .effect(parent) = context.origin,
        let parentSeq = self.books.pointee.ids.seq(for: parent)
      {
        origin = .effect(parent: parentSeq)
      }
      opened = context
    } else {
      // NB: Outside a store there is no action context; the call gets one, so the reads made
      // inside it are told apart from those of effects.
      opened = ActionContext(id: UInt64(seq), origin: .send)
    }
    self.books.pointee.open = (opened.id, [:])
    self.books.pointee.openThread = pthread_self()
    return Opened(
      seq: seq, origin: origin, context: opened,
      dependencies: context != nil && self.isInstalled(base)
        ? nil : self.capturingDependencies(for: base)
    )
  }

  /// Ends the open action: returns what its reducer read, and whether a checkpoint is due after
  /// it. Call it holding ``lock``.
  func finish(seq: Int, checkpointInterval: Int) -> (CapturedValues, isCheckpoint: Bool) {
    let values = self.books.pointee.open?.values ?? [:]
    self.books.pointee.open = nil
    self.books.pointee.openThread = nil
    let isCheckpoint = seq % checkpointInterval == 0
    if isCheckpoint { self.books.pointee.lastCheckpoint = seq }
    return (CapturedValues(values), isCheckpoint)
  }

  /// Marks the recording closed; returns the last action's seq when it still needs a
  /// checkpoint: when it was finished and is not one. Call it holding ``lock``.
  func close() -> Int? {
    guard !self.books.pointee.isClosed else { return nil }
    self.books.pointee.isClosed = true
    let books = self.books.pointee
    return books.open == nil && books.lastSeq > books.lastCheckpoint ? books.lastSeq : nil
  }

  /// The number of actions begun so far.
  var count: Int {
    self.lock.withLock { self.books.pointee.lastSeq }
  }

  /// The number of actions finished, and whether a change made now in `context` is the open
  /// action's reducer's own. Call it holding ``lock``.
  func finished(context: ActionContext?) -> (count: Int, isOwn: Bool) {
    let books = self.books.pointee
    guard let open = books.open else { return (books.lastSeq, false) }
    let isOwn =
      context?.id == open.actionID
      && books.openThread.map { pthread_equal($0, pthread_self()) != 0 } == true
    return (books.lastSeq - 1, isOwn)
  }

  /// Whether the recording is closed. Call it holding ``lock``.
  var isClosed: Bool { self.books.pointee.isClosed }

  /// The dependencies a store is created with, with every recorded dependency wrapped so that
  /// its reads are captured. Call it holding ``lock``.
  func prepare(storeDependencies base: DependencyValues) -> DependencyValues {
    let prepared = withDependencies {
      $0 = base
    } operation: {
      self.capturingDependencies(for: base)
    }
    self.books.pointee.installed = prepared
    return prepared
  }

  /// Whether `base`, the values in effect, are those a store was prepared with.
  private func isInstalled(_ base: DependencyValues) -> Bool {
    guard let installed = self.books.pointee.installed else { return false }
    // NB: Kept here, the prepared values' storage stays shared with the store's and cannot
    // change in place: a bitwise match means the very values the store was created with.
    return Self.isIdentical(installed, base)
  }

  private func capturingDependencies(for base: DependencyValues) -> DependencyValues {
    if let cached = self.books.pointee.cache, Self.isIdentical(cached.base, base) {
      return cached.capturing
    }
    // NB: Built inside the library's `withDependencies` (which starts from `base`, the current
    // values): wrapping a dependency reads its live value without using it, and only there is
    // that not an access a test context reports.
    let dependencies = self.dependencies
    let built = withDependencies {
      for dependency in dependencies {
        let name = dependency.name
        dependency.record(&$0) { [weak self] text in
          self?.record(text, for: name)
        }
      }
    } operation: {
      DependencyValues._current
    }
    // NB: Keeping `base` also keeps its storage shared, so it cannot change in place: a bitwise
    // match later means the very same values.
    self.books.pointee.cache = (base, built)
    return built
  }

  private func record(_ text: String, for name: String) {
    let current = ActionContext.current?.id
    self.lock.withLock {
      guard let open = self.books.pointee.open, open.actionID == current else { return }
      self.books.pointee.open!.values[name, default: []].append(text)
    }
  }

  private static func isIdentical(_ lhs: DependencyValues, _ rhs: DependencyValues) -> Bool {
    // NB: Not `elementsEqual`, which went byte by byte and showed in profiles of Store.send.
    withUnsafeBytes(of: lhs) { lhs in
      withUnsafeBytes(of: rhs) { rhs in
        guard lhs.count == rhs.count, let left = lhs.baseAddress, let right = rhs.baseAddress
        else { return lhs.count == rhs.count }
        return memcmp(left, right, lhs.count) == 0
      }
    }
  }
}

/// Maps the numbers a store gives actions to recorded sequence numbers, compactly: both grow by
/// one per action, so a run of consecutive actions is one entry.
struct ActionIDMap {
  private var runs: [(firstID: UInt64, firstSeq: Int, count: Int)] = []

  mutating func record(id: UInt64, seq: Int) {
    if let last = self.runs.last,
      last.firstID + UInt64(last.count) == id, last.firstSeq + last.count == seq
    {
      self.runs[self.runs.count - 1].count += 1
    } else {
      self.runs.append((id, seq, 1))
    }
  }

  func seq(for id: UInt64) -> Int? {
    var low = 0
    var high = self.runs.count
    while low < high {
      let middle = (low + high) / 2
      if self.runs[middle].firstID <= id { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let run = self.runs[low - 1]
    let offset = id - run.firstID
    return offset < UInt64(run.count) ? run.firstSeq + Int(offset) : nil
  }
}
