import ActionLog
import Foundation
import TimeTravel

/// Makes hostile recordings from good ones: it edits the records' JSON as a person with a text
/// editor and bad intentions would (numbers at their limits, values of the wrong type, records
/// dropped, repeated, reordered or of another kind, deep nesting, long paths), frames them again
/// with fresh checksums so that the contents are what gets tested, and now and then damages the
/// bytes themselves.
struct Mutator {
  /// A seed recording, record by record.
  struct Seed {
    let name: String
    let records: [Any]
  }

  private(set) var random: SplitMix64
  let seeds: [Seed]
  /// Levels of nesting added to the input being made. NB: This process builds, encodes and frees
  /// each input with recursive code; a few thousand levels would overflow its own stack, and the
  /// reader's limit (512 levels) is passed well before.
  private var nesting = 0

  init(seeds: [Seed], seed: UInt64) {
    self.seeds = seeds
    self.random = SplitMix64(seed: seed)
  }

  /// Reads a recording's records as JSON values; lines that are not JSON are left out.
  static func seed(named name: String, bytes: Data) -> Seed {
    let records = bytes.split(separator: UInt8(ascii: "\n")).compactMap { line -> Any? in
      guard line.count > 9 else { return nil }
      return try? JSONSerialization.jsonObject(
        with: Data(line.dropFirst(9)), options: .fragmentsAllowed)
    }
    return Seed(name: name, records: records)
  }

  /// One hostile recording, and what was done to it.
  mutating func next() -> (bytes: Data, edits: [String]) {
    let seed = self.seeds[self.int(self.seeds.count)]
    var records = seed.records
    var edits: [String] = ["from \(seed.name)"]
    self.nesting = 0
    for _ in 0...self.int(4) {
      edits.append(self.mutate(&records))
    }
    var bytes = Data()
    for record in records {
      bytes += Self.framed(record)
    }
    if self.int(8) == 0 {
      edits.append(self.damage(&bytes))
    }
    return (bytes, edits)
  }

  // MARK: Records

  private mutating func mutate(_ records: inout [Any]) -> String {
    guard !records.isEmpty else {
      records.append(["kind": "header"])
      return "a bare header"
    }
    let index = self.int(records.count)
    switch self.int(12) {
    case 0, 1, 2:
      let path = self.pick(self.paths(in: records[index]))
      let value = self.interestingNumber()
      records[index] = Self.setting(value, at: path, in: records[index])
      return "record \(index + 1) \(Self.describe(path)) = \(value)"
    case 3:
      let path = self.pick(self.paths(in: records[index]))
      let value = self.otherValue()
      records[index] = Self.setting(value, at: path, in: records[index])
      return "record \(index + 1) \(Self.describe(path)) = \(Self.short(value))"
    case 4:
      let path = self.pick(self.paths(in: records[index]))
      records[index] = Self.removing(at: path, in: records[index])
      return "record \(index + 1) \(Self.describe(path)) removed"
    case 5:
      records.remove(at: index)
      return "record \(index + 1) dropped"
    case 6:
      let copies = self.int(4) == 0 ? 1 + self.int(3_000) : 1
      records.insert(
        contentsOf: repeatElement(records[index], count: copies), at: self.int(records.count + 1))
      return "record \(index + 1) repeated \(copies)×"
    case 7:
      let other = self.int(records.count)
      records.swapAt(index, other)
      return "records \(index + 1) and \(other + 1) swapped"
    case 8:
      let kinds = ["header", "action", "checkpoint", "note", "end", "", "ACTION", "tombstone"]
      let kind = self.pick(kinds)
      records[index] = Self.setting(kind, at: [.key("kind")], in: records[index])
      return "record \(index + 1) kind = \(kind)"
    case 9:
      let path = self.pick(self.paths(in: records[index]))
      let depth = min(self.pick([2, 64, 520, 1_000]), max(0, 1_200 - self.nesting))
      self.nesting += depth
      var value: Any = self.int(2) == 0 ? [String: Any]() : [Any]()
      for _ in 0..<depth {
        value = self.int(2) == 0 ? ["a": value] : [value]
      }
      records[index] = Self.setting(value, at: path, in: records[index])
      return "record \(index + 1) \(Self.describe(path)) nested \(depth) deep"
    case 10:
      let paths = (0...self.int(3)).map { _ in self.redactionPath() }
      let field = self.int(2) == 0 ? "state" : "actions"
      records[0] = Self.setting(paths, at: [.key("redacted"), .key(field)], in: records[0])
      return "redacted \(field) = \(paths.map { Self.short($0) })"
    default:
      let other = self.pick(self.seeds)
      guard !other.records.isEmpty else { return "nothing" }
      let record = other.records[self.int(other.records.count)]
      records.insert(record, at: self.int(records.count + 1))
      return "a record of \(other.name) spliced in"
    }
  }

  /// The paths to every value in `value`, including the empty path to itself.
  private func paths(in value: Any, limit: Int = 2_000) -> [[PathStep]] {
    var paths: [[PathStep]] = []
    func visit(_ value: Any, _ path: [PathStep]) {
      guard paths.count < limit else { return }
      paths.append(path)
      if let object = value as? [String: Any] {
        for key in object.keys.sorted() { visit(object[key]!, path + [.key(key)]) }
      } else if let array = value as? [Any] {
        for (index, element) in array.enumerated().prefix(50) {
          visit(element, path + [.index(index)])
        }
      }
    }
    visit(value, [])
    return paths
  }

  enum PathStep {
    case key(String)
    case index(Int)
  }

  static func setting(_ new: Any, at path: [PathStep], in value: Any) -> Any {
    guard let first = path.first else { return new }
    let rest = Array(path.dropFirst())
    switch first {
    case .key(let key):
      var object = value as? [String: Any] ?? [:]
      object[key] = Self.setting(new, at: rest, in: object[key] ?? [String: Any]())
      return object
    case .index(let index):
      guard var array = value as? [Any], array.indices.contains(index) else { return value }
      array[index] = Self.setting(new, at: rest, in: array[index])
      return array
    }
  }

  static func removing(at path: [PathStep], in value: Any) -> Any {
    guard let first = path.first else { return NSNull() }
    let rest = Array(path.dropFirst())
    switch first {
    case .key(let key):
      guard var object = value as? [String: Any], let member = object[key] else { return value }
      object[key] = rest.isEmpty ? nil : Self.removing(at: rest, in: member)
      return object
    case .index(let index):
      guard var array = value as? [Any], array.indices.contains(index) else { return value }
      if rest.isEmpty {
        array.remove(at: index)
      } else {
        array[index] = Self.removing(at: rest, in: array[index])
      }
      return array
    }
  }

  // MARK: Values

  private mutating func interestingNumber() -> NSNumber {
    switch self.int(14) {
    case 0: NSNumber(value: Int64.max)
    case 1: NSNumber(value: Int64.min)
    case 2: NSNumber(value: -1)
    case 3: NSNumber(value: 0)
    case 4: NSNumber(value: 1_000_000_000)
    case 5: NSNumber(value: UInt64.max)
    case 6: NSNumber(value: Int64.max - 1)
    case 7: NSNumber(value: 1e300)
    case 8: NSNumber(value: -0.0)
    case 9: NSNumber(value: 0.5)
    case 10: NSNumber(value: Int32.max)
    case 11: NSNumber(value: 9_007_199_254_740_993 as Int64)
    case 12: NSNumber(value: Int64(self.int(300)) - 100)
    default: NSNumber(value: 5e-324)
    }
  }

  private mutating func otherValue() -> Any {
    switch self.int(9) {
    case 0: NSNull()
    case 1: [Any]()
    case 2: [String: Any]()
    case 3: true
    case 4: ""
    case 5: String(repeating: "x", count: 100_000)
    case 6: "\u{0}\u{1F}\"\\\u{2028}é𝄞"
    case 7: ["unknownCase": [String: Any]()]
    default: "2025-11-22T02:53:20.000Z"
    }
  }

  private mutating func redactionPath() -> String {
    let parts = ["todos", "[*]", "**", "title", "a", "*", "[0]", ".", "[", "]", "[-1]", "é"]
    let length = self.pick([1, 3, 8, 300, 2_000])
    var path = ""
    for index in 0..<length {
      let part = self.pick(parts)
      path += index > 0 && !part.hasPrefix("[") && self.int(4) != 0 ? "." + part : part
    }
    return path
  }

  // MARK: Bytes

  private mutating func damage(_ bytes: inout Data) -> String {
    guard !bytes.isEmpty else { return "nothing to damage" }
    let offset = self.int(bytes.count)
    switch self.int(5) {
    case 0:
      bytes[offset] ^= UInt8(1 << self.int(8))
      return "a bit flipped at byte \(offset)"
    case 1:
      bytes.removeSubrange(offset...)
      return "cut at byte \(offset)"
    case 2:
      bytes.insert(UInt8(ascii: "\n"), at: offset)
      return "a newline inserted at byte \(offset)"
    case 3:
      bytes.replaceSubrange(offset..<offset, with: [0xFF, 0xFE, 0x00, 0xC3])
      return "invalid UTF-8 inserted at byte \(offset)"
    default:
      bytes.append(bytes[offset...])
      return "bytes from \(offset) repeated at the end"
    }
  }

  /// A record framed as the recorder frames it: checksum, space, payload, newline.
  static func framed(_ record: Any) -> Data {
    let payload =
      (try? JSONSerialization.data(
        withJSONObject: record,
        options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
      )) ?? Data("null".utf8)
    let checksum = String(crc32c(Array(payload)), radix: 16)
    var line = Data((String(repeating: "0", count: 8 - checksum.count) + checksum + " ").utf8)
    line += payload
    line.append(UInt8(ascii: "\n"))
    return line
  }

  // MARK: Helpers

  private mutating func int(_ bound: Int) -> Int {
    Int(self.random.next() % UInt64(max(bound, 1)))
  }

  private mutating func pick<T>(_ elements: [T]) -> T {
    elements[self.int(elements.count)]
  }

  static func describe(_ path: [PathStep]) -> String {
    path.isEmpty
      ? "(whole)"
      : path.map {
        switch $0 {
        case .key(let key): ".\(key)"
        case .index(let index): "[\(index)]"
        }
      }.joined()
  }

  static func short(_ value: Any) -> String {
    let text = "\(value)"
    return text.count > 40 ? String(text.prefix(40)) + "…" : text
  }
}
