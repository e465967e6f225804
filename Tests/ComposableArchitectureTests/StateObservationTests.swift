@testable import ComposableArchitecture
import Foundation
import Testing

/// A state value is observable property by property: a write tells the observers of what it
/// wrote, and a parent's observers are told when a child is replaced, not when it changes in
/// place.
@Suite struct StateObservationTests {
  @ObservableState
  struct Row: Equatable, Identifiable, Codable {
    let id: Int
    var count = 0
    mutating func reset() { self = Row(id: self.id) }
  }

  @ObservableState
  struct Screen: Equatable, Codable {
    var title = "Rows"
    var row = Row(id: 0)
    var rows: IdentifiedArrayOf<Row> = []
    var list: [Row] = []
    var optional: Row?
    @Presents var sheet: Row?
  }

  @ObservableState
  struct Hidden: Equatable {
    private var secret = 0
    var value: Int { self.secret }
    mutating func bump() { self.secret += 1 }
  }

  /// Whether `change` tells the observers of what `read` reads.
  private func changes<Root>(
    _ root: inout Root, reading read: (Root) -> Void, by change: (inout Root) -> Void
  ) -> Bool {
    let told = LockIsolated(false)
    let snapshot = root
    withObservationTracking {
      read(snapshot)
    } onChange: {
      told.setValue(true)
    }
    change(&root)
    return told.value
  }

  @Test func aWriteTellsTheObserversOfThatProperty() {
    var screen = Screen()
    #expect(changes(&screen, reading: { _ = $0.title }, by: { $0.title = "Other" }))
    #expect(!changes(&screen, reading: { _ = $0.row }, by: { $0.title = "Again" }))
    #expect(screen.title == "Again")
  }

  @Test func aPrivatePropertyIsTrackedToo() {
    var hidden = Hidden()
    #expect(changes(&hidden, reading: { _ = $0.value }, by: { $0.bump() }))
    #expect(hidden.value == 1)
  }

  @Test func anEqualValueWrittenTellsNoOne() {
    var screen = Screen()
    #expect(!changes(&screen, reading: { _ = $0.title }, by: { $0.title = $0.title }))
  }

  @Test func aChildChangedInPlaceTellsItsOwnObserversNotItsParents() {
    var screen = Screen()
    #expect(changes(&screen, reading: { _ = $0.row.count }, by: { $0.row.count += 1 }))
    #expect(!changes(&screen, reading: { _ = $0.row }, by: { $0.row.count += 1 }))
    #expect(screen.row.count == 2)
  }

  @Test func aChildReplacedTellsItsParentsObservers() {
    var screen = Screen()
    #expect(changes(&screen, reading: { _ = $0.row }, by: { $0.row = Row(id: 1) }))
    #expect(changes(&screen, reading: { _ = $0.row }, by: { $0.row.reset() }))
    #expect(changes(&screen, reading: { _ = $0.optional }, by: { $0.optional = Row(id: 2) }))
    #expect(!changes(&screen, reading: { _ = $0.optional }, by: { $0.optional?.count += 1 }))
  }

  @Test func aCollectionTellsOfElementsAddedNotOfElementsChanged() {
    var screen = Screen(rows: [Row(id: 1)], list: [Row(id: 1)])
    #expect(!changes(&screen, reading: { _ = $0.rows }, by: { $0.rows[id: 1]?.count += 1 }))
    #expect(changes(&screen, reading: { _ = $0.rows[0].count }, by: { $0.rows[0].count += 1 }))
    #expect(changes(&screen, reading: { _ = $0.rows }, by: { $0.rows.append(Row(id: 2)) }))
    #expect(!changes(&screen, reading: { _ = $0.list }, by: { $0.list[0].count += 1 }))
    #expect(changes(&screen, reading: { _ = $0.list }, by: { $0.list.append(Row(id: 2)) }))
    #expect(screen.rows.map(\.count) == [2, 0] && screen.list.map(\.count) == [1, 0])
  }

  @Test func aPresentationTellsOfWhatItPresentsNotOfItsChangesInPlace() {
    var screen = Screen()
    #expect(changes(&screen, reading: { _ = $0.sheet }, by: { $0.sheet = Row(id: 5) }))
    #expect(!changes(&screen, reading: { _ = $0.sheet }, by: { $0.sheet?.count += 1 }))
    #expect(changes(&screen, reading: { _ = $0.sheet?.count }, by: { $0.sheet?.count += 1 }))
    #expect(changes(&screen, reading: { _ = $0.sheet }, by: { $0.sheet?.reset() }))
    #expect(
      changes(
        &screen, reading: { _ = $0.sheet }, by: { $0.$sheet = PresentationState(wrappedValue: nil) }
      ))
    #expect(changes(&screen, reading: { _ = $0.sheet }, by: { $0.sheet = Row(id: 6) }))
    #expect(screen.sheet == Row(id: 6))
  }

  @Test func aKeyPathThroughTrackedPropertiesIsNamedAsWritten() {
    #expect((\Screen.rows as AnyKeyPath).childName == "rows")
    #expect((\Screen.row.count as AnyKeyPath).childName == "count")
    #expect((\Screen.list as AnyKeyPath).childName == "list")
  }

  @Test func theStateShowsAndCodesAsDeclared() throws {
    let screen = Screen(title: "T", row: Row(id: 3, count: 4))
    let labels = Mirror(reflecting: screen).children.map(\.label)
    #expect(
      labels == ["title", "row", "rows", "list", "optional", "_sheet"])
    #expect(Mirror(reflecting: Hidden()).children.map(\.label) == ["secret"])
    let json = try JSONEncoder().encode(screen.row)
    #expect(String(decoding: json, as: UTF8.self).contains("\"count\":4"))
    let decoded = try JSONDecoder().decode(Screen.self, from: JSONEncoder().encode(screen))
    #expect(decoded == screen)
    var dumped = ""
    customDump(Row(id: 1, count: 2), to: &dumped)
    #expect(dumped.contains("count: 2") && !dumped.contains("_count"))
    #expect(!dumped.contains("observationRegistrar"))
  }

  @Test func aCopyKeepsItsIdentityAndAnInPlaceChangeThroughAParentRenewsIt() {
    var screen = Screen()
    let before = screen.row._$id
    let copy = screen.row
    #expect(copy._$id == before)
    screen.row.count += 1
    #expect(screen.row._$id != before)
  }
}

/// A state declared `private`, with a stack and a presentation of its own kind: what TCA's
/// tests declare at file scope.
@ObservableState
private struct Panel: Equatable, Identifiable {
  let id = UUID()
  var count = 0
  var path = StackState<Panel>()
  @Presents var child: Panel?
}

@Suite struct PrivateStateObservationTests {
  @Test func aPrivateStateWithAStackOfItsOwnKindIsTracked() {
    var panel = Panel()
    let told = LockIsolated(false)
    let pathTold = LockIsolated(false)
    let snapshot = panel
    withPerceptionTracking {
      _ = snapshot.count
    } onChange: {
      told.setValue(true)
    }
    withPerceptionTracking {
      _ = snapshot.path
    } onChange: {
      pathTold.setValue(true)
    }
    panel.count += 1
    #expect(told.value && !pathTold.value)
    panel.path.append(Panel())
    #expect(pathTold.value)
    #expect(Panel(count: 2).count == 2)
  }
}

/// `forEach` changes an element of a tracked collection in place: the element's observers are
/// told, the collection's are not, and the collection's storage is not copied.
@Suite struct ForEachObservationTests {
  @Reducer
  struct Row {
    @ObservableState
    struct State: Equatable, Identifiable {
      let id: Int
      var count = 0
    }
    enum Action { case increment }
    var body: some ReducerOf<Self> {
      Reduce({ state, _ in
        state.count += 1
        return .none
      })
    }
  }

  @Reducer
  struct Rows {
    @ObservableState
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
    }
    enum Action { case rows(IdentifiedActionOf<Row>) }
    var body: some ReducerOf<Self> {
      EmptyReducer().forEach(\.rows, action: \.rows) { Row() }
    }
  }

  @Test func anElementsActionChangesItInPlaceAndTellsOnlyItsObservers() {
    var state = Rows.State(rows: [Row.State(id: 1), Row.State(id: 2)])
    let rowsTold = LockIsolated(false)
    let countTold = LockIsolated(false)
    let snapshot = state
    withObservationTracking {
      _ = snapshot.rows
    } onChange: {
      rowsTold.setValue(true)
    }
    withObservationTracking {
      _ = snapshot.rows[0].count
    } onChange: {
      countTold.setValue(true)
    }
    _ = Rows().reduce(into: &state, action: .rows(.element(id: 1, action: .increment)))
    #expect(state.rows[id: 1]?.count == 1)
    #expect(countTold.value && !rowsTold.value)
  }
}
