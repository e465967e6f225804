// The order in which an alert's button, the parent's reducer and the alert's dismissal run, as
// TCA's "Alerts and Confirmation Dialogs" case study relies on it: the parent runs first, and the
// alert goes away only if the parent left the same one presented.
import ComposableArchitecture
import Foundation
import Testing

@Reducer
struct AlertAndDialog {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var confirmationDialog: ConfirmationDialogState<Action.ConfirmationDialog>?
    var count = 0
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case alertButtonTapped
    case confirmationDialog(PresentationAction<ConfirmationDialog>)
    case confirmationDialogButtonTapped

    @CasePathable
    enum Alert: Equatable {
      case again
      case decrementButtonTapped
      case incrementButtonTapped
      case unchanged
    }
    @CasePathable
    enum ConfirmationDialog: Equatable {
      case decrementButtonTapped
      case incrementButtonTapped
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.again)):
        // The same alert again, made anew: a new presentation, which stays.
        state.alert = .counting
        return .none
      case .alert(.presented(.decrementButtonTapped)):
        state.alert = AlertState { TextState("Decremented!") }
        state.count -= 1
        return .none
      case .alert(.presented(.incrementButtonTapped)):
        state.alert = AlertState { TextState("Incremented!") }
        state.count += 1
        return .none
      case .alert(.presented(.unchanged)):
        // The presented alert itself, written back: the same presentation, which goes away.
        let alert = state.alert
        state.alert = alert
        return .none
      case .alert:
        return .none
      case .alertButtonTapped:
        state.alert = .counting
        return .none
      case .confirmationDialog(.presented(.decrementButtonTapped)):
        state.alert = AlertState { TextState("Decremented!") }
        state.count -= 1
        return .none
      case .confirmationDialog(.presented(.incrementButtonTapped)):
        state.confirmationDialog = ConfirmationDialogState { TextState("Again?") }
        state.count += 1
        return .none
      case .confirmationDialog:
        return .none
      case .confirmationDialogButtonTapped:
        state.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Confirmation dialog")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
          ButtonState(action: .decrementButtonTapped) { TextState("Decrement") }
        }
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}

extension AlertState where Action == AlertAndDialog.Action.Alert {
  /// A new alert each time it is read.
  static var counting: Self {
    AlertState {
      TextState("Alert!")
    } actions: {
      ButtonState(role: .cancel) { TextState("Cancel") }
      ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
      ButtonState(action: .again) { TextState("Again") }
      ButtonState(action: .unchanged) { TextState("Unchanged") }
    } message: {
      TextState("This is an alert")
    }
  }
}

@MainActor
@Suite struct AlertOrderTests {
  @Test func aNewAlertPresentedByTheParentInAnswerToAButtonStays() async {
    let store = TestStore(initialState: AlertAndDialog.State()) { AlertAndDialog() }
    await store.send(.alertButtonTapped) {
      $0.alert = .counting
    }
    await store.send(\.alert.incrementButtonTapped) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.count = 1
    }
    // A button-less alert goes away when dismissed.
    await store.send(\.alert.dismiss) {
      $0.alert = nil
    }
  }

  @Test func anAlertMadeAnewStaysEvenWhenItReadsTheSame() async {
    let store = TestStore(initialState: AlertAndDialog.State()) { AlertAndDialog() }
    await store.send(.alertButtonTapped) {
      $0.alert = .counting
    }
    await store.send(\.alert.again)
    #expect(store.state.alert == .counting)
  }

  @Test func theSameAlertWrittenBackGoesAway() async {
    let store = TestStore(initialState: AlertAndDialog.State(alert: .counting)) {
      AlertAndDialog()
    }
    await store.send(\.alert.unchanged) {
      $0.alert = nil
    }
  }

  @Test func anAlertTheParentLeftAloneGoesAway() async {
    let store = TestStore(initialState: AlertAndDialog.State(alert: .counting)) {
      AlertAndDialog()
    }
    // The parent answers no action of the alert's cancel button: the alert goes away.
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
    }
  }

  @Test func aDialogAnsweredWithAnAlertOrANewDialog() async {
    let store = TestStore(initialState: AlertAndDialog.State()) { AlertAndDialog() }
    await store.send(.confirmationDialogButtonTapped) {
      $0.confirmationDialog = ConfirmationDialogState(titleVisibility: .visible) {
        TextState("Confirmation dialog")
      } actions: {
        ButtonState(role: .cancel) { TextState("Cancel") }
        ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
        ButtonState(action: .decrementButtonTapped) { TextState("Decrement") }
      }
    }
    // The dialog's button presents a new dialog: it stays.
    await store.send(\.confirmationDialog.incrementButtonTapped) {
      $0.confirmationDialog = ConfirmationDialogState { TextState("Again?") }
      $0.count = 1
    }
    // The new dialog had no such button, but the parent answers it with an alert: the dialog
    // goes away, the alert stays.
    await store.send(\.confirmationDialog.decrementButtonTapped) {
      $0.alert = AlertState { TextState("Decremented!") }
      $0.confirmationDialog = nil
      $0.count = 0
    }
  }

  @Test func anAlertIsEqualToAnotherThatReadsTheSameButIsNotTheSamePresentation() {
    let first = AlertState<Never> { TextState("Hello") }
    let second = AlertState<Never> { TextState("Hello") }
    #expect(first == second)
    #expect(first.id != second.id)
    #expect(first.map { $0 }.id == first.id)
  }
}
