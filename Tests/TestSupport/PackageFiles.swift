import ActionLog
import Foundation

/// This package's root folder.
public let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The folder of bundled recordings, `Recordings/`.
public let recordingsFolder = packageRoot.appendingPathComponent("Recordings")

/// The bundled recording `name` (without its extension).
public func bundledRecording(_ name: String) -> URL {
  recordingsFolder.appendingPathComponent("\(name).actionlog")
}

/// One framed record line for `payload`, as the writer frames it: its checksum in eight hex
/// digits, a space, the payload and a newline.
public func framedLine(_ payload: String) -> Data {
  let crc = crc32c(Array(payload.utf8))
  let hex = String(crc, radix: 16)
  return Data((String(repeating: "0", count: 8 - hex.count) + hex + " " + payload + "\n").utf8)
}

/// The byte offsets at which each line of `data` starts.
public func lineOffsets(_ data: Data) -> [Int] {
  var offsets = [0]
  for (index, byte) in data.enumerated()
  where byte == UInt8(ascii: "\n") && index + 1 < data.count {
    offsets.append(index + 1)
  }
  return offsets
}

/// The actions of a recording fed back by an effect that its trigger, as the recording's effect
/// ledger has it, does not start: what no recording a shrink writes may hold.
public func actionsNoEffectCouldHaveFedBack(in recording: Recording) throws -> [Int] {
  func feeds(_ value: JSONValue?) -> Bool {
    switch value {
    case .string("send")?: return true
    case .object(let members)?:
      return members.keys.contains("run") || members.values.contains { feeds($0) }
    case .array(let elements)?: return elements.contains { feeds($0) }
    default: return false
    }
  }
  guard recording.count > 0 else { return [] }
  return try (1...recording.count).filter { seq in
    guard case let .effect(parent) = recording.origin(ofAction: seq) else { return false }
    return !feeds(try recording.recordedEffects(ofAction: parent))
  }
}
