import ConcurrencyExtras
import Dependencies
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where ``SharedReaderKey/fileStorage(_:decoder:encoder:)`` reads and writes files: the file
/// system in the app, a dictionary in tests (`@Dependency(\.defaultFileStorage)`).
///
/// Writes are coalesced: a burst of changes writes the file once, with the last value. Each
/// write goes to a temporary file that is then renamed over the file, so a process killed in the
/// middle leaves the last whole file, never a torn one.
public struct FileStorage: Sendable {
  let id: ObjectIdentifier
  let loadData: @Sendable (URL) throws -> Data
  let saveData: @Sendable (Data, URL) -> Void
  let writeData: @Sendable (Data, URL) throws -> Void
  let watchFile: @Sendable (URL, @escaping @Sendable () -> Void) -> SharedSubscription
  let flushWrites: @Sendable () -> Void

  /// The file's bytes, as the storage holds them now.
  public func read(_ url: URL) throws -> Data {
    try self.loadData(url)
  }

  /// Writes `data` to `url` at once, as another program would: every shared value of that file
  /// takes it.
  public func write(_ data: Data, to url: URL) throws {
    try self.writeData(data, url)
  }

  /// Waits until every coalesced write has reached the storage.
  public func flush() {
    self.flushWrites()
  }

  /// The file system, watched for changes other programs make (inotify on Linux).
  public static let fileSystem: FileStorage = {
    let writer = CoalescingWriter()
    return FileStorage(
      id: ObjectIdentifier(writer),
      loadData: { try Data(contentsOf: $0) },
      saveData: { data, url in writer.save(data, to: url) },
      writeData: { data, url in try CoalescingWriter.writeAtomically(data, to: url) },
      watchFile: { url, onChange in
        // NB: The file's change is this process's own write when it holds bytes written lately.
        FileWatcher.watch(url) {
          guard let data = try? Data(contentsOf: url) else { return onChange() }
          if !writer.hasWritten(data, to: url) { onChange() }
        }
      },
      flushWrites: { writer.flush() }
    )
  }()

  /// A storage in memory: what a test reads and writes instead of files.
  public static func inMemory() -> FileStorage {
    let files = InMemoryFiles()
    return FileStorage(
      id: ObjectIdentifier(files),
      loadData: { url in
        guard let data = files.files.withValue({ $0[url.standardizedFileURL] }) else {
          throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return data
      },
      saveData: { data, url in files.files.withValue { $0[url.standardizedFileURL] = data } },
      writeData: { data, url in
        files.files.withValue { $0[url.standardizedFileURL] = data }
        files.tell(url.standardizedFileURL)
      },
      watchFile: { url, onChange in files.watch(url.standardizedFileURL, onChange) },
      flushWrites: {}
    )
  }
}

private final class InMemoryFiles: @unchecked Sendable {
  // NB: Unchecked: everything is reached under a lock.
  let files = LockIsolated<[URL: Data]>([:])
  private let watchers = LockIsolated<[URL: [Int: @Sendable () -> Void]]>([:])
  private let nextID = LockIsolated(0)

  func watch(_ url: URL, _ onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    let id = self.nextID.withValue { id in
      defer { id += 1 }
      return id
    }
    self.watchers.withValue { $0[url, default: [:]][id] = onChange }
    return SharedSubscription { [weak self] in
      self?.watchers.withValue { _ = $0[url]?.removeValue(forKey: id) }
    }
  }

  func tell(_ url: URL) {
    for onChange in self.watchers.withValue({ Array(($0[url] ?? [:]).values) }) { onChange() }
  }
}

/// Writes files on a queue of its own, the latest bytes for each file once per turn.
final class CoalescingWriter: @unchecked Sendable {
  // NB: Unchecked: `pending` is reached under the lock.
  private let queue = DispatchQueue(label: "ComposableArchitecture.FileStorage")
  private let pending = LockIsolated<[URL: Data]>([:])
  /// The files written to since the process started, whose leftovers were looked for.
  private let swept = LockIsolated<Set<URL>>([])
  /// The last bytes written to each file, a few writes deep: a change the watch sees may be
  /// any of them, the latest write having already been followed by others.
  private let written = LockIsolated<[URL: [Data]]>([:])

  func hasWritten(_ data: Data, to url: URL) -> Bool {
    self.written.withValue { $0[url]?.contains(data) == true }
  }

  func save(_ data: Data, to url: URL) {
    let isNewFile = self.swept.withValue { $0.insert(url).inserted }
    let isFirst = self.pending.withValue { pending in
      defer { pending[url] = data }
      return pending[url] == nil
    }
    guard isFirst else { return }
    self.queue.async {
      if isNewFile { Self.removeLeftovers(beside: url) }
      guard let data = self.pending.withValue({ $0.removeValue(forKey: url) }) else { return }
      self.written.withValue {
        $0[url, default: []].append(data)
        if $0[url, default: []].count > 8 { $0[url]?.removeFirst() }
      }
      do {
        try Self.writeAtomically(data, to: url)
      } catch {
        reportIssue("Could not save the shared file \(url.path): \(error)")
      }
    }
  }

  func flush() {
    self.queue.sync {}
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

  /// Writes to a temporary file beside `url`, then renames it over `url`.
  static func writeAtomically(_ data: Data, to url: URL) throws {
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(
      ".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
    try data.write(to: temporary)
    #if canImport(Glibc)
      guard rename(temporary.path, url.path) == 0 else {
        let error = CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        try? FileManager.default.removeItem(at: temporary)
        throw error
      }
    #else
      _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
    #endif
  }
}

/// Calls back when a file is written, renamed into place or removed.
enum FileWatcher {
  static func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    #if os(Linux)
      if let subscription = Self.inotify(url, onChange: onChange) { return subscription }
    #endif
    return Self.poll(url, onChange: onChange)
  }

  #if os(Linux)
    /// Watches the file's folder with inotify: a file replaced by a rename is a new file.
    private static func inotify(
      _ url: URL, onChange: @escaping @Sendable () -> Void
    ) -> SharedSubscription? {
      let folder = url.deletingLastPathComponent()
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM)
      guard inotify_add_watch(descriptor, folder.path, mask) >= 0 else {
        close(descriptor)
        return nil
      }
      let name = Array(url.lastPathComponent.utf8)
      let source = DispatchSource.makeReadSource(
        fileDescriptor: descriptor, queue: DispatchQueue(label: "FileWatcher \(url.path)"))
      source.setEventHandler {
        var buffer = [UInt8](repeating: 0, count: 8_192)
        var changed = false
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          guard count > 0 else { break }
          // NB: Each event: wd (4 bytes), mask (4), cookie (4), len (4), then `len` bytes of
          // NUL-padded name.
          var offset = 0
          while offset + 16 <= count {
            let length = buffer.withUnsafeBytes {
              Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            }
            let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
            if Array(nameBytes.prefix { $0 != 0 }) == name { changed = true }
            offset += 16 + length
          }
        }
        if changed { onChange() }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      let held = _Locked(source)
      return SharedSubscription { held.withValue { $0.cancel() } }
    }
  #endif

  /// Looks at the file's size and modification date every half second.
  private static func poll(
    _ url: URL, onChange: @escaping @Sendable () -> Void
  ) -> SharedSubscription {
    @Sendable func signature() -> String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
      let size = attributes?[.size] as? Int
      let date = attributes?[.modificationDate] as? Date
      return "\(size ?? -1) \(date?.timeIntervalSince1970 ?? -1)"
    }
    return _pollForChanges("FileWatcher \(url.path)", signature: signature) { _ in onChange() }
  }
}

private enum FileStorageDependencyKey: DependencyKey {
  static let liveValue = FileStorage.fileSystem
  static var testValue: FileStorage { .inMemory() }
}

extension DependencyValues {
  /// Where file-stored shared values are read and written: the file system in the app, a
  /// storage in memory in tests.
  public var defaultFileStorage: FileStorage {
    get { self[FileStorageDependencyKey.self] }
    set { self[FileStorageDependencyKey.self] = newValue }
  }
}
