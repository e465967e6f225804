import ActionLog
import ComposableArchitecture
import Foundation
import TestSupport
import Testing
import TimeTravel

/// Shapes from TCA's own navigation tests, whose states and actions say nothing of `Codable`,
/// recorded by a test store on every run and replayed: an alert presented by a plain `ifLet`
/// and replaced by another (a new identity each run), a stack that starts empty, a sheet that
/// starts dismissed.
@MainActor
@Suite struct NavigationRecordingReplayTests {
  struct AlertFeature: Reducer {
    struct State: Equatable {
      var alert: AlertState<AlertAction>?
    }
    @CasePathable
    enum Action: Equatable {
      case alert(AlertAction)
      case tap
    }
    enum AlertAction: Equatable { case again, ok }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .alert(.ok):
          return .none
        case .alert(.again), .tap:
          state.alert = AlertState { TextState("Hello") }
          return .none
        }
      }
      .ifLet(\.alert, action: \.alert)
    }
  }

  @Test func anAlertReplacedByAnotherReplays() async throws {
    let directory = TemporaryDirectory()
    // NB: A run that does not replay fails the test where the store goes away.
    do {
      let store = TestStore(
        initialState: AlertFeature.State(), recording: .everyRun(in: directory.url)
      ) {
        AlertFeature()
      }
      await store.send(.tap) { $0.alert = AlertState { TextState("Hello") } }
      await store.send(.alert(.again))
      await store.send(.alert(.ok)) { $0.alert = nil }
    }
    #expect(try self.replayed(AlertFeature(), in: directory) == 1)
  }

  struct Child: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Equatable { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var path = StackState<Child.State>()
      @Presents var sheet: Child.State?
    }
    @CasePathable
    enum Action: Equatable {
      case path(StackActionOf<Child>)
      case sheet(PresentationAction<Child.Action>)
      case push
      case present
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .push:
          state.path.append(Child.State())
        case .present:
          state.sheet = Child.State()
        case .path, .sheet:
          break
        }
        return .none
      }
      .forEach(\.path, action: \.path) { Child() }
      .ifLet(\.$sheet, action: \.sheet) { Child() }
    }
  }

  @Test func aStackAndASheetThatStartEmptyReplay() async throws {
    let directory = TemporaryDirectory()
    do {
      let store = TestStore(initialState: Parent.State(), recording: .everyRun(in: directory.url)) {
        Parent()
      }
      await store.send(.push) { $0.path[id: 0] = Child.State() }
      await store.send(.path(.element(id: 0, action: .increment))) {
        $0.path[id: 0]?.count = 1
      }
      await store.send(.present) { $0.sheet = Child.State() }
      await store.send(.sheet(.presented(.increment))) { $0.sheet?.count = 1 }
      await store.send(.sheet(.dismiss)) { $0.sheet = nil }
      await store.send(.path(.popFrom(id: 0))) { $0.path = StackState() }
    }
    #expect(try self.replayed(Parent(), in: directory) == 1)
  }

  /// Replays each recording kept in `directory` with `reducer`, checking every step's state
  /// against the recorded one; the number of recordings replayed.
  private func replayed<R: Reducer>(
    _ reducer: R, in directory: TemporaryDirectory
  ) throws -> Int where R.State: Equatable {
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
      .filter { $0.hasSuffix(".actionlog") }
    for file in files {
      let recording = try Recording(contentsOf: directory.url.appendingPathComponent(file))
      #expect(recording.count > 0)
      let timeline = try Timeline(
        recording: recording, reducer: _ReflectedReducer(reducer),
        feature: recording.header.feature)
      #expect(try timeline.verify() == nil)
    }
    return files.count
  }
}
