import Foundation

/// `replay check --junit FILE`: the verdicts as a JUnit XML report, the format every CI system
/// reads (Jenkins, GitLab, GitHub's test reporters, Buildkite, CircleCI).
///
/// One test suite, `replay check`; one test case per recording, named by its file and classed by
/// its folder. A recording the reducer no longer reproduces
/// (`differs`), one that needs a migration or that this `replay` cannot re-run is a `<failure>`;
/// one whose replay crashed or timed out, or that cannot be read, an `<error>`: JUnit's failed
/// assertion and unexpected end. The verdict's whole message (the step, the action and the diff)
/// is the element's text, its first line the `message`. Recordings that Ctrl-C left unchecked
/// are `<skipped>`.
struct JUnitReport {
  let verdicts: [Verdict]
  let unchecked: [ReplayCommand.Check.File]
  /// How long the whole check took.
  let seconds: Double

  /// The report's text.
  var text: String {
    let failures = self.verdicts.filter { Self.element(for: $0.kind) == "failure" }.count
    let errors = self.verdicts.filter { Self.element(for: $0.kind) == "error" }.count
    let tests = self.verdicts.count + self.unchecked.count
    let time = Self.time(self.seconds)
    let timestamp = ISO8601DateFormatter.string(
      from: Date(), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: [
        .withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate,
      ]
    )
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="replay check" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" time="\#(time)">"#,
      #"  <testsuite name="replay check" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" skipped="\#(self.unchecked.count)" time="\#(time)" timestamp="\#(timestamp)" hostname="\#(Self.escaped(ProcessInfo.processInfo.hostName))">"#,
    ]
    for verdict in self.verdicts {
      let opening = Self.testCase(verdict.file, seconds: verdict.seconds)
      guard let element = Self.element(for: verdict.kind) else {
        lines.append(opening + "/>")
        continue
      }
      let first =
        verdict.message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
      lines.append(opening + ">")
      lines.append(
        #"      <\#(element) message="\#(Self.escaped(first))" type="\#(verdict.kind.rawValue)">"#
          + Self.escaped(verdict.message, inText: true) + "</\(element)>")
      lines.append("    </testcase>")
    }
    for file in self.unchecked {
      lines.append(Self.testCase(file, seconds: 0) + ">")
      lines.append(#"      <skipped message="not checked: the check was interrupted"/>"#)
      lines.append("    </testcase>")
    }
    lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writes the report to `path`, whole or not at all.
  func write(to path: String) throws {
    do {
      try Data(self.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw CommandFailure(
        "the JUnit report cannot be written to \(path): \(error.localizedDescription)", code: 2)
    }
  }

  /// The element a verdict is reported as; `nil` for a pass.
  static func element(for kind: Verdict.Kind) -> String? {
    switch kind {
    case .pass, .interrupted: nil
    case .differs, .needsMigration, .cannotReplay: "failure"
    case .crashed, .timedOut, .unreadable: "error"
    }
  }

  /// A test case's opening tag: named by the recording's file, classed by its folder with dots
  /// for slashes (`bug-reports.ios`), as CI systems group classes in packages.
  private static func testCase(_ file: ReplayCommand.Check.File, seconds: Double) -> String {
    var folder = (file.shown as NSString).deletingLastPathComponent
    while folder.hasPrefix("./") { folder.removeFirst(2) }
    if folder == "." { folder = "" }
    let name = (file.shown as NSString).lastPathComponent
    let classname = folder.isEmpty ? "recordings" : folder.replacingOccurrences(of: "/", with: ".")
    return
      #"    <testcase name="\#(escaped(name))" classname="\#(escaped(classname))" time="\#(time(seconds))""#
  }

  /// Seconds with three decimals and no exponent, as JUnit's schema writes a time.
  static func time(_ seconds: Double) -> String {
    String(format: "%.3f", max(0, seconds))
  }

  /// `text` with XML's special characters escaped, and the characters XML 1.0 cannot hold at
  /// all (control characters but tab and line breaks, as a child's output may hold) replaced.
  static func escaped(_ text: String, inText: Bool = false) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"" where !inText: escaped += "&quot;"
      case "\n" where !inText: escaped += "&#10;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
        escaped += "\u{FFFD}"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }
}
