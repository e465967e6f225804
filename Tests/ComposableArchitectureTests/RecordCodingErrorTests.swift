import ComposableArchitecture
import Testing

/// What a replay says of a recorded value it cannot rebuild.
@Suite struct RecordCodingErrorTests {
  @Test func aTypeIsNamedWithWhatToAdd() {
    let error = RecordCodingError.notDecodable(
      type: "Array<Ledger.Entry>", codingPath: "value.entries")
    #expect(
      error.description.hasPrefix(
        "A recorded Array<Ledger.Entry> at value.entries cannot be rebuilt: the type is not Decodable"
      ))
    #expect(error.description.contains("add `extension Ledger.Entry: Codable {}`"))
  }

  @Test func aFunctionIsSaidToBeOneNotToBeMadeCodable() {
    let error = RecordCodingError.notDecodable(
      type: "(inout Form.State) -> ()", codingPath: "value.binding._0.apply")
    #expect(
      error.description.hasPrefix(
        "A recorded (inout Form.State) -> () at value.binding._0.apply cannot be rebuilt: it is a function"
      ))
    #expect(!error.description.contains("Codable {}"))
  }
}
