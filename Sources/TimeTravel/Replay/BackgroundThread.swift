import Dependencies
import IssueReporting
import StepChanges

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Starts `body` on a thread of its own, with what it may read of the calling task's context:
/// the dependency values, whether generated code decodes, and `reporters` for the issues it
/// reports. `false` when the system would not start a thread.
func startThread(
  reportingTo reporters: [any IssueReporter], _ body: @escaping @Sendable () -> Void
) -> Bool {
  let generated = _JSONGeneratedDecoding.isEnabled
  return withEscapedDependencies { dependencies in
    startThread {
      dependencies.yield {
        withIssueReporters(reporters) {
          _JSONGeneratedDecoding.$isEnabled.withValue(generated) { body() }
        }
      }
    }
  }
}

/// Starts `body` on a thread of its own; `false` when the system would not start one (out of
/// memory, or of threads), where a caller does the work itself.
func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
  final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
  let context = Unmanaged.passRetained(Body(body)).toOpaque()
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
  // NB: Decoding recurses as deep as a record nests (at most the reader's depth limit).
  pthread_attr_setstacksize(&attributes, 4 << 20)
  #if canImport(Darwin)
    var thread: pthread_t?
  #else
    var thread = pthread_t()
  #endif
  let result = pthread_create(
    &thread, &attributes,
    { context in
      #if canImport(Darwin)
        Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
      #else
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
      #endif
      return nil
    }, context)
  guard result == 0 else {
    Unmanaged<Body>.fromOpaque(context).release()
    return false
  }
  return true
}
