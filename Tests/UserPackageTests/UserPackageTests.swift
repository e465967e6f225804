import ActionLog
import Foundation
import TestSupport
import Testing

/// A user's package outside this repository: `Tests/UserPackage` (a wallet feature, its own
/// `replay`, TestStore tests and recording tests in Swift Testing and XCTest), copied to a
/// temporary folder beside a link named `ComposableReplay` to this checkout, and built with its
/// `Package.swift` as the README shows it.
///
/// It builds this package's dependencies once more, so `Tools/test` runs it on its own, after the
/// rest of the suite.
@Suite struct UserPackageTests {
  @Test func readmeShowsTheUserPackageManifest() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8
    )
    let manifest = try String(
      contentsOf: fixture.appendingPathComponent("Package.swift"), encoding: .utf8
    )
    let marker = "<!-- user package: Tests/UserPackage/Package.swift -->\n```swift\n"
    let shown = try #require(
      readme.range(of: marker).flatMap { start in
        readme.range(of: "```\n", range: start.upperBound..<readme.endIndex).map {
          String(readme[start.upperBound..<$0.lowerBound])
        }
      }
    )
    #expect(shown == manifest)
  }

  @Test func failingTestsFailAndPassingTestsPass() async throws {
    let folder = TemporaryDirectory()
    let package = folder.url.appendingPathComponent("Wallet")
    try FileManager.default.copyItem(at: fixture, to: package)
    try FileManager.default.createSymbolicLink(
      at: folder.url.appendingPathComponent("ComposableReplay"), withDestinationURL: packageRoot
    )

    let build = try await swift(["build", "--build-tests"], in: package)
    try #require(build.status == 0, "The user package does not build:\n\(build.all)")

    // Correct expectations pass, in both frameworks.
    let passing = try await swift(["test", "--skip-build", "--filter", "[Cc]orrect"], in: package)
    #expect(passing.status == 0, "\(passing.all)")
    #expect(passing.all.contains("Test run with 5 tests in 0 suites passed"), "\(passing.all)")
    #expect(passing.all.contains("Executed 2 tests, with 0 failures"), "\(passing.all)")

    // Each mistake fails its test, with the diff or the unasserted action.
    let wrongState = """
      Wallet.State(
        balance: 0,
      −   draft: Draft.State(amount: 10)
      +   draft: Draft.State(amount: 0)
        isSyncing: false,
      """
    let unreceived = """
      The store received 1 unexpected action.

      Unhandled actions:
      .syncResponse
      """
    // NB: Under XCTest the test store runs effects on the main serial executor, as TCA's does, and
    // the end of the test finds the sync's effect still waiting for its turn.
    let stillRunning = """
      An effect returned for this action is still running. It must complete before the end of \
      the test.
      """
    let diverged = """
      Wallet.State(
      -   balance: 75,
      +   balance: 74,
        draft: nil,
      """
    // The payees feature, written with @Reducer, @Presents and bindings.
    let wrongPayee = """
              id: UUID(00000000-0000-0000-0000-000000000000),
      −       name: "Blobby",
      +       name: "Blob",
              iban: ""
      """
    let untrimmed = """
      -       name: "Ada",
      +       name: "Ada ",
              iban: "GB33"
      """
    // Three modules sharing a file-stored value: a change the test did not assert fails.
    let unassertedLimit = """
      State was not expected to change, but a change occurred.

      Spending.State(
      −   _limits: Limits(monthly: 100),
      +   _limits: Limits(monthly: 150),
      spent: 0
      )
      """
    let sharing = try await swift(
      [
        "test", "--skip-build", "--filter",
        "SharingTests.theModulesShareTheLimits|SpendingRecordingTests.aLimitRewrittenFromOutsideReplays",
      ], in: package)
    #expect(sharing.status == 0, "\(sharing.all)")
    #expect(sharing.all.contains("Test run with 2 tests"), "\(sharing.all)")
    // A recording of a shared file rewritten from outside, without that change: it diverges.
    // (`#1`: the replay's shared value is another object than the recording's, as a diff of two
    // shared values says.)
    let withoutOutsideChange = """
      -   _limits: Limits(monthly: 500),
      +   _limits: #1 Limits(monthly: 150),
      """
    // A feature with nothing Codable records and replays; changed, it diverges.
    let tips = try await swift(
      [
        "test", "--skip-build", "--filter",
        "TipsRecordingTests.aFeatureWithoutCodableRecordsAndReplays",
      ],
      in: package)
    #expect(tips.status == 0, "\(tips.all)")
    #expect(tips.all.contains("Test run with 1 test"), "\(tips.all)")
    let changedTip = """
          [0]: Tips.State.Tip(
      -       amount: 5,
      +       amount: 6,
              note: "thanks"
      """
    let mistakes: [(filter: String, shows: String)] = [
      ("TipsRecordingTests.aChangedTipDiverges", changedTip),
      ("SharingTests.unassertedSharedChangeFails", unassertedLimit),
      (
        "SpendingRecordingTests.aRecordingWithoutTheChangeFromOutsideDiverges", withoutOutsideChange
      ),
      ("WalletTests.mistakenPayeeExpectationFails", wrongPayee),
      ("WalletRecordingTests.mistakenPayeesRecordingDiverges", untrimmed),
      ("WalletTests.mistakenExpectationFails", wrongState),
      ("WalletXCTests/testMistakenExpectationFails", wrongState),
      ("WalletTests.missingReceiveFails", unreceived),
      ("WalletXCTests/testMissingReceiveFails", stillRunning),
      ("WalletRecordingTests.mistakenRecordingDiverges", diverged),
      ("WalletRecordingXCTests/testMistakenRecordingDiverges", diverged),
    ]
    for mistake in mistakes {
      let result = try await swift(
        ["test", "--skip-build", "--filter", mistake.filter], in: package
      )
      #expect(result.status != 0, "\(mistake.filter) passed:\n\(result.all)")
      #expect(result.all.hasLines(mistake.shows), "\(mistake.filter):\n\(result.all)")
    }

    try await self.aFailingTestLeavesItsRun(package)
    try await self.sharedValuesShownAreTheRecordedOnes(package)
    try await self.aCrashedSessionIsReportedFromItsSegments(package)
    try await self.aHarmlessEditKeepsARecordingGreen(package)
    try await self.aChangeOfWhatItStartsOrCancelsTurnsItRed(package)
    try await self.aRedactedRecordingStaysGreenAfterARename(package)
    try await self.itsOwnReplayServesTheDebugger(package)

    // The app's executable links no test framework.
    let bin = package.appendingPathComponent(".build/debug/wallet-replay")
    let libraries = try await run("ldd", [bin.path], in: package, isProduct: false)
    #expect(libraries.status == 0, "\(libraries.all)")
    #expect(testFrameworks(in: libraries.output) == [], "\(libraries.output)")

    // Without the testing product, a failure still fails the run, and says what to add.
    let manifest = package.appendingPathComponent("Package.swift")
    var text = try String(contentsOf: manifest, encoding: .utf8)
    let recordingTests = try #require(text.range(of: "    // Recordings as regression tests"))
    let end = try #require(
      text.range(of: "    ),\n  ],", range: recordingTests.lowerBound..<text.endIndex)
    )
    text.replaceSubrange(recordingTests.lowerBound..<end.upperBound, with: "  ],")
    text = text.replacingOccurrences(
      of: #"name: "ComposableArchitectureTesting""#, with: #"name: "ComposableArchitecture""#
    )
    try text.write(to: manifest, atomically: true, encoding: .utf8)
    try FileManager.default.removeItem(
      at: package.appendingPathComponent("Tests/WalletRecordingTests")
    )
    let rebuild = try await swift(["build", "--build-tests"], in: package)
    try #require(rebuild.status == 0, "\(rebuild.all)")
    // NB: IssueReporting finds its test support as a shared library beside the test binary too,
    // and the first build left one there; a package that never had the product has none.
    try FileManager.default.removeItem(
      at: package.appendingPathComponent(".build/debug/libIssueReportingTestSupport.so")
    )
    let withoutProduct = [
      "WalletTests.mistakenExpectationFails", "WalletXCTests/testMistakenExpectationFails",
    ]
    for filter in withoutProduct {
      let result = try await swift(["test", "--skip-build", "--filter", filter], in: package)
      #expect(result.status != 0, "\(filter) passed without the testing product:\n\(result.all)")
      #expect(result.all.hasLines(wrongState), "\(filter):\n\(result.all)")
      #expect(
        result.all.contains(
          #".product(name: "ComposableArchitectureTesting", package: "ComposableReplay")"#
        ),
        "\(filter):\n\(result.all)"
      )
    }
  }
}

extension UserPackageTests {
  /// A limit kept in a file and a spending total in memory: a second store raises the limit,
  /// another program rewrites the file, the recorded store goes on. The file ends at the last
  /// value written, and the package's own `replay`, jumping to the last step, shows the recorded
  /// values there, not those of its own storage or of the file on the machine.
  /// The failing test store tests above left their runs, which the package's own `replay`
  /// verifies and steps through; the passing ones left none.
  func aFailingTestLeavesItsRun(_ package: URL) async throws {
    let folder = package.appendingPathComponent(".build/test-recordings")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let failing = "WalletTests.mistakenExpectationFails().actionlog"
    #expect(files.contains(failing), "\(files)")
    #expect(!files.contains { $0.lowercased().contains("correct") }, "\(files)")
    let result = try await swift(
      ["test", "--skip-build", "--filter", "WalletTests.mistakenExpectationFails"], in: package)
    #expect(
      result.all.contains(".build/test-recordings/\(failing): step through it"), "\(result.all)")
    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    let file = ".build/test-recordings/\(failing)"
    let verify = try await run(replay, ["verify", file], in: package, isProduct: false)
    #expect(verify.status == 0, "\(verify.all)")
    let steps = try await run(
      replay, [file], input: "info\nlast\nback\nquit\n", in: package, isProduct: false)
    #expect(steps.output.contains("failed assertion"), "\(steps.all)")
    #expect(steps.output.contains("  ✘ A state change does not match expectation"), "\(steps.all)")
    #expect(!steps.all.contains("read-only"), "\(steps.all)")
  }

  /// The package's own `replay dap` re-runs its reducer: a diversion sent from the debug console
  /// changes the state the editor shows.
  func itsOwnReplayServesTheDebugger(_ package: URL) async throws {
    let replay = package.appendingPathComponent(".build/debug/wallet-replay")
    let client = try DAPClient(executable: replay, in: package)
    _ = client.request("initialize")
    let launch = client.request(
      "launch",
      [
        "recording": ".build/test-recordings/WalletTests.mistakenExpectationFails().actionlog",
        "sourceRoot": .string(package.path),
      ])
    #expect(launch.response?["success"] == true, "\(launch)")
    #expect(
      !launch.events.contains { $0["body"]?["output"]?.stringValue?.contains("read-only") == true },
      "\(launch.events)")
    _ = client.request("configurationDone")
    #expect(client.event("stopped")?["body"]?["reason"] == "entry")
    let balance = client.request("evaluate", ["expression": "balance", "context": "watch"])
    let sent = client.request(
      "evaluate", ["expression": "send .syncResponse(1234)", "context": "repl"])
    #expect(sent.response?["success"] == true, "\(sent)")
    #expect(client.event("stopped")?["body"]?["reason"] == "goto")
    let diverted = client.request("evaluate", ["expression": "balance", "context": "watch"])
    #expect(diverted.response?["body"]?["result"] == "1234", "\(diverted)")
    #expect(diverted.response?["body"]?["result"] != balance.response?["body"]?["result"])
    let frames = client.request("stackTrace", ["threadId": 1])
    #expect(
      frames.response?["body"]?["stackFrames"]?[0]?["name"]?.stringValue?.hasPrefix("a diversion")
        == true, "\(frames)")
    let moving = client.request("next", ["threadId": 1])
    #expect(moving.response?["success"] == false)
    _ = client.request("evaluate", ["expression": "discard", "context": "repl"])
    #expect(self.successful(client.request("next", ["threadId": 1])))
    _ = client.request("disconnect")
    #expect(client.exitStatus() == 0)
  }

  private func successful(_ answer: (response: JSONValue?, events: [JSONValue])) -> Bool {
    answer.response?["success"] == true
  }

  func sharedValuesShownAreTheRecordedOnes(_ package: URL) async throws {
    let recorded = try await swift(
      ["test", "--skip-build", "--filter", "AllowanceRecordingTests"], in: package)
    #expect(recorded.status == 0, "\(recorded.all)")
    #expect(recorded.all.contains("Test run with 1 test"), "\(recorded.all)")
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("allowance")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recording = folder.appendingPathComponent("allowance.actionlog").path
    // The limit's file, as the machine has it now, holds another value than any step recorded.
    try Data("100".utf8).write(to: folder.appendingPathComponent("limit.json"))
    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    let session = try await run(
      replay, [recording],
      input: "goto 3\nprint limit\nlast\nprint spent\nprint limit\nback\nstep\nprint spent\n",
      in: package, isProduct: false)
    #expect(session.status == 0, "\(session.all)")
    let answers = session.output.split(separator: "\n").filter { Int($0) != nil }
    #expect(answers == ["200", "170", "150", "170"], "\(session.all)")
    #expect(
      try String(contentsOf: folder.appendingPathComponent("limit.json"), encoding: .utf8) == "100")
  }

  /// The wallet recording in the field as the README's "Record in the field" sets it up: a
  /// launch that crashed after a flush, reported at the next launch; then the feature's own
  /// `replay` lists the folder and writes the crashed session's report, which verifies.
  func aCrashedSessionIsReportedFromItsSegments(_ package: URL) async throws {
    let field = package.appendingPathComponent("Field")
    let recorded = try await run(
      "swift",
      [
        "test", "--skip-build", "--filter",
        "WalletRecordingTests.aCrashedSessionIsReportedAtTheNextLaunch",
      ],
      in: package, isProduct: false, environment: ["WALLET_FIELD": field.path])
    #expect(recorded.status == 0, "\(recorded.all)")
    #expect(recorded.all.contains("Test run with 1 test"), "\(recorded.all)")

    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    let list = try await run(
      replay, ["report", "Field/Recordings", "--list"], in: package, isProduct: false)
    #expect(list.status == 0, "report --list: \(list.all)")
    let sessions = list.output.split(separator: "\n").map(String.init)
    #expect(sessions.count == 2, "report --list: \(list.all)")
    #expect(sessions.first?.contains("  unfinished  ") == true, "\(list.all)")
    #expect(sessions.first?.contains("steps 1–180") == true, "\(list.all)")
    #expect(sessions.last?.contains("  finished  ") == true, "\(list.all)")
    let crashed = try #require(sessions.first?.split(separator: " ").first.map(String.init))

    let report = try await run(
      replay,
      [
        "report", "Field/Recordings", "--session", crashed, "--last", "5m",
        "-o", "crash.actionlog", "--note", "after a crash",
      ],
      in: package, isProduct: false)
    #expect(report.status == 0, "report: \(report.all)")
    #expect(report.output.contains("Wrote crash.actionlog: 180 actions"), "\(report.all)")
    let verify = try await run(
      replay, ["verify", "crash.actionlog"], in: package, isProduct: false)
    #expect(verify.status == 0, "verify: \(verify.all)")
    #expect(verify.output.contains("reproduces every step of 180 actions"), "\(verify.all)")
    // What the app wrote at its next launch is the same report.
    let fromApp = try await run(
      replay, ["verify", "Field/Reports/\(crashed).actionlog"], in: package, isProduct: false)
    #expect(fromApp.status == 0, "verify: \(fromApp.all)")
    // And the feature's own replay writes the report's page, verified.
    let page = try await run(
      replay, ["html", "crash.actionlog", "-o", "crash.html", "--verify"], in: package,
      isProduct: false)
    #expect(page.status == 0, "html: \(page.all)")
    #expect(page.output.contains("today's reducer reproduces every step"), "\(page.all)")
    let html = try String(
      contentsOf: package.appendingPathComponent("crash.html"), encoding: .utf8)
    #expect(html.contains("<title>crash.actionlog · wallet recording</title>"))
  }

  /// A session recorded by one release of the wallet, replayed by the next, in which comment
  /// lines were added above the sync's `.run` and the audit was combined before the wallet's own
  /// logic: the same behaviour, so `assertReplay`, `verify`, `check` and `rerecord` pass.
  func aHarmlessEditKeepsARecordingGreen(_ package: URL) async throws {
    let recordings = package.appendingPathComponent("Recordings")
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    let recorded = try await run(
      "swift",
      ["test", "--skip-build", "--filter", "WalletRecordingTests.correctRecordingReplays"],
      in: package, isProduct: false,
      environment: ["WALLET_RECORDING": recordings.appendingPathComponent("session.actionlog").path]
    )
    try #require(recorded.status == 0, "\(recorded.all)")

    let source = package.appendingPathComponent("Sources/Wallet/Wallet.swift")
    var text = try String(contentsOf: source, encoding: .utf8)
    let audit = "      Reduce(self.audit)\n"
    let core = "      Reduce(self.core)\n"
    let request = "      return .run { [balance = state.balance, clock] send in\n"
    for line in [audit, core, request] {
      try #require(text.components(separatedBy: line).count == 2, "\(line) is not in Wallet.swift")
    }
    text = text.replacingOccurrences(of: core + audit, with: audit + core)
    text = text.replacingOccurrences(
      of: request,
      with: """
              // The bank serves one sync at a time: a new one replaces the one in flight, and
              // cancelling the sync cancels this request.
              // (Comments like these move the `.run` below without changing what it does.)

        """ + request)
    try text.write(to: source, atomically: true, encoding: .utf8)
    let rebuild = try await swift(["build", "--build-tests"], in: package)
    try #require(rebuild.status == 0, "\(rebuild.all)")

    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    let verify = try await run(
      replay, ["verify", "Recordings/session.actionlog"], in: package, isProduct: false)
    #expect(verify.status == 0, "verify: \(verify.all)")
    let check = try await run(replay, ["check", "Recordings"], in: package, isProduct: false)
    #expect(check.status == 0, "check: \(check.all)")
    let effects = try await run(
      replay, ["Recordings/session.actionlog"],
      input: "effects 1\n", in: package, isProduct: false)
    #expect(
      effects.output.contains("(the same effects, written elsewhere or merged in another order)"),
      "effects: \(effects.all)")
    let rerecord = try await run(
      replay, ["rerecord", "Recordings/session.actionlog", "-o", "Recordings/today.actionlog"],
      in: package, isProduct: false)
    #expect(rerecord.status == 0, "rerecord: \(rerecord.all)")
    #expect(!rerecord.output.contains("other effects"), "rerecord: \(rerecord.all)")

    // And `assertReplay` on the same recording, in a test the user adds to the next release.
    let test = package.appendingPathComponent(
      "Tests/WalletRecordingTests/SavedRecordingTests.swift")
    try """
    import Foundation
    import ReplayTesting
    import Testing
    import Wallet

    @Test func theSessionRecordedLastReleaseReplays() throws {
      let url = URL(fileURLWithPath: \(String(reflecting: recordings.path)))
      try assertReplay(url.appendingPathComponent("session.actionlog")) { Wallet() }
    }

    """.write(to: test, atomically: true, encoding: .utf8)
    let saved = try await swift(
      ["test", "--filter", "theSessionRecordedLastReleaseReplays"], in: package)
    #expect(saved.status == 0, "assertReplay: \(saved.all)")
    #expect(saved.all.contains("Test run with 1 test"), "assertReplay: \(saved.all)")
    try FileManager.default.removeItem(at: test)
  }
}

extension UserPackageTests {
  /// Edits of the wallet that change what it starts or cancels, each on its own: `verify` on
  /// the session recorded before them fails at the step, with the effects recorded and replayed.
  func aChangeOfWhatItStartsOrCancelsTurnsItRed(_ package: URL) async throws {
    let source = package.appendingPathComponent("Sources/Wallet/Wallet.swift")
    let original = try String(contentsOf: source, encoding: .utf8)
    let cancellable = "      .cancellable(id: CancelID.sync, cancelInFlight: true)\n"
    let edits: [(what: String, changes: [(String, String)], step: Int)] = [
      (
        "the audit's effect dropped", [("return .run { _ in await Task.yield() }", "return .none")],
        1
      ),
      ("the sync's .cancellable dropped", [(cancellable, "")], 1),
      (
        "the sync's id changed",
        [
          ("private enum CancelID { case sync }", "private enum CancelID { case sync, bank }"),
          (cancellable, "      .cancellable(id: CancelID.bank, cancelInFlight: true)\n"),
        ],
        1
      ),
      ("the cancel removed", [("return .cancel(id: CancelID.sync)", "return .none")], 7),
    ]
    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    for edit in edits {
      var text = original
      for (old, new) in edit.changes {
        try #require(text.components(separatedBy: old).count == 2, "\(old) is not in Wallet.swift")
        text = text.replacingOccurrences(of: old, with: new)
      }
      try text.write(to: source, atomically: true, encoding: .utf8)
      let rebuild = try await swift(["build", "--product", "wallet-replay"], in: package)
      try #require(rebuild.status == 0, "\(edit.what): \(rebuild.all)")
      let verify = try await run(
        replay, ["verify", "Recordings/session.actionlog"], in: package, isProduct: false)
      #expect(verify.status == 1, "\(edit.what): \(verify.all)")
      #expect(
        verify.output.contains(
          "The replay's effects differ from the recording at step \(edit.step):"),
        "\(edit.what): \(verify.all)")
      let sides = verify.output.split(separator: "\n").map { $0.drop { $0 == " " } }
      #expect(sides.contains { $0.hasPrefix("− ") }, "\(edit.what): \(verify.all)")
      #expect(sides.contains { $0.hasPrefix("+ ") }, "\(edit.what): \(verify.all)")
    }
    try original.write(to: source, atomically: true, encoding: .utf8)
  }
}

extension UserPackageTests {
  /// The saved session exported with the payments' amounts redacted, then read by a release in
  /// which `amount` is `sum`, with the migration that says so: the redaction follows the rename,
  /// so the recording verifies and migrates, and the migrated one names `sum`.
  func aRedactedRecordingStaysGreenAfterARename(_ package: URL) async throws {
    let replay = package.appendingPathComponent(".build/debug/wallet-replay").path
    let exported = try await run(
      replay,
      [
        "export", "Recordings/session.actionlog", "-o", "Recordings/redacted.actionlog",
        "--redact-state", "payments[*].amount",
      ],
      in: package, isProduct: false)
    try #require(exported.status == 0, "export: \(exported.all)")

    let source = package.appendingPathComponent("Sources/Wallet/Wallet.swift")
    let original = try String(contentsOf: source, encoding: .utf8)
    var text = original
    for (old, new) in [
      (
        "    public var amount: Int\n    public var date: Date",
        "    public var sum: Int\n    public var date: Date"
      ),
      (
        "      self.amount = amount\n      self.date = date",
        "      self.sum = amount\n      self.date = date"
      ),
    ] {
      try #require(text.components(separatedBy: old).count == 2, "\(old) is not in Wallet.swift")
      text = text.replacingOccurrences(of: old, with: new)
    }
    text =
      "import ActionLog\n" + text + """

        extension Wallet.State: SchemaVersioned {
          public static let schema = FeatureSchema(
            version: 2,
            migrations: [Migration(from: 1, .renameField("amount", to: "sum", in: "payments[*]"))]
          )
        }

        """
    try text.write(to: source, atomically: true, encoding: .utf8)
    let rebuild = try await swift(["build", "--product", "wallet-replay"], in: package)
    try #require(rebuild.status == 0, "\(rebuild.all)")

    let verify = try await run(
      replay, ["verify", "Recordings/redacted.actionlog"], in: package, isProduct: false)
    #expect(verify.status == 0, "verify: \(verify.all)")
    let migrated = try await run(
      replay,
      ["migrate", "Recordings/redacted.actionlog", "-o", "Recordings/redacted-v2.actionlog"],
      in: package, isProduct: false)
    #expect(migrated.status == 0, "migrate: \(migrated.all)")
    let info = try await run(
      replay, ["info", "Recordings/redacted-v2.actionlog"], in: package, isProduct: false)
    #expect(info.output.contains("payments[*].sum"), "info: \(info.all)")
    #expect(!info.output.contains("payments[*].amount"), "info: \(info.all)")
    try original.write(to: source, atomically: true, encoding: .utf8)
  }
}

/// The user package, as this repository keeps it.
private let fixture = packageRoot.appendingPathComponent("Tests/UserPackage")

/// Runs `swift` with `arguments` in `folder`.
private func swift(_ arguments: [String], in folder: URL) async throws -> ProcessResult {
  try await run("swift", arguments, in: folder, isProduct: false)
}

extension String {
  /// Whether `block`'s lines stand here one after the other, each compared without the white
  /// space around it (Swift Testing indents a message and XCTest does not), the first at the end
  /// of a line (XCTest puts the test's name before a message).
  fileprivate func hasLines(_ block: String) -> Bool {
    func lines(_ text: String) -> [Substring] {
      text.split(separator: "\n", omittingEmptySubsequences: false).map {
        var line = $0.drop(while: \.isWhitespace)
        if line.hasPrefix("↳ ") { line = line.dropFirst(2) }
        while line.last?.isWhitespace == true { line = line.dropLast() }
        return line
      }
    }
    let haystack = lines(self)
    let needle = lines(block)
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
      haystack[start].hasSuffix(needle[0])
        && haystack[(start + 1)..<(start + needle.count)].elementsEqual(needle.dropFirst())
    }
  }
}

extension ProcessResult {
  /// Standard output and standard error.
  var all: String { self.output + self.errors }
}
