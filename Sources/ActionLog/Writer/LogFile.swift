import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a log is written to: created with its header already in it, appended to with whole
/// writes, synced, and closed. Its callers decide when to sync: the writer by its
/// ``LogWriter/SyncPolicy``, an export once, before the file's name appears.
enum LogFile {
  /// Creates the log so that it appears with its header already in it: the header is written to
  /// a hidden file beside it, which is then linked to the final name. A process killed at any
  /// moment leaves no log, or one with a whole header; never an empty or half-written one.
  /// Linking fails when the name exists, so nothing is overwritten.
  ///
  /// - Parameter syncsFirst: Sync the bytes to disk before the name appears (for a file written
  ///   whole, such as an export).
  /// - Returns: The open descriptor, appending.
  static func create(_ url: URL, header: [UInt8], syncsFirst: Bool = false) throws -> Int32 {
    if FileManager.default.fileExists(atPath: url.path) {
      throw ActionLogError.fileExists(path: url.path)
    }
    let hidden = ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max))"
    let temporary = url.deletingLastPathComponent().appendingPathComponent(hidden)
    let descriptor = open(
      temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644
    )
    guard descriptor >= 0 else {
      throw ActionLogError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
    }
    defer { unlink(temporary.path) }
    var error = Self.writeAll(header, to: descriptor)
    if error == nil, syncsFirst, fsync(descriptor) != 0 {
      error = String(cString: strerror(errno))
    }
    if let error {
      _ = Self.close(descriptor)
      throw ActionLogError.writeFailed(path: url.path, reason: error)
    }
    guard link(temporary.path, url.path) == 0 else {
      let code = errno
      _ = Self.close(descriptor)
      if code == EEXIST { throw ActionLogError.fileExists(path: url.path) }
      throw ActionLogError.writeFailed(path: url.path, reason: String(cString: strerror(code)))
    }
    return descriptor
  }

  /// Writes all of `bytes`, retrying partial writes; returns the error text on failure.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let count = write(descriptor, base + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        offset += count
      }
      return nil
    }
  }

  /// Asks the system to put what was written on disk; returns the error text on failure.
  static func sync(_ descriptor: Int32) -> String? {
    fsync(descriptor) == 0 ? nil : String(cString: strerror(errno))
  }

  /// Closes the file; returns the error text on failure.
  static func close(_ descriptor: Int32) -> String? {
    closeDescriptor(descriptor) == 0 ? nil : String(cString: strerror(errno))
  }
}

/// Closes a file descriptor; a free function, because inside `LogWriter` `close` is the method.
func closeDescriptor(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
