import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An editor's side of the Debug Adapter Protocol, over real pipes to a `replay dap` process:
/// it frames requests, and reads responses and events as they come.
public final class DAPClient: @unchecked Sendable {
  // NB: Unchecked: the buffer is shared with the reading thread under the condition's lock.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private let condition = NSCondition()
  private var buffer: [UInt8] = []
  private var ended = false
  private var seq = 0
  /// Every message received, in order.
  public private(set) var received: [JSONValue] = []
  /// Seconds a wait may take before it counts as a hang (not a judgement of speed).
  public var hangBound: TimeInterval = 120

  /// Starts `executable dap` in `folder`.
  public init(executable: URL, arguments: [String] = ["dap"], in folder: URL) throws {
    self.process.executableURL = executable
    self.process.arguments = arguments
    self.process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    self.process.environment = environment
    self.process.standardInput = self.input
    self.process.standardOutput = self.output
    self.process.standardError = self.errors
    try self.process.run()
    let descriptor = self.output.fileHandleForReading.fileDescriptor
    Thread.detachNewThread { [self] in
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        self.condition.lock()
        if count <= 0 {
          self.ended = true
          self.condition.broadcast()
          self.condition.unlock()
          return
        }
        self.buffer.append(contentsOf: chunk[..<count])
        self.condition.broadcast()
        self.condition.unlock()
      }
    }
  }

  /// Writes raw bytes to the adapter: for malformed input.
  public func write(_ bytes: [UInt8]) {
    self.input.fileHandleForWriting.write(Data(bytes))
  }

  /// Sends a request; returns its `seq`.
  @discardableResult
  public func send(_ command: String, _ arguments: JSONValue = [:]) -> Int {
    self.seq += 1
    let body: JSONValue = [
      "seq": .integer(Int64(self.seq)), "type": "request", "command": .string(command),
      "arguments": arguments,
    ]
    self.write(Array("Content-Length: \(body.bytes.count)\r\n\r\n".utf8) + body.bytes)
    return self.seq
  }

  /// The next message, or `nil` when the adapter closed its output.
  public func next() -> JSONValue? {
    let deadline = Date().addingTimeInterval(self.hangBound)
    self.condition.lock()
    defer { self.condition.unlock() }
    while true {
      if let message = self.parse() {
        self.received.append(message)
        return message
      }
      if self.ended { return nil }
      guard self.condition.wait(until: deadline) else { return nil }
    }
  }

  private func parse() -> JSONValue? {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard
      let end = (0..<max(0, self.buffer.count - 3)).first(where: {
        Array(self.buffer[$0..<($0 + 4)]) == separator
      })
    else { return nil }
    let header = String(decoding: self.buffer[..<end], as: UTF8.self)
    guard
      let length = header.split(separator: ":").last.flatMap({
        Int($0.trimmingCharacters(in: .whitespaces))
      }), self.buffer.count >= end + 4 + length
    else { return nil }
    let body = Array(self.buffer[(end + 4)..<(end + 4 + length)])
    self.buffer.removeFirst(end + 4 + length)
    return try? JSONValue.parse(body)
  }

  /// Sends a request and reads up to its response: the events before it, and the response.
  public func request(
    _ command: String, _ arguments: JSONValue = [:]
  ) -> (response: JSONValue?, events: [JSONValue]) {
    let seq = self.send(command, arguments)
    var events: [JSONValue] = []
    while let message = self.next() {
      if case .string("response") = message["type"], message["request_seq"] == .integer(Int64(seq))
      {
        return (message, events)
      }
      events.append(message)
    }
    return (nil, events)
  }

  /// Reads until an event named `name`, returning it.
  public func event(_ name: String) -> JSONValue? {
    while let message = self.next() {
      if case .string("event") = message["type"], message["event"] == .string(name) {
        return message
      }
    }
    return nil
  }

  /// Waits for the process to end; returns its status, or `nil` if it did not within the bound.
  public func exitStatus() -> Int32? {
    let deadline = Date().addingTimeInterval(self.hangBound)
    while self.process.isRunning {
      guard Date() < deadline else {
        self.process.terminate()
        return nil
      }
      usleep(10_000)
    }
    return self.process.terminationStatus
  }

  /// What the adapter wrote to standard error, once it ended.
  public func standardError() -> String {
    String(decoding: self.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  deinit {
    if self.process.isRunning { self.process.terminate() }
  }
}

extension JSONValue {
  /// The element at `index` of an array.
  public subscript(index: Int) -> JSONValue? {
    guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case let .string(text) = self { return text }
    return nil
  }

  /// The number, if this is a whole one.
  public var intValue: Int? {
    if case let .integer(number) = self { return Int(number) }
    return nil
  }
}
