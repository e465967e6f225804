import ActionLog
import Foundation
import PropertyBased
import Testing

/// What an action changed, as the writer records it: a JSON Patch that turns the state before
/// into the state after, for any two states, and that standard tools can read.
@Suite struct JSONPatchTests {
  /// A random JSON value, at most `depth` levels deep.
  static func value(_ rng: inout some RandomNumberGenerator, depth: Int = 3) -> JSONValue {
    let keys = ["a", "b", "c", "d/e", "f~g", ""]
    switch Int.random(in: 0...(depth > 0 ? 7 : 4), using: &rng) {
    case 0: return .null
    case 1: return .bool(.random(using: &rng))
    case 2: return .integer(.random(in: -5...5, using: &rng))
    case 3: return .number(Double(Int.random(in: -50...50, using: &rng)) + 0.25)
    case 4: return .string(["", "x", "y", "‹redacted 1›"].randomElement(using: &rng)!)
    case 5, 6:
      return .array(
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in value(&rng, depth: depth - 1) })
    default:
      var object: [String: JSONValue] = [:]
      for key in keys where Bool.random(using: &rng) { object[key] = value(&rng, depth: depth - 1) }
      return .object(object)
    }
  }

  /// `value`, edited in a few random places: a leaf changed, an element inserted or removed, a
  /// member added or removed.
  static func edited(_ value: JSONValue, _ rng: inout some RandomNumberGenerator) -> JSONValue {
    switch value {
    case var .array(elements):
      switch Int.random(in: 0...4, using: &rng) {
      case 4: elements.shuffle(using: &rng)
      case 0:
        elements.insert(
          Self.value(&rng, depth: 1), at: .random(in: 0...elements.count, using: &rng))
      case 1 where !elements.isEmpty:
        elements.remove(at: .random(in: 0..<elements.count, using: &rng))
      default:
        for index in elements.indices where Bool.random(using: &rng) {
          elements[index] = edited(elements[index], &rng)
        }
      }
      return .array(elements)
    case var .object(members):
      switch Int.random(in: 0...3, using: &rng) {
      case 0: members["new"] = Self.value(&rng, depth: 1)
      case 1 where !members.isEmpty: members.removeValue(forKey: members.keys.sorted().first!)
      default:
        for key in members.keys.sorted() where Bool.random(using: &rng) {
          members[key] = edited(members[key]!, &rng)
        }
      }
      return .object(members)
    default:
      return Bool.random(using: &rng) ? value : Self.value(&rng, depth: 2)
    }
  }

  static let pairs = Generator<(JSONValue, JSONValue), Shrink.None<(JSONValue, JSONValue)>> {
    rng in
    let before = value(&rng)
    let after = Bool.random(using: &rng) ? edited(before, &rng) : value(&rng)
    return (before, after)
  }

  @Test func theChangesTurnTheStateBeforeIntoTheStateAfter() async throws {
    await propertyCheck(count: 500, input: Self.pairs) { pair in
      let (before, after) = pair
      let update = before.changes(to: after)
      #expect((try? before.applying(update)) == after, "\(update)")
      #expect(update.isEmpty == (before == after))
    }
  }

  /// The writer compares the states' texts, not their parsed values: the same operations.
  @Test func theChangesBetweenTextsAreThoseBetweenTheirValues() async throws {
    await propertyCheck(count: 1_000, input: Self.pairs) { pair in
      let (before, after) = (pair.0.bytes, pair.1.bytes)
      let expected = try JSONValue.parse(before).changes(to: try JSONValue.parse(after))
      #expect(try JSONValue.changes(fromJSON: before, toJSON: after) == expected)
    }
  }

  @Test func textsSpeltDifferentlyStillGiveChangesThatApply() throws {
    let before = Array(#"{"b":[1.0,"\u0041",{"y":2,"x":1}],"a":1}"#.utf8)
    let after = Array(#"{"a":1,"b":[1,"A",{"x":1,"y":3}]}"#.utf8)
    let update = try JSONValue.changes(fromJSON: before, toJSON: after)
    // `1.0` and `1` are different values (a number, an integer); `"\u0041"` and `"A"` the same.
    #expect(
      update == [
        JSONPatchOperation(.replace, ["b", "0"], .integer(1)),
        JSONPatchOperation(.replace, ["b", "2", "y"], .integer(3)),
      ])
    #expect(update == (try JSONValue.parse(before).changes(to: try JSONValue.parse(after))))
    #expect(try JSONValue.parse(before).applying(update) == (try JSONValue.parse(after)))
    #expect(try JSONValue.changes(fromJSON: before, toJSON: before) == [])
    #expect(throws: JSONValueSyntaxError.self) {
      try JSONValue.changes(fromJSON: before, toJSON: Array("{".utf8))
    }
  }

  @Test func theChangesReadBackAsWritten() async throws {
    await propertyCheck(count: 300, input: Self.pairs) { pair in
      let update = pair.0.changes(to: pair.1)
      let json = try? JSONEncoder().encode(update)
      #expect(
        json.flatMap { try? JSONDecoder().decode([JSONPatchOperation].self, from: $0) } == update)
    }
  }

  @Test func anEditIsAsSmallAsItLooks() throws {
    let before = try JSONValue.parse(
      Array(
        #"{"todos":[{"done":false,"title":"a"},{"done":false,"title":"b"}],"filter":"all"}"#.utf8))
    let after = try JSONValue.parse(
      Array(
        #"{"todos":[{"done":true,"title":"a"},{"done":false,"title":"b"},{"done":false,"title":"c"}],"filter":"all"}"#
          .utf8))
    let update = before.changes(to: after)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(update), as: UTF8.self)
        == #"[{"op":"replace","path":"\/todos\/0\/done","value":true},{"op":"add","path":"\/todos\/2","value":{"done":false,"title":"c"}}]"#
    )
  }

  @Test func aListSortedAgainMovesItsElements() throws {
    let before = try JSONValue.parse(
      Array(#"{"todos":[{"t":"a"},{"t":"b"},{"t":"c"},{"t":"d"}]}"#.utf8))
    let after = try JSONValue.parse(
      Array(#"{"todos":[{"t":"c"},{"t":"a"},{"t":"b"},{"t":"d"}]}"#.utf8))
    let update = before.changes(to: after)
    #expect(update.map(\.description) == ["move /todos/2 to /todos/0"])
    #expect(try before.applying(update) == after)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(
      String(decoding: try encoder.encode(update), as: UTF8.self)
        == #"[{"from":"/todos/2","op":"move","path":"/todos/0"}]"#)
  }

  @Test func aPatchThatDoesNotApplySaysWhere() throws {
    let document = JSONValue.object(["todos": .array([])])
    let error = #expect(throws: JSONPatchError.self) {
      try document.applying([
        JSONPatchOperation(.add, ["todos", "-"], .string("x")),
        JSONPatchOperation(.replace, ["todos", "3", "title"], .string("y")),
      ])
    }
    #expect(
      error?.description
        == #"operation 1 (/todos/3/title) does not apply: "3" is not an index of an array of 1"#)
  }

  @Test func pointersEscapeSlashesAndTildes() throws {
    let decoder = JSONDecoder()
    let operation = JSONPatchOperation(.remove, ["a/b", "c~d", ""])
    #expect(operation.pointer == "/a~1b/c~0d/")
    let json = try JSONEncoder().encode(operation)
    #expect(try JSONDecoder().decode(JSONPatchOperation.self, from: json) == operation)
    #expect(throws: DecodingError.self) {
      try decoder.decode(JSONPatchOperation.self, from: Data(#"{"op":"remove","path":"a"}"#.utf8))
    }
  }
}
