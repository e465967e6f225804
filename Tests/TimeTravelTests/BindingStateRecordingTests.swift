import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// A state written as TCA's were before `@ObservableState`, with a `@BindingState` field: its
/// binding actions are recorded by the field they write, and replay.
@MainActor
@Suite struct BindingStateRecordingTests {
  @Reducer
  struct Form {
    struct State: Equatable {
      @BindingState var name = ""
      var edits = 0
    }
    enum Action: BindableAction, Equatable {
      case binding(BindingAction<State>)
    }
    var body: some ReducerOf<Self> {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .binding(.set(\.$name, "reset")):
          state.name = ""
        case .binding(\.$name):
          state.edits += 1
        case .binding:
          break
        }
        return .none
      }
    }
  }

  @Test func aBindingOfABindingStateFieldIsRecordedByItsNameAndReplays() async throws {
    let directory = TemporaryDirectory()
    do {
      let store = TestStore(initialState: Form.State(), recording: .everyRun(in: directory.url)) {
        Form()
      }
      await store.send(.binding(.set(\.$name, "Blob"))) {
        $0.name = "Blob"
        $0.edits = 1
      }
      await store.send(.binding(.set(\.$name, "reset"))) { $0.name = "" }
      await store.send(.binding(.set(\.edits, 7))) { $0.edits = 7 }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      .filter { $0.hasSuffix(".actionlog") }
    try #require(files.count == 1)
    let url = directory.url.appendingPathComponent(files[0])
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains(#"{"name":"name","value":"Blob"}"#))
    #expect(text.contains(#"{"name":"edits","value":7}"#))
    let recording = try Recording(contentsOf: url)
    #expect(recording.count == 3)
    let timeline = try Timeline(
      recording: recording, reducer: Form(), feature: recording.header.feature)
    #expect(try timeline.verify() == nil)
    try timeline.goto(3)
    #expect(timeline.state == Form.State(name: "", edits: 7))
  }
}
