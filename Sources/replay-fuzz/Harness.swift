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
    }
    let kind: Kind
    let command: [String]

    var description: String {
      let what =
        switch self.kind {
        case .crash(let signal): "crashed (signal \(signal))"
        case .hang: "hung"
        }
      return "replay \(self.command.joined(separator: " ")) \(what)"
    }
  }

  /// Counts of what the inputs did, for the summary.
  struct Tally {
    var inputs = 0
    var runs = 0
    var reducerTraps = 0
    var reducerHangs = 0
  }

  private let folder: URL
  let input: URL
  private let exported: URL
  private let script: URL
  private let hangLimit: Duration
  private(set) var tally = Tally()

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
    for (command, child) in zip(commands, children) where child > 0 {
      self.tally.runs += 1
      if let finding = self.wait(for: child, slot: commands.firstIndex(of: command)!, command) {
        findings.append(finding)
      }
    }
    return findings
  }

  /// Forks a child that runs `replay ARGUMENTS`, marking in `slot` when it is in a reducer.
  private func start(_ arguments: [String], slot: Int) -> pid_t {
    Phase.pointer[slot] = 0
    let child = fork()
    if child == 0 {
      Phase.slot = slot
      let null = open("/dev/null", O_RDWR)
      let commands = open(self.script.path, O_RDONLY)
      dup2(commands, STDIN_FILENO)
      dup2(null, STDOUT_FILENO)
      dup2(null, STDERR_FILENO)
      ReplayCommand.main(features: Self.features, arguments: arguments)
      _exit(0)
    }
    return child
  }

  /// Waits for a child; kills it when it outlives the hang limit.
  private func wait(for child: pid_t, slot: Int, _ arguments: [String]) -> Finding? {
    let clock = ContinuousClock()
    let deadline = clock.now + self.hangLimit
    var status: Int32 = 0
    var pause: UInt32 = 50
    while waitpid(child, &status, WNOHANG) == 0 {
      guard clock.now < deadline else {
        let inReducer = Phase.pointer[slot] == 1
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
        if inReducer {
          self.tally.reducerHangs += 1
          return nil
        }
        return Finding(kind: .hang, command: arguments)
      }
      usleep(pause)
      pause = min(pause * 2, 2_000)
    }
    let signal = status & 0x7F
    guard signal != 0 else { return nil }
    if Phase.pointer[slot] == 1 {
      self.tally.reducerTraps += 1
      return nil
    }
    return Finding(kind: .crash(signal: signal), command: arguments)
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
