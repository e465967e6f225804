import ComposableArchitecture
import Foundation
import SwiftUINavigation
import Testing

// Shapes TCA's example apps write, compiled as they write them.

/// SyncUps' `SyncUpDetail`: a destination enum with an `Action` of its own, whose alert case
/// carries the alert's actions, and an alert button sent with an animation.
@Reducer
struct ThemedDetail {
  @Reducer
  enum Destination {
    @ReducerCaseIgnored case alert(AlertState<Alert>)
    case edit(ThemePicker)

    @CasePathable
    enum Action {
      case alert(Alert)
      case edit(ThemePicker.Action)
    }

    @CasePathable
    enum Alert {
      case confirmDeletion
    }
  }

  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var deleted = false
    var theme = Theme.bubblegum
  }

  enum Action {
    case deleteButtonTapped
    case destination(PresentationAction<Destination.Action>)
    case editButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteButtonTapped:
        state.destination = .alert(
          AlertState {
            TextState("Delete?")
          } actions: {
            ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
              TextState("Yes")
            }
          })
        return .none
      case .destination(.presented(.alert(.confirmDeletion))):
        state.deleted = true
        return .none
      case .destination(.presented(.edit(.picked(let theme)))):
        state.theme = theme
        return .none
      case .destination:
        return .none
      case .editButtonTapped:
        state.destination = .edit(ThemePicker.State())
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}
extension ThemedDetail.Destination.State: Equatable {}
extension Root.State: Equatable {}

/// SyncUps' `Theme`: colours as data.
enum Theme: String, CaseIterable, Equatable {
  case bubblegum, navy
  var accentColor: Color { self == .navy ? .white : .black }
  var mainColor: Color { Color(rawValue) }
}

@Reducer
struct ThemePicker {
  @ObservableState
  struct State: Equatable {
    var color = Color.black
  }
  enum Action {
    case picked(Theme)
    case setColor(Color)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .picked(let theme):
        state.color = theme.mainColor
        return .none
      case .setColor(let color):
        state.color = color.opacity(0.5)
        return .none
      }
    }
  }
}

/// TicTacToe's root: an enum of features with a `body` of its own.
@Reducer
enum Root {
  case picker(ThemePicker)
  case detail(ThemedDetail)

  static var body: some ReducerOf<Self> {
    Scope(state: \.picker, action: \.picker) { ThemePicker() }
    Scope(state: \.detail, action: \.detail) { ThemedDetail() }
    Reduce { state, action in
      switch action {
      case .picker(.picked):
        state = .detail(ThemedDetail.State())
        return .none
      default:
        return .none
      }
    }
  }
}

@MainActor
@Suite struct TCAAppShapesTests {
  @Test func anAlertOfADestinationWithItsOwnActions() async {
    let store = TestStore(initialState: ThemedDetail.State()) { ThemedDetail() }
    await store.send(.deleteButtonTapped) {
      $0.destination = .alert(
        AlertState {
          TextState("Delete?")
        } actions: {
          ButtonState(role: .destructive, action: .send(.confirmDeletion, animation: .default)) {
            TextState("Yes")
          }
        })
    }
    await store.send(\.destination.alert.confirmDeletion) {
      $0.destination = nil
      $0.deleted = true
    }
  }

  @Test func aButtonsAnimationIsPartOfIt() {
    let plain = ButtonState<Int>(action: .send(1)) { TextState("One") }
    let animated = ButtonState<Int>(action: .send(1, animation: .easeOut)) { TextState("One") }
    #expect(plain != animated)
    #expect(animated.map { $0.map { $0 + 1 } }.action.animation == .easeOut)
  }

  @Test func anEnumWithItsOwnBodyRunsIt() async {
    let store = TestStore(initialState: Root.State.picker(ThemePicker.State())) { Root.body }
    await store.send(\.picker.picked, .navy) {
      $0 = .detail(ThemedDetail.State())
    }
  }

  @Test func colorsAndAnimationsAreDataThatSaysWhichTheyWere() throws {
    #expect(Theme.bubblegum.mainColor.description == #"Color("bubblegum")"#)
    #expect(
      Color(red: 1, green: 0.5, blue: 0).opacity(0.5).description
        == "Color(red: 1.0, green: 0.5, blue: 0.0).opacity(0.5)")
    #expect(
      Animation.interpolatingSpring(stiffness: 3000, damping: 40).description
        == "interpolatingSpring(mass: 1.0, stiffness: 3000.0, damping: 40.0, initialVelocity: 0.0)")
    let json = try JSONEncoder().encode([Color.red, Color(white: 0.2)])
    #expect(try JSONDecoder().decode([Color].self, from: json) == [.red, Color(white: 0.2)])
  }

  @Test func theDocumentsDirectoryIsTheUsers() {
    #expect(URL.documentsDirectory.path.hasSuffix("Documents"))
    #expect(
      URL.documentsDirectory.appending(component: "sync-ups.json").lastPathComponent
        == "sync-ups.json")
  }
}
