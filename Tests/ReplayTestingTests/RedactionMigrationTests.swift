import ActionLog
import ComposableArchitecture
import Foundation
import ReplayTesting
import TestSupport
import Testing
import TimeTravel

/// The ledger at version 2: `note` is `memo` (version 1 is in `LedgerVersion1.swift`).
private struct Ledger: Reducer {
  struct Transaction: Codable, Equatable {
    var amount: Int
    var memo: String
  }
  struct State: Codable, Equatable {
    var transactions: [Transaction] = []
  }
  enum Action: Codable, Equatable {
    case record(amount: Int, note: String)
  }
  static let schema = FeatureSchema(
    version: 2,
    migrations: [Migration(from: 1, .renameField("note", to: "memo", in: "transactions[*]"))]
  )
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case let .record(amount, note):
      state.transactions.append(Transaction(amount: amount, memo: note))
      return .none
    }
  }
}

/// A recording redacted at one version of a feature stays green at the next, once its types
/// changed: the redaction paths follow the migrations.
@Suite struct RedactionMigrationTests {
  @Test func pathsFollowRenamesAndRemovals() throws {
    let redactions = try Redactions(
      state: ["transactions[*].note", "user.email", "**.note", "legacy.secret"],
      actions: ["**.noteChanged", "login.password"]
    )
    let migrated = redactions.migrated(by: [
      .renameField("note", to: "memo", in: "transactions[*]"),
      .removeField("secret", in: "legacy"),
      .renameCase("noteChanged", to: "memoChanged"),
    ])
    #expect(
      migrated.state.map(\.description) == ["transactions[*].memo", "user.email", "**.note"])
    #expect(migrated.actions.map(\.description) == ["**.memoChanged", "login.password"])
  }

  @MainActor
  @Test func aRedactedRecordingReplaysAfterARenameAndMigratesWithTheNewName() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("ledger.actionlog")
    try recordLedgerAtVersion1(to: url)

    // At version 2 the redacted `memo` is not compared: the path now names it.
    try assertReplay(url, schema: Ledger.schema) { Ledger() }
    let recording = try Recording(contentsOf: url).migrated(to: Ledger.schema)
    #expect(recording.header.redactions.state.map(\.description) == ["transactions[*].memo"])

    // What `migrate` writes names it too, and replays.
    let migrated = directory.file("ledger-v2.actionlog")
    _ = try Recording(contentsOf: url).export(
      to: migrated, options: ExportOptions(schema: Ledger.schema))
    let written = try Recording(contentsOf: migrated)
    #expect(written.header.redactions.state.map(\.description) == ["transactions[*].memo"])
    #expect(written.header.hasStepUpdates)
    try assertReplay(migrated, schema: Ledger.schema) { Ledger() }
    // Its updates name the new field as well.
    let update = try #require(try written.update(ofAction: 2))
    #expect(update.map(\.pointer) == ["/transactions/1"])
    #expect(update.first?.value?.text.contains(#""memo""#) == true)
  }
}
