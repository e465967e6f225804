import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes Debug Adapter Protocol messages: `Content-Length`, a blank line, the JSON.
final class DAPWriter: @unchecked Sendable {
  // NB: Unchecked: written under its lock.
  private let lock = NSLock()
  private let write: ([UInt8]) -> Void

  /// Writes to a file descriptor (standard output by default).
  convenience init(descriptor: Int32 = 1) {
    self.init { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes {
          systemWrite(descriptor, $0.baseAddress, $0.count)
        }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
      }
    }
  }

  init(write: @escaping ([UInt8]) -> Void) {
    self.write = write
  }

  func send(_ message: JSONValue) {
    let body = message.bytes
    let header = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
    self.lock.withLock { self.write(header + body) }
  }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
