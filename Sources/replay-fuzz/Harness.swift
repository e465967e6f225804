import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import ReplayREPL
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// Runs one input through the real `replay` commands, each in a forked child of this process,
/// and says which of them crashed or hung.
///
/// A trap inside an example reducer is told apart from one in the reader or the replay: the
/// reducers are wrapped so that the child marks, in memory it shares with this process, when
/// it is inside one. A hostile value that traps a reducer (a count at `Int.max` incremented)
/// is the feature's to handle, and `replay verify --isolated` turns it into a verdict; a trap
/// anywhere else is a finding.
final class Harness {
  /// What went wrong with one command on one input.
  struct Finding: CustomStringConvertible {
    enum Kind {
      case crash(signal: Int32)
      case hang
      /// The child finished, but handled its input wrongly (``WrongOutcome``).
      case wrong(String)
    }
    let kind: Kind
    let command: [String]
    /// A hung child's threads' stacks, when `gdb` could take them.
    var stacks: String? = nil

    var description: String {
      let what =
        switch self.kind {
        case .crash(let signal): "crashed (signal \(signal))"
        case .hang: "hung"
        case .wrong(let message): "went wrong: \(message)"
        }
      return "\(self.command.first?.hasPrefix("(") == true ? "" : "replay ")"
        + "\(self.command.joined(separator: " ")) \(what)"
    }
  }

  /// A command that outlived the hang limit once and then, run again on the same input, finished
  /// in time every time: the host stalled, or a hang that depends on timing. Not a finding; its
  /// threads' stacks at the limit (when `gdb` is at hand) are kept for a look.
  struct Stall: CustomStringConvertible {
    let command: [String]
    let stacks: String?

    var description: String {
      """
      replay \(self.command.joined(separator: " ")) outlived the hang limit once, then finished \
      in time when run again \(Harness.reruns) times
      """
    }
  }

  /// How many times a command that outlived the hang limit is run again on the same input before
  /// it counts as a hang.
  static let reruns = 2

  /// Counts of what the inputs did, for the summary.
  struct Tally {
    var inputs = 0
    var runs = 0
    var reducerTraps = 0
    var reducerHangs = 0
  }

  let folder: URL
  let input: URL
  private let exported: URL
  private let script: URL
  private let hangLimit: Duration
  private(set) var tally = Tally()
  /// Commands that outlived the hang limit once and not again, since the last look.
  private var stalls: [Stall] = []

  /// The stalls since the last call, forgotten here.
  func takeStalls() -> [Stall] {
    defer { self.stalls = [] }
    return self.stalls
  }

  /// The commands each input goes through; `FILE` is the input's path.
  private var commands: [[String]] {
    let file = self.input.path
    return [
      ["info", "--json", file],
      ["verify", "--integrity", file],
      ["verify", file],
      ["verify", "--skip-damaged", file],
      ["list", file],
      ["export", file, "-o", self.exported.path, "--last", "40", "--force"],
      [file],
    ]
  }

  /// The REPL commands the last command types.
  static let replLines = [
    "info", "goto 7", "print", "action", "diff", "step 3", "back 2", "diff 0 5", "last", "back",
    "list 1 30", "when", "find increment", "first", "watch count", "continue", "reverse-continue",
    "verify", "goto 99999999999", "send {\"incrementButtonTapped\":{}}", "diff", "discard",
  ]

  init(hangLimit: Duration) throws {
    self.folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("replay-fuzz-\(getpid())")
    try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
    self.input = self.folder.appendingPathComponent("input.actionlog")
    self.exported = self.folder.appendingPathComponent("exported.actionlog")
    self.script = self.folder.appendingPathComponent("repl-commands")
    try Data(Self.replLines.joined(separator: "\n").utf8).write(to: self.script)
    self.hangLimit = hangLimit
  }

  deinit {
    try? FileManager.default.removeItem(at: self.folder)
  }

  /// Runs `bytes` through every command, the commands side by side.
  func run(_ bytes: Data) throws -> [Finding] {
    try bytes.write(to: self.input)
    self.tally.inputs += 1
    let commands = self.commands
    let children = commands.indices.map { self.start(commands[$0], slot: $0) }
    var findings: [Finding] = []
    var outlived: [(slot: Int, stacks: String?)] = []
    for (slot, child) in children.enumerated() where child > 0 {
      self.tally.runs += 1
      switch self.wait(for: child, slot: slot, commands[slot]) {
      case .finished: break
      case .found(let finding): findings.append(finding)
      case .outlived(let stacks): outlived.append((slot, stacks))
      }
    }
    // NB: Alone and again, so that a host that stopped this process for a while (a busy or
    // migrated virtual machine) is told apart from a command that hangs on this input.
    for (slot, stacks) in outlived {
      if let finding = self.rerun(commands[slot], slot: slot) {
        findings.append(finding)
      } else {
        self.stalls.append(Stall(command: commands[slot], stacks: stacks))
      }
    }
    return findings
  }

  /// Runs `command` again up to ``reruns`` times: the finding when it hangs or crashes again.
  private func rerun(_ command: [String], slot: Int) -> Finding? {
    for _ in 0..<Self.reruns {
      let child = self.start(command, slot: slot)
      guard child > 0 else { return nil }
      switch self.wait(for: child, slot: slot, command) {
      case .finished: continue
      case .found(let finding): return finding
      case .outlived(let stacks): return Finding(kind: .hang, command: command, stacks: stacks)
      }
    }
    return nil
  }

  /// Forks a child that runs `replay ARGUMENTS`, marking in `slot` when it is in a reducer.
  private func start(_ arguments: [String], slot: Int) -> pid_t {
    self.start(slot: slot) {
      ReplayCommand.main(features: Self.features, arguments: arguments)
    }
  }

  /// Forks a child that runs `body`, its output thrown away. A ``WrongOutcome`` it throws is
  /// written to the slot's message file, and the child exits with ``wrongOutcomeStatus``.
  private func start(slot: Int, _ body: () throws -> Void) -> pid_t {
    Phase.pointer[slot] = 0
    let message = self.messageFile(slot)
    unlink(message.path)
    let child = fork()
    if child == 0 {
      Phase.slot = slot
      let null = open("/dev/null", O_RDWR)
      let commands = open(self.script.path, O_RDONLY)
      dup2(commands, STDIN_FILENO)
      dup2(null, STDOUT_FILENO)
      dup2(null, STDERR_FILENO)
      do {
        try body()
      } catch let wrong as WrongOutcome {
        try? Data(wrong.message.utf8).write(to: message)
        _exit(Self.wrongOutcomeStatus)
      } catch {
        try? Data("threw \(error)".utf8).write(to: message)
        _exit(Self.wrongOutcomeStatus)
      }
      _exit(0)
    }
    return child
  }

  /// The exit status of a child whose input was handled wrongly.
  static let wrongOutcomeStatus: Int32 = 86

  private func messageFile(_ slot: Int) -> URL {
    self.folder.appendingPathComponent("message-\(slot)")
  }

  /// A check a child makes: its name in findings, and what it runs.
  struct Check {
    let name: [String]
    let body: () throws -> Void
  }

  /// Runs each check in a child of its own, one after the other (they may change what the next
  /// one reads): what crashed, hung, or went wrong.
  func run(_ checks: [Check]) -> [Finding] {
    self.tally.inputs += 1
    var findings: [Finding] = []
    for (slot, check) in checks.enumerated() {
      var attempts = 0
      while attempts <= Self.reruns {
        attempts += 1
        let child = self.start(slot: slot, check.body)
        guard child > 0 else { break }
        self.tally.runs += 1
        switch self.wait(for: child, slot: slot, check.name) {
        case .finished:
          if let message = try? String(contentsOf: self.messageFile(slot), encoding: .utf8) {
            findings.append(Finding(kind: .wrong(message), command: check.name))
          }
        case .found(let finding):
          findings.append(finding)
        case .outlived(let stacks):
          // NB: Again, alone, as for recordings: a stall of the host is not a hang.
          if attempts <= Self.reruns { continue }
          findings.append(Finding(kind: .hang, command: check.name, stacks: stacks))
        }
        break
      }
    }
    return findings
  }

  /// How a child ended.
  private enum Outcome {
    /// In time, by itself or by a trap in an example reducer.
    case finished
    case found(Finding)
    /// Killed at the hang limit outside an example reducer, with its threads' stacks if taken.
    case outlived(stacks: String?)
  }

  /// Waits for a child; kills it when it outlives the hang limit.
  private func wait(for child: pid_t, slot: Int, _ arguments: [String]) -> Outcome {
    let clock = ContinuousClock()
    let deadline = clock.now + self.hangLimit
    var status: Int32 = 0
    var pause: UInt32 = 50
    while waitpid(child, &status, WNOHANG) == 0 {
      guard clock.now < deadline else {
        let inReducer = Phase.pointer[slot] == 1
        let stacks = inReducer ? nil : threadStacks(of: child)
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
        if inReducer {
          self.tally.reducerHangs += 1
          return .finished
        }
        return .outlived(stacks: stacks)
      }
      usleep(pause)
      pause = min(pause * 2, 2_000)
    }
    let signal = status & 0x7F
    guard signal != 0 else { return .finished }
    if Phase.pointer[slot] == 1 {
      self.tally.reducerTraps += 1
      return .finished
    }
    return .found(Finding(kind: .crash(signal: signal), command: arguments))
  }

  /// The example features, each reducer wrapped to mark when the child is inside it.
  static let features = [
    ReplayFeature("counter") { Marked(base: CounterFeature()) },
    ReplayFeature("todos") { Marked(base: Todos()) },
    ReplayFeature("songs") { Marked(base: SongsApp()) },
  ]
}

/// Memory shared between this process and its children, a slot per child running at once:
/// 1 while the child runs a reducer.
enum Phase {
  static let slots = 64
  nonisolated(unsafe) static let pointer: UnsafeMutablePointer<Int64> = {
    let size = Self.slots * MemoryLayout<Int64>.stride
    let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
    guard let mapped, mapped != MAP_FAILED else { fatalError("cannot map shared memory") }
    return mapped.bindMemory(to: Int64.self, capacity: Self.slots)
  }()
  /// This child's slot.
  nonisolated(unsafe) static var slot = 0
}

/// A reducer that marks, in ``Phase``, when it runs its base.
struct Marked<Base: Reducer>: Reducer {
  let base: Base

  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    Phase.pointer[Phase.slot] = 1
    defer { Phase.pointer[Phase.slot] = 0 }
    return self.base.reduce(into: &state, action: action)
  }
}

/// The stacks of every thread of process `pid`, as `gdb` prints them, or `nil` when there is no
/// `gdb` or it took longer than half a minute. Spawned without a thread of this process's own,
/// which the next fork would copy in whatever state it is in.
func threadStacks(of pid: pid_t) -> String? {
  let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    .split(separator: ":").map { "\($0)/gdb" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
  guard let gdb = path else { return nil }
  let output = FileManager.default.temporaryDirectory
    .appendingPathComponent("replay-fuzz-stacks-\(getpid())-\(pid).txt")
  defer { try? FileManager.default.removeItem(at: output) }
  let arguments = [gdb, "-p", "\(pid)", "-batch", "-nx", "-ex", "thread apply all bt"]
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_addopen(
    &actions, STDOUT_FILENO, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
  var spawned: pid_t = 0
  let argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  guard posix_spawn(&spawned, gdb, &actions, nil, argv, environ) == 0 else { return nil }
  var status: Int32 = 0
  for _ in 0..<300 {
    if waitpid(spawned, &status, WNOHANG) != 0 {
      // NB: Only the threads and their frames: gdb says much else about the symbols it reads.
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      let lines = text.split(separator: "\n").filter {
        $0.hasPrefix("Thread ") || ($0.hasPrefix("#") && $0.dropFirst().first?.isNumber == true)
      }
      return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }
    usleep(100_000)
  }
  kill(spawned, SIGKILL)
  waitpid(spawned, &status, 0)
  return nil
}
