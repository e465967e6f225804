import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing
import TimeTravel

@Suite struct ChildRecordingTests {
  static let contacts = recordingsFolder.appendingPathComponent("contacts.actionlog")
  static let detailNames = ChildRecording.Names(
    feature: "contactDetail", stateType: recordedTypeName(ContactDetail.State.self),
    actionType: recordedTypeName(ContactDetail.Action.self))

  func export(
    _ recording: Recording, _ path: String, names: ChildRecording.Names = Self.detailNames,
    from: Int? = nil, presentation: Int = 1
  ) throws -> ChildRecording {
    let folder = TemporaryDirectory()
    return try ChildRecording.export(
      recording, path: StatePath(path), from: from, presentation: presentation,
      to: folder.url.appendingPathComponent("child.actionlog")
    ) { _, _ in names }
  }

  @Test func aChildsBugFailsAtTheAppsStepWithTheChildsPartOfTheDiff() throws {
    let app = try Recording(contentsOf: Self.contacts)
    let bug = ReintroducedBugs.editedFormStaysChangedAfterUndo
    let appDivergence = try #require(
      try Timeline(
        recording: app, reducer: Contacts().dependency(\.reintroducedBugs, bug),
        feature: "contacts"
      ).verify())
    let child = try self.export(app, "path[id: 0].detail")
    let childDivergence = try #require(
      try Timeline(
        recording: child.recording, reducer: ContactDetail().dependency(\.reintroducedBugs, bug),
        feature: "contactDetail"
      ).verify())
    #expect(child.appSteps[childDivergence.step - 1] == appDivergence.step)
    // The app's diff names the child's field under the path to it; the child's, the same
    // field and the same values.
    let appDiff = try #require(appDivergence.diff)
    let childDiff = try #require(childDivergence.diff)
    func changedLines(_ diff: String) -> [String] {
      diff.split(separator: "\n").filter { $0.hasPrefix("-") || $0.hasPrefix("+") }
        .map { String($0.prefix(1)) + $0.dropFirst().trimmingCharacters(in: .whitespaces) }
    }
    #expect(!changedLines(childDiff).isEmpty)
    #expect(changedLines(appDiff) == changedLines(childDiff), "\(appDiff)\n\(childDiff)")
  }

  @Test func aPresentationThatComesAndGoesIsASegmentOfItsOwn() throws {
    let app = try Recording(contentsOf: Self.contacts)
    // `path[0].detail` is each contact's screen in turn: five pushes, five presentations.
    let first = try self.export(app, "path[0].detail")
    #expect(first.presentations.count == 5)
    #expect(first.path.description == "path[id: 0].detail")
    let third = try self.export(app, "path[0].detail", presentation: 3)
    #expect(third.path.description == "path[id: 2].detail")
    #expect(third.start == third.presentations[2].lowerBound)
    // From a step inside the second: the screen as it was then.
    let second = first.presentations[1]
    let fromInside = try self.export(app, "path[0].detail", from: second.lowerBound + 3)
    #expect(fromInside.path.description == "path[id: 1].detail")
    #expect(fromInside.appSteps.first == second.lowerBound + 4)
    #expect(
      throws: ChildRecordingError.noSuchPresentation(
        6, path: "path[0].detail", presentations: first.presentations)
    ) { try self.export(app, "path[0].detail", presentation: 6) }
    #expect(throws: ChildRecordingError.self) { try self.export(app, "path[0].nothing") }
  }

  @Test func everyPresentationReplaysWithTheChildAlone() throws {
    let app = try Recording(contentsOf: Self.contacts)
    let count = try self.export(app, "path[0].detail").presentations.count
    for presentation in 1...count {
      let child = try self.export(app, "path[0].detail", presentation: presentation)
      let divergence = try Timeline(
        recording: child.recording, reducer: ContactDetail(), feature: "contactDetail"
      ).verify()
      #expect(divergence == nil, "presentation \(presentation): \(divergence!)")
    }
  }

  @Test func aRowOfAListReplaysWithTheRowAlone() throws {
    let app = try Recording(contentsOf: recordingsFolder.appendingPathComponent("songs.actionlog"))
    let names = ChildRecording.Names(
      feature: "songRow", stateType: recordedTypeName(SongRow.State.self),
      actionType: recordedTypeName(SongRow.Action.self))
    // Each row, by its identity: every one that any action reached replays alone.
    let songs = try app.initialState(as: SongsApp.State.self).library.songs
    var reached = 0
    for song in songs {
      let row = try self.export(app, "library.songs[id: \(song.id)]", names: names)
      reached += row.appSteps.isEmpty ? 0 : 1
      let divergence = try Timeline(
        recording: row.recording, reducer: SongRow(), feature: "songRow"
      ).verify()
      #expect(divergence == nil, "row \(song.id): \(divergence!)")
    }
    #expect(reached >= 3)
  }

  static let todoNames = ChildRecording.Names(
    feature: "todo", stateType: recordedTypeName(Todo.State.self),
    actionType: recordedTypeName(Todo.Action.self))

  @Test func aChildOfARedactedRecordingStaysRedacted() throws {
    let app = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("todos-redacted.actionlog"))
    #expect(app.header.redactions.state.map(\.description) == ["todos[*].description"])
    let child = try self.export(app, "todos[0]", names: Self.todoNames)
    let header = child.recording.header
    // The app's paths, as paths into the child's state; an action path at any depth, kept.
    #expect(header.redactions.state.map(\.description) == ["description"])
    #expect(header.redactions.actions.map(\.description) == ["**.textFieldChanged"])
    var states = RecordedStates(child.recording)
    let last = try states.state(after: child.recording.count)
    #expect(last["description"]?.isRedactedPlaceholder == true, "\(last)")
    for seq in 1...child.recording.count {
      let action = try child.recording.action(seq, as: JSONValue.self).action
      if case let .string(text)? = action["textFieldChanged"]?["_0"] {
        #expect(text.hasPrefix("‹redacted "), "\(action)")
      }
    }
    // Still the child's own: it replays with the row's reducer alone, redactions honoured.
    let divergence = try Timeline(
      recording: child.recording, reducer: Todo(), feature: "todo"
    ).verify()
    #expect(divergence == nil, "\(divergence!)")
    #expect(header.metadata["appSchema"] == "4")
    #expect(header.schemaVersion == 1)
  }

  @Test func aChildOfAnOlderRecordingIsReadThroughTheAppsMigrations() throws {
    let legacy = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("legacy/todos-v1.actionlog"))
    // Made before step updates: its states are the timeline's, read through the migrations.
    let timeline = try Timeline(recording: legacy, reducer: Todos(), feature: "todos")
    let folder = TemporaryDirectory()
    let child = try ChildRecording.export(
      timeline.recording, path: StatePath("todos[0]"),
      to: folder.url.appendingPathComponent("todo.actionlog"),
      states: { step in try JSONValue.parse(try #require(try timeline.encodedState(at: step))) }
    ) { _, _ in Self.todoNames }
    // The todo has the priority a later version added.
    #expect(child.recording.header.metadata["appMigrated"]?.contains("from version 1") == true)
    let initial = try child.recording.initialState(as: JSONValue.self)
    #expect(initial["priority"] != nil, "\(initial)")
    let divergence = try Timeline(
      recording: child.recording, reducer: Todo(), feature: "todo"
    ).verify()
    #expect(divergence == nil, "\(divergence!)")
  }

  @Test func theTypesAreReadFromTheAppsState() throws {
    let state = Contacts.State(
      contacts: [],
      path: StackState([.detail(ContactDetail.State(contact: Contact(id: UUID(0), name: "A")))]))
    let names = try ChildRecording.typeNames(
      ofChildAt: StatePath("path[0].detail"), in: state)
    #expect(names.state == recordedTypeName(ContactDetail.State.self))
    #expect(names.action == recordedTypeName(ContactDetail.Action.self))
    #expect(ChildRecording.featureName(forStateType: names.state) == "contactDetail")
  }

  @Test func stepListsReadBack() {
    for steps in [[], [3], [3, 4, 5, 9], [1, 3, 5, 6]] {
      #expect(StepList.steps(StepList.text(steps)) == steps)
    }
    #expect(StepList.text([3, 4, 5, 9, 11, 12]) == "3-5,9,11-12")
    #expect(StepList.steps("3-x") == nil)
  }
}

extension JSONValue {
  fileprivate var isRedactedPlaceholder: Bool {
    if case let .string(text) = self { return text.hasPrefix("‹redacted ") }
    return false
  }
}
