import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads Debug Adapter Protocol messages: a header of `Name: value` lines, of which
/// `Content-Length` is required, a blank line, then that many bytes of JSON.
final class DAPReader {
  /// What came next on the input.
  enum Next: Equatable {
    /// A message's body.
    case body([UInt8])
    /// A header that is not one, or a body cut short; the reader has skipped past it.
    case malformed(String)
    /// The input ended.
    case end
  }

  /// The longest body accepted; a longer one is refused rather than allocated.
  static let maximumBody = 64 << 20
  /// The longest header accepted.
  static let maximumHeader = 64 << 10

  private let read: (inout [UInt8]) -> Int
  private var buffer: [UInt8] = []
  private var ended = false

  /// Reads from a file descriptor (standard input by default).
  convenience init(descriptor: Int32 = 0) {
    self.init { chunk in
      chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
    }
  }

  /// Reads through `read`, which fills its argument's bytes and returns how many it read (0 at
  /// the end, negative for an error).
  init(read: @escaping (inout [UInt8]) -> Int) {
    self.read = read
  }

  private func fill() -> Bool {
    guard !self.ended else { return false }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = self.read(&chunk)
    guard count > 0 else {
      self.ended = true
      return false
    }
    self.buffer.append(contentsOf: chunk[..<count])
    return true
  }

  /// The next message.
  func next() -> Next {
    while true {
      if let (headerEnd, separatorLength) = self.headerEnd() {
        let header = String(decoding: self.buffer[..<headerEnd], as: UTF8.self)
        self.buffer.removeFirst(headerEnd + separatorLength)
        var length: Int?
        for line in header.split(whereSeparator: { $0 == "\r" || $0 == "\n" }) {
          guard let colon = line.firstIndex(of: ":") else {
            return .malformed("the header line \"\(line.prefix(80))\" has no \":\"")
          }
          let name = line[..<colon].trimmingCharacters(in: .whitespaces)
          let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          if name.caseInsensitiveCompare("Content-Length") == .orderedSame {
            guard let number = Int(value), number >= 0 else {
              return .malformed("Content-Length is \"\(value.prefix(40))\", not a number of bytes")
            }
            guard number <= Self.maximumBody else {
              return .malformed(
                "Content-Length \(number) is over the \(Self.maximumBody)-byte limit")
            }
            length = number
          }
        }
        guard let length else {
          return .malformed("a header without Content-Length: \"\(header.prefix(80))\"")
        }
        while self.buffer.count < length {
          guard self.fill() else {
            let got = self.buffer.count
            self.buffer.removeAll()
            return .malformed("the input ended after \(got) of the body's \(length) bytes")
          }
        }
        let body = Array(self.buffer[..<length])
        self.buffer.removeFirst(length)
        return .body(body)
      }
      if self.buffer.count > Self.maximumHeader {
        self.buffer.removeAll()
        return .malformed("\(Self.maximumHeader) bytes without the blank line that ends a header")
      }
      guard self.fill() else {
        let rest = self.buffer.filter { ![9, 10, 13, 32].contains($0) }
        self.buffer.removeAll()
        return rest.isEmpty ? .end : .malformed("the input ended inside a header")
      }
    }
  }

  /// Where the header ends: before `\r\n\r\n` (or `\n\n`), and the separator's length.
  private func headerEnd() -> (Int, Int)? {
    let bytes = self.buffer
    guard bytes.count >= 2 else { return nil }
    for index in 0..<(bytes.count - 1) where bytes[index] == 10 {
      if bytes[index + 1] == 10 { return (index, 2) }
      if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10,
        index >= 1, bytes[index - 1] == 13
      {
        return (index - 1, 4)
      }
    }
    return nil
  }
}

private func systemRead(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
) -> Int {
  while true {
    let result = read(descriptor, buffer, count)
    if result < 0, errno == EINTR { continue }
    return result
  }
}
