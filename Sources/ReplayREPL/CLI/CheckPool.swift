import ActionLog
import Foundation

/// At most `jobs` recordings verified at once, each by a thread that waits on its child
/// process, with the verdicts handed back in the order of the recordings.
///
/// Ctrl-C (``Interruption``) stops each running verification (each stops its own child) and
/// starts no more; the verdicts in by then are handed back, still in order.
final class CheckPool: @unchecked Sendable {
  private let jobs: Int
  private let count: Int
  private let condition = NSCondition()
  // NB: All below under `condition`.
  private var results: [Result<Verdict, any Error>?]
  private var next = 0
  private var running: [Int] = []
  private var finishedWorkers = 0
  private var done = 0
  private var failed = false

  init(jobs: Int, count: Int) {
    self.jobs = max(1, min(jobs, count))
    self.count = count
    self.results = Array(repeating: nil, count: count)
  }

  /// Verifies recordings `0..<count` with `check`, calling `progress` (done, running) and
  /// `report` (each verdict, in order) on this thread; returns the verdicts reported.
  ///
  /// - Throws: The first error `check` threw (a child that could not be started), once every
  ///   running verification has ended.
  func run(
    check: @escaping @Sendable (Int) throws -> Verdict,
    progress: (_ done: Int, _ running: [Int]) -> Void,
    report: (Verdict) -> Void
  ) throws -> [Verdict] {
    for _ in 0..<self.jobs {
      let thread = Thread { [self] in self.work(check) }
      // NB: A thread that mostly waits on a child process: a small stack is plenty.
      thread.stackSize = 1 << 20
      thread.start()
    }
    var reported: [Verdict] = []
    var printed = 0
    var failure: (any Error)?
    func hand(_ result: Result<Verdict, any Error>) {
      switch result {
      case .success(let verdict) where verdict.kind != .interrupted:
        reported.append(verdict)
        report(verdict)
      case .success: break
      case .failure(let error): failure = failure ?? error
      }
    }
    while true {
      self.condition.lock()
      while printed < self.count, self.results[printed] == nil, self.finishedWorkers < self.jobs {
        self.condition.wait()
      }
      var ready: [Result<Verdict, any Error>] = []
      while printed < self.count, let result = self.results[printed] {
        ready.append(result)
        printed += 1
      }
      let done = self.done
      let running = self.running.sorted()
      let finished = self.finishedWorkers == self.jobs
      // NB: After Ctrl-C or a failure, the verdicts past a recording never checked.
      let rest = finished ? self.results[printed...].compactMap { $0 } : []
      self.condition.unlock()
      ready.forEach(hand)
      if finished {
        rest.forEach(hand)
        break
      }
      progress(done, running)
    }
    if let failure { throw failure }
    return reported
  }

  private func work(_ check: (Int) throws -> Verdict) {
    while true {
      self.condition.lock()
      guard !Interruption.isRequested, !self.failed, self.next < self.count else {
        self.finishedWorkers += 1
        self.condition.broadcast()
        self.condition.unlock()
        return
      }
      let index = self.next
      self.next += 1
      self.running.append(index)
      self.condition.broadcast()
      self.condition.unlock()

      let result = Result { try check(index) }

      self.condition.lock()
      self.results[index] = result
      self.done += 1
      if case .failure = result { self.failed = true }
      self.running.removeAll { $0 == index }
      self.condition.broadcast()
      self.condition.unlock()
    }
  }
}

extension Duration {
  /// The duration in seconds, with its fraction.
  var seconds: Double {
    Double(self.components.seconds) + Double(self.components.attoseconds) / 1e18
  }
}
