import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ReplayCommand.Verify {
  /// `--isolated`: runs `replay verify` on the recording in a child process, which marks each
  /// step before replaying it; when the child dies of a signal, says at which step.
  func verifyInChild() throws {
    let recording = try self.recording.open()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-isolated-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let stepFile = folder.appendingPathComponent("step")
    try Data(count: 8).write(to: stepFile)

    let child = Process()
    child.executableURL =
      Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments =
      ["verify", self.recording.file, "--step-file", stepFile.path]
      + (self.recording.skipDamaged ? ["--skip-damaged"] : [])
    var environment = ProcessInfo.processInfo.environment
    // NB: The verdict below says what happened; the runtime's backtrace of the child would
    // bury it.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    child.environment = environment
    try child.run()
    child.waitUntilExit()

    guard child.terminationReason == .uncaughtSignal else {
      if child.terminationStatus != 0 { throw ExitCode(child.terminationStatus) }
      return
    }
    let step = Int(
      (try? Data(contentsOf: stepFile))?.withUnsafeBytes { $0.loadUnaligned(as: Int64.self) } ?? 0
    )
    print(self.crashVerdict(recording, step: step, signal: child.terminationStatus))
    throw ExitCode(1)
  }

  /// What to say when the reducer crashed at `step` with `signal`.
  private func crashVerdict(_ recording: Recording, step: Int, signal: Int32) -> String {
    let name = URL(fileURLWithPath: self.recording.file).lastPathComponent
    let kind =
      switch signal {
      case SIGILL, SIGTRAP:
        "a trap: an arithmetic overflow, a failed precondition or a fatalError"
      case SIGSEGV, SIGBUS: "a memory fault"
      case SIGABRT: "an abort"
      default: "signal \(signal)"
      }
    guard step >= 1, step <= recording.count else {
      return """
        \(name): the replay crashed before its first step (\(kind)): the reducer's initial \
        state could not be decoded or set up.
        """
    }
    let action =
      (try? ReplayCommand.feature(recording.header.feature)?.open(recording)
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

/// A step number a child `replay` shares with its parent through a small file mapped into
/// both: the child stores the step it is about to replay, with no system call, and the parent
/// reads the last one stored when the child has died.
final class StepMarker {
  private let pointer: UnsafeMutableRawPointer

  init?(path: String) {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { _ = closeFile(descriptor) }
    guard let mapped = mmap(nil, 8, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      mapped != MAP_FAILED
    else { return nil }
    self.pointer = mapped
  }

  /// Says that `step` is about to be replayed.
  func mark(_ step: Int) {
    self.pointer.storeBytes(of: Int64(step), as: Int64.self)
  }
}

/// Closes a file descriptor; a free function, as `close` is a method name nearby.
private func closeFile(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}

/// Which step a long replay is on, on standard error when it is a terminal: `Replaying step
/// 120000 of 1000000…`, at most a hundred times.
final class ReplayProgress {
  private let count: Int
  private let every: Int
  private var shown = false

  /// `nil` when standard error is not a terminal or the recording is short.
  init?(count: Int) {
    guard isatty(STDERR_FILENO) != 0, count >= 50_000 else { return nil }
    self.count = count
    self.every = max(1, count / 100)
  }

  func show(_ step: Int) {
    guard step % self.every == 0 else { return }
    self.shown = true
    FileHandle.standardError.write(Data("\rReplaying step \(step) of \(self.count)…".utf8))
  }

  /// Removes the progress line.
  func clear() {
    guard self.shown else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
