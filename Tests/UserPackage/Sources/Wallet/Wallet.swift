import ComposableArchitecture
import Foundation

/// A wallet: payments drafted in a form, listed, cleared one by one, and a balance synced from a
/// bank after a second, with an audit of each sync beside it.
public struct Wallet: Reducer {
  public struct State: Codable, Equatable, Sendable {
    public var balance = 0
    public var draft: Draft.State?
    public var isSyncing = false
    public var payments: IdentifiedArrayOf<Payment.State> = []

    public init() {}
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case addPaymentTapped
    case cancelSyncTapped
    case draft(Draft.Action)
    case payments(IdentifiedActionOf<Payment>)
    case syncResponse(Int)
    case syncTapped
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.date.now) var now
  @Dependency(\.uuid) var uuid

  /// What each payment costs on top of its amount.
  let fee: Int

  private enum CancelID { case sync }

  public init(fee: Int = 0) {
    self.fee = fee
  }

  public var body: some ReducerOf<Self> {
    CombineReducers {
      Reduce(self.core)
      Reduce(self.audit)
    }
    .ifLet(\.draft, action: \.draft) {
      Draft()
    }
    .forEach(\.payments, action: \.payments) {
      Payment()
    }
  }

  /// Tells the bank's audit log that the wallet synced: work that feeds nothing back.
  func audit(into state: inout State, action: Action) -> Effect<Action> {
    guard case .syncTapped = action else { return .none }
    return .run { _ in await Task.yield() }
  }

  /// The wallet's own logic: payments and the sync.
  func core(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addPaymentTapped:
      state.draft = Draft.State()
      return .none

    case .cancelSyncTapped:
      state.isSyncing = false
      return .cancel(id: CancelID.sync)

    case .draft(.saveTapped):
      guard let draft = state.draft else { return .none }
      state.payments.append(Payment.State(id: self.uuid(), amount: draft.amount, date: self.now))
      state.balance -= draft.amount + self.fee
      state.draft = nil
      return .none

    case .draft, .payments:
      return .none

    case let .syncResponse(balance):
      state.balance = balance
      state.isSyncing = false
      return .none

    case .syncTapped:
      state.isSyncing = true
      return .run { [balance = state.balance, clock] send in
        try await clock.sleep(for: .seconds(1))
        await send(.syncResponse(balance + 100))
      }
      .cancellable(id: CancelID.sync, cancelInFlight: true)
    }
  }
}

/// The form of a new payment.
public struct Draft: Reducer {
  public struct State: Codable, Equatable, Sendable {
    public var amount = 0

    public init(amount: Int = 0) {
      self.amount = amount
    }
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case amountChanged(Int)
    case saveTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case let .amountChanged(amount) = action {
        state.amount = amount
      }
      return .none
    }
  }
}

/// A payment in the list.
public struct Payment: Reducer {
  public struct State: Codable, Equatable, Identifiable, Sendable {
    public let id: UUID
    public var amount: Int
    public var date: Date
    public var isCleared = false

    public init(id: UUID, amount: Int, date: Date, isCleared: Bool = false) {
      self.id = id
      self.amount = amount
      self.date = date
      self.isCleared = isCleared
    }
  }

  @CasePathable
  public enum Action: Codable, Equatable, Sendable {
    case clearTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .clearTapped:
        state.isCleared = true
        return .none
      }
    }
  }
}
