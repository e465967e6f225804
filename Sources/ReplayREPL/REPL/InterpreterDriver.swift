import ActionLog
import Foundation
import TimeTravel

/// The REPL over a recording, in process, for `replay-bench` to time beside the debugger
/// (`DebugAdapterDriver`): lines go straight to the interpreter, with no pipe between.
@_spi(Benchmarks) public final class InterpreterDriver {
  private let interpreter: Interpreter

  /// A session over the recording at `url`, with `features`.
  public init(recording url: URL, features: [ReplayFeature]) throws {
    let catalog = FeatureCatalog(features)
    self.interpreter = Interpreter(
      session: openSession(try Recording(contentsOf: url), catalog), catalog: catalog)
  }

  /// Runs one line; returns what the REPL shows.
  public func run(_ line: String) -> String {
    self.interpreter.run(line)
  }
}
