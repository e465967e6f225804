import ActionLog
import Foundation
import IssueReporting

/// Recorded actions in order, for a replay that goes through them one after another.
///
/// A long enough run is decoded ahead of the replay on a second thread, so that decoding an
/// action and reducing the one before it overlap: the replay waits for the reducer, not for the
/// decoder. What the replay sees is the same either way: each action, or the error decoding it
/// threw, at its step and in order. The thread that replays decodes a part itself whenever the
/// other has not got to it yet, and stops the other when it stops early.
struct RecordedActions<Action> {
  private let source: Source
  private var upcoming: Int
  private let last: Int

  private enum Source {
    case here((Int) throws -> RecordedAction<Action>)
    case ahead(ActionsDecodedAhead<Action>)
  }

  /// Actions `first` through `last` (none when `last` is before `first`), decoded by `decode`
  /// here, or by `decodeRun` a part at a time ahead on another thread when `decodesAhead` is
  /// true and the run is long enough for it to pay. Decoding ahead reports its issues to
  /// `reporters`.
  init(
    from first: Int,
    through last: Int,
    decodesAhead: Bool,
    reporters: @autoclosure () -> [any IssueReporter],
    decode: @escaping (Int) throws -> RecordedAction<Action>,
    decodeRun: @escaping (ClosedRange<Int>) -> [Result<RecordedAction<Action>, any Error>]
  ) {
    self.upcoming = first
    self.last = last
    self.source =
      decodesAhead && last - first + 1 >= DecodingAhead<Action>.minimumCount
      ? .ahead(ActionsDecodedAhead(first...last, reporters: reporters(), decode: decodeRun))
      : .here(decode)
  }

  /// The next action, or `nil` after the last; throws what decoding it threw.
  mutating func next() throws -> RecordedAction<Action>? {
    guard self.upcoming <= self.last else { return nil }
    defer { self.upcoming += 1 }
    switch self.source {
    case let .here(decode): return try decode(self.upcoming)
    case let .ahead(ahead): return try ahead.action(self.upcoming).get()
    }
  }
}

/// The replaying side of actions decoded ahead: it reads them in order, and letting it go
/// stops the decoding thread and waits for it to end.
final class ActionsDecodedAhead<Action> {
  private let decoding: DecodingAhead<Action>
  private var current: [DecodingAhead<Action>.Decoded] = []
  private var currentPart = -1

  init(
    _ range: ClosedRange<Int>,
    reporters: [any IssueReporter],
    decode: @escaping (ClosedRange<Int>) -> [DecodingAhead<Action>.Decoded]
  ) {
    let decoding = DecodingAhead(range, decode: decode)
    self.decoding = decoding
    let started = startThread(reportingTo: reporters) { decoding.run() }
    // NB: Without a thread (a process out of memory or threads), this one decodes every part.
    if !started { decoding.stop() }
  }

  deinit {
    self.decoding.stop()
  }

  /// Action `seq`, the one after the last asked for (or the first).
  func action(_ seq: Int) -> DecodingAhead<Action>.Decoded {
    let (part, offset) = self.decoding.place(of: seq)
    if part != self.currentPart {
      self.current = self.decoding.take(part)
      self.currentPart = part
    }
    return self.current[offset]
  }
}

/// What the two threads of actions decoded ahead share: the parts of the run, which either
/// thread claims before decoding it, and the parts the decoding thread finished.
final class DecodingAhead<Action>: @unchecked Sendable {
  // NB: Unchecked: every field that changes is read and written holding `condition`; a part is
  // handed over whole, and the decoding thread keeps no reference to it.
  typealias Decoded = Result<RecordedAction<Action>, any Error>

  /// The shortest run worth a thread: below it, starting one costs more than it saves.
  static var minimumCount: Int { 48 }
  /// How many actions a part holds: one lock taken for each, on either side.
  private static var partSize: Int { 16 }
  /// How many parts the decoding thread may be ahead: what bounds the memory it holds.
  private static var partsAhead: Int { 64 }

  private let first: Int
  private let last: Int
  private let partCount: Int
  private let decode: (ClosedRange<Int>) -> [Decoded]
  private let condition = NSCondition()
  /// The first part neither thread has claimed.
  private var unclaimed = 0
  /// The part the replaying thread reads.
  private var reading = 0
  /// Parts the decoding thread has finished, by number.
  private var finished: [Int: [Decoded]] = [:]
  private var stopped = false
  /// Whether the decoding thread has started, and has ended: a stop waits only for one that
  /// started (one that starts after it decodes nothing).
  private var started = false
  private var exited = false

  init(_ range: ClosedRange<Int>, decode: @escaping (ClosedRange<Int>) -> [Decoded]) {
    self.first = range.lowerBound
    self.last = range.upperBound
    self.partCount = (range.count + Self.partSize - 1) / Self.partSize
    self.decode = decode
  }

  /// The part action `seq` is in, and where in it.
  func place(of seq: Int) -> (part: Int, offset: Int) {
    let index = seq - self.first
    return (index / Self.partSize, index % Self.partSize)
  }

  /// Part `part`, on the replaying thread: finished by the decoding thread, or decoded here
  /// when that thread has not claimed it yet.
  func take(_ part: Int) -> [Decoded] {
    self.condition.lock()
    self.reading = part
    self.condition.broadcast()
    while true {
      if let done = self.finished.removeValue(forKey: part) {
        self.condition.unlock()
        return done
      }
      if self.unclaimed <= part {
        // NB: Parts before it are not needed: the replaying thread asks in order.
        self.unclaimed = part + 1
        self.condition.unlock()
        return self.decodePart(part)
      }
      self.condition.wait()
    }
  }

  /// The decoding thread's work: claims the next part and decodes it, until every part is
  /// claimed or the replaying side stops it; never more than ``partsAhead`` parts ahead.
  func run() {
    self.condition.lock()
    self.started = true
    defer {
      self.exited = true
      self.condition.broadcast()
      self.condition.unlock()
    }
    while !self.stopped, self.unclaimed < self.partCount {
      if self.unclaimed - self.reading >= Self.partsAhead {
        self.condition.wait()
        continue
      }
      let part = self.unclaimed
      self.unclaimed += 1
      self.condition.unlock()
      let decoded = self.decodePart(part)
      self.condition.lock()
      if !self.stopped { self.finished[part] = decoded }
      self.condition.broadcast()
    }
  }

  /// Stops the decoding thread, and waits for it to end; when it never started, the replaying
  /// thread decodes every part from now on.
  func stop() {
    self.condition.lock()
    self.stopped = true
    self.condition.broadcast()
    while !self.exited, self.started { self.condition.wait() }
    self.finished = [:]
    self.condition.unlock()
  }

  private func decodePart(_ part: Int) -> [Decoded] {
    let start = self.first + part * Self.partSize
    return self.decode(start...min(start + Self.partSize - 1, self.last))
  }

}
