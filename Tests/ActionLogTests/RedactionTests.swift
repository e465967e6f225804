@testable import ActionLog
import Foundation
import TestSupport
import Testing

@Suite struct RedactionTests {
  @Test(arguments: [
    ("", "The redaction path \"\" is not valid at character 1: the path is empty."),
    ("user.", "The redaction path \"user.\" is not valid at character 6: a name is missing."),
    (".user", "The redaction path \".user\" is not valid at character 1: a name is missing."),
    ("a..b", "The redaction path \"a..b\" is not valid at character 3: a name is missing."),
    ("todos[", "The redaction path \"todos[\" is not valid at character 6: \"[\" is not closed."),
    (
      "todos[x]",
      "The redaction path \"todos[x]\" is not valid at character 7: "
        + "an index is a number or *, not \"x\"."
    ),
    (
      "todos[0]title",
      "The redaction path \"todos[0]title\" is not valid at character 9: "
        + "a \".\" or \"[\" must come before a name."
    ),
    ("a]b", "The redaction path \"a]b\" is not valid at character 2: \"]\" has no \"[\"."),
  ])
  func malformedPathsSayWhereAndWhy(_ path: String, _ message: String) {
    #expect(throws: RedactionPathError.self) { try RedactionPath(path) }
    do {
      _ = try RedactionPath(path)
    } catch {
      #expect("\(error)" == message + " Write paths as todos[*].title, user.email or **.password.")
    }
  }

  @Test func pathsMatchWhatTheySay() throws {
    let json = #"""
      {"a":{"b":"x","c":[{"d":"y","e":7},{"d":"z","e":8}]},\#
      "f":{"g":{"password":"p"},"password":"q"},"h":"k"}
      """#
    func redacted(_ paths: String...) throws -> String {
      var placeholders = RedactionPlaceholders()
      let output = try JSONRewriter.redact(
        Array(json.utf8), paths: paths.map { try RedactionPath($0) }, placeholders: &placeholders
      )
      return String(decoding: output, as: UTF8.self)
    }
    #expect(
      try redacted("a.b")
        == #"{"a":{"b":"‹redacted 1›","c":[{"d":"y","e":7},{"d":"z","e":8}]},"#
        + #""f":{"g":{"password":"p"},"password":"q"},"h":"k"}"#
    )
    #expect(
      try redacted("a.c[*].d")
        == #"{"a":{"b":"x","c":[{"d":"‹redacted 1›","e":7},{"d":"‹redacted 2›","e":8}]},"#
        + #""f":{"g":{"password":"p"},"password":"q"},"h":"k"}"#
    )
    #expect(
      try redacted("a.c[1]")
        == #"{"a":{"b":"x","c":[{"d":"y","e":7},{"d":"‹redacted 1›","e":2}]},"#
        + #""f":{"g":{"password":"p"},"password":"q"},"h":"k"}"#
    )
    #expect(
      try redacted("**.password")
        == #"{"a":{"b":"x","c":[{"d":"y","e":7},{"d":"z","e":8}]},"#
        + #""f":{"g":{"password":"‹redacted 1›"},"password":"‹redacted 2›"},"h":"k"}"#
    )
    #expect(
      try redacted("f.*", "h")
        == #"{"a":{"b":"x","c":[{"d":"y","e":7},{"d":"z","e":8}]},"#
        + #""f":{"g":{"password":"‹redacted 1›"},"password":"‹redacted 2›"},"h":"‹redacted 3›"}"#
    )
    #expect(try redacted("a.nothing", "c") == json.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  @Test func equalValuesGetEqualPlaceholdersAndTheRestIsKept() throws {
    let json =
      #"{"list":["same","other","same","",true,null,12.50,12.50,"‹redacted 9›"],"kept":"same"}"#
    var placeholders = RedactionPlaceholders()
    let output = try JSONRewriter.redact(
      Array(json.utf8), paths: [try RedactionPath("list")], placeholders: &placeholders
    )
    #expect(
      String(decoding: output, as: UTF8.self)
        == #"{"list":["‹redacted 1›","‹redacted 2›","‹redacted 1›","",true,null,3,3,"#
        + #""‹redacted 9›"],"kept":"same"}"#
    )
    // A later payload of the same recording keeps the numbering.
    let next = try JSONRewriter.redact(
      Array(#"{"list":["other","new"]}"#.utf8), paths: [try RedactionPath("list")],
      placeholders: &placeholders
    )
    #expect(String(decoding: next, as: UTF8.self) == #"{"list":["‹redacted 2›","‹redacted 4›"]}"#)
  }

  @Test func keysWithEscapesAndWhitespaceAreWalked() throws {
    let json = " { \"we\\\"ird\" : [ \"a\\\"b\" , 1e3 ] , \"\\u00e9\" : \"x\" } "
    var placeholders = RedactionPlaceholders()
    let output = try JSONRewriter.redact(
      Array(json.utf8), paths: [try RedactionPath("we\"ird"), try RedactionPath("é")],
      placeholders: &placeholders
    )
    #expect(
      String(decoding: output, as: UTF8.self)
        == " { \"we\\\"ird\" : [ \"‹redacted 1›\" , 2 ] , \"\\u00e9\" : \"‹redacted 3›\" } "
    )
  }

  @Test(arguments: [#"{"a":"#, #"{"a":"x"#, #"{"a" "x"}"#, #"{"a":x}"#, #"["a",]"#, #"{"a":1} 2"#])
  func malformedJSONIsAnErrorNotACrash(_ json: String) {
    var placeholders = RedactionPlaceholders()
    #expect(throws: JSONRewriterError.self) {
      try JSONRewriter.redact(
        Array(json.utf8), paths: [try RedactionPath("a")], placeholders: &placeholders)
    }
  }

  @Test func theWriterRedactsTheHeaderActionsAndCheckpointsAndKeepsTheManifest() throws {
    struct Login: Codable, Sendable, Equatable {
      var user: String
      var password: String
      var pin: Int
    }
    let directory = TemporaryDirectory()
    let url = directory.file()
    let redactions = try Redactions(state: ["password", "pin"], actions: ["**.password", "pin"])
    let writer = try LogWriter(
      url: url,
      header: LogHeader(
        feature: "login", stateType: "Login", actionType: "Login",
        startedAt: Date(timeIntervalSince1970: 0),
        checkpointInterval: 1, redactions: redactions
      ),
      initialState: Login(user: "ada", password: "hunter2", pin: 1234)
    )
    writer.append(
      .action(
        seq: 1, time: .seconds(1), origin: .send,
        value: Login(user: "ada", password: "hunter2", pin: 1234), captured: CapturedValues())
    )
    writer.append(.checkpoint(seq: 1, state: Login(user: "ada", password: "s3cret!", pin: 4321)))
    try writer.close()
    #expect(writer.unmatchedRedactions == .none)

    let bytes = try Data(contentsOf: url)
    for secret in ["hunter2", "s3cret!", "1234", "4321"] {
      #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the file")
    }
    let recording = try Recording(contentsOf: url)
    #expect(recording.header.redactions == redactions)
    #expect(recording.ending == .clean)
    #expect(
      try recording.initialState(as: Login.self)
        == Login(user: "ada", password: "‹redacted 1›", pin: 2))
    #expect(
      try recording.action(1, as: Login.self).action
        == Login(user: "ada", password: "‹redacted 1›", pin: 2))
    #expect(
      try recording.checkpoint(after: 1, as: Login.self)
        == Login(user: "ada", password: "‹redacted 3›", pin: 4))
  }

  @Test func pathsThatMatchNothingAreNotedAndReported() throws {
    let directory = TemporaryDirectory()
    let url = directory.file()
    let writer = try LogWriter(
      url: url,
      header: LogHeader(
        feature: "f", stateType: "S", actionType: "A", startedAt: Date(timeIntervalSince1970: 0),
        checkpointInterval: 1,
        redactions: try Redactions(state: ["pasword"], actions: ["**.token"])
      ),
      initialState: ["password": "x"]
    )
    #expect(writer.unmatchedRedactions == .none, "not known before close")
    try writer.close()
    #expect(writer.unmatchedRedactions.state.map(\.description) == ["pasword"])
    #expect(writer.unmatchedRedactions.actions.map(\.description) == ["**.token"])
    let recording = try Recording(contentsOf: url)
    #expect(
      recording.warnings.map(\.description) == [
        "note after action 0: the state redaction path pasword matched no value",
        "note after action 0: the action redaction path **.token matched no value",
      ]
    )
  }
}

@Suite struct RedactionPathMatchingTests {
  @Test func anyDepthMatchesNoStepOrMany() throws {
    let path = try RedactionPath("a.**.c")
    #expect(path.matchesPrefix(of: [.key("a"), .key("c")]))
    #expect(path.matchesPrefix(of: [.key("a"), .key("b"), .index(2), .key("c"), .key("d")]))
    #expect(!path.matchesPrefix(of: [.key("a"), .key("b")]))
    #expect(!path.matchesPrefix(of: [.key("b"), .key("c")]))
    let title = try RedactionPath("todos[*].title")
    #expect(title.matchesPrefix(of: [.key("todos"), .index(3), .key("title")]))
    #expect(!(try RedactionPath("todos[1]").matchesPrefix(of: [.key("todos"), .index(3)])))
  }

  /// Tried one by one, forty `**` against two hundred steps are more ways than can be counted;
  /// kept as a set of positions, they are forty times two hundred.
  @Test func manyAnyDepthSegmentsAreMatchedAtOnce() throws {
    let path = try RedactionPath(
      Array(repeating: "**", count: 40).joined(separator: ".") + ".secret"
    )
    let deep = [JSONPathStep](repeating: .key("a"), count: 200)
    #expect(!path.matchesPrefix(of: deep))
    #expect(path.matchesPrefix(of: deep + [.key("secret")]))
  }
}
