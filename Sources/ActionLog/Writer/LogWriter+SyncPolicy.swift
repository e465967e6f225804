extension LogWriter {
  /// When the writer asks the system to put written records on disk (`fsync`).
  ///
  /// A write puts records in the operating system's cache: from there they survive the process
  /// being killed at any moment, and reach the disk when the system writes its cache back. A
  /// sync waits until they are on the disk, so that they also survive a power loss or a crash
  /// of the machine; it costs a few milliseconds on a disk, and the writer's thread, not the
  /// sending thread, waits for it.
  public enum SyncPolicy: Sendable, Equatable {
    /// Never: records survive the process being killed, not the machine losing power.
    case never
    /// On ``LogWriter/flush()`` and ``LogWriter/close()``: what a flush acknowledged survives a
    /// power loss.
    case onFlush
    /// After every write, before any record is acknowledged: slowest, and the safest.
    case always
  }
}
