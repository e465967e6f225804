import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import Synchronization
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

/// Records actions through a real store as fast as it can, until it is killed.
///
///     $ record-stress OUTPUT.actionlog [--flush-every N]
///     $ record-stress --rolling DIRECTORY [--flush-every N] [--segment-bytes B]
///         [--die-at-operation K] [--hidden-files]
///     $ record-stress --shared-file FILE.json [--flush-every N]
///     $ record-stress --outside-writer FILE.json
///
/// With `--rolling` it records the counter feature (`counter`, so `replay` can verify it)
/// into a rolling recording that keeps 8 segments' worth of bytes: each action taps
/// increment, so after action N the count is N. With `--die-at-operation K` the process kills
/// itself (SIGKILL) just before the K-th file-system operation of the recording: most of them
/// belong to a rotation (sync, create, link, unlink, directory sync), so this is how a kill
/// lands in the middle of one. Files start without a name (`O_TMPFILE`) as on the machine's own
/// file system; with `--hidden-files`, under a hidden name that is linked, as where there are no
/// unnamed files.
///
/// After each completed `flush()` it prints `ack N` on standard output: every action up to N is
/// then in the file. The kill test reads those lines, kills the process at a random moment, and
/// checks that the log still opens, is a prefix of the actions sent, and holds every
/// acknowledged action.
///
/// With `--shared-file` it changes a `@Shared(.fileStorage(…))` value as fast as it can instead
/// (a count, and a text whose length changes with it), and prints `ack N` once the file holds
/// count N: the kill test checks that the file is always a whole value, never torn.
///
/// With `--outside-writer` it plays another program writing the file at given moments (see
/// ``RecordStress/outsideWriter(_:)``).
@main
struct RecordStress {
  struct Count: Reducer {
    func reduce(into state: inout Int, action: Int) -> Effect<Int> {
      state = action
      return .none
    }
  }

  @MainActor
  static func main() throws {
    let arguments = CommandLine.arguments.dropFirst()
    func option(_ name: String) -> Int? {
      guard let index = arguments.firstIndex(of: name), index + 1 < arguments.endIndex,
        let value = Int(arguments[index + 1]), value > 0
      else { return nil }
      return value
    }
    if let index = arguments.firstIndex(of: "--outside-writer"), index + 1 < arguments.endIndex {
      Self.outsideWriter(URL(fileURLWithPath: arguments[index + 1]))
    }
    if let index = arguments.firstIndex(of: "--shared-file"), index + 1 < arguments.endIndex {
      Self.sharedFile(
        URL(fileURLWithPath: arguments[index + 1]), flushEvery: option("--flush-every") ?? 100)
    }
    if let index = arguments.firstIndex(of: "--rolling"), index + 1 < arguments.endIndex {
      try Self.rolling(
        into: URL(fileURLWithPath: arguments[index + 1]),
        flushEvery: option("--flush-every") ?? 100,
        segmentBytes: option("--segment-bytes") ?? 4_096,
        dieAtOperation: option("--die-at-operation"),
        hiddenFiles: arguments.contains("--hidden-files"))
    }
    guard let path = arguments.first, !path.hasPrefix("-") else {
      FileHandle.standardError.write(
        Data("usage: record-stress OUTPUT.actionlog [--flush-every N]\n".utf8)
      )
      exit(2)
    }
    var flushEvery = 100
    if let index = arguments.firstIndex(of: "--flush-every"), index + 1 < arguments.endIndex,
      let value = Int(arguments[index + 1]), value > 0
    {
      flushEvery = value
    }
    let recorder = try RecorderOf<Count>(
      url: URL(fileURLWithPath: path), feature: "stress", initialState: 0, checkpointInterval: 250,
      options: .init(syncPolicy: .never)
    )
    let store = Store(initialState: 0) { Count().recording(to: recorder) }
    var action = 0
    while true {
      action += 1
      store.send(action)
      if action.isMultiple(of: flushEvery) {
        try recorder.flush()
        FileHandle.standardOutput.write(Data("ack \(action)\n".utf8))
      }
    }
  }

  /// What `--shared-file` keeps in its file.
  struct SharedPayload: Codable, Equatable, Sendable {
    var count = 0
    var text = ""
  }

  static func sharedFile(_ url: URL, flushEvery: Int) -> Never {
    @Shared(.fileStorage(url)) var payload = SharedPayload()
    while true {
      let count = $payload.withLock { payload in
        payload.count += 1
        payload.text = String(repeating: "x", count: payload.count % 4_096)
        return payload.count
      }
      if count % flushEvery == 0 {
        FileStorage.fileSystem.flush()
        FileHandle.standardOutput.write(Data("ack \(count)\n".utf8))
      }
    }
  }

  @MainActor
  static func rolling(
    into directory: URL, flushEvery: Int, segmentBytes: Int, dieAtOperation: Int?,
    hiddenFiles: Bool
  ) throws -> Never {
    var options = LogWriter.Options()
    if dieAtOperation != nil || hiddenFiles {
      options.fileSystem = DyingFileSystem(dieAt: dieAtOperation ?? 0, unnamedFiles: !hiddenFiles)
    }
    let recorder = try RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: .bytes(8 * segmentBytes), segmentBytes: segmentBytes, checkpointInterval: 10,
      options: options
    )
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    var action = 0
    while true {
      action += 1
      store.send(.incrementButtonTapped)
      if action.isMultiple(of: flushEvery) {
        try recorder.flush()
        FileHandle.standardOutput.write(Data("ack \(action)\n".utf8))
      }
    }
  }
}

/// The real file system, with a SIGKILL just before the operation numbered `dieAt`.
final class DyingFileSystem: LogFileSystem {
  private let base = POSIXFileSystem()
  private let dieAt: Int
  private let unnamedFiles: Bool
  private let count = Atomic<Int>(0)

  /// - Parameter unnamedFiles: Whether files start without a name (`O_TMPFILE`) as on the
  ///   machine's own file system, or under a hidden one.
  init(dieAt: Int, unnamedFiles: Bool) {
    self.dieAt = dieAt
    self.unnamedFiles = unnamedFiles
  }

  private func next(_ operation: String) {
    if self.count.add(1, ordering: .relaxed).newValue == self.dieAt {
      FileHandle.standardOutput.write(Data("dies before \(operation)\n".utf8))
      kill(getpid(), SIGKILL)
    }
  }

  func create(_ path: String) throws(FileSystemError) -> Int32 {
    self.next("create")
    return try self.base.create(path)
  }
  func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) throws(FileSystemError) {
    self.next("write")
    try self.base.write(bytes, to: file)
  }
  func sync(_ file: Int32) throws(FileSystemError) {
    self.next("sync")
    try self.base.sync(file)
  }
  func close(_ file: Int32) throws(FileSystemError) {
    self.next("close")
    try self.base.close(file)
  }
  func createDirectory(_ path: String) throws(FileSystemError) {
    self.next("create-directory")
    try self.base.createDirectory(path)
  }
  func syncDirectory(_ directory: String) throws(FileSystemError) {
    self.next("sync-directory")
    try self.base.syncDirectory(directory)
  }
  func link(_ existing: String, to new: String) throws(FileSystemError) {
    self.next("link")
    try self.base.link(existing, to: new)
  }
  func unlink(_ path: String) throws(FileSystemError) {
    self.next("unlink")
    try self.base.unlink(path)
  }
  func rename(_ old: String, to new: String) throws(FileSystemError) {
    self.next("rename")
    try self.base.rename(old, to: new)
  }
  func createUnnamed(in directory: String) -> Int32? {
    guard self.unnamedFiles else { return nil }
    self.next("create-unnamed")
    return self.base.createUnnamed(in: directory)
  }
  func publish(_ file: Int32, as path: String) throws(FileSystemError) {
    self.next("publish")
    try self.base.publish(file, as: path)
  }
  func list(_ directory: String) throws(FileSystemError) -> [String] {
    try self.base.list(directory)
  }
  func exists(_ path: String) -> Bool { self.base.exists(path) }
  func lock(_ file: Int32) { self.base.lock(file) }
  func lockHolder(of path: String) -> LockHolder? { self.base.lockHolder(of: path) }
  func attributes(of path: String) -> (bytes: Int, modified: Date)? {
    self.base.attributes(of: path)
  }
}
