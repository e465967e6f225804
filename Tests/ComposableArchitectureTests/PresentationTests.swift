// A list with an add-item sheet and a delete alert, written as TCA's tutorials write one, with
// only `import ComposableArchitecture`.
import ComposableArchitecture
import Foundation
import TestSupport
import Testing

struct Item: Codable, Equatable, Identifiable, Sendable {
  var id: UUID
  var name: String
}

@Reducer
struct ItemForm {
  @ObservableState
  struct State: Codable, Equatable {
    var item: Item
    var secondsOpen = 0
  }

  enum Action: Codable, Equatable {
    case cancelButtonTapped
    case delegate(Delegate)
    case nameChanged(String)
    case onAppear
    case saveButtonTapped
    case tick
    @CasePathable
    enum Delegate: Codable, Equatable {
      case saveItem(Item)
    }
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.dismiss) var dismiss

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .cancelButtonTapped:
        return .run { _ in await self.dismiss() }
      case .delegate:
        return .none
      case let .nameChanged(name):
        state.item.name = name
        return .none
      case .onAppear:
        return .run { send in
          for await _ in self.clock.timer(interval: .seconds(1)) {
            await send(.tick)
          }
        }
      case .saveButtonTapped:
        return .run { [item = state.item] send in
          await send(.delegate(.saveItem(item)))
          await self.dismiss()
        }
      case .tick:
        state.secondsOpen += 1
        return .none
      }
    }
  }
}

@Reducer
struct ItemList {
  @Reducer
  enum Destination {
    case addItem(ItemForm)
    case alert(AlertState<ItemList.Action.Alert>)
  }

  @ObservableState
  struct State: Codable, Equatable {
    @Presents var destination: Destination.State?
    var items: IdentifiedArrayOf<Item> = []
  }

  enum Action: Codable, Equatable {
    case addButtonTapped
    case deleteButtonTapped(id: Item.ID)
    case destination(PresentationAction<Destination.Action>)
    @CasePathable
    enum Alert: Codable, Equatable {
      case confirmDeletion(id: Item.ID)
    }
  }

  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addButtonTapped:
        state.destination = .addItem(ItemForm.State(item: Item(id: self.uuid(), name: "")))
        return .none
      case let .deleteButtonTapped(id):
        state.destination = .alert(.deleteConfirmation(id: id))
        return .none
      case let .destination(.presented(.addItem(.delegate(.saveItem(item))))):
        state.items.append(item)
        return .none
      case let .destination(.presented(.alert(.confirmDeletion(id)))):
        state.items.remove(id: id)
        return .none
      case .destination:
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

extension ItemList.Destination.State: Codable, Equatable {}
extension ItemList.Destination.Action: Codable, Equatable {}

extension AlertState where Action == ItemList.Action.Alert {
  static func deleteConfirmation(id: UUID) -> Self {
    Self {
      TextState("Delete this item?")
    } actions: {
      ButtonState(role: .destructive, action: .confirmDeletion(id: id)) {
        TextState("Delete")
      }
      ButtonState(role: .cancel) {
        TextState("Cancel")
      }
    }
  }
}

@Reducer
struct PresentedProbe {
  struct State: Equatable { var isPresented: Bool? }
  enum Action: Equatable {
    case check
    case checked(Bool)
  }
  @Dependency(\.isPresented) var isPresented
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .check:
        return .run { send in await send(.checked(self.isPresented)) }
      case let .checked(value):
        state.isPresented = value
        return .none
      }
    }
  }
}

@Reducer
struct ProbeHost {
  struct State: Equatable { @Presents var probe: PresentedProbe.State? }
  enum Action: Equatable { case probe(PresentationAction<PresentedProbe.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifLet(\.$probe, action: \.probe) { PresentedProbe() }
  }
}

@MainActor
@Suite struct PresentationTests {
  func makeStore(items: IdentifiedArrayOf<Item> = []) -> TestStoreOf<ItemList> {
    TestStore(initialState: ItemList.State(items: items)) {
      ItemList()
    } withDependencies: {
      $0.uuid = .incrementing
    }
  }

  @Test func aSheetSavesThroughItsDelegateAndDismissesItself() async {
    let store = self.makeStore()
    await store.send(.addButtonTapped) {
      $0.destination = .addItem(ItemForm.State(item: Item(id: UUID(0), name: "")))
    }
    await store.send(\.destination.addItem.nameChanged, "Milk") {
      $0.destination?.addItem?.item.name = "Milk"
    }
    await store.send(\.destination.addItem.saveButtonTapped)
    await store.receive(\.destination.addItem.delegate.saveItem) {
      $0.items = [Item(id: UUID(0), name: "Milk")]
    }
    await store.receive(\.destination.dismiss) {
      $0.destination = nil
    }
  }

  @Test func dismissalCancelsWhatThePresentedFeatureStarted() async {
    let clock = TestClock()
    let store = TestStore(initialState: ItemList.State()) {
      ItemList()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
    }
    await store.send(.addButtonTapped) {
      $0.destination = .addItem(ItemForm.State(item: Item(id: UUID(0), name: "")))
    }
    await store.send(\.destination.addItem.onAppear)
    #expect(await clock.waitForSuspension())
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.addItem.tick) {
      $0.destination?.addItem?.secondsOpen = 1
    }
    // The timer runs until the sheet goes away: dismissing it ends the test with nothing in
    // flight, which an exhaustive store checks.
    await store.send(\.destination.dismiss) {
      $0.destination = nil
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func anAlertSendsItsButtonsActionAndGoesAway() async {
    let item = Item(id: UUID(7), name: "Milk")
    let store = self.makeStore(items: [item])
    await store.send(.deleteButtonTapped(id: item.id)) {
      $0.destination = .alert(.deleteConfirmation(id: item.id))
    }
    await store.send(\.destination.alert.confirmDeletion, item.id) {
      $0.destination = nil
      $0.items = []
    }
  }

  @Test func anActionForADismissedFeatureIsReported() async {
    let store = self.makeStore()
    await withKnownIssue {
      await store.send(\.destination.addItem.saveButtonTapped)
    } matching: { issue in
      issue.description.contains("received a presentation action when destination state was absent")
    }
  }

  @Test func dismissOutsideAPresentationIsReported() async {
    let store = Store(initialState: ItemForm.State(item: Item(id: UUID(0), name: ""))) {
      ItemForm()
    }
    await withKnownIssue {
      await store.send(.cancelButtonTapped).finish()
    } matching: { issue in
      issue.description.contains("it is not presented")
    }
  }

  /// In a test store, as in TCA's, the feature under test may dismiss itself: the test asks
  /// `isDismissed`.
  @Test func aTestStoresFeatureThatDismissesItselfIsDismissed() async {
    let store = TestStore(
      initialState: ItemForm.State(item: Item(id: UUID(0), name: ""))
    ) {
      ItemForm()
    }
    await store.send(.cancelButtonTapped)
    await store.finish()
    #expect(store.isDismissed)
  }

  @Test func isPresentedIsTrueInsideAPresentedFeature() async {
    let store = TestStore(initialState: ProbeHost.State(probe: PresentedProbe.State())) {
      ProbeHost()
    }
    await store.send(\.probe.check)
    await store.receive(\.probe.checked, true) {
      $0.probe?.isPresented = true
    }
  }

  @Test func aPresentationIsRecordedUnderItsOwnName() throws {
    let state = ItemList.State(destination: .alert(.deleteConfirmation(id: UUID(1))))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    #expect(
      json == """
        {"destination":{"alert":{"_0":{"buttons":[{"action":{"confirmDeletion":{"id":"00000000-0000-0000-0000-000000000001"}},\
        "label":"Delete","role":"destructive"},{"action":null,"label":"Cancel","role":"cancel"}],\
        "title":"Delete this item?"}}},"items":[]}
        """)
    #expect(try JSONDecoder().decode(ItemList.State.self, from: Data(json.utf8)) == state)
    let dismissed = ItemList.State()
    let empty = String(decoding: try encoder.encode(dismissed), as: UTF8.self)
    #expect(empty == #"{"destination":null,"items":[]}"#)
    #expect(try JSONDecoder().decode(ItemList.State.self, from: Data(empty.utf8)) == dismissed)
  }
}
