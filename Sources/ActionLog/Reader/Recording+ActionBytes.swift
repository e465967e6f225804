import ActionLogScan

extension Recording {
  /// The bytes of action `seq`'s value as recorded, before any migration: two actions with the
  /// same bytes decode to the same action, so what is learned of one holds for the other.
  public func actionValueBytes(_ seq: Int) throws -> [UInt8] {
    let line = try self.actionLine(seq)
    return try self.storage.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> [UInt8] in
      let payload = UnsafeRawBufferPointer(
        rebasing: bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)])
      let undecodable = { (reason: String) -> ActionLogError in
        ActionLogError.undecodable(
          record: line.record, offset: line.offset, codingPath: "value", reason: reason)
      }
      let tape: JSONTape
      do {
        tape = try JSONTape(payload, maximumDepth: self.limits.maximumJSONDepth)
      } catch let error as JSONTape.SyntaxError {
        throw undecodable("not JSON at byte \(error.offset) of the payload: \(error.reason)")
      }
      guard tape[0].kind == .object else { throw undecodable("the record is not an object") }
      var index = 1
      for _ in 0..<Int(tape[0].count) {
        let key = tape[index]
        let value = tape[index + 1]
        let name = UnsafeRawBufferPointer(
          rebasing: payload[Int(key.start)..<Int(key.start) + Int(key.length)])
        if key.kind == .string, name.elementsEqual("value".utf8) {
          return Array(payload[Int(value.start)..<Int(value.start) + Int(value.length)])
        }
        index = Int(value.end)
      }
      throw undecodable("the record has no value")
    }
  }
}

extension Recording {
  /// The header record's JSON payload, as written.
  public var headerPayload: [UInt8] { self.payloadBytes(of: self.headerLine) }

  /// Action `seq`'s whole record as written (its JSON payload, without the checksum): for a
  /// reader that shows records rather than decodes them, such as a recording's HTML page.
  public func payload(ofAction seq: Int) throws -> [UInt8] {
    self.payloadBytes(of: try self.actionLine(seq))
  }

  /// The checkpoint record after action `seq` as written, or `nil` when there is none.
  public func payload(ofCheckpointAfter seq: Int) -> [UInt8]? {
    self.checkpointLines[seq].map { self.payloadBytes(of: $0) }
  }

  private func payloadBytes(of line: LineRange) -> [UInt8] {
    self.storage.withUnsafeBytes { bytes in
      Array(bytes[line.payloadStart..<(line.payloadStart + line.payloadLength)])
    }
  }
}
