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
