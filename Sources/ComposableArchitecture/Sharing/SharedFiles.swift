// NB: Over 400 lines on purpose: the files' bookkeeping, its lock and the queue that writes
// them, which decide together which version wins.

import ConcurrencyExtras
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files of ``FileStorage/fileSystem``: writes them on a queue of their own, the latest
/// bytes of each once per turn, and tells their watchers of the versions other programs write.
///
/// The last write in real time wins, in the file and in every holder:
/// - Each change the app makes notes the file's version at that moment (a `stat`).
/// - Before the change's write lands, the file is looked at again. The same version: nothing
///   else wrote since the change, and the app's bytes land. Another version: another program
///   wrote after the change, so its value is newer: the app's write is dropped, and the other
///   program's value reaches every holder as a change from outside.
/// - The bytes are renamed into place by exchanging them with what is there, so the write that
///   lands always sees what it replaced: another program's write that came between the look and
///   the exchange is put back.
/// - An outside version the app's change saw is one the change overwrites: it never reaches the
///   holders after the change.
final class SharedFiles: @unchecked Sendable {
  // NB: Unchecked: `files` and `nextWatcher` are only reached under `lock`.
  private let lock = NSLock()
  private var files: [String: SharedFile] = [:]
  private var nextWatcher = 0
  private let queue = DispatchQueue(label: "ComposableArchitecture.FileStorage")

  /// What the app knows of one file.
  struct SharedFile {
    /// The bytes of the app's latest change, until a write takes them.
    var pending: Data?
    /// The issue reporters where the latest change was made: a write that fails is reported
    /// there (in a test, to the test), not only on the queue that writes.
    var reporters: [any IssueReporter] = []
    /// The file's version when the app made its latest change.
    var seen = FileVersion.absent
    /// Whether leftovers of killed writers were looked for beside the file.
    var swept = false
    /// The app's last writes, a few deep: a watch may see any of them.
    var written: [FileSnapshot] = []
    /// The newest version of the file another program wrote (or the app read), and its bytes.
    var outside: FileSnapshot?
    /// Whether ``outside`` is still to reach the holders: no change of the app's came after it.
    var outsideIsCurrent = false
    var watchers: [Int: @Sendable (FileStorage.Change) -> Void] = [:]

    func isOwn(_ snapshot: FileSnapshot) -> Bool {
      self.written.contains { $0.version == snapshot.version && $0.data == snapshot.data }
    }

    /// The bytes of `version`, where the app knows them.
    func knownData(of version: FileVersion) -> Data? {
      if let own = self.written.last(where: { $0.version == version }) { return own.data }
      if let outside, outside.version == version { return outside.data }
      return nil
    }
  }

  /// Reads the file; its version is what the app last read.
  func load(_ url: URL) throws -> Data {
    let path = url.standardizedFileURL.path
    let snapshot = FileSnapshot.at(path)
    guard let data = snapshot.data else {
      var info = stat()
      if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
        throw CocoaError(
          .fileReadCorruptFile,
          userInfo: [
            NSFilePathErrorKey: path,
            NSLocalizedDescriptionKey:
              "\(path) is not a regular file (a folder, a FIFO or a device)",
          ])
      }
      // NB: Foundation's error, with its reason (no such file, no permission).
      return try Data(contentsOf: url)
    }
    self.lock.withLock {
      if self.files[path, default: SharedFile()].outside == nil {
        self.files[path, default: SharedFile()].outside = snapshot
      }
    }
    return data
  }

  /// Takes a change of the app's: its bytes are written on the queue, unless another program
  /// writes the file first.
  func save(_ data: Data, to url: URL) {
    let path = url.standardizedFileURL.path
    let (isFirst, sweep) = self.lock.withLock {
      var file = self.files[path, default: SharedFile()]
      defer { self.files[path] = file }
      let seen = FileVersion.at(path)
      file.seen = seen
      if seen != .absent, !file.written.contains(where: { $0.version == seen }) {
        // NB: A version the change saw is one it overwrites: it must not reach the holders later.
        if file.outside?.version != seen { file.outside = FileSnapshot(version: seen, data: nil) }
        file.outsideIsCurrent = false
      }
      let isFirst = file.pending == nil
      file.pending = data
      file.reporters = IssueReporters.current
      defer { file.swept = true }
      return (isFirst, !file.swept)
    }
    guard isFirst else { return }
    self.queue.async {
      if sweep { Self.removeLeftovers(beside: url) }
      self.writePending(path)
    }
  }

  /// Waits until every write taken so far has landed or been dropped.
  func flush() {
    self.queue.sync {}
  }

  /// Calls `onChange` with each version of the file another program writes.
  func watch(
    _ url: URL, _ onChange: @escaping @Sendable (FileStorage.Change) -> Void
  ) -> SharedSubscription {
    let path = url.standardizedFileURL.path
    let id = self.lock.withLock {
      defer { self.nextWatcher += 1 }
      self.files[path, default: SharedFile()].watchers[self.nextWatcher] = onChange
      return self.nextWatcher
    }
    let watch = FileWatcher.watch(url) { [weak self] in self?.look(at: path) }
    return SharedSubscription { [weak self] in
      watch.cancel()
      self?.lock.withLock { _ = self?.files[path]?.watchers.removeValue(forKey: id) }
    }
  }

  /// Reads the file after a watch saw it change, and tells its watchers when the version is
  /// another program's and new.
  private func look(at path: String) {
    let found: (FileSnapshot, [@Sendable (FileStorage.Change) -> Void])? =
      self.lock.withLock {
        let snapshot = FileSnapshot.at(path)
        guard var file = self.files[path], !file.isOwn(snapshot),
          file.outside?.version != snapshot.version
        else { return nil }
        file.outside = snapshot
        file.outsideIsCurrent = true
        self.files[path] = file
        return (snapshot, Array(file.watchers.values))
      }
    guard let (snapshot, watchers) = found else { return }
    self.tell(watchers, snapshot, path: path)
  }

  private func tell(
    _ watchers: [@Sendable (FileStorage.Change) -> Void], _ snapshot: FileSnapshot,
    path: String
  ) {
    let change = FileStorage.Change(data: snapshot.data) { [weak self] in
      guard let self else { return false }
      return self.lock.withLock {
        guard let file = self.files[path] else { return false }
        return file.outsideIsCurrent && file.outside?.version == snapshot.version
      }
    }
    for watcher in watchers { watcher(change) }
  }

  /// Writes the bytes of the change taken last, unless another program wrote the file after it.
  private func writePending(_ path: String) {
    // NB: Taken at the start, so that a change made while these bytes are written has a turn of
    // its own queued behind this one (and `flush()` waits for it).
    guard
      let (data, seen, reporters) = self.lock.withLock({
        () -> (Data, FileVersion, [any IssueReporter])? in
        guard let data = self.files[path]?.pending else { return nil }
        self.files[path]?.pending = nil
        return (data, self.files[path]?.seen ?? .absent, self.files[path]?.reporters ?? [])
      })
    else { return }
    func reportIssue(_ message: String) {
      withIssueReporters(reporters.isEmpty ? IssueReporters.current : reporters) {
        IssueReporting.reportIssue(message)
      }
    }
    let temporary: (path: String, version: FileVersion)
    do {
      temporary = try Self.writeTemporary(data, beside: path)
    } catch {
      reportIssue("Could not save the shared file \(path): \(error)")
      return
    }
    let told: (FileSnapshot, [@Sendable (FileStorage.Change) -> Void])? = self.lock.withLock {
      guard var file = self.files[path] else {
        unlink(temporary.path)
        return nil
      }
      defer { self.files[path] = file }
      let current = FileSnapshot.at(path)
      if current.version == .absent ? Self.isDanglingLink(path) : current.data == nil {
        // NB: No file another program wrote, but something else in its place: a link to nothing,
        // a folder, a FIFO, a device. The change replaces it whole, or says why it cannot.
        switch Self.plainRename(temporary.path, into: path) {
        case .landed:
          file.written.append(FileSnapshot(version: temporary.version, data: data))
          if file.written.count > 8 { file.written.removeFirst() }
        case .failed(let error):
          reportIssue("Could not save the shared file \(path): \(error)")
        case .overtaken:
          break
        }
        return nil
      }
      let seenData = file.knownData(of: seen)
      guard current.version == seen, seenData == nil || seenData == current.data else {
        // Another program wrote the file after the app's change: its value is the newer one,
        // unless the app changed the value again since (that change's turn decides).
        unlink(temporary.path)
        return file.pending == nil ? Self.takeOutside(current, into: &file) : nil
      }
      switch Self.exchange(temporary, into: path, expecting: current.version) {
      case .landed:
        file.written.append(FileSnapshot(version: temporary.version, data: data))
        if file.written.count > 8 { file.written.removeFirst() }
        // NB: A change made since saw the version this write replaced: it saw this one.
        if file.pending != nil, file.seen == current.version { file.seen = temporary.version }
        return nil
      case let .overtaken(newer):
        return file.pending == nil ? Self.takeOutside(newer, into: &file) : nil
      case let .failed(error):
        reportIssue("Could not save the shared file \(path): \(error)")
        return nil
      }
    }
    if let (snapshot, watchers) = told { self.tell(watchers, snapshot, path: path) }
  }

  /// Notes another program's version as the newest, and whom to tell of it.
  private static func takeOutside(
    _ snapshot: FileSnapshot, into file: inout SharedFile
  ) -> (FileSnapshot, [@Sendable (FileStorage.Change) -> Void])? {
    // NB: A version a watch already told of is not told twice.
    if let outside = file.outside, outside.version == snapshot.version, outside.data != nil {
      return nil
    }
    file.outside = snapshot
    file.outsideIsCurrent = true
    return (snapshot, Array(file.watchers.values))
  }

  /// Writes `data` to a new file beside `path`, and returns its path and version.
  static func writeTemporary(
    _ data: Data, beside path: String
  ) throws -> (path: String, version: FileVersion) {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp"
    ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw Self.error(errno, path: temporary) }
    defer { close(descriptor) }
    var written = 0
    while written < data.count {
      let count = data.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + written, data.count - written)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let error = Self.error(errno, path: temporary)
        unlink(temporary)
        throw error
      }
      written += count
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let error = Self.error(errno, path: temporary)
      unlink(temporary)
      throw error
    }
    return (temporary, FileVersion(info))
  }

  enum Exchange {
    /// The new bytes are in place, and what they replaced was the version expected.
    case landed
    /// Another program wrote the file between the look and the exchange: its version is in
    /// place again, and the new bytes are gone.
    case overtaken(FileSnapshot)
    case failed(any Error)
  }

  /// Puts the file at `temporary` in place of `path`, where `expected` was seen a moment ago;
  /// the file is removed from `temporary` either way.
  static func exchange(
    _ temporary: (path: String, version: FileVersion), into path: String,
    expecting expected: FileVersion
  ) -> Exchange {
    guard let renameat2 = RenameAt2.function else {
      // NB: Without an atomic exchange, a write that comes between the look and the rename is
      // overwritten: the window is the few microseconds between them.
      return Self.plainRename(temporary.path, into: path)
    }
    @discardableResult
    func swap() -> Bool {
      renameat2(AT_FDCWD, temporary.path, AT_FDCWD, path, RenameAt2.exchange) == 0
    }
    if expected == .absent {
      if renameat2(AT_FDCWD, temporary.path, AT_FDCWD, path, RenameAt2.noReplace) == 0 {
        return .landed
      }
      guard errno == EEXIST else { return Self.plainRename(temporary.path, into: path) }
      // Another program made the file after the app's change.
      unlink(temporary.path)
      return .overtaken(FileSnapshot.at(path))
    }
    guard swap() else {
      if errno == ENOENT {
        // Another program removed the file after the app's change.
        unlink(temporary.path)
        return .overtaken(FileSnapshot.at(path))
      }
      // NB: A file system without exchange: rename, as where there is none.
      return Self.plainRename(temporary.path, into: path)
    }
    // `temporary` now holds what was in place.
    var wanted = FileVersion.at(temporary.path)
    if wanted == expected {
      unlink(temporary.path)
      return .landed
    }
    // Another program's write came between the look and the exchange: it is newer than the
    // app's change, so it goes back in place. Should a still newer one replace what is in place
    // meanwhile, that one goes back in instead.
    var unwanted = temporary.version
    for _ in 0..<8 {
      guard swap() else { break }
      let out = FileVersion.at(temporary.path)
      if out == unwanted || out == .absent { break }
      (unwanted, wanted) = (wanted, out)
    }
    unlink(temporary.path)
    return .overtaken(FileSnapshot.at(path))
  }

  /// Whether `path` is a symbolic link whose target does not exist.
  private static func isDanglingLink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
  }

  private static func plainRename(_ temporary: String, into path: String) -> Exchange {
    guard rename(temporary, path) == 0 else {
      let error = Self.error(errno, path: path)
      unlink(temporary)
      return .failed(error)
    }
    return .landed
  }

  static func error(_ code: Int32, path: String) -> any Error {
    CocoaError(
      .fileWriteUnknown,
      userInfo: [
        NSFilePathErrorKey: path,
        NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
      ])
  }

  /// Removes the temporary files a killed writer left beside `url`: those of its name older than
  /// a minute (a writer renames its own within moments).
  static func removeLeftovers(beside url: URL, olderThan age: TimeInterval = 60) {
    let manager = FileManager.default
    let folder = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      let leftover = folder.appendingPathComponent(name)
      let modified = (try? manager.attributesOfItem(atPath: leftover.path))?[.modificationDate]
      if let modified = modified as? Date, Date().timeIntervalSince(modified) > age {
        try? manager.removeItem(at: leftover)
      }
    }
  }

  /// Writes to a temporary file beside `url`, then renames it over `url`: what another program
  /// does to save a file whole.
  static func writeAtomically(_ data: Data, to url: URL) throws {
    let path = url.standardizedFileURL.path
    let temporary = try Self.writeTemporary(data, beside: path)
    if case let .failed(error) = Self.plainRename(temporary.path, into: path) { throw error }
  }
}

/// Linux's `renameat2(2)`, which Glibc's module does not declare: found at run time.
private enum RenameAt2 {
  typealias Function =
    @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  static let noReplace: UInt32 = 1
  static let exchange: UInt32 = 2

  static let function: Function? = {
    #if os(Linux)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
        return nil
      }
      return unsafeBitCast(symbol, to: Function.self)
    #else
      return nil
    #endif
  }()
}
