import ActionLog
import ComposableArchitecture
import Foundation
import TimeTravel

// The ledger of `RedactionMigrationTests` as it was at version 1, when each transaction had a
// `note`. NB: Private here and there, so that both versions record under one type name, as one
// type does across the releases of an app.

private struct Ledger: Reducer {
  struct Transaction: Codable, Equatable {
    var amount: Int
    var note: String
  }
  struct State: Codable, Equatable {
    var transactions: [Transaction] = []
  }
  enum Action: Codable, Equatable {
    case record(amount: Int, note: String)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .record(amount, note):
      state.transactions.append(Transaction(amount: amount, note: note))
      return .none
    }
  }
}

/// Records three transactions with the version 1 ledger, their notes redacted.
@MainActor
func recordLedgerAtVersion1(to url: URL) throws {
  let recorder = try RecorderOf<Ledger>(
    url: url, feature: "ledger", initialState: Ledger.State(), checkpointInterval: 2,
    redacting: try Redactions(state: ["transactions[*].note"])
  )
  let store = Store(initialState: Ledger.State()) { Ledger().recording(to: recorder) }
  for (amount, note) in [(10, "rent"), (-3, "withdrawal"), (7, "refund")] {
    store.send(.record(amount: amount, note: note))
  }
  try recorder.close()
}
