// Compiled twice: here, against ExampleFeatures in the Swift 6 language mode, and in
// ExampleFeaturesSwift5Tests beside a copy of the features, in the Swift 5 mode.
@_spi(Internals) import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

#if !FEATURES_INLINE
  import ExampleFeatures
#endif

/// An action of every shape a generated codec writes: no value, unlabelled and labelled
/// values (sorted by key, `_0` among names), optional values (absent when `nil`), a keyword
/// for a name, values with and without generated code.
@_GeneratedCodec
indirect enum CodecSampleAction: Codable, Equatable, Sendable {
  case tapped
  case text(String)
  case pair(zeta: Int, String, alpha: Double?)
  case `default`(`in`: [Int?])
  case nested(IdentifiedAction<Int, CodecSampleAction>)
  case presented(PresentationAction<CodecSampleAction>)
  case sample(ChangeSample)
  case mode(ChangeMode)
  case when(Date, URL, UUID)
}

/// The code the macros generate writes the bytes `Codable` writes, value for value: on every
/// bundled recording's actions and states, and on random values of every shape.
@Suite struct GeneratedCodecDifferentialTests {
  /// The value's JSON from its generated code, and from `Codable` (Foundation's encoder, which
  /// knows nothing of generated code); `nil` from the generated code when it leaves the value
  /// to `Codable`.
  func bothEncodings<Value: Encodable>(
    _ value: Value
  ) throws -> (generated: String?, codable: String) {
    let codable = String(decoding: try FoundationJSONCodec().encode(value), as: UTF8.self)
    guard let generated = value as? any _JSONEncodable else { return (nil, codable) }
    var json = _JSONBuffer { value, bytes in
      bytes.append(contentsOf: try FoundationJSONCodec().encode(value))
    }
    do {
      try generated._encodeJSON(into: &json)
    } catch {
      return (nil, codable)
    }
    return (String(decoding: json.bytes, as: UTF8.self), codable)
  }

  /// Expects `value`'s generated JSON to be `Codable`'s, and the record codec's too; and the
  /// value its generated code reads from that JSON to be the one `Codable` reads.
  func expectSame<Value: Codable & Equatable>(
    _ value: Value, generated expectGenerated: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try self.expectSameJSON(value, generated: expectGenerated, sourceLocation: sourceLocation)
    let bytes = try FoundationJSONCodec().encode(value)
    let codable = try bytes.withUnsafeBytes {
      try FoundationJSONCodec().decode(Value.self, from: $0)
    }
    let generated = bytes.withUnsafeBytes {
      CompactJSONCodec().decodeByGeneratedCode(Value.self, from: $0)
    }
    if expectGenerated {
      #expect(
        generated != nil,
        "no generated decoding of \(Value.self): \(String(decoding: bytes, as: UTF8.self))",
        sourceLocation: sourceLocation)
    }
    if let generated {
      #expect(generated == codable, sourceLocation: sourceLocation)
    }
    let compact = try bytes.withUnsafeBytes { try CompactJSONCodec().decode(Value.self, from: $0) }
    #expect(compact == codable, sourceLocation: sourceLocation)
  }

  func expectSameJSON<Value: Encodable>(
    _ value: Value, generated expectGenerated: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let (generated, codable) = try self.bothEncodings(value)
    if expectGenerated {
      #expect(
        generated != nil, "no generated code for \(Value.self)", sourceLocation: sourceLocation)
    }
    if let generated {
      #expect(generated == codable, sourceLocation: sourceLocation)
    }
    let compact = String(decoding: try CompactJSONCodec().encode(value), as: UTF8.self)
    #expect(compact == codable, sourceLocation: sourceLocation)
  }

  @Test func everyBundledRecordingEncodesAsCodableDoes() throws {
    #if !FEATURES_INLINE
      // NB: Features written without the macros: `Codable` alone.
      try self.compare(
        "counter", CounterFeature.State.self, CounterFeature.Action.self, generated: false)
      try self.compare("songs", SongsApp.State.self, SongsApp.Action.self, generated: false)
      try self.compare(
        "songs-heart-bug", SongsApp.State.self, SongsApp.Action.self, generated: false)
      try self.compare("todos", Todos.State.self, Todos.Action.self)
    #endif
    try self.compare("inventory", Inventory.State.self, Inventory.Action.self)
    try self.compare("contacts", Contacts.State.self, Contacts.Action.self)
    try self.compare("search", CitySearch.State.self, CitySearch.Action.self)
    try self.compare("preferences", Preferences.State.self, Preferences.Action.self)
  }

  /// Each action of the recording and each state after one, decoded, encoded both ways.
  func compare<State: Codable & Equatable & Sendable, Action: Codable & Sendable>(
    _ name: String, _ state: State.Type, _ action: Action.Type, generated: Bool = true
  ) throws {
    let recording = try Recording(contentsOf: bundledRecording(name))
    #expect(
      (Action.self is any _JSONEncodable.Type) == generated,
      "\(name)'s actions: generated code expected: \(generated)")
    #expect((Action.self is any _JSONDecodable.Type) == generated)
    // NB: A state holding shared values leaves them to `Codable` (each written at its moment).
    let stateIsGenerated = generated && name != "preferences"
    try self.expectSame(try recording.initialState(as: State.self), generated: stateIsGenerated)
    for seq in stride(from: 1, through: recording.count, by: 1) {
      let action = try recording.action(seq, as: Action.self).action
      // NB: An action holding an error (`Result<_, any Error>`) is not `Equatable`: its JSON
      // is compared, not what decodes from it.
      if let equatable = action as? any Codable & Equatable {
        try self.expectSame(equatable, generated: generated)
      } else {
        try self.expectSameJSON(action, generated: generated)
      }
      let json = try recording.stateJSON(after: seq)
      try self.expectSame(
        try JSONDecoder().decode(State.self, from: Data(json.text.utf8)),
        generated: stateIsGenerated)
    }
  }

  @Test func randomStatesEncodeAsCodableDoes() throws {
    var generator = SplitMix64(seed: 0xC0DEC)
    var state = ChangeSample()
    var nextID = 0
    for _ in 0..<600 {
      state.edit(with: &generator, nextID: &nextID)
      try self.expectSame(state)
    }
  }

  @Test func randomActionsEncodeAsCodableDoes() throws {
    var generator = SplitMix64(seed: 0xAC7)
    for _ in 0..<600 {
      try self.expectSame(CodecSampleAction.random(&generator, depth: 0))
    }
  }

  @Test func aValueThatCannotBeWrittenIsLeftToCodable() throws {
    // NB: Foundation refuses a non-finite number; the generated code gives the value back.
    var json = _JSONBuffer { _, _ in }
    #expect(throws: _JSONUnsupported.self) {
      try CodecSampleAction.pair(zeta: 1, "x", alpha: .infinity)._encodeJSON(into: &json)
    }
    #expect(throws: (any Error).self) {
      try CompactJSONCodec().encode(CodecSampleAction.pair(zeta: 1, "x", alpha: .nan))
    }
  }
}

extension CodecSampleAction {
  static func random(_ generator: inout SplitMix64, depth: Int) -> Self {
    func string() -> String {
      let pieces = ["a", "\"", "\\", "/", "\n", "\u{01}", "é", "😀", " ", "<script>"]
      return (0..<Int(generator.next() % 5)).map { _ in
        pieces[Int(generator.next() % UInt64(pieces.count))]
      }.joined()
    }
    let choice = generator.next() % (depth > 2 ? 5 : 9)
    switch choice {
    case 0: return .tapped
    case 1: return .text(string())
    case 2:
      let alpha: Double? =
        generator.next() % 3 == 0 ? nil : Double(Int64(bitPattern: generator.next()) % 10_000) / 7
      return .pair(zeta: Int(Int64(bitPattern: generator.next()) % 1_000), string(), alpha: alpha)
    case 3:
      return .default(
        in: (0..<Int(generator.next() % 4)).map { _ in
          generator.next() % 3 == 0 ? nil : Int(generator.next() % 100)
        })
    case 4:
      return .when(
        Date(timeIntervalSinceReferenceDate: Double(generator.next() % 1_000_000) / 3),
        URL(string: "https://example.com/a/\(generator.next() % 10)?q=\(string().count)")!,
        UUID(uuidString: String(format: "%08X-0000-0000-0000-000000000000", generator.next() % 99))!
      )
    case 5:
      return .nested(
        .element(id: Int(generator.next() % 10), action: .random(&generator, depth: depth + 1)))
    case 6:
      return generator.next() % 2 == 0
        ? .presented(.dismiss) : .presented(.presented(.random(&generator, depth: depth + 1)))
    case 7:
      var sample = ChangeSample()
      var nextID = 0
      for _ in 0..<Int(generator.next() % 12) { sample.edit(with: &generator, nextID: &nextID) }
      return .sample(sample)
    default:
      return .mode(generator.next() % 2 == 0 ? .idle : .busy(Int(generator.next() % 5)))
    }
  }
}
