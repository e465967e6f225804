import ActionLog
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replay verify FILE` run in a child process that marks each step before replaying it, so
/// that a reducer that traps, hangs or is interrupted leaves a step to report.
struct IsolatedVerification {
  /// How the child ended.
  enum Outcome: Equatable {
    /// It exited: 0 when the reducer reproduces the recording, 1 when it does not or the file
    /// cannot be read, 2 when this `replay` cannot re-run it.
    case exited(Int32)
    /// It died of `signal` while replaying `step` (0: before the first step).
    case crashed(signal: Int32, step: Int)
    /// It gave no answer within the time allowed; it was replaying `step`.
    case timedOut(step: Int)
    /// Ctrl-C stopped it at `step`.
    case interrupted(step: Int)
  }

  let outcome: Outcome
  /// The child's standard output and error, when captured.
  let output: String
  let errors: String

  /// Runs `replay verify` on `file` in a child process and waits for it.
  ///
  /// - Parameters:
  ///   - capturing: whether to keep the child's output for the caller; otherwise it goes to
  ///     this process's standard output and error.
  ///   - timeout: how long the child may take; `nil` for as long as it needs.
  static func run(
    file: String, skipDamaged: Bool, checkpointsOnly: Bool = false, capturing: Bool,
    timeout: Duration?
  ) throws -> IsolatedVerification {
    let manager = FileManager.default
    let folder = manager.temporaryDirectory
      .appendingPathComponent("replay-isolated-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: folder) }
    let stepFile = folder.appendingPathComponent("step")
    try Data(count: 8).write(to: stepFile)

    let child = Process()
    child.executableURL =
      Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments =
      ["verify", file, "--step-file", stepFile.path] + (skipDamaged ? ["--skip-damaged"] : [])
      + (checkpointsOnly ? ["--checkpoints-only"] : [])
    var environment = ProcessInfo.processInfo.environment
    // NB: The verdict says what happened; the runtime's backtrace of the child would bury it.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    child.environment = environment
    let outputFile = folder.appendingPathComponent("output")
    let errorFile = folder.appendingPathComponent("errors")
    if capturing {
      for captured in [outputFile, errorFile] {
        _ = manager.createFile(atPath: captured.path, contents: nil)
      }
      child.standardOutput = try FileHandle(forWritingTo: outputFile)
      child.standardError = try FileHandle(forWritingTo: errorFile)
      child.standardInput = FileHandle.nullDevice
    }
    // NB: Woken by the child's end, not by polling: a check of thousands of short recordings
    // would otherwise wait a few milliseconds past each.
    let exited = DispatchSemaphore(value: 0)
    child.terminationHandler = { _ in exited.signal() }
    try child.run()

    let clock = ContinuousClock()
    let deadline = timeout.map { clock.now + $0 }
    var stopped: Outcome?
    while exited.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
      if Interruption.isRequested, stopped == nil {
        stopped = .interrupted(step: 0)
        child.interrupt()
        Self.end(child, within: .seconds(2))
      } else if let deadline, clock.now >= deadline, stopped == nil {
        stopped = .timedOut(step: 0)
        Self.end(child, within: .seconds(1))
      }
    }
    child.waitUntilExit()

    let step = Int(
      (try? Data(contentsOf: stepFile))?.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) } ?? 0
    )
    let outcome: Outcome =
      switch stopped {
      case .interrupted: .interrupted(step: step)
      case .timedOut: .timedOut(step: step)
      default:
        child.terminationReason == .uncaughtSignal
          ? .crashed(signal: child.terminationStatus, step: step)
          : .exited(child.terminationStatus)
      }
    func text(_ file: URL) -> String {
      capturing ? (try? String(contentsOf: file, encoding: .utf8)) ?? "" : ""
    }
    return IsolatedVerification(outcome: outcome, output: text(outputFile), errors: text(errorFile))
  }

  /// Asks `child` to end, and kills it when it has not within `grace`.
  private static func end(_ child: Process, within grace: Duration) {
    let clock = ContinuousClock()
    let deadline = clock.now + grace
    if child.isRunning { child.terminate() }
    while child.isRunning, clock.now < deadline { usleep(5_000) }
    if child.isRunning { kill(child.processIdentifier, SIGKILL) }
  }

  /// What to say when the reducer crashed at `step` with `signal`, for the recording `name`.
  static func crashVerdict(
    name: String, recording: Recording?, step: Int, signal: Int32
  ) -> String {
    let kind =
      switch signal {
      case SIGILL, SIGTRAP:
        "a trap: an arithmetic overflow, a failed precondition or a fatalError"
      case SIGSEGV, SIGBUS: "a memory fault"
      case SIGABRT: "an abort"
      default: "signal \(signal)"
      }
    guard let recording, step >= 1, step <= recording.count else {
      return """
        \(name): the replay crashed before its first step (\(kind)): the recording could not \
        be read, or the reducer's initial state could not be decoded or set up.
        """
    }
    let action =
      (try? ReplayCommand.feature(for: recording.header)?.open(recording)
        .actionText(at: step)) ?? (try? recording.actionJSON(step)) ?? "?"
    return """
      \(name): the reducer crashed at step \(step) of \(recording.count) (\(kind)).

        Action at step \(step) (+\(seconds(recording.time(ofAction: step)))):
      \(action.split(separator: "\n", omittingEmptySubsequences: false)
        .map { "    " + $0 }.joined(separator: "\n"))

      The recording holds a value the reducer cannot handle there: fix the reducer if the \
      value is one it may meet, or leave the recording out if it was made to break it.
      """
  }
}
