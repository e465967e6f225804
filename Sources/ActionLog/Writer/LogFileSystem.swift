import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every file operation a recording asks for: the writer, exports and rolling segments go
/// through this seam, so that what each one promises about durability can be tested on a file
/// system that simulates a power loss.
///
/// Files are append-only: created exclusively, appended to, synced, closed. A name appears by a
/// link (or a rename) and goes by an unlink; none of these is durable until the directory that
/// holds it is synced (``syncDirectory(_:)``).
public protocol LogFileSystem: Sendable {
  /// Creates a file that must not exist, open for appending; returns its descriptor.
  func create(_ path: String) throws(FileSystemError) -> Int32
  /// Appends all of `bytes`.
  func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) throws(FileSystemError)
  /// Puts what was written to `file` on disk.
  func sync(_ file: Int32) throws(FileSystemError)
  /// Closes `file`.
  func close(_ file: Int32) throws(FileSystemError)
  /// Creates the folder `path` and the folders above it that are missing, each made durable in
  /// its parent; does nothing where it exists.
  func createDirectory(_ path: String) throws(FileSystemError)
  /// Makes the name changes in `directory` (creations, links, renames, unlinks) durable.
  func syncDirectory(_ directory: String) throws(FileSystemError)
  /// Gives the file at `existing` a second name, `new`; fails with `EEXIST` when `new` exists.
  func link(_ existing: String, to new: String) throws(FileSystemError)
  /// Removes the name `path`.
  func unlink(_ path: String) throws(FileSystemError)
  /// Moves the name `old` to `new`, replacing what `new` named.
  func rename(_ old: String, to new: String) throws(FileSystemError)
  /// The names in `directory`, hidden ones included.
  func list(_ directory: String) throws(FileSystemError) -> [String]
  /// Whether something is named `path`.
  func exists(_ path: String) -> Bool
  /// Creates a file without a name in `directory`, open for appending, for
  /// ``publish(_:as:)`` to name once it is written: a process that ends before leaves nothing
  /// behind. `nil` where the file system cannot (the caller then writes a hidden file and links
  /// it).
  func createUnnamed(in directory: String) -> Int32?
  /// Gives the unnamed `file` the name `path`; fails with `EEXIST` when `path` exists.
  func publish(_ file: Int32, as path: String) throws(FileSystemError)
  /// Takes the exclusive advisory lock of `file`, held until it is closed (or its process
  /// ends): what tells another recorder, in this process or another, that the file is being
  /// written. A file system without locks does nothing.
  func lock(_ file: Int32)
  /// Who holds the lock of the file at `path`: `nil` when nobody does (a recording that was
  /// closed, or whose process was killed: its lock went with it).
  func lockHolder(of path: String) -> LockHolder?
  /// The size of the file at `path` and when it was last written; `nil` where the file system
  /// does not say (a rolling recording then bounds only its own session's segments).
  func attributes(of path: String) -> (bytes: Int, modified: Date)?
}

/// The process that holds a file's lock.
public struct LockHolder: Sendable, Equatable, CustomStringConvertible {
  /// Its process identifier, where the system says it.
  public var processID: Int32?
  /// Its name (`/proc/PID/comm`), where the system says it.
  public var name: String?
  /// Whether it is this process.
  public var isThisProcess: Bool

  /// Creates a description of a lock's holder.
  public init(processID: Int32?, name: String?, isThisProcess: Bool) {
    self.processID = processID
    self.name = name
    self.isThisProcess = isThisProcess
  }

  public var description: String {
    guard let processID else { return "another process" }
    let named = self.name.map { " (\($0))" } ?? ""
    return self.isThisProcess
      ? "this process (\(processID)\(named)), by a recorder not yet closed"
      : "process \(processID)\(named)"
  }
}

extension LogFileSystem {
  public func lock(_ file: Int32) {}

  public func lockHolder(of path: String) -> LockHolder? { nil }

  public func attributes(of path: String) -> (bytes: Int, modified: Date)? { nil }

  /// No unnamed files: every file is written under a hidden name first.
  public func createUnnamed(in directory: String) -> Int32? { nil }

  public func publish(_ file: Int32, as path: String) throws(FileSystemError) {
    throw FileSystemError(code: ENOTSUP, operation: "publish \(path)")
  }
}

/// A failed file operation: the system's error number and what was being done.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The `errno` the operation failed with.
  public var code: Int32
  /// The operation and its path.
  public var operation: String

  /// Creates an error.
  public init(code: Int32, operation: String) {
    self.code = code
    self.operation = operation
  }

  /// The system's text for ``code``.
  public var reason: String { String(cString: strerror(self.code)) }

  public var description: String { "\(self.operation): \(self.reason)" }
}

extension LogFileSystem where Self == POSIXFileSystem {
  /// The machine's own file system.
  public static var posix: POSIXFileSystem { POSIXFileSystem() }
}

/// The machine's file system, through the POSIX calls.
public struct POSIXFileSystem: LogFileSystem {
  /// Creates the file system.
  public init() {}

  public func create(_ path: String) throws(FileSystemError) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw FileSystemError(code: errno, operation: "create \(path)") }
    return descriptor
  }

  public func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) throws(FileSystemError) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let count = posixWrite(file, base + offset, bytes.count - offset)
      if count < 0 {
        if errno == EINTR { continue }
        throw FileSystemError(code: errno, operation: "write")
      }
      offset += count
    }
  }

  public func sync(_ file: Int32) throws(FileSystemError) {
    guard fsync(file) == 0 else { throw FileSystemError(code: errno, operation: "fsync") }
  }

  public func close(_ file: Int32) throws(FileSystemError) {
    guard closeDescriptor(file) == 0 else { throw FileSystemError(code: errno, operation: "close") }
  }

  public func createDirectory(_ path: String) throws(FileSystemError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw FileSystemError(code: ENOTDIR, operation: "create directory \(path)")
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try self.createDirectory(parent) }
    guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
      throw FileSystemError(code: errno, operation: "create directory \(path)")
    }
    try self.syncDirectory(parent.isEmpty ? "." : parent)
  }

  public func syncDirectory(_ directory: String) throws(FileSystemError) {
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileSystemError(code: errno, operation: "open directory \(directory)")
    }
    defer { _ = closeDescriptor(descriptor) }
    // NB: Some file systems cannot sync a directory (EINVAL); their names are as durable as
    // they can make them.
    guard fsync(descriptor) == 0 || errno == EINVAL else {
      throw FileSystemError(code: errno, operation: "fsync directory \(directory)")
    }
  }

  public func link(_ existing: String, to new: String) throws(FileSystemError) {
    guard posixLink(existing, new) == 0 else {
      throw FileSystemError(code: errno, operation: "link \(new)")
    }
  }

  public func unlink(_ path: String) throws(FileSystemError) {
    guard posixUnlink(path) == 0 else {
      throw FileSystemError(code: errno, operation: "unlink \(path)")
    }
  }

  public func rename(_ old: String, to new: String) throws(FileSystemError) {
    guard posixRename(old, new) == 0 else {
      throw FileSystemError(code: errno, operation: "rename \(old)")
    }
  }

  public func list(_ directory: String) throws(FileSystemError) -> [String] {
    guard let stream = opendir(directory) else {
      throw FileSystemError(code: errno, operation: "list \(directory)")
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  /// `flock`: the lock belongs to the open file, so a second open in the same process
  /// conflicts with it as another process's does, and it ends with the process.
  public func lock(_ file: Int32) {
    // NB: Advisory, and only a help: where the file system has no locks, recording goes on.
    _ = flock(file, LOCK_EX | LOCK_NB)
  }

  public func lockHolder(of path: String) -> LockHolder? {
    let file = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard file >= 0 else { return nil }
    defer { _ = closeDescriptor(file) }
    guard flock(file, LOCK_SH | LOCK_NB) != 0 else {
      _ = flock(file, LOCK_UN)
      return nil
    }
    guard errno == EWOULDBLOCK else { return nil }
    var info = stat()
    guard fstat(file, &info) == 0 else {
      return LockHolder(processID: nil, name: nil, isThisProcess: false)
    }
    let processID = Self.flockHolder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    return LockHolder(
      processID: processID,
      name: processID.flatMap { Self.processName($0) },
      isThisProcess: processID == getpid())
  }

  public func attributes(of path: String) -> (bytes: Int, modified: Date)? {
    var info = stat()
    guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return (
      Int(info.st_size),
      Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    )
  }

  /// The process holding a `flock` write lock on the file, read from Linux's `/proc/locks`
  /// (`1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF`).
  private static func flockHolder(device: UInt64, inode: UInt64) -> Int32? {
    guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else {
      return nil
    }
    let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
    let minor = (device & 0xff) | ((device >> 12) & ~0xff)
    let hex = { (value: UInt64) in
      let digits = String(value, radix: 16)
      return digits.count < 2 ? "0" + digits : digits
    }
    let file = "\(hex(major)):\(hex(minor)):\(inode)"
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ")
      // NB: A blocked request's line starts with `->` and names the waiter, not the holder.
      guard fields.count >= 6, !fields[0].hasPrefix("->"), fields[1] == "FLOCK",
        fields[3] == "WRITE", fields[5] == file
      else { continue }
      return Int32(fields[4])
    }
    return nil
  }

  private static func processName(_ processID: Int32) -> String? {
    guard let name = try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8)
    else { return nil }
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// On Linux, `O_TMPFILE`: a kill before the name appears leaves no file at all.
  public func createUnnamed(in directory: String) -> Int32? {
    #if os(Linux)
      // NB: `O_TMPFILE` is a macro Swift does not import: `__O_TMPFILE | O_DIRECTORY`.
      let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
      let file = open(directory, temporaryFile | O_WRONLY | O_CLOEXEC, 0o644)
      return file >= 0 ? file : nil
    #else
      return nil
    #endif
  }

  /// Links the unnamed file through `/proc/self/fd`, which needs no privilege.
  public func publish(_ file: Int32, as path: String) throws(FileSystemError) {
    #if os(Linux)
      if linkat(AT_FDCWD, "/proc/self/fd/\(file)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0 {
        throw FileSystemError(code: errno, operation: "publish \(path)")
      }
    #else
      throw FileSystemError(code: ENOTSUP, operation: "publish \(path)")
    #endif
  }

  public func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }
}

// NB: Free functions, because inside `POSIXFileSystem` the names are its methods.
private func posixWrite(_ file: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(file, bytes, count)
}
private func posixLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
private func posixUnlink(_ path: String) -> Int32 { unlink(path) }
private func posixRename(_ old: String, _ new: String) -> Int32 { rename(old, new) }
