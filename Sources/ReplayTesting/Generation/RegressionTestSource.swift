import ActionLog
import Foundation

/// The Swift source of a regression test that replays a saved recording with `assertReplay`:
/// what `replay export-test` writes.
///
/// ```swift
/// let test = try RegressionTestSource(
///   name: "checkout-crash", header: recording.header, recordingPath: ["..", "x.actionlog"]
/// )
/// try Data(test.text.utf8).write(to: folder.appendingPathComponent(test.fileName))
/// ```
public struct RegressionTestSource: Sendable, Equatable {
  /// The recording's name, and the test's: letters, digits, `-` and `_`.
  public let name: String
  /// The feature the recording was made with.
  public let feature: String
  /// The module that defines the feature, imported by the test.
  public let module: String
  /// The reducer to replay with, as Swift: `Todos()`.
  public let reducer: String
  /// The recording's path from the test file's folder, one component each.
  public let recordingPath: [String]
  /// Where the recorded actions were sent from, for a comment above the test: each source line
  /// as recorded (`Module/File.swift:80`) with the steps it sent, the first sender first.
  public var callSites: [CallSiteSteps] = []

  /// A source line the recorded actions were sent from, and the steps it sent.
  public struct CallSiteSteps: Equatable, Sendable {
    /// `Module/File.swift:80`.
    public var site: String
    /// The steps, in order.
    public var steps: [Int]

    /// The steps `site` sent.
    public init(site: String, steps: [Int]) {
      self.site = site
      self.steps = steps
    }
  }

  /// A test for a recording with this header.
  ///
  /// - Parameters:
  ///   - reducer: Swift that makes the reducer; by default `TYPE()`, from the header's state
  ///     type (`MyFeature.Todos.State` gives `Todos()` in module `MyFeature`).
  /// - Throws: ``RegressionTestSourceError`` when the name has other characters than letters,
  ///   digits, `-` and `_`, or when the module cannot be told from the state type.
  public init(
    name: String, header: LogHeader, reducer: String? = nil, recordingPath: [String]
  ) throws(RegressionTestSourceError) {
    guard !name.isEmpty,
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    else { throw .invalidName(name) }
    let parts = header.stateType.split(separator: ".").map(String.init)
    guard parts.count >= 3 else { throw .unknownModule(stateType: header.stateType) }
    self.name = name
    self.feature = header.feature
    self.module = parts[0]
    self.reducer = reducer ?? parts[1..<(parts.count - 1)].joined(separator: ".") + "()"
    self.recordingPath = recordingPath
  }

  /// The test's type-like name: `checkout-crash` gives `CheckoutCrash`.
  public var typeName: String {
    self.name.split(whereSeparator: { $0 == "-" || $0 == "_" })
      .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// The test file's name: `CheckoutCrashReplayTests.swift`.
  public var fileName: String { "\(self.typeName)ReplayTests.swift" }

  /// The path of `file` from `folder`, one component each: `["..", "..", "Recordings", "x"]`.
  public static func relativePath(from folder: URL, to file: URL) -> [String] {
    let from = folder.standardizedFileURL.pathComponents
    let to = file.standardizedFileURL.pathComponents
    let shared = zip(from, to).prefix { $0 == $1 }.count
    return Array(repeating: "..", count: from.count - shared) + to.dropFirst(shared)
  }

  /// The test file's text.
  public var text: String {
    let type = self.typeName
    let function = type.prefix(1).lowercased() + type.dropFirst()
    let path = self.recordingPath.map { "\"\($0)\"" }.joined(separator: ", ")
    var sites = ""
    if !self.callSites.isEmpty {
      let width = self.callSites.map(\.site.count).max() ?? 0
      sites = """
        //
        // Where the recorded actions came from: the `Store.send`, or the effect that fed one back
        // (as recorded; the code may have moved since).

        """
      for (site, steps) in self.callSites.map({ ($0.site, $0.steps) }) {
        let shown = steps.prefix(6).map(String.init).joined(separator: ", ")
        let more = steps.count > 6 ? " and \(steps.count - 6) more" : ""
        let padded = site.padding(toLength: width, withPad: " ", startingAt: 0)
        sites += "//   \(padded)  step\(steps.count == 1 ? "" : "s") \(shown)\(more)\n"
      }
    }
    return """
      // A regression test made by `replay export-test` from the recording \(name).actionlog.
      // It fails, with the first differing step and the diff, when the reducer no longer does
      // what the recording shows. Its target depends on ReplayTesting and \(module).
      \(sites)
      import \(module)
      import Foundation
      import ReplayTesting
      import Testing

      @Test func \(function)ReplaysAsRecorded() throws {
        let recording = [\(path)].reduce(
          URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        ) {
          $0.appendingPathComponent($1)
        }
        try assertReplay(recording, feature: "\(feature)") {
          \(reducer)
        }
      }

      """
  }
}

extension RegressionTestSource {
  /// Where `recording`'s actions were sent from, as ``callSites`` holds it: empty for a
  /// recording made before call sites were recorded.
  public static func callSites(of recording: Recording) -> [CallSiteSteps] {
    guard recording.hasCallSites, recording.count > 0 else { return [] }
    var order: [String] = []
    var steps: [String: [Int]] = [:]
    for step in 1...recording.count {
      guard let site = recording.site(ofAction: step)?.qualifiedDescription else { continue }
      if steps[site] == nil { order.append(site) }
      steps[site, default: []].append(step)
    }
    return order.map { CallSiteSteps(site: $0, steps: steps[$0] ?? []) }
  }
}

/// Why a regression test cannot be written for a recording.
public enum RegressionTestSourceError: Error, Equatable, CustomStringConvertible {
  /// The name has characters other than letters, digits, `-` and `_`.
  case invalidName(String)
  /// The state type has no module and type to tell the reducer from.
  case unknownModule(stateType: String)

  public var description: String {
    switch self {
    case .invalidName(let name):
      "a test's name takes letters, digits, - and _: \"\(name)\" has others."
    case .unknownModule(let stateType):
      "cannot tell the module and reducer from the state type \(stateType): name the reducer."
    }
  }
}
