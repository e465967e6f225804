import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import ReplayREPL
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// What `replay-fuzz --target` feeds hostile input to.
enum FuzzTarget: String, CaseIterable {
  /// Recordings, through the `replay` commands.
  case recording
  /// A rolling recorder's folder, through `replay info`/`report`, `unfinishedSessions` and a
  /// recorder starting in it.
  case folder
  /// The file behind `@Shared(.fileStorage(…))`, through a shared value reading and saving it.
  case sharedFile = "shared-file"
}

/// One check a child makes of what it was given: a wrong outcome, said in `message`, is a
/// finding as a crash is.
struct WrongOutcome: Error {
  let message: String
}
