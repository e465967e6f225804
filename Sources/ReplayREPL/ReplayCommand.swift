import ActionLog
import ArgumentParser
import Foundation
import TimeTravel

/// The `replay` command line, for the features you register.
///
/// A `replay` for your app is a few lines:
///
/// ```swift
/// import ReplayREPL
///
/// @main
/// struct MyReplay {
///   static func main() {
///     ReplayCommand.main(features: [
///       ReplayFeature("todos") { Todos() },
///       ReplayFeature("settings") { Settings() },
///     ])
///   }
/// }
/// ```
public struct ReplayCommand: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Inspect and verify recordings of Composable Architecture features.",
    discussion: """
      A recording (an .actionlog file) holds every action a store processed, the dependency \
      values its reducer read, and checkpoints of its state. A recording of a registered \
      feature can be re-run with today's reducer.

      Examples:
        $ replay Recordings/todos.actionlog
        $ replay info Recordings/todos.actionlog
        $ replay list Recordings/todos.actionlog --from 10 --to 20
        $ replay verify Recordings/todos.actionlog
        $ replay verify --integrity bug-report.actionlog
        $ replay export app.actionlog -o bug-report.actionlog --last 500
        $ replay export-test bug-report.actionlog --name checkout-crash
        $ replay html bug-report.actionlog -o bug-report.html
        $ replay check Recordings
        $ replay migrate old.actionlog -o new.actionlog
        $ replay rerecord Recordings/todos.actionlog
        $ replay shrink session.actionlog --watch 'todos.count == 0'
        $ replay dap    (for an editor's debugger: see "replay dap --help")
      """,
    subcommands: [
      Open.self, Info.self, List.self, Verify.self, Check.self, Migrate.self, Rerecord.self,
      Shrink.self, Export.self, ExportTest.self, Report.self, HTML.self, DAP.self,
    ],
    defaultSubcommand: Open.self
  )

  /// The features this `replay` can re-run: set once by ``main(features:arguments:)``, read by
  /// the subcommands (which the argument parser makes, with no way to hand them a value) and
  /// passed by them to everything below.
  nonisolated(unsafe) static var catalog = FeatureCatalog([])

  public init() {}

  /// Runs `replay` with `features` registered, on the process's arguments (or `arguments`).
  public static func main(features: [ReplayFeature], arguments: [String]? = nil) {
    Self.catalog = FeatureCatalog(features)
    Self.main(arguments)
  }

  /// The exit status of a command on a recording whose types changed since it was made, and
  /// which needs a migration (or one more) to be read.
  static let needsMigrationStatus: Int32 = 3

  /// The exit status of `verify` on a recording damaged in the middle: what was read reproduces,
  /// the rest was not read.
  static let damagedStatus: Int32 = 4

  /// The feature a recording is of (see ``FeatureCatalog/feature(for:)``).
  static func feature(for header: LogHeader) -> ReplayFeature? {
    Self.catalog.feature(for: header)
  }
}

/// The recording argument and how to open it, shared by the subcommands.
struct RecordingOptions: ParsableArguments {
  @Argument(
    help: "The recording (.actionlog) to read.", completion: .file(extensions: ["actionlog"]))
  var file: String

  @Flag(help: "Skip damaged records instead of stopping at the first one.")
  var skipDamaged = false

  /// The file's name, for messages.
  var name: String {
    URL(fileURLWithPath: self.file).lastPathComponent
  }

  /// Opens the recording and finds its feature among those this `replay` registers.
  ///
  /// - Throws: a ``CommandFailure`` with exit status 2 when this `replay` lacks the feature.
  func openReplayable() throws -> (Recording, ReplayFeature) {
    let recording = try self.open()
    return (recording, try ReplayCommand.requireFeature(of: recording))
  }

  /// Opens the recording, showing progress on standard error for a large file on a terminal.
  func open(recovery: RecoveryMode? = nil) throws -> Recording {
    let url = URL(fileURLWithPath: self.file)
    let showsProgress = isatty(STDERR_FILENO) != 0
    var shown = -1
    do {
      let recording = try Recording(
        contentsOf: url,
        recovery: recovery ?? (self.skipDamaged ? .skipDamagedRecords : .stopAtFirstDamage)
      ) { read, total in
        guard showsProgress, total > 32 << 20 else { return }
        let percent = read * 100 / max(total, 1)
        guard percent != shown else { return }
        shown = percent
        FileHandle.standardError.write(Data("\rReading \(url.lastPathComponent)… \(percent)%".utf8))
      }
      if shown >= 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      return recording
    } catch let error as ActionLogError {
      throw CommandFailure(error.description)
    }
  }
}

/// A failure that `replay` reports as `replay: MESSAGE` and exits with `code`.
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  let code: Int32

  init(_ description: String, code: Int32 = 1) {
    self.description = description
    self.code = code
  }
}

extension ParsableCommand {
  /// Runs `body`, reporting a ``CommandFailure`` as `replay: …` on standard error.
  func reportingFailures(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let failure as CommandFailure {
      FileHandle.standardError.write(Data("replay: \(failure.description)\n".utf8))
      throw ExitCode(failure.code)
    } catch let error as TimelineError {
      FileHandle.standardError.write(Data("replay: \(error.description)\n".utf8))
      throw ExitCode(1)
    } catch let error as ActionLogError {
      FileHandle.standardError.write(Data("replay: \(error.description)\n".utf8))
      if case .typesChanged = error { throw ExitCode(ReplayCommand.needsMigrationStatus) }
      throw ExitCode(1)
    } catch let error as EffectLedgerError {
      FileHandle.standardError.write(Data("replay: \(error.description)\n".utf8))
      throw ExitCode(1)
    } catch let error as MigrationError {
      FileHandle.standardError.write(Data("replay: \(error.description)\n".utf8))
      switch error {
      case .newerThanCode: throw ExitCode(2)
      case .missingMigration: throw ExitCode(ReplayCommand.needsMigrationStatus)
      default: throw ExitCode(1)
      }
    }
  }
}
