import ActionLog
import Foundation

/// A recording as one self-contained HTML page: its header, a time axis of its actions, a list
/// with search and a filter by case, and for each step the action, its effects, the state diff
/// and the state as a tree. It needs no network and no Swift: every step's state comes from the
/// recording's step updates, so a feature this program does not link shows as much as one it
/// does.
///
/// The records travel in the page as written (redacted values stay redacted), gzip-compressed
/// and unpacked by the browser's own `DecompressionStream`; the page renders only the rows on
/// screen, so a 100,000-action recording opens at once.
public enum HTMLReport {
  /// What today's reducer made of the recording, for the page to show.
  public struct Verdict: Sendable, Equatable {
    /// The first step whose replay differs from the recording; `nil` when every step agrees.
    public var step: Int?
    /// The verdict as `replay verify` words it, the diff included.
    public var text: String

    /// Creates a verdict.
    public init(step: Int?, text: String) {
      self.step = step
      self.text = text
    }
  }

  /// How the page is made.
  public struct Options: Sendable {
    /// The most actions a page holds; a longer recording is shown from the state before its
    /// last actions, and the page says so. 250,000 by default.
    public var maximumActions: Int
    /// The file's name, shown in the page's title.
    public var fileName: String?
    /// The verdict of a replay, highlighted in the page.
    public var verdict: Verdict?
    /// Each action as Swift prints it (`Todos.Action.todos(.element(id: …, action: …))`), by
    /// sequence number: what the page shows for an action when its feature's types are known.
    /// Without it, the page writes actions in Swift from their JSON alone.
    public var actionText: (@Sendable (Int) -> String?)?

    /// Creates options.
    public init(
      maximumActions: Int = 250_000, fileName: String? = nil, verdict: Verdict? = nil,
      actionText: (@Sendable (Int) -> String?)? = nil
    ) {
      self.maximumActions = max(1, maximumActions)
      self.fileName = fileName
      self.verdict = verdict
      self.actionText = actionText
    }
  }

  /// What a page holds.
  public struct Summary: Sendable, Equatable {
    /// The actions in the page.
    public var actions: Int
    /// The actions of the recording left out before them (0 when the page shows them all).
    public var leftOut: Int
    /// The page's size in bytes.
    public var bytes: Int
    /// The size of the records it carries, before compression.
    public var recordBytes: Int
  }

  /// Writes the page of `recording` to `url`, replacing a file there.
  @discardableResult
  public static func write(
    _ recording: Recording, to url: URL, options: Options = Options()
  ) throws -> Summary {
    let (page, summary) = try self.render(recording, options: options)
    do {
      try Data(page).write(to: url, options: .atomic)
    } catch {
      let folder = url.deletingLastPathComponent().path
      throw WriteFailure(
        description: FileManager.default.fileExists(atPath: folder)
          ? "Cannot write the page \(url.path): \(error.localizedDescription) Check that \(folder) is writable and has room."
          : "Cannot write the page \(url.path): there is no folder \(folder).")
    }
    return summary
  }

  /// A page that could not be written, and why.
  public struct WriteFailure: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    public let description: String
  }

  /// The page of `recording`, and what it holds.
  public static func render(
    _ recording: Recording, options: Options = Options()
  ) throws -> (page: [UInt8], summary: Summary) {
    let (records, leftOut) = try self.records(of: recording, options: options)
    let compressed: [UInt8]
    do {
      compressed = try Gzip.compress(records)
    } catch {
      throw ActionLogError.writeFailed(path: options.fileName ?? "the page", reason: "\(error)")
    }
    let title = [options.fileName, "\(recording.header.feature) recording"]
      .compactMap { $0 }.joined(separator: " · ")
    // NB: Filled once: what a value holds (a feature named "/*SCRIPT*/") is never looked at
    // again for a marker.
    let page = self.filling(
      Array(PackageResources.viewer_html),
      [
        ("<!--TITLE-->", Array(self.escapingHTML(title).utf8)),
        ("/*STYLE*/", PackageResources.viewer_css),
        ("<!--DATA-->", Array(Data(compressed).base64EncodedString().utf8)),
        ("/*SCRIPT*/", PackageResources.viewer_js),
      ])
    return (
      page,
      Summary(
        actions: recording.count - leftOut, leftOut: leftOut, bytes: page.count,
        recordBytes: records.count)
    )
  }

  /// The page's data, as JSON: the header and the records as written, the state the page
  /// starts from, notes, the ending and the verdict.
  static func records(
    of recording: Recording, options: Options
  ) throws -> (json: [UInt8], leftOut: Int) {
    var leftOut = max(0, recording.count - options.maximumActions)
    var startState: JSONValue?
    if leftOut > 0 {
      if recording.hasEveryState {
        startState = try recording.stateJSON(after: leftOut)
      } else {
        // NB: Without step updates, a state is known at checkpoints only: start at one.
        leftOut = recording.checkpoint(atOrBefore: leftOut)
        if leftOut > 0 {
          startState = try recording.stateJSON(after: leftOut)
        }
      }
    }
    var output: [UInt8] = []
    output.reserveCapacity(recording.byteCount + 4_096)
    output += Array(#"{"header":"#.utf8)
    output += recording.headerPayload
    var info: [String: JSONValue] = [
      "count": .integer(Int64(recording.count)),
      "leftOut": .integer(Int64(leftOut)),
      "ending": .string(recording.ending.description),
      "complete": .bool(recording.ending == .clean),
      "duration": .integer(Int64(self.nanoseconds(recording.duration))),
      "firstAction": .integer(Int64(recording.firstAction)),
      "bytes": .integer(Int64(recording.byteCount)),
    ]
    if let fileName = options.fileName { info["file"] = .string(fileName) }
    if recording.hasCallSites {
      // The source lines, `Module/File.swift:80`, by number; and each action's number, worked
      // out here since a record leaves out the number of the one before it.
      info["sites"] = .object(
        Dictionary(
          uniqueKeysWithValues: recording.callSitesByNumber.map {
            (String($0.key), JSONValue.string($0.value.qualifiedDescription))
          }))
      if leftOut < recording.count {
        info["sitesOfActions"] = .array(
          ((leftOut + 1)...recording.count).map {
            let number = recording.siteNumber(ofAction: $0)
            return number > 0 ? .integer(Int64(number)) : .null
          })
      }
    }
    if let startState { info["startState"] = startState }
    if let verdict = options.verdict {
      info["verdict"] = .object([
        "step": verdict.step.map { .integer(Int64($0)) } ?? .null,
        "text": .string(verdict.text),
      ])
    }
    if let actionText = options.actionText, leftOut < recording.count {
      // NB: Aligned with the actions; `null` where the type does not print it.
      info["actionTexts"] = .array(
        ((leftOut + 1)...recording.count).map { actionText($0).map(JSONValue.string) ?? .null })
    }
    output += Array(#","info":"#.utf8)
    JSONValue.object(info).write(into: &output)

    output += Array(#","actions":["#.utf8)
    if leftOut < recording.count {
      for seq in (leftOut + 1)...recording.count {
        if seq > leftOut + 1 { output.append(UInt8(ascii: ",")) }
        output += try recording.payload(ofAction: seq)
      }
    }
    output += Array(#"],"checkpoints":["#.utf8)
    var first = true
    for seq in recording.checkpoints where seq > leftOut {
      guard let payload = recording.payload(ofCheckpointAfter: seq) else { continue }
      if !first { output.append(UInt8(ascii: ",")) }
      first = false
      output += payload
    }
    output += Array(#"],"notes":"#.utf8)
    var notes: [JSONValue] = []
    for case let .note(seq, text) in recording.warnings where seq > leftOut {
      notes.append(.array([.integer(Int64(seq)), .string(text)]))
    }
    JSONValue.array(notes).write(into: &output)
    // The changes of shared values the recorded reducers did not make, by the step they came
    // before: [step, name, source, value].
    output += Array(#","shared":"#.utf8)
    var shared: [JSONValue] = []
    if recording.hasSharedRecords {
      for record in try recording.sharedRecords() where record.seq >= leftOut {
        guard case let .value(name, source, value) = record.change,
          record.seq < recording.count
        else { continue }
        shared.append(
          .array([
            .integer(Int64(record.seq + 1)), .string(name), .string(source.rawValue), value,
          ]))
      }
    }
    JSONValue.array(shared).write(into: &output)
    // In a child's recording cut from an app's, what the rest of the app wrote into the child's
    // state, by the step it came before: [step, operations].
    var writes: [JSONValue] = []
    for (seq, updates) in try recording.stateWrites() where seq >= leftOut && seq < recording.count
    {
      for update in updates {
        let operations = try JSONValue.parse(CompactJSONCodec().encode(update))
        writes.append(.array([.integer(Int64(seq + 1)), operations]))
      }
    }
    if !writes.isEmpty {
      output += Array(#","writes":"#.utf8)
      JSONValue.array(writes).write(into: &output)
    }
    output += Array("}".utf8)
    return (output, leftOut)
  }

  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  static func escapingHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  /// `template` with each marker replaced by its bytes, in one pass: each marker's place is
  /// found in the template alone, and the bytes are written there, never searched again.
  static func filling(_ template: [UInt8], _ values: [(marker: String, bytes: [UInt8])]) -> [UInt8]
  {
    let places = values.compactMap { value -> (start: Int, end: Int, bytes: [UInt8])? in
      let needle = Array(value.marker.utf8)
      guard
        let start = template.indices.first(where: { index in
          index + needle.count <= template.count
            && template[index..<(index + needle.count)].elementsEqual(needle)
        })
      else { return nil }
      return (start, start + needle.count, value.bytes)
    }.sorted { $0.start < $1.start }
    var result: [UInt8] = []
    result.reserveCapacity(template.count + places.reduce(0) { $0 + $1.bytes.count })
    var position = 0
    for place in places where place.start >= position {
      result += template[position..<place.start]
      result += place.bytes
      position = place.end
    }
    result += template[position...]
    return result
  }
}
