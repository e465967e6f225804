import ActionLog
import Foundation
import ReplayTesting
import Testing

@Suite struct RegressionTestSourceTests {
  func header(stateType: String) -> LogHeader {
    LogHeader(
      feature: "todos", stateType: stateType, actionType: "Shop.Todos.Action",
      startedAt: Date(timeIntervalSince1970: 0), checkpointInterval: 100
    )
  }

  @Test func namesTheReducerAfterTheStateType() throws {
    let test = try RegressionTestSource(
      name: "checkout-crash_2", header: self.header(stateType: "Shop.Lists.Todos.State"),
      recordingPath: ["..", "Recordings", "checkout-crash_2.actionlog"]
    )
    #expect(test.module == "Shop")
    #expect(test.reducer == "Lists.Todos()")
    #expect(test.typeName == "CheckoutCrash2")
    #expect(test.fileName == "CheckoutCrash2ReplayTests.swift")
    #expect(test.text.contains("@Test func checkoutCrash2ReplaysAsRecorded() throws {"))
    #expect(test.text.contains(#"["..", "Recordings", "checkout-crash_2.actionlog"].reduce("#))
    #expect(test.text.contains(#"try assertReplay(recording, feature: "todos") {"#))
  }

  @Test func refusesWhatCannotBeASwiftName() {
    #expect(throws: RegressionTestSourceError.invalidName("no spaces")) {
      try RegressionTestSource(
        name: "no spaces", header: self.header(stateType: "Shop.Todos.State"), recordingPath: []
      )
    }
    #expect(throws: RegressionTestSourceError.unknownModule(stateType: "State")) {
      try RegressionTestSource(
        name: "x", header: self.header(stateType: "State"), recordingPath: []
      )
    }
    let given = try? RegressionTestSource(
      name: "x", header: self.header(stateType: "State"), reducer: "Todos()", recordingPath: []
    )
    #expect(given == nil, "the module is still needed for the import")
  }

  @Test func pathsFromTheTestFolderToTheRecording() {
    let path = RegressionTestSource.relativePath(
      from: URL(fileURLWithPath: "/p/Tests/RecordingTests"),
      to: URL(fileURLWithPath: "/p/Recordings/x.actionlog")
    )
    #expect(path == ["..", "..", "Recordings", "x.actionlog"])
  }
}
