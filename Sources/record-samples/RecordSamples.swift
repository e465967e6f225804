// NB: Over 400 lines on purpose: every bundled session, scripted in one place so that the
// samples regenerate byte for byte.

import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TimeTravel

/// Regenerates the bundled recordings in `Recordings/`, byte for byte: each drives a real
/// `Store` of an example feature through a scripted session, with fixed time, UUIDs and
/// randomness.
///
///     $ record-samples [FOLDER]
///
/// FOLDER defaults to `Recordings`. Existing samples there are replaced.
@main
struct RecordSamples {
  static let startedAt = Date(timeIntervalSince1970: 1_763_780_000)

  @MainActor
  static func main() async {
    let arguments = CommandLine.arguments.dropFirst()
    if arguments.contains("--help") || arguments.contains("-h") {
      print(
        """
        usage: record-samples [FOLDER]
               record-samples --long COUNT FILE

        Regenerates the sample recordings in FOLDER (default: Recordings), replacing
        the files there: counter, todos, songs; todos-redacted (the todos session with
        the todo texts redacted); songs-heart-bug (a session that once showed a bug,
        recorded with today's reducer) and bug-reports/songs-heart-bug-as-reported (the
        same session recorded with the bug brought back, as the report attached it);
        inventory, contacts and search (features written as TCA 1.x writes them: a sheet
        and an alert, a navigation stack edited through bindings, a debounced search);
        preferences (two screens sharing a file, which another program rewrites
        mid-session);
        field (the segments a rolling recorder keeping 5 minutes left when the app
        stopped without closing it).

        With --long, records a counter session of COUNT taps into FILE instead: a long
        recording for trying searches and Ctrl-C in the REPL.
        """
      )
      return
    }
    if let index = arguments.firstIndex(of: "--long") {
      let rest = arguments[(index + 1)...]
      guard let count = rest.first.flatMap({ Int($0) }), count > 0, rest.count == 2 else {
        FileHandle.standardError.write(Data("usage: record-samples --long COUNT FILE\n".utf8))
        exit(2)
      }
      do {
        try self.longCounterSession(URL(fileURLWithPath: rest.last!), taps: count)
      } catch {
        FileHandle.standardError.write(Data("record-samples: \(error)\n".utf8))
        exit(1)
      }
      return
    }
    let folder = URL(fileURLWithPath: arguments.first ?? "Recordings", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try await self.record("counter", in: folder, session: self.counterSession)
      try await self.record("todos", in: folder) { try await self.todosSession($0) }
      try await self.record("songs", in: folder, session: self.songsSession)
      try await self.record("todos-redacted", in: folder) { url in
        try await self.todosSession(
          url,
          redacting: try Redactions(
            state: ["todos[*].description"], actions: ["**.textFieldChanged"])
        )
      }
      try await self.record("songs-heart-bug", in: folder) { url in
        try await self.heartBugSession(url, bugs: [])
      }
      try await self.record("bug-reports/songs-heart-bug-as-reported", in: folder) { url in
        try await self.heartBugSession(url, bugs: .heartStaysFilledAfterRemovingFavorite)
      }
      try await self.record("inventory", in: folder, session: self.inventorySession)
      try await self.record("contacts", in: folder, session: self.contactsSession)
      try await self.record("search", in: folder, session: self.searchSession)
      try await self.record("preferences", in: folder, session: self.preferencesSession)
      try await self.recordField(in: folder)
    } catch {
      FileHandle.standardError.write(Data("record-samples: \(error)\n".utf8))
      exit(1)
    }
  }

  /// Records one session into `FOLDER/NAME.actionlog`, through a temporary file so a failure
  /// leaves the old sample in place.
  @MainActor
  static func record(
    _ name: String, in folder: URL, session: @MainActor (URL) async throws -> Int
  ) async throws {
    let destination = folder.appendingPathComponent("\(name).actionlog")
    let temporary = destination.deletingLastPathComponent()
      .appendingPathComponent(".\(destination.lastPathComponent).partial")
    try FileManager.default.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true
    )
    try? FileManager.default.removeItem(at: temporary)
    let count = try await session(temporary)
    _ = try? FileManager.default.removeItem(at: destination)
    try FileManager.default.moveItem(at: temporary, to: destination)
    print("\(destination.path): \(count) actions")
  }

  /// Records the rolling session of an app that stopped without closing its recorder into
  /// `FOLDER/field`, through a temporary folder.
  @MainActor
  static func recordField(in folder: URL) async throws {
    let destination = folder.appendingPathComponent("field", isDirectory: true)
    let temporary = folder.appendingPathComponent(".field.partial", isDirectory: true)
    try? FileManager.default.removeItem(at: temporary)
    let count = try await self.fieldSession(temporary)
    _ = try? FileManager.default.removeItem(at: destination)
    try FileManager.default.moveItem(at: temporary, to: destination)
    let segments = try LogDirectory.segments(in: destination)
    print(
      "\(destination.path): \(count) actions, the last \(segments.count) segments kept, unfinished")
  }

  /// A clock for the recording's timestamps that advances a fixed step per reading, so the
  /// times in a sample do not depend on the machine.
  static func virtualElapsed(step: Duration) -> @Sendable () -> Duration {
    let readings = LockIsolated(0)
    return {
      readings.withValue {
        $0 += 1
        return step * $0
      }
    }
  }

  static func recorder<R: Reducer>(
    _ reducer: R.Type, feature: String, url: URL, initialState: R.State,
    checkpointInterval: Int = 50, metadata: [String: String] = [:],
    redacting redactions: Redactions = .none
  ) throws -> RecorderOf<R> where R.State: Encodable & Sendable, R.Action: Encodable & Sendable {
    try RecorderOf<R>(
      url: url,
      feature: feature,
      initialState: initialState,
      checkpointInterval: checkpointInterval,
      metadata: ["app": "ExampleFeatures", "session": "Tools/record-samples"]
        .merging(metadata) { $1 },
      redacting: redactions,
      startedAt: self.startedAt,
      elapsed: self.virtualElapsed(step: .milliseconds(350))
    )
  }

  // MARK: - Sessions

  /// Counting up and down, fetching facts (fed back by an effect), dismissing an alert.
  @MainActor
  static func counterSession(_ url: URL) async throws -> Int {
    let recorder = try self.recorder(
      CounterFeature.self, feature: "counter", url: url, initialState: CounterFeature.State()
    )
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    } withDependencies: {
      $0.numberFact = .liveValue
    }
    for round in 0..<20 {
      for _ in 0..<(round % 4 + 2) { store.send(.incrementButtonTapped) }
      if round % 3 == 2 { store.send(.decrementButtonTapped) }
      await store.send(.factButtonTapped).finish()
      if round == 11 {
        store.send(.factFailed("the server is asleep"))
        store.send(.alertDismissed)
      }
    }
    try recorder.close()
    return recorder.count
  }

  /// Ten minutes of counting and facts recorded in the field: a rolling recorder keeping the
  /// last 5 minutes, in an app that stopped (a crash) without closing it.
  @MainActor
  static func fieldSession(_ directory: URL) async throws -> Int {
    let recorder = try RecorderOf<CounterFeature>(
      directory: directory, feature: "counter", initialState: CounterFeature.State(),
      retention: .minutes(5), session: "counter-20251122T025320Z-5a3e1f07",
      checkpointInterval: 50,
      metadata: [
        "app": "ExampleFeatures", "appVersion": "2.4.1", "session": "Tools/record-samples",
      ],
      startedAt: self.startedAt, elapsed: self.virtualElapsed(step: .milliseconds(350))
    )
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    } withDependencies: {
      $0.numberFact = .liveValue
    }
    var round = 0
    while recorder.count < 1_700 {
      for _ in 0..<(round % 5 + 1) { store.send(.incrementButtonTapped) }
      for _ in 0..<(round % 3) { store.send(.decrementButtonTapped) }
      if round % 4 == 3 { await store.send(.factButtonTapped).finish() }
      round += 1
    }
    // What the app acknowledged before it stopped: no close, so no end record.
    try recorder.flush()
    return recorder.count
  }

  /// `taps` taps on + and −, and nothing else.
  @MainActor
  static func longCounterSession(_ url: URL, taps: Int) throws {
    try? FileManager.default.removeItem(at: url)
    let recorder = try RecorderOf<CounterFeature>(
      url: url, feature: "counter", initialState: CounterFeature.State(), checkpointInterval: 100,
      metadata: ["session": "record-samples --long"], startedAt: self.startedAt,
      elapsed: self.virtualElapsed(step: .milliseconds(10))
    )
    let store = Store(initialState: CounterFeature.State()) {
      CounterFeature().recording(to: recorder)
    }
    for tap in 0..<taps {
      store.send(tap % 3 == 2 ? .decrementButtonTapped : .incrementButtonTapped)
    }
    try recorder.close()
  }

  /// Adding, editing, completing (a second later the list re-sorts), filtering, deleting.
  @MainActor
  static func todosSession(_ url: URL, redacting redactions: Redactions = .none) async throws -> Int
  {
    let recorder = try self.recorder(
      Todos.self, feature: "todos", url: url, initialState: Todos.State(), redacting: redactions
    )
    let store = Store(initialState: Todos.State()) {
      Todos().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    let chores = [
      "Buy milk", "Walk the dog", "Call Mum", "Water the plants", "File taxes", "Fix the bike",
      "Book dentist", "Return library books", "Clean windows", "Plan holiday", "Bake bread",
      "Write thank-you notes",
    ]
    // NB: Through the screen's controls, as an app's views send: the recording names their
    // lines.
    let view = TodosView(store: store)
    for (index, chore) in chores.enumerated() {
      view.addButtonTapped()
      guard let id = store.todos.first?.id else { continue }
      var text = ""
      for character in chore.prefix(index % 3 == 0 ? chore.count : 6) {
        text.append(character)
        view.row(id).textChanged(text)
      }
      if text != chore {
        view.row(id).textChanged(chore)
      }
    }
    for id in store.todos.ids.enumerated().filter({ $0.offset % 3 != 1 }).map(\.element) {
      await view.row(id).checkBoxTapped().finish()
    }
    view.filterPicked(.completed)
    view.filterPicked(.active)
    if let id = store.todos.first(where: { !$0.isComplete })?.id {
      await view.row(id).checkBoxTapped().finish()
    }
    view.filterPicked(.all)
    view.deleteRows(Array(store.todos.ids.prefix(2)))
    view.clearCompletedButtonTapped()
    try recorder.close()
    return recorder.count
  }

  /// Hearting songs (saved by an effect), removing favourites, changing settings.
  @MainActor
  static func songsSession(_ url: URL) async throws -> Int {
    let recorder = try self.recorder(
      SongsApp.self, feature: "songs", url: url, initialState: SongsApp.State()
    )
    let store = Store(initialState: SongsApp.State()) {
      SongsApp().recording(to: recorder)
    } withDependencies: {
      $0.favorites = .liveValue
    }
    for round in 0..<3 {
      for id in [3, 6, 1, 7, 2, 8].shuffled(seed: round) {
        await store.send(.library(.songs(.element(id: id, action: .heartTapped)))).finish()
      }
      store.send(.settings(.sortOrderPicked(round.isMultiple(of: 2) ? .artist : .title)))
      store.send(.settings(.showsDurationsToggled))
      for id in store.favorites.songs.ids.prefix(3) {
        await store.send(.favorites(.removeButtonTapped(id))).finish()
      }
      for id in [4, 5] {
        await store.send(.library(.songs(.element(id: id, action: .heartTapped)))).finish()
      }
    }
    store.send(.settings(.showsDurationsToggled))
    try recorder.close()
    return recorder.count
  }
}

extension RecordSamples {
  /// The session of the bug report about the songs app's hearts: heart three songs, remove one
  /// from the favourites, then tap its heart in the library to add it back. With the bug, the
  /// heart was still filled after the removal, and that tap removed it again instead. A
  /// checkpoint follows every action, so a replay that differs is caught at its step.
  @MainActor
  static func heartBugSession(_ url: URL, bugs: ReintroducedBugs) async throws -> Int {
    let recorder = try self.recorder(
      SongsApp.self, feature: "songs", url: url, initialState: SongsApp.State(),
      checkpointInterval: 1,
      metadata: bugs.isEmpty
        ? [
          "description":
            "Removing a favourite leaves its heart filled (fixed): the session of that report"
        ]
        : [
          "description": """
          Removing a favourite leaves its heart filled, and tapping it then does not add the \
          song back
          """
        ]
    )
    let store = Store(initialState: SongsApp.State()) {
      SongsApp().recording(to: recorder)
    } withDependencies: {
      $0.favorites = .liveValue
      $0.reintroducedBugs = bugs
    }
    for id in [3, 6, 1] {
      await store.send(.library(.songs(.element(id: id, action: .heartTapped)))).finish()
    }
    await store.send(.favorites(.removeButtonTapped(6))).finish()
    store.send(.settings(.sortOrderPicked(.title)))
    await store.send(.library(.songs(.element(id: 6, action: .heartTapped)))).finish()
    try recorder.close()
    return recorder.count
  }
}

extension Array {
  /// The elements in an order that depends only on `seed`.
  func shuffled(seed: Int) -> [Element] {
    var generator = SplitMix64(seed: UInt64(seed))
    return self.shuffled(using: &generator)
  }
}

extension RecordSamples {
  /// Adding items through the sheet (typed into its form, saved or cancelled: the sheet
  /// dismisses itself), deleting through the alert, one deletion cancelled.
  @MainActor
  static func inventorySession(_ url: URL) async throws -> Int {
    let recorder = try self.recorder(
      Inventory.self, feature: "inventory", url: url, initialState: Inventory.State()
    )
    let store = Store(initialState: Inventory.State()) {
      Inventory().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let goods = [
      ("Apples", 6), ("Flour", 2), ("Candles", 12), ("Rope", 1), ("Lanterns", 3),
      ("Blankets", 4), ("Matches", 20),
    ]
    for (index, (name, quantity)) in goods.enumerated() {
      store.send(.addButtonTapped)
      var text = ""
      for character in name {
        text.append(character)
        store.send(.destination(.presented(.addItem(.binding(.set(\.name, text))))))
      }
      store.send(.destination(.presented(.addItem(.binding(.set(\.quantity, quantity))))))
      if index == 3 {
        await store.send(.destination(.presented(.addItem(.cancelButtonTapped)))).finish()
      } else {
        await store.send(.destination(.presented(.addItem(.saveButtonTapped)))).finish()
      }
    }
    for (index, id) in store.items.ids.prefix(3).enumerated() {
      store.send(.deleteButtonTapped(id: id))
      if index == 1 {
        store.send(.destination(.dismiss))
      } else {
        store.send(.destination(.presented(.alert(.confirmDeletion(id: id)))))
      }
    }
    try recorder.close()
    return recorder.count
  }

  /// Opening contacts (a push), editing their forms through bindings, saving (the screen pops
  /// itself), going back, adding one, and deleting one after a confirmation.
  @MainActor
  static func contactsSession(_ url: URL) async throws -> Int {
    let initial = Contacts.State(
      contacts: IdentifiedArray(
        uniqueElements: [
          ("Ada", "555-0101"), ("Grace", "555-0102"), ("Alan", "555-0103"), ("Edsger", ""),
        ].enumerated().map { index, contact in
          Contact(id: UUID(1000 + index), name: contact.0, phone: contact.1)
        }
      )
    )
    let recorder = try self.recorder(
      Contacts.self, feature: "contacts", url: url, initialState: initial
    )
    let store = Store(initialState: initial) {
      Contacts().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
    }
    func type(_ text: String, into field: WritableKeyPath<ContactDetail.State, String>) {
      guard let id = store.path.ids.last else { return }
      var typed = ""
      for character in text {
        typed.append(character)
        store.send(.path(.element(id: id, action: .detail(.binding(.set(field, typed))))))
      }
    }
    let contacts = store.contacts.ids
    // Ada gets a surname; Grace a new number; Alan is looked at and left as he was.
    store.send(.contactTapped(id: contacts[0]))
    type("Ada Lovelace", into: \.name)
    await store.send(.path(.element(id: store.path.ids.last!, action: .detail(.saveButtonTapped))))
      .finish()
    store.send(.contactTapped(id: contacts[1]))
    type("555-0199", into: \.phone)
    // The address book syncs while her screen is open: the app writes her new name into it.
    store.send(.contactsSynced([Contact(id: contacts[1], name: "Grace Hopper", phone: "555-0102")]))
    await store.send(.path(.element(id: store.path.ids.last!, action: .detail(.saveButtonTapped))))
      .finish()
    store.send(.contactTapped(id: contacts[2]))
    store.send(.path(.popFrom(id: store.path.ids.last!)))
    // A new contact, pushed on its own screen.
    store.send(.addButtonTapped)
    type("Barbara", into: \.name)
    type("555-0110", into: \.phone)
    await store.send(.path(.element(id: store.path.ids.last!, action: .detail(.saveButtonTapped))))
      .finish()
    // Edsger is deleted after the confirmation.
    store.send(.contactTapped(id: contacts[3]))
    let screen = store.path.ids.last!
    store.send(.path(.element(id: screen, action: .detail(.deleteButtonTapped))))
    await store.send(
      .path(
        .element(id: screen, action: .detail(.confirmationDialog(.presented(.confirmDeletion)))))
    ).finish()
    try recorder.close()
    return recorder.count
  }

  /// Typing queries a character at a time, faster than the debounce, pausing for the results,
  /// picking one and looking at its forecast (Reykjavik's fails: an alert, tried again, then
  /// cancelled), clearing the field.
  @MainActor
  static func searchSession(_ url: URL) async throws -> Int {
    let recorder = try self.recorder(
      CitySearch.self, feature: "search", url: url, initialState: CitySearch.State()
    )
    let clock = TestClock()
    let store = Store(initialState: CitySearch.State()) {
      CitySearch().recording(to: recorder)
    } withDependencies: {
      $0.continuousClock = clock
      $0.searchClient = .liveValue
    }
    for query in ["par", "lon", "san", "por", "be", "aus", "mel", "o", "rey", "to"] {
      var typed = ""
      for character in query {
        typed.append(character)
        store.send(.binding(.set(\.query, typed)))
        await clock.advance(by: .milliseconds(120))
      }
      // The pause that lets the request go: advance until its results come back.
      for _ in 0..<1_000 where store.isSearching {
        await clock.advance(by: .milliseconds(100))
        try await Task.sleep(for: .milliseconds(1))
      }
      if let first = store.results.first {
        await store.send(.resultTapped(first)).finish()
        if store.destination?.forecast != nil {
          store.send(.destination(.presented(.forecast(.unitToggled))))
          await store.send(.destination(.presented(.forecast(.closeButtonTapped)))).finish()
        } else if store.destination?.alert != nil {
          await store.send(.destination(.presented(.alert(.retry(first))))).finish()
          store.send(.destination(.dismiss))
        }
      }
      // Backspacing to empty, fast: the last keystroke cancels the pending request.
      while !typed.isEmpty {
        typed.removeLast()
        store.send(.binding(.set(\.query, typed)))
        await clock.advance(by: .milliseconds(60))
      }
    }
    try recorder.close()
    return recorder.count
  }
}
