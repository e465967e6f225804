import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A file system in memory that remembers what was synced and can say, at any moment, what a
/// power loss would leave: as RocksDB's `FaultInjectionTestFS` or SQLite's crash VFS.
///
/// - A file keeps the bytes up to its last sync; of those written after it, a power loss keeps
///   none, or a prefix cut at any byte.
/// - A name change (create, link, rename, unlink) is durable once its directory is synced. In
///   ``Mode/keepsNamesOfSyncedFiles`` (as ext4 does) a file's sync also makes durable the name
///   changes made so far that gave it a name; in ``Mode/posix`` only the directory's sync does.
///
/// Every operation can be made to fail (``failure``); a failed write leaves the first half of
/// its bytes in the file, as a disk that fills up does. And ``afterOperation`` is called after
/// each one, outside the lock, so that a test can look at ``powerLossImage(cuttingAt:)`` there.
public final class FaultInjectingFileSystem: LogFileSystem, @unchecked Sendable {
  /// Which name changes a file's sync makes durable.
  public enum Mode: Sendable, CaseIterable {
    /// Only a directory's sync makes name changes durable, as POSIX allows.
    case posix
    /// A file's sync also makes durable the name changes that gave it its names, as ext4 does.
    case keepsNamesOfSyncedFiles
  }

  private final class Inode {
    var data: [UInt8] = []
    var synced = 0
  }

  private enum NameChange {
    case add(String, inode: Int)
    case remove(String)
  }

  private struct Pending {
    var directory: String
    var change: NameChange
    var inode: Int
    var keptBySync = false
  }

  /// The mode.
  public let mode: Mode
  /// Called after each operation with its name (`write`, `sync`, `link`, …), outside the lock.
  public var afterOperation: (@Sendable (String) -> Void)?
  /// Makes an operation fail: given its name and path, the error it throws, or `nil`.
  public var failure: (@Sendable (_ operation: String, _ path: String) -> FileSystemError?)?

  private let lock = NSRecursiveLock()
  private var inodes: [Int: Inode] = [:]
  private var names: [String: Int] = [:]
  private var durableNames: [String: Int] = [:]
  private var pending: [Pending] = []
  private var descriptors: [Int32: Int] = [:]
  private var nextInode = 1
  private var nextDescriptor: Int32 = 100
  /// How many operations were made.
  public private(set) var operations = 0

  /// Creates an empty file system.
  public init(mode: Mode) {
    self.mode = mode
  }

  private func parent(_ path: String) -> String {
    (path as NSString).deletingLastPathComponent
  }

  private func perform<T>(
    _ operation: String, _ path: String, failureAsked: Bool = false,
    _ body: () throws(FileSystemError) -> T
  ) throws(FileSystemError) -> T {
    if !failureAsked, let error = self.failure?(operation, path) { throw error }
    self.lock.lock()
    let result: Result<T, FileSystemError>
    do throws(FileSystemError) {
      result = .success(try body())
    } catch {
      result = .failure(error)
    }
    self.operations += 1
    self.lock.unlock()
    self.afterOperation?(operation)
    return try result.get()
  }

  private func inode(of file: Int32) throws(FileSystemError) -> Inode {
    guard let number = self.descriptors[file], let inode = self.inodes[number] else {
      throw FileSystemError(code: EBADF, operation: "descriptor \(file)")
    }
    return inode
  }

  private func add(_ path: String, inode: Int) {
    self.names[path] = inode
    self.pending.append(
      Pending(directory: self.parent(path), change: .add(path, inode: inode), inode: inode))
  }

  private func remove(_ path: String) {
    guard let inode = self.names.removeValue(forKey: path) else { return }
    self.pending.append(Pending(directory: self.parent(path), change: .remove(path), inode: inode))
  }

  // MARK: - LogFileSystem

  public func create(_ path: String) throws(FileSystemError) -> Int32 {
    try self.perform("create", path) { () throws(FileSystemError) -> Int32 in
      guard self.names[path] == nil else {
        throw FileSystemError(code: EEXIST, operation: "create \(path)")
      }
      let number = self.nextInode
      self.nextInode += 1
      self.inodes[number] = Inode()
      self.add(path, inode: number)
      let descriptor = self.nextDescriptor
      self.nextDescriptor += 1
      self.descriptors[descriptor] = number
      return descriptor
    }
  }

  public func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) throws(FileSystemError) {
    let copy = Array(bytes)
    // NB: A write that fails (a disk filling up) may have put part of its bytes in the file, as
    // `write(2)` does before it returns `ENOSPC`: the first half stays.
    if let error = self.failure?("write", "") {
      self.lock.withLock {
        _ = try? self.inode(of: file).data.append(contentsOf: copy.prefix(copy.count / 2))
      }
      throw error
    }
    try self.perform("write", "", failureAsked: true) { () throws(FileSystemError) in
      try self.inode(of: file).data.append(contentsOf: copy)
    }
  }

  public func sync(_ file: Int32) throws(FileSystemError) {
    try self.perform("sync", "") { () throws(FileSystemError) in
      let inode = try self.inode(of: file)
      inode.synced = inode.data.count
      if self.mode == .keepsNamesOfSyncedFiles, let number = self.descriptors[file] {
        for index in self.pending.indices where self.pending[index].inode == number {
          if case .add = self.pending[index].change { self.pending[index].keptBySync = true }
        }
      }
    }
  }

  public func close(_ file: Int32) throws(FileSystemError) {
    try self.perform("close", "") { () throws(FileSystemError) in
      guard self.descriptors.removeValue(forKey: file) != nil else {
        throw FileSystemError(code: EBADF, operation: "close")
      }
    }
  }

  public func syncDirectory(_ directory: String) throws(FileSystemError) {
    try self.perform("syncDirectory", directory) {
      var rest: [Pending] = []
      for entry in self.pending {
        if entry.directory == directory {
          Self.apply(entry.change, to: &self.durableNames)
        } else {
          rest.append(entry)
        }
      }
      self.pending = rest
    }
  }

  public func link(_ existing: String, to new: String) throws(FileSystemError) {
    try self.perform("link", new) { () throws(FileSystemError) in
      guard let inode = self.names[existing] else {
        throw FileSystemError(code: ENOENT, operation: "link \(existing)")
      }
      guard self.names[new] == nil else {
        throw FileSystemError(code: EEXIST, operation: "link \(new)")
      }
      self.add(new, inode: inode)
    }
  }

  public func unlink(_ path: String) throws(FileSystemError) {
    try self.perform("unlink", path) { () throws(FileSystemError) in
      guard self.names[path] != nil else {
        throw FileSystemError(code: ENOENT, operation: "unlink \(path)")
      }
      self.remove(path)
    }
  }

  public func rename(_ old: String, to new: String) throws(FileSystemError) {
    try self.perform("rename", new) { () throws(FileSystemError) in
      guard let inode = self.names[old] else {
        throw FileSystemError(code: ENOENT, operation: "rename \(old)")
      }
      self.remove(new)
      self.remove(old)
      self.add(new, inode: inode)
    }
  }

  /// Folders are implied by the names in them: nothing to do.
  public func createDirectory(_ path: String) throws(FileSystemError) {}

  public func list(_ directory: String) throws(FileSystemError) -> [String] {
    self.lock.withLock {
      self.names.keys.filter { self.parent($0) == directory }.map {
        ($0 as NSString).lastPathComponent
      }
    }
  }

  public func exists(_ path: String) -> Bool {
    self.lock.withLock { self.names[path] != nil }
  }

  // MARK: - Power loss

  private static func apply(_ change: NameChange, to names: inout [String: Int]) {
    switch change {
    case let .add(path, inode): names[path] = inode
    case let .remove(path): names[path] = nil
    }
  }

  /// What a power loss now would leave: each durable name and its file's bytes. Bytes written
  /// after a file's last sync are dropped, or, with a generator, cut at a random byte.
  public func powerLossImage(
    cuttingAt generator: inout some RandomNumberGenerator
  ) -> [String: [UInt8]] {
    self.lock.withLock {
      var names = self.durableNames
      for entry in self.pending where entry.keptBySync {
        Self.apply(entry.change, to: &names)
      }
      return names.compactMapValues { number in
        guard let inode = self.inodes[number] else { return nil }
        let kept = Int.random(in: inode.synced...inode.data.count, using: &generator)
        return Array(inode.data[..<kept])
      }
    }
  }

  /// What a power loss now would leave when every unsynced byte is lost.
  public func powerLossImage() -> [String: [UInt8]] {
    self.lock.withLock {
      var names = self.durableNames
      for entry in self.pending where entry.keptBySync {
        Self.apply(entry.change, to: &names)
      }
      return names.compactMapValues { number in
        self.inodes[number].map { Array($0.data[..<$0.synced]) }
      }
    }
  }

  /// The files as they are now (what a killed process would leave).
  public func currentImage() -> [String: [UInt8]] {
    self.lock.withLock {
      self.names.compactMapValues { self.inodes[$0]?.data }
    }
  }
}

/// Writes an image of a file system into `directory`, each file under its last path component:
/// for reading it back with the real readers.
public func materialize(_ image: [String: [UInt8]], in directory: URL) throws {
  let manager = FileManager.default
  try? manager.removeItem(at: directory)
  try manager.createDirectory(at: directory, withIntermediateDirectories: true)
  for (path, bytes) in image {
    try Data(bytes).write(
      to: directory.appendingPathComponent((path as NSString).lastPathComponent))
  }
}
