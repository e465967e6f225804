import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One version of a file: which file the name leads to (device and inode) and its size and
/// modification time. A program that saves by renaming a new file into place makes a new inode;
/// one that writes in place changes the time (and usually the size).
struct FileVersion: Hashable, Sendable {
  var device: UInt64
  var inode: UInt64
  var size: Int64
  var modified: Int64

  /// No file at the path.
  static let absent = FileVersion(device: 0, inode: 0, size: 0, modified: 0)

  init(device: UInt64, inode: UInt64, size: Int64, modified: Int64) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
  }

  init(_ info: stat) {
    self.device = UInt64(info.st_dev)
    self.inode = UInt64(info.st_ino)
    self.size = Int64(info.st_size)
    #if canImport(Darwin)
      self.modified =
        Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
    #else
      self.modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    #endif
  }

  /// The version the path leads to now: a `stat`, no read.
  static func at(_ path: String) -> FileVersion {
    var info = stat()
    guard stat(path, &info) == 0 else { return .absent }
    return FileVersion(info)
  }
}

/// A version of a file and its bytes, read together.
struct FileSnapshot: Sendable {
  var version: FileVersion
  /// The bytes, or `nil` when there is no file (or it could not be read).
  var data: Data?

  /// Opens the path once and reads its version and bytes from the same open file, so that the
  /// two always belong together.
  static func at(_ path: String) -> FileSnapshot {
    // NB: Non-blocking: a FIFO in the file's place must not stall the app until a writer comes.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return FileSnapshot(version: .absent, data: nil) }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return FileSnapshot(version: .absent, data: nil) }
    // Only a regular file holds a value (not a directory, a FIFO or a device in its place).
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      return FileSnapshot(version: FileVersion(info), data: nil)
    }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        if count < 0 { return FileSnapshot(version: FileVersion(info), data: nil) }
        break
      }
      data.append(contentsOf: buffer[0..<count])
    }
    return FileSnapshot(version: FileVersion(info), data: data)
  }
}
