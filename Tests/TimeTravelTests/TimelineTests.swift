import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TestSupport
import Testing
import TimeTravel

@Suite struct TimelineTests {
  static func bundled(_ name: String) throws -> Recording {
    try Recording(
      contentsOf: BundledRecordingTests.folder.appendingPathComponent("\(name).actionlog"))
  }

  private func todos() throws -> Timeline<Todos> {
    try Timeline(recording: try Self.bundled("todos"), reducer: Todos(), feature: "todos")
  }

  @Test func seeksAgreeWithReplayingFromTheStart() throws {
    let timeline = try self.todos()
    let replayer = Replayer(recording: timeline.recording, reducer: Todos())
    var sequential = [try replayer.initialState()]
    var state = sequential[0]
    for step in 1...timeline.count {
      try replayer.apply(step, to: &state)
      sequential.append(state)
    }
    var generator = SplitMix64(seed: 3)
    for _ in 0..<200 {
      let step = Int.random(in: 0...timeline.count, using: &generator)
      try timeline.goto(step)
      #expect(timeline.position == step)
      #expect(timeline.state == sequential[step], "step \(step)")
    }
    try timeline.goto(10)
    try timeline.step(5)
    #expect(timeline.state == sequential[15])
    try timeline.back(7)
    #expect(timeline.state == sequential[8])
    for checkpoint in timeline.recording.checkpoints {
      #expect(
        try timeline.recording.checkpoint(after: checkpoint, as: Todos.State.self)
          == sequential[checkpoint])
    }
  }

  @Test func stepsOutsideTheRecordingAreRefusedAndChangeNothing() throws {
    let timeline = try self.todos()
    try timeline.goto(4)
    #expect(throws: TimelineError.outOfRange(step: 140, count: 139)) { try timeline.goto(140) }
    #expect(throws: TimelineError.outOfRange(step: -1, count: 139)) { try timeline.back(5) }
    #expect(timeline.position == 4)
  }

  @Test func recordingsOfAnotherFeatureOrTypeAreRefused() throws {
    #expect(throws: TimelineError.otherFeature(expected: "todos", found: "counter")) {
      try Timeline(recording: try Self.bundled("counter"), reducer: Todos(), feature: "todos")
    }
    #expect(
      throws: TimelineError.otherTypes(
        expected: "ExampleFeatures.Todos.State, ExampleFeatures.Todos.Action",
        found: "ExampleFeatures.CounterFeature.State, ExampleFeatures.CounterFeature.Action"
      )
    ) {
      try Timeline(recording: try Self.bundled("counter"), reducer: Todos(), feature: "counter")
    }
  }

  @Test func diffShowsWhatAnActionChanged() throws {
    let timeline = try self.todos()
    let diff = try timeline.diff(from: 1, to: 2)
    #expect(
      diff
        == """
          Todos.State(
            filter: .all,
            todos: [
              [0]: Todo.State(
        -       description: "",
        +       description: "B",
                id: UUID(00000000-0000-0000-0000-000000000000),
                isComplete: false,
                priority: 0
              )
            ]
          )
        """
    )
    #expect(try timeline.diff(from: 2, to: 2) == nil)
  }

  @Test func everyBundledRecordingVerifies() throws {
    #expect(
      try Timeline(recording: try Self.bundled("todos"), reducer: Todos(), feature: "todos")
        .verify() == nil)
    #expect(
      try Timeline(
        recording: try Self.bundled("counter"), reducer: CounterFeature(), feature: "counter"
      )
      .verify() == nil
    )
    #expect(
      try Timeline(recording: try Self.bundled("songs"), reducer: SongsApp(), feature: "songs")
        .verify() == nil)
  }

  @Test func verifyReportsTheFirstCheckpointAChangedReducerMisses() throws {
    // An injected bug: deleting several todos deletes all but the last.
    let buggy = Reduce<Todos.State, Todos.Action> { state, action in
      if case let .deleteMany(ids) = action {
        return Todos().reduce(into: &state, action: .deleteMany(ids: Array(ids.dropLast())))
      }
      return Todos().reduce(into: &state, action: action)
    }
    let timeline = try Timeline(
      recording: try Self.bundled("todos"), reducer: buggy, feature: "todos")
    // States only here: the effects differ first (see the effect ledger's tests). Checkpoints
    // only: the first checkpoint at or after the deletion is the first that differs.
    let divergence = try #require(try timeline.verify(everyStep: false, effects: .ignore))
    let deletion = try #require(
      (1...timeline.count).first {
        if case .deleteMany = try? timeline.action(at: $0).action {
          return true
        } else {
          return false
        }
      }
    )
    let checkpoint = try #require(timeline.recording.checkpoints.first { $0 >= deletion })
    #expect(divergence.checkpoint == checkpoint)
    #expect(
      divergence.lastAgreement == (timeline.recording.checkpoints.last { $0 < checkpoint } ?? 0))
    #expect(divergence.firstSuspect == nil)
    #expect(divergence.issues.isEmpty)
    #expect(
      divergence.description.hasPrefix(
        """
        The replay differs from the recording at checkpoint \(checkpoint) \
        (steps \(divergence.lastAgreement + 1)–\(checkpoint) since the last state that agreed). \
        The recording keeps full states only at checkpoints: the change happened in steps \
        \(divergence.lastAgreement + 1) to \(checkpoint).
        """))
    #expect(divergence.description.hasSuffix("(Recorded: −, Replayed: +)"))
    #expect(divergence.diff?.contains(#"+       description: "File taxes","#) == true)

    // At every step, the deletion itself is reported, with the states after it.
    let atTheStep = try #require(try timeline.verify(effects: .ignore))
    #expect(atTheStep.comparedEveryStep)
    #expect(atTheStep.step == deletion)
    #expect(atTheStep.checkpoint == deletion)
    #expect(atTheStep.lastAgreement == deletion - 1)
    #expect(atTheStep.action.hasPrefix("Todos.Action.deleteMany("))
    #expect(
      atTheStep.description.hasPrefix(
        """
        The replay differs from the recording at step \(deletion): the state after it is not the \
        one recorded, and the step before it still agreed.
        """))
    #expect(atTheStep.diff?.contains(#"+       description: "File taxes","#) == true)
  }

  @Test func aChangeUndoneBeforeTheNextCheckpointIsSeenAtItsStep() throws {
    // An injected bug that undoes itself: the third edit of a todo's text is dropped, and the
    // next edit, which sets the whole text, hides it from every checkpoint.
    let buggy = Reduce<Todos.State, Todos.Action> { state, action in
      if case .todos(.element(_, .textFieldChanged(let text))) = action, text.count == 3 {
        return .none
      }
      return Todos().reduce(into: &state, action: action)
    }
    let timeline = try Timeline(
      recording: try Self.bundled("todos"), reducer: buggy, feature: "todos")
    #expect(try timeline.verify(everyStep: false, effects: .ignore) == nil)
    let divergence = try #require(try timeline.verify(effects: .ignore))
    let edit = try #require(
      (1...timeline.count).first {
        if case .todos(.element(_, .textFieldChanged(let text))) = try? timeline.action(at: $0)
          .action
        {
          return text.count == 3
        }
        return false
      })
    #expect(divergence.step == edit)
    #expect(divergence.diff?.contains(#"-       description: "Buy","#) == true, "\(divergence)")
  }

  @Test func verifyNarrowsToTheStepThatReadDependenciesDifferently() throws {
    // An injected bug: adding the fifth todo reads a second UUID.
    let buggy = Reduce<Todos.State, Todos.Action> { state, action in
      @Dependency(\.uuid) var uuid
      if case .addTodoButtonTapped = action, state.todos.count == 4 {
        _ = uuid()
      }
      return Todos().reduce(into: &state, action: action)
    }
    let timeline = try Timeline(
      recording: try Self.bundled("todos"), reducer: buggy, feature: "todos")
    let divergence = try #require(try timeline.verify(everyStep: false))
    let fifthAdd = try #require(
      (1...timeline.count).filter {
        (try? timeline.action(at: $0).action) == .addTodoButtonTapped
      }.dropFirst(4).first
    )
    #expect(divergence.firstSuspect == fifthAdd)
    #expect(divergence.step == fifthAdd)
    #expect(divergence.action == "Todos.Action.addTodoButtonTapped")
    #expect(divergence.checkpoint == timeline.recording.checkpoints.first)
  }

  @Test func reverseContinueLandsOnTheActionThatLastChangedAWatchedValue() throws {
    let timeline = try self.todos()
    let path = try StatePath("todos[0].description")
    // The answer by brute force: the last step whose action changed the value.
    var values: [String] = []
    for step in 0...timeline.count {
      values.append((try? path.dump(in: timeline.state(at: step))) ?? "‹absent›")
    }
    let changes = (1...timeline.count).filter { values[$0] != values[$0 - 1] }
    try timeline.goto(timeline.count)
    let hit = try #require(try timeline.reverseContinue(watching: [path], breakpoints: []))
    #expect(hit.step == changes.last)
    #expect(timeline.position == changes.last)
    #expect(hit.stops == [.watch(path, old: values[hit.step - 1], new: values[hit.step])])
    // Again: the change before that.
    let earlier = try #require(try timeline.reverseContinue(watching: [path], breakpoints: []))
    #expect(earlier.step == changes.dropLast().last)
  }

  @Test func continueStopsAtBreakpoints() throws {
    let timeline = try self.todos()
    let hit = try #require(
      try timeline.continueForward(watching: [], breakpoints: [ActionBreakpoint("checkBoxToggled")])
    )
    let first = (1...timeline.count).first {
      if case .todos(.element(_, .checkBoxToggled)) = try! timeline.action(at: $0).action {
        return true
      }
      return false
    }
    #expect(hit.step == first)
    #expect(hit.stops == [.breakpoint(ActionBreakpoint("checkBoxToggled"))])
    try timeline.goto(timeline.count)
    #expect(
      try timeline.continueForward(watching: [], breakpoints: [ActionBreakpoint("checkBoxToggled")])
        == nil)
    #expect(timeline.position == timeline.count)
  }

  /// Without watchpoints a search decodes actions and replays nothing until it stops: it stops
  /// at every matching step, forward and back, with the state a replay gives there.
  @Test func searchesByBreakpointsAloneStopAtEveryMatch() throws {
    let timeline = try self.todos()
    let reference = try self.todos()
    let breakpoint = ActionBreakpoint("checkBoxToggled")
    let matches = try (1...timeline.count).filter {
      breakpoint.matches(try reference.action(at: $0).action)
    }
    #expect(matches.count >= 2)
    // NB: One search more than there are matches, so that one that never ends fails instead.
    var forward: [Int] = []
    for _ in 0...matches.count {
      guard let hit = try timeline.continueForward(watching: [], breakpoints: [breakpoint])
      else { break }
      forward.append(hit.step)
      #expect(timeline.position == hit.step)
      #expect(timeline.state == (try reference.state(at: hit.step)))
    }
    #expect(forward == matches)
    try timeline.goto(timeline.count)
    var backward: [Int] = []
    for _ in 0...matches.count {
      guard let hit = try timeline.reverseContinue(watching: [], breakpoints: [breakpoint])
      else { break }
      backward.append(hit.step)
      #expect(timeline.state == (try reference.state(at: hit.step)))
    }
    #expect(backward == matches.reversed())
    // Where a forward search stopped, a search back starts before it, as after a search back.
    try timeline.goto(0)
    _ = try timeline.continueForward(watching: [], breakpoints: [breakpoint])
    _ = try timeline.continueForward(watching: [], breakpoints: [breakpoint])
    #expect(timeline.position == matches[1])
    let back = try timeline.reverseContinue(watching: [], breakpoints: [breakpoint])
    #expect(back?.step == matches[0])
  }

  /// Breakpoints are answered once for each distinct recorded action and remembered by its
  /// bytes: every answer, the first time and from memory, is what matching the decoded action
  /// gives.
  @Test func rememberedBreakpointAnswersAreTheDecodedActionsAnswers() throws {
    let timeline = try self.todos()
    let texts = [
      "checkBoxToggled", "todos", "textFieldChanged", "addTodoButtonTapped", "Milk", "UUID",
      "Todos.Action", "absent from every action",
    ]
    var matched = 0
    for _ in 0..<2 {
      for text in texts {
        let breakpoint = ActionBreakpoint(text)
        for step in 1...timeline.count {
          let expected = breakpoint.matches(try timeline.action(at: step).action)
          #expect(try timeline.action(at: step, matches: breakpoint) == expected, "\(text) \(step)")
          matched += expected ? 1 : 0
        }
      }
    }
    #expect(matched > 0)
    #expect(throws: TimelineError.self) {
      try timeline.action(at: timeline.count + 1, matches: ActionBreakpoint("todos"))
    }
  }

  @Test func cachedStatesStayBounded() throws {
    let timeline = try self.todos()
    for step in stride(from: 0, through: timeline.count, by: 1) {
      try timeline.goto(step)
    }
    try timeline.goto(0)
    #expect(timeline.cachedStates < timeline.count / 2)
  }

  @Test func statePathsSayWhatIsWrong() throws {
    let state = try self.todos().state(at: 5)
    #expect(try StatePath("todos[0].description").dump(in: state) == "\"Buy \"")
    #expect(try StatePath("filter").dump(in: state) == "Todos.Filter.all")
    #expect(
      throws: StatePathError(
        path: "todos[x]", column: 6, reason: "an index is a whole number from 0")
    ) {
      try StatePath("todos[x]")
    }
    #expect(
      throws: StatePathError(
        path: "todos[9].description", column: nil,
        reason: "\"todos\" has 1 elements; [9] is past the end")
    ) {
      try StatePath("todos[9].description").value(in: state)
    }
    #expect(
      throws: StatePathError(
        path: "nope", column: nil, reason: "the state has no \"nope\"; it has filter, todos")
    ) {
      try StatePath("nope").value(in: state)
    }
  }

  /// A state of the shapes a path walks by key path or by mirror.
  private struct Shapes {
    struct Inner { var flag = true }
    final class Box { var inner = Inner() }
    var action: () -> Void = {}
    var name = "plain"
    var _name = "wrapped"
    var _count = 3
    var maybe: Inner? = Inner()
    var none: Inner? = nil
    var box = Box()
  }

  private struct OtherShapes {
    var name = 7
  }

  @Test func pathsReadPropertiesAsTheStateShowsThem() throws {
    let state = Shapes()
    // Twice each: the second read is the one that uses what the first found.
    for _ in 0..<2 {
      #expect(try StatePath("name").value(in: state) as? String == "plain")
      #expect(try StatePath("count").value(in: state) as? Int == 3)
      #expect(try StatePath("maybe.flag").value(in: state) as? Bool == true)
      #expect(try StatePath("box.inner.flag").value(in: state) as? Bool == true)
      #expect(try StatePath("name").value(in: OtherShapes()) as? Int == 7)
      #expect(
        throws: StatePathError(
          path: "none.flag", column: nil, reason: "\"none\" has no \"flag\"")
      ) {
        try StatePath("none.flag").value(in: state)
      }
    }
  }
}
