import ConcurrencyExtras
import Dependencies
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where ``SharedReaderKey/fileStorage(_:decoder:encoder:)`` reads and writes files: the file
/// system in the app, a dictionary in tests (`@Dependency(\.defaultFileStorage)`).
///
/// Writes are coalesced: a burst of changes writes the file once, with the last value, on a
/// queue of its own (usually within a millisecond). Each write goes to a temporary file that is
/// then renamed over the file, so a process killed in the middle leaves the last whole file,
/// never a torn one. The last write in real time wins: a value another program writes after
/// the app's change is never overwritten by the app's older one, and reaches every holder as a
/// change from outside (see ``SharedFiles``).
public struct FileStorage: Sendable {
  let id: ObjectIdentifier
  let loadData: @Sendable (URL) throws -> Data
  let saveData: @Sendable (Data, URL) -> Void
  let writeData: @Sendable (Data, URL) throws -> Void
  let watchFile: @Sendable (URL, @escaping @Sendable (Change) -> Void) -> SharedSubscription
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
    let files = SharedFiles()
    return FileStorage(
      id: ObjectIdentifier(files),
      loadData: { try files.load($0) },
      saveData: { data, url in files.save(data, to: url) },
      writeData: { data, url in try SharedFiles.writeAtomically(data, to: url) },
      watchFile: { url, onChange in files.watch(url, onChange) },
      flushWrites: { files.flush() }
    )
  }()

  /// A version of a file another program wrote, as a watch reports it.
  struct Change: Sendable {
    /// The file's bytes, or `nil` when it is gone.
    var data: Data?
    /// Whether this is still the newest value when a holder takes it: `false` once the app
    /// changed the value after it.
    var isCurrent: @Sendable () -> Bool
  }

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
      watchFile: { url, onChange in
        files.watch(url.standardizedFileURL) {
          onChange(Change(data: files.files.withValue { $0[url.standardizedFileURL] }) { true })
        }
      },
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
