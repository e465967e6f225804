// NB: Over 400 lines on purpose: every check of the page drives the same headless browser
// through one driver and one set of facts, which read best side by side.

import ActionLog
import ComposableArchitecture
import ComposableArchitectureTesting
import Foundation
import TestSupport
import Testing

/// `replay html`'s page, in headless Chromium driven as a person would (the keyboard, the
/// search, a click on the state tree), checked against the recording it was made from.
///
/// `Tools/test` installs Chromium and Playwright for Python; without them the suite says so and
/// skips these tests, except on CI, where they must run.
@Suite(
  .enabled(
    if: HeadlessBrowser.problem == nil || ProcessInfo.processInfo.environment["CI"] != nil,
    "\(HeadlessBrowser.problem ?? "")"),
  .serialized
)
struct HTMLPageTests {
  static let root = ReplayCommandTests.root
  static let script = root.appendingPathComponent(
    "Tests/ReplayCommandTests/Support/browser_check.py")

  /// What the page showed, as the driver reports it.
  struct Facts: Decodable {
    struct Selected: Decodable {
      var step: Int?
      var row: Int?
      var diff: [[String]]
      var diffEmpty: String?
      var failure: [[String]]?
      var verdictText: String?
      var shared: [String]?
      var hash: String
    }
    struct Opened: Decodable {
      var path: String
      var open: Bool
      var children: [String]
    }
    struct Verdict: Decodable {
      var `class`: String
      var text: String
    }
    struct CaseFilter: Decodable {
      var option: String
      var status: String
    }
    var requests: [String]
    var errors: [String]
    var ready: String?
    var actions: Int?
    var status: String?
    var metadata: String?
    var window: String?
    var verdict: Verdict?
    var divergentRows: [Int]?
    var failures: String?
    var failedRows: [Int]?
    var sharedMarks: String?
    var dialogs: [String]?
    var foreignElements: Int?
    var bodyText: String?
    var injected: String?
    var sharedRows: [Int]?
    var initial: Selected?
    var home: Selected?
    var down2: Selected?
    var up1: Selected?
    var openedNode: Opened?
    var searchFocused: String?
    var searchStatus: String?
    var searchSelected: Selected?
    var clearedStatus: String?
    var caseFilter: CaseFilter?
    var colorScheme: String?
    var darkColorScheme: String?
    struct Step: Decodable {
      var step: Int
      var row: String?
      var action: String?
      var labels: [String]
      var origin: String?
    }
    var everyStep: [Step]?
  }

  func page(
    _ recording: String, in directory: TemporaryDirectory, arguments: [String] = [],
    browser: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Facts {
    let page = directory.file("page.html")
    let made = try await run(
      "replay", ["html", recording, "-o", page.path, "--force"] + arguments, in: Self.root)
    try #require(
      made.status == 0, "replay html \(recording): \(made.all)", sourceLocation: sourceLocation)
    let driven = try await run(
      "python3", [Self.script.path, page.path] + browser, in: directory.url, isProduct: false)
    try #require(driven.status == 0, "\(driven.all)", sourceLocation: sourceLocation)
    return try JSONDecoder().decode(Facts.self, from: Data(driven.output.utf8))
  }

  /// The top-level case of `seq`'s action: a word that a search finds.
  static func searchWord(of recording: Recording, _ seq: Int) throws -> String {
    let json = try recording.actionJSON(seq)
    guard let start = json.firstIndex(of: "\""),
      let end = json[json.index(after: start)...].firstIndex(of: "\"")
    else { return "" }
    return String(json[json.index(after: start)..<end])
  }

  @Test(arguments: HeadlessBrowser.bundled)
  func theBundledRecordingsPageIsDrivenAsAPersonWould(_ file: String) async throws {
    let directory = TemporaryDirectory()
    let recording = try Recording(contentsOf: recordingsFolder.appendingPathComponent(file))
    let word = try Self.searchWord(of: recording, recording.count)
    let facts = try await self.page(
      "Recordings/\(file)", in: directory, browser: ["--search", word])

    #expect(facts.ready == "true")
    #expect(facts.errors == [], "the page's errors")
    #expect(facts.requests == [], "the page made requests")
    #expect(facts.actions == recording.count)
    #expect(facts.status == "\(recording.count) actions")
    #expect(facts.window == nil)
    #expect(facts.initial?.step == nil, "nothing is selected at first")

    // The keyboard: Home, two down, one up (as far as there are steps).
    let third = min(3, recording.count)
    #expect(facts.home?.step == 1)
    #expect(facts.down2?.step == third)
    #expect(facts.down2?.row == third)
    #expect(facts.up1?.step == max(1, third - 1))
    #expect(facts.up1?.hash == "#step=\(max(1, third - 1))")

    // The third step's diff is its recorded update, a line for the value before and after.
    if recording.header.hasStepUpdates {
      var states = RecordedStates(recording)
      let before = try states.state(after: third - 1)
      var expected: [[String]] = []
      for operation in try recording.update(ofAction: third) ?? [] {
        let path = operation.path.isEmpty ? "(the whole state)" : operation.pointer
        if operation.op == .move, let from = operation.from {
          let fromPointer = JSONPatchOperation(.remove, from).pointer
          expected += [["-", "− \(fromPointer): "], ["+", "+ \(path): "]]
          continue
        }
        if operation.op != .add, Self.lookup(before, operation.path) != nil {
          expected.append(["-", "− \(path): "])
        }
        if operation.op == .add || operation.op == .replace {
          expected.append(["+", "+ \(path): "])
        }
      }
      let shown = facts.down2?.diff ?? []
      #expect(shown.map(\.first) == expected.map(\.first), "\(shown)")
      #expect(
        zip(shown, expected).allSatisfy { $0[1].hasPrefix($1[1]) }, "\(shown) against \(expected)")
      if expected.isEmpty { #expect(facts.down2?.diffEmpty == "No state changes.") }
    } else {
      #expect(facts.down2?.diffEmpty?.contains("predates step updates") == true)
    }

    // A closed node of the state tree opens, with its children.
    if let opened = facts.openedNode {
      #expect(opened.open)
      #expect(!opened.children.isEmpty, "\(opened.path) opened empty")
    }

    // "/" searches; Enter selects the first match.
    #expect(facts.searchFocused == "search")
    let needle = word.lowercased()
    let matches = try (1...recording.count).filter {
      try recording.actionJSON($0).lowercased().contains(needle)
    }
    #expect(
      facts.searchStatus
        == (matches.count == recording.count
          ? "\(recording.count) actions" : "\(matches.count) of \(recording.count) actions match"),
      "searching \(word)")
    #expect(facts.searchSelected?.step == matches.first)
    #expect(facts.clearedStatus == "\(recording.count) actions")

    // The filter by case keeps as many actions as its option says.
    if let filter = facts.caseFilter {
      let count = filter.option.split(separator: "(").last.map { $0.dropLast() }.map(String.init)
      #expect(
        filter.status == "\(count ?? "?") of \(recording.count) actions match"
          || count == "\(recording.count)", "\(filter)")
    }
    #expect(facts.colorScheme != facts.darkColorScheme, "the page follows prefers-color-scheme")
  }

  @Test(arguments: HeadlessBrowser.bundled)
  func eachActionIsShownAsTheREPLPrintsItAndTheStateWithTheUsersNames(_ file: String) async throws {
    let directory = TemporaryDirectory()
    let recording = try Recording(contentsOf: recordingsFolder.appendingPathComponent(file))
    let facts = try await self.page("Recordings/\(file)", in: directory, browser: ["--every-step"])
    #expect(facts.errors == [], "the page's errors")
    // The REPL's printing of each step's action, from `goto`.
    let listing = try await run(
      "replay", ["Recordings/\(file)"],
      input: (1...recording.count).map { "goto \($0)\n" }.joined(), in: Self.root)
    let line = /^ *(\d+)\/\d+  \+\S+  (?:send|effect ← \d+|effect)(?: at (\S+))?  (.+)$/
    var printed: [Int: String] = [:]
    var sites: [Int: String] = [:]
    for text in listing.output.split(separator: "\n") {
      if let match = try? line.wholeMatch(in: String(text)) {
        printed[Int(match.1)!] = String(match.3)
        sites[Int(match.1)!] = match.2.map(String.init)
      }
    }
    // Recordings made since call sites are recorded say where each action came from; older
    // ones say nothing of it.
    #expect(
      sites.count == (recording.hasCallSites ? recording.count : 0),
      "\(file): every step says where it was sent from, or none does")
    let steps = facts.everyStep ?? []
    #expect(steps.count == recording.count)
    #expect(printed.count == recording.count, "\(listing.output.prefix(500))")
    for step in steps {
      let repl = try #require(printed[step.step], "step \(step.step) printed")
      #expect(step.action == repl, "\(file) step \(step.step)")
      // Its origin names the same source line as the REPL's step line.
      let origin = step.origin ?? ""
      if let site = sites[step.step] {
        #expect(origin.contains(" at \(site)"), "\(file) step \(step.step): \(origin)")
      } else {
        #expect(!origin.contains(" at "), "\(file) step \(step.step): \(origin)")
      }
      // The list: the same, without the type, shortened.
      let short = repl.replacing(
        /^[A-Z][A-Za-z0-9_]*(\.[A-Z][A-Za-z0-9_]*)*(?=\.[a-z_`])/, with: "")
      #expect(
        step.row == (short.count > 120 ? String(short.prefix(119)) + "…" : short),
        "\(file) step \(step.step)")
      // No level of the state tree is named as `Codable` names an unlabelled value.
      let codableLabels = step.labels.filter { $0.wholeMatch(of: #/_\d+: /#) != nil }
      #expect(codableLabels.isEmpty, "\(file) step \(step.step): \(codableLabels)")
    }
  }

  /// Text that would run, fetch, or take the page's own place if it were spliced in as markup
  /// or searched again for the template's markers.
  static let hostile = [
    "</title><script>window.__injected=1</script>",
    "/*SCRIPT*/", "/*STYLE*/", "<!--DATA-->", "<!--TITLE-->",
    "<img src=x onerror=\"window.__injected=2\">",
    "\"><svg onload=window.__injected=3>", "</script><script>window.__injected=4</script>",
    "javascript:window.__injected=5", "<link rel=stylesheet href=http://example.invalid/x.css>",
  ]

  /// A report whose every string, case name, metadata key and value, and the source line each
  /// action names, is one of ``hostile``.
  static func hostileRecording() -> Data {
    func string(_ text: String) -> String {
      let data = try! JSONEncoder().encode(text)
      return String(decoding: data, as: UTF8.self)
    }
    let names = Self.hostile
    let metadata = names.enumerated().map {
      "\(string("\($0.element) \($0.offset)")):\(string($0.element))"
    }
    .joined(separator: ",")
    let state =
      "{"
      + names.enumerated().map { "\(string("\($0.element)#\($0.offset)")):\(string($0.element))" }
      .joined(separator: ",") + "}"
    var data = framedLine(
      #"{"actionType":"/*SCRIPT*/.Action","checkpointInterval":100,"feature":"#
        + string(names[0] + names[1])
        + #","format":1,"initialState":"# + state + #","kind":"header","metadata":{"# + metadata
        + #"},"startedAt":"2026-11-22T02:53:20.000Z","stateType":"/*STYLE*/.State"}"#)
    for (index, name) in names.enumerated() {
      data.append(
        framedLine(
          #"{"kind":"site","site":\#(index + 1),"where":"# + string("\(name)/\(name):7") + "}"))
      data.append(
        framedLine(
          #"{"kind":"action","seq":\#(index + 1),"source":"send","time":\#(index * 1_000_000),"value":{"#
            + string(name) + #":{"_0":"# + string(name) + #","label":"# + string(name)
            + #"}},"via":\#(index + 1)}"#))
      data.append(framedLine(#"{"kind":"note","seq":\#(index + 1),"text":"# + string(name) + "}"))
      if index == 0 {
        data.append(
          framedLine(
            #"{"kind":"shared","seq":1,"shared":"# + string(names[0])
              + #","source":"outside","value":"# + string(names[5]) + "}"))
      }
    }
    data.append(
      framedLine(#"{"kind":"checkpoint","seq":\#(names.count),"value":"# + state + "}"))
    data.append(framedLine(#"{"kind":"end","seq":\#(names.count),"time":99000000}"#))
    return data
  }

  /// A segment a rolling recorder started after a full disk: its page says first, among the
  /// metadata, which actions are missing before it.
  @Test func aSegmentAfterAGapSaysSoFirst() async throws {
    let directory = TemporaryDirectory()
    let facts = try await self.page(
      "Tests/Fuzz/folder-corpus/gap/counter-g-000002.actionlog", in: directory)
    #expect(facts.ready == "true")
    #expect(facts.errors == [])
    let metadata = try #require(facts.metadata)
    #expect(
      metadata.hasPrefix(
        "gap\nactions 21–70 (50) were not recorded: No space left on device"),
      "\(metadata)")
  }

  @Test func aHostileReportIsShownAsTextAndNothingRuns() async throws {
    let directory = TemporaryDirectory()
    let file = directory.file("x<!--DATA-->*SCRIPT*<img src=y>.actionlog")
    try Self.hostileRecording().write(to: file)
    for step in ["1", "2", "\(Self.hostile.count)"] {
      let facts = try await self.page(file.path, in: directory, browser: ["--step", step])
      #expect(facts.ready == "true")
      #expect(facts.errors == [], "the page's errors")
      #expect(facts.requests == [], "the page made requests")
      #expect(facts.dialogs == [])
      #expect(facts.injected == nil, "a hostile value ran")
      #expect(facts.foreignElements == 0, "a hostile value became markup")
      #expect(facts.actions == Self.hostile.count)
      let text = try #require(facts.bodyText)
      for hostile in Self.hostile {
        #expect(text.contains(hostile), "\(hostile) is not shown as text at step \(step)")
      }
    }
  }

  @Test func aChangeFromOutsideIsMarkedOnTheTimeAxisAndItsStep() async throws {
    let directory = TemporaryDirectory()
    let facts = try await self.page(
      "Recordings/preferences.actionlog", in: directory, browser: ["--step", "3"])
    #expect(facts.errors == [])
    #expect(facts.sharedMarks == "1")
    #expect(facts.sharedRows == [3])
    #expect(facts.initial?.step == 3)
    #expect(
      facts.initial?.shared
        == [
          #"Changed outside the app: .fileStorage(reading-preferences.json) = {"fontSize":20,"theme":"sepia"}"#
        ])
    let other = try await self.page("Recordings/counter.actionlog", in: directory)
    #expect(other.sharedMarks == "0")
    #expect(other.sharedRows == [])
  }

  @Test func aChildsRecordingShowsTheAppsWritesBeforeTheirStep() async throws {
    let directory = TemporaryDirectory()
    let child = directory.file("grace.actionlog")
    let made = try await run(
      "replay",
      [
        "export", "Recordings/contacts.actionlog", "--scope", "path[id: 1].detail", "-o",
        child.path,
      ], in: Self.root)
    try #require(made.status == 0, "\(made.all)")
    let facts = try await self.page(child.path, in: directory, browser: ["--step", "9"])
    #expect(facts.errors == [])
    #expect(facts.initial?.step == 9)
    #expect(
      facts.initial?.shared == [#"/contact/name = "Grace Hopper""#, #"/name = "Grace Hopper""#])
    // The state after the step holds what the app wrote before it.
    #expect(facts.bodyText?.contains("Grace Hopper") == true)
  }

  @Test @MainActor func aFailingTestsPageOpensAtItsFailedAssertion() async throws {
    let directory = TemporaryDirectory()
    let recordings = directory.url.appendingPathComponent("runs")
    _ = await recordedIssues {
      let store = TestStore(
        initialState: PageCounter.State(), recording: .onFailure(in: recordings)
      ) {
        PageCounter()
      }
      await store.send(.incrementTapped) { $0.count = 1 }
      await store.send(.incrementTapped) { $0.count = 3 }
      await store.send(.incrementTapped) { $0.count = 3 }
    }
    let file = try #require(
      FileManager.default.contentsOfDirectory(atPath: recordings.path).first)
    let facts = try await self.page(recordings.appendingPathComponent(file).path, in: directory)
    // The header says how many assertions failed and where; the page opens at the first.
    #expect(facts.failures == "A failing test's run: 1 failed assertion at step 2.")
    #expect(facts.failedRows == [2])
    #expect(facts.initial?.step == 2)
    // The failure's diff keeps its lines and colours, as the state's changes beside it do.
    let failure = try #require(facts.initial?.failure)
    #expect(failure.first?[1].hasPrefix("A state change does not match expectation") == true)
    #expect(failure.contains { $0[0] == "-" && $0[1].contains("count: 3") }, "\(failure)")
    #expect(failure.contains { $0[0] == "+" && $0[1].contains("count: 2") }, "\(failure)")
    #expect(
      facts.initial?.diff.contains {
        $0[0] == "+" && $0[1].contains("count") && $0[1].hasSuffix("2")
      }
        == true, "\(facts.initial?.diff ?? [])")
    #expect(facts.errors == [])
  }

  @Test func aVerifiedPageHighlightsTheFirstStepThatDiffers() async throws {
    let directory = TemporaryDirectory()
    let differs = try await self.page(
      "Recordings/bug-reports/songs-heart-bug-as-reported.actionlog", in: directory,
      arguments: ["--verify"])
    #expect(differs.verdict?.class == "differs")
    #expect(differs.verdict?.text.contains("differs from the recording at step 8") == true)
    #expect(differs.divergentRows == [8])
    // The page opens at the step, with today's diff.
    #expect(differs.initial?.step == 8)
    #expect(differs.initial?.verdictText?.contains("-         isFavorite: true,") == true)
    #expect(differs.initial?.verdictText?.contains("+         isFavorite: false,") == true)
    #expect(differs.errors == [])

    let agrees = try await self.page(
      "Recordings/songs.actionlog", in: directory, arguments: ["--verify"])
    #expect(agrees.verdict?.class == "agrees")
    #expect(agrees.verdict?.text == "Today's reducer reproduces every step of 73 actions.")
    #expect(agrees.divergentRows == [])
  }

  @Test func aLongRecordingIsShownFromTheStateBeforeItsLastActions() async throws {
    let directory = TemporaryDirectory()
    let facts = try await self.page(
      "Recordings/todos.actionlog", in: directory, arguments: ["--max-actions", "50"],
      browser: ["--search", "milk"])
    #expect(facts.actions == 50)
    #expect(
      facts.window
        == """
        This page shows the last 50 actions (steps 90–139 of 139), from the state after step 89: \
        the recording is longer than a page holds.
        """)
    #expect(facts.home?.step == 90)
    #expect(facts.down2?.step == 92)
    #expect(facts.errors == [])
  }

  @Test func theDataHoldsNoRedactedValue() async throws {
    let directory = TemporaryDirectory()
    let dump = directory.file("data.json")
    let facts = try await self.page(
      "Recordings/todos-redacted.actionlog", in: directory,
      browser: ["--dump-data", dump.path])
    #expect(facts.ready == "true")
    let data = try String(contentsOf: dump, encoding: .utf8)
    #expect(data.contains("‹redacted"))
    // The same session, recorded without redaction, holds the descriptions typed.
    let plain = try Recording(
      contentsOf: recordingsFolder.appendingPathComponent("todos.actionlog"))
    var states = RecordedStates(plain)
    var descriptions: Set<String> = []
    for seq in 0...plain.count {
      guard case .array(let todos)? = Self.lookup(try states.state(after: seq), ["todos"]) else {
        continue
      }
      for todo in todos {
        if case .string(let text)? = Self.lookup(todo, ["description"]) {
          descriptions.insert(text)
        }
      }
    }
    #expect(descriptions.count > 3)
    let shown = descriptions.filter { !$0.isEmpty && data.contains("\"\($0)\"") }
    #expect(shown.isEmpty, "the page holds what was typed: \(shown.sorted())")
    let milk = data.contains("Buy milk")
    #expect(!milk)
  }

  /// A state with a long array opens it 500 elements at a time, for a feature this `replay`
  /// does not link, from the recording alone.
  @Test func aLongArrayOpensAFewHundredElementsAtATime() async throws {
    let directory = TemporaryDirectory()
    let items = (0..<1_200).map(String.init).joined(separator: ",")
    var file = framedLine(
      #"{"actionType":"Big.Action","checkpointInterval":100,"feature":"big","format":1,"initialState":{"items":[\#(items)]},"kind":"header","metadata":{},"startedAt":"2026-11-22T02:53:20.000Z","stateType":"Big.State","updates":1}"#
    )
    file += framedLine(
      #"{"kind":"action","seq":1,"source":"send","time":1000000,"update":[{"op":"replace","path":"/items/0","value":-1}],"value":{"tapped":{}}}"#
    )
    file += framedLine(#"{"kind":"end","seq":1,"time":1000000}"#)
    let recording = directory.file("big.actionlog")
    try file.write(to: recording)

    struct ShowMore: Decodable {
      struct Step: Decodable, Equatable {
        var children: Int
        var button: String?
      }
      var showMore: [Step]
      var errors: [String]
    }
    let page = directory.file("big.html")
    let made = try await run("replay", ["html", recording.path, "-o", page.path], in: Self.root)
    try #require(made.status == 0, "\(made.all)")
    let driven = try await run(
      "python3", [Self.script.path, page.path, "--step", "1", "--show-more", "--timing-only"],
      in: directory.url, isProduct: false)
    let facts = try JSONDecoder().decode(ShowMore.self, from: Data(driven.output.utf8))
    #expect(
      facts.showMore == [
        .init(children: 500, button: "Show 500 more of 1200"),
        .init(children: 1_000, button: "Show 200 more of 1200"),
        .init(children: 1_200, button: nil),
      ])
    #expect(facts.errors == [])
  }

  @Test func exportWritesThePageOfWhatItExported() async throws {
    let directory = TemporaryDirectory()
    let exported = try await run(
      "replay",
      [
        "export", "Recordings/todos.actionlog", "-o", directory.file("bug.actionlog").path,
        "--redact-state", "todos[*].description", "--last", "30", "--html",
      ], in: Self.root)
    #expect(exported.status == 0, "\(exported.all)")
    #expect(exported.output.contains("bug.html"), "\(exported.output)")
    let driven = try await run(
      "python3",
      [
        Self.script.path, directory.file("bug.html").path, "--dump-data",
        directory.file("d.json").path,
      ],
      in: directory.url, isProduct: false)
    let facts = try JSONDecoder().decode(Facts.self, from: Data(driven.output.utf8))
    #expect(facts.actions == 30)
    #expect(
      !(try String(contentsOf: directory.file("d.json"), encoding: .utf8)).contains("Buy milk"))
  }
}

/// Whether this machine can run the page tests, and what they run on.
enum HeadlessBrowser {
  /// Why the browser cannot run here, or `nil` when it can.
  static let problem: String? = {
    let chromium = ["chromium", "chromium-browser", "google-chrome"].contains { name in
      (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
      }
    }
    guard chromium else {
      return
        "Chromium is missing (apt-get install -y chromium, or run Tools/test): the HTML page tests did not run"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import playwright.sync_api"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "python3 is missing" }
    process.waitUntilExit()
    return process.terminationStatus == 0
      ? nil
      : "Playwright for Python is missing (python3 -m pip install playwright, or run Tools/test): the HTML page tests did not run"
  }()

  static let bundled: [String] = {
    let folder = recordingsFolder
    let files =
      FileManager.default.enumerator(atPath: folder.path)?
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".actionlog") }.sorted() ?? []
    return files
  }()

}

extension HTMLPageTests {
  /// The value at `path` in `value`, or `nil`.
  static func lookup(_ value: JSONValue, _ path: [String]) -> JSONValue? {
    var node = value
    for token in path {
      switch node {
      case .object(let object):
        guard let next = object[token] else { return nil }
        node = next
      case .array(let array):
        guard let index = Int(token), array.indices.contains(index) else { return nil }
        node = array[index]
      default:
        return nil
      }
    }
    return node
  }
}

extension ProcessResult {
  var all: String { self.output + self.errors }
}

/// A counter whose test fails at its second step: what `aFailingTestsPageOpensAtItsFailedAssertion`
/// records.
@Reducer
struct PageCounter {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action { case incrementTapped }
  var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.count += 1
      return .none
    }
  }
}
