import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a log is written to: created with its header already in it, appended to with whole
/// writes, synced, and closed, all through a ``LogFileSystem``. Its callers decide when to sync:
/// the writer by its ``LogWriter/SyncPolicy``, an export once, before the file's name appears.
struct LogFile {
  let fileSystem: any LogFileSystem
  let url: URL
  let descriptor: Int32

  /// Creates the log so that it appears with its header already in it: the header is written to
  /// a file without a name (Linux's `O_TMPFILE`) that is then linked to the final name, or,
  /// where there are no such files, to a hidden file beside it (``temporaryName(for:)``), which
  /// is linked to the final name and unlinked. A process killed at any moment leaves no log, or
  /// one with a whole header; never an empty or half-written one (and with an unnamed file, no
  /// leftover either). Linking fails when the name exists, so nothing is overwritten.
  ///
  /// - Parameters:
  ///   - syncsFirst: Sync the bytes to disk before the name appears (for a file written whole,
  ///     such as an export).
  ///   - syncsDirectory: Sync the header, then the directory once the name is there, so that the
  ///     name, and the header it names, survive a power loss before anything written to the
  ///     file is acknowledged.
  static func create(
    _ url: URL, header: [UInt8], fileSystem: any LogFileSystem,
    syncsFirst: Bool = false, syncsDirectory: Bool = true
  ) throws -> LogFile {
    // NB: A file being written is another recorder's, which its lock names.
    func exists() -> ActionLogError {
      fileSystem.lockHolder(of: url.path).map {
        .beingWritten(path: url.path, writer: $0.description)
      } ?? .fileExists(path: url.path)
    }
    if fileSystem.exists(url.path) { throw exists() }
    let directory = url.deletingLastPathComponent().path
    func failed(_ error: FileSystemError) -> ActionLogError {
      error.code == EEXIST ? exists() : .writeFailed(path: url.path, reason: error.reason)
    }
    // Where it can, the header goes to a file without a name, which a kill leaves nowhere.
    if let descriptor = fileSystem.createUnnamed(in: directory) {
      // NB: Locked before it has a name: nobody sees it unlocked while it is written.
      fileSystem.lock(descriptor)
      var published = false
      do {
        try Self.write(header, to: descriptor, on: fileSystem)
        if syncsFirst || syncsDirectory { try fileSystem.sync(descriptor) }
        try fileSystem.publish(descriptor, as: url.path)
        published = true
        if syncsDirectory { try fileSystem.syncDirectory(directory) }
        return LogFile(fileSystem: fileSystem, url: url, descriptor: descriptor)
      } catch {
        try? fileSystem.close(descriptor)
        // NB: A name that may not survive is not handed out.
        if published { try? fileSystem.unlink(url.path) }
        // Without `/proc` to link through, the hidden file below does it.
        guard !published, error.code == ENOENT || error.code == ENOTSUP || error.code == EPERM
        else { throw failed(error) }
      }
    }
    let temporary = directory + "/" + Self.temporaryName(for: url.lastPathComponent)
    let descriptor: Int32
    do {
      descriptor = try fileSystem.create(temporary)
    } catch {
      throw ActionLogError.writeFailed(path: url.path, reason: error.reason)
    }
    TemporaryFiles.shared.insert(temporary)
    defer { TemporaryFiles.shared.remove(temporary) }
    fileSystem.lock(descriptor)
    do {
      try Self.write(header, to: descriptor, on: fileSystem)
      // NB: A name made durable must not name an empty file after a power loss: the header is
      // synced before the name appears whenever the name is synced after.
      if syncsFirst || syncsDirectory { try fileSystem.sync(descriptor) }
      try fileSystem.link(temporary, to: url.path)
    } catch {
      try? fileSystem.close(descriptor)
      try? fileSystem.unlink(temporary)
      throw failed(error)
    }
    try? fileSystem.unlink(temporary)
    if syncsDirectory {
      do {
        try fileSystem.syncDirectory(directory)
      } catch {
        // NB: A name that may not survive is not handed out.
        try? fileSystem.close(descriptor)
        try? fileSystem.unlink(url.path)
        throw failed(error)
      }
    }
    return LogFile(fileSystem: fileSystem, url: url, descriptor: descriptor)
  }

  /// Appends all of `bytes`; returns the error text on failure.
  func write(_ bytes: [UInt8]) -> String? {
    do {
      try Self.write(bytes, to: self.descriptor, on: self.fileSystem)
      return nil
    } catch {
      return error.reason
    }
  }

  private static func write(
    _ bytes: [UInt8], to descriptor: Int32, on fileSystem: any LogFileSystem
  ) throws(FileSystemError) {
    let result: Result<Void, FileSystemError> = bytes.withUnsafeBytes { buffer in
      do throws(FileSystemError) {
        try fileSystem.write(buffer, to: descriptor)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Asks the system to put what was written on disk; returns the error text on failure.
  func sync() -> String? {
    do { try self.fileSystem.sync(self.descriptor) } catch { return error.reason }
    return nil
  }

  /// Closes the file; returns the error text on failure.
  func close() -> String? {
    do { try self.fileSystem.close(self.descriptor) } catch { return error.reason }
    return nil
  }

  // MARK: - Temporary files

  /// The hidden name a file is written under before it appears as `name`:
  /// `.NAME.PID.RANDOM`.
  static func temporaryName(for name: String) -> String {
    ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Whether `name` is a hidden file ``create(_:header:fileSystem:syncsFirst:syncsDirectory:)``
  /// writes before publishing, and the process it names: `.NAME.PID.RANDOM`.
  static func temporaryProcess(of name: String) -> Int32? {
    guard name.hasPrefix(".") else { return nil }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 4, let random = parts.last, UInt32(random) != nil,
      let pid = Int32(parts[parts.count - 2]), pid > 0
    else { return nil }
    return pid
  }

  /// The temporary files in `directory` that a process which ended (a crash, a kill, a power
  /// loss) left behind: none is ever a recording. Files this process is writing, and those of
  /// processes still running, are not among them.
  static func leftovers(
    in directory: URL, fileSystem: any LogFileSystem
  ) throws(FileSystemError) -> [String] {
    let own = getpid()
    return try fileSystem.list(directory.path).filter { name in
      guard let pid = Self.temporaryProcess(of: name) else { return false }
      let path = directory.path + "/" + name
      if pid == own { return !TemporaryFiles.shared.contains(path) }
      return kill(pid, 0) != 0 && errno == ESRCH
    }.sorted()
  }
}

/// The temporary files this process is writing, which no clean-up may take for leftovers.
final class TemporaryFiles: @unchecked Sendable {
  static let shared = TemporaryFiles()
  private let lock = NSLock()
  private var paths: Set<String> = []

  func insert(_ path: String) { self.lock.withLock { _ = self.paths.insert(path) } }
  func remove(_ path: String) { self.lock.withLock { _ = self.paths.remove(path) } }
  func contains(_ path: String) -> Bool { self.lock.withLock { self.paths.contains(path) } }
}

/// Closes a file descriptor; a free function, because inside some types `close` is a method.
func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
