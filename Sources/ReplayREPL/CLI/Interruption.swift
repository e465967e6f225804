import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C during a long command-line replay: a request to stop at the next step that looks,
/// so that the command says how far it got instead of dying mid-line.
///
/// The REPL has its own handling (it abandons the line or the search); this is for `verify`
/// and `check`.
enum Interruption {
  /// Set by the signal handler; read between steps.
  nonisolated(unsafe) private static var flag: sig_atomic_t = 0

  /// Catches SIGINT from now on. A second Ctrl-C after the first one ends the process.
  static func install() {
    // NB: Read once here, so that the handler never runs the property's first initialization.
    _ = self.flag
    signal(SIGINT) { _ in
      if Interruption.flag != 0 {
        signal(SIGINT, SIG_DFL)
        raise(SIGINT)
      }
      Interruption.flag = 1
    }
    // A parent may have left SIGINT blocked (a blocked mask outlives exec), and a blocked
    // signal never reaches the handler.
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
  }

  /// Whether Ctrl-C was pressed since ``install()``.
  static var isRequested: Bool { self.flag != 0 }

  /// The exit status of a command stopped by Ctrl-C: 128 + SIGINT, as a shell reports it.
  static let exitStatus: Int32 = 130
}
