import ActionLog
import CustomDump
import Foundation
import TimeTravel

/// What each `variablesReference` stands for while the session is stopped: references are
/// handed out anew at every stop, as the protocol allows.
final class VariableStore {
  /// A value whose children are listed (with its path when it is part of the current state, so
  /// that it can be watched), or a fixed list of named values.
  enum Node {
    case value(Any, path: StatePath?)
    case list([Entry])
  }

  /// A named value in a fixed list.
  struct Entry {
    let name: String
    let value: String
    var child: Node? = nil
  }

  private var nodes: [Node] = []

  func reset() { self.nodes.removeAll() }

  func add(_ node: Node) -> Int {
    self.nodes.append(node)
    return self.nodes.count
  }

  func node(_ reference: Int) -> Node? {
    reference >= 1 && reference <= self.nodes.count ? self.nodes[reference - 1] : nil
  }

  /// The largest page of elements sent when the editor does not ask for a range.
  static let pageSize = 100

  /// The variables under `reference`: a page of them when `start` and `count` say which, or the
  /// first ``pageSize`` of a long collection.
  func variables(
    of reference: Int, filter: String?, start: Int?, count: Int?
  ) throws -> [JSONValue] {
    guard let node = self.node(reference) else {
      throw DAPError(
        "variables: \(reference) is not a variablesReference of this stop: ask scopes again.")
    }
    switch node {
    case let .list(entries):
      let page = Self.page(entries.count, start: start, count: count)
      return entries[page].map { entry in
        .fields([
          "name": .string(entry.name), "value": .string(entry.value),
          "variablesReference": .integer(Int64(entry.child.map(self.add) ?? 0)),
        ])
      }
    case let .value(value, path):
      if filter == "named", StatePath.isIndexed(value) { return [] }
      let children = StatePath.children(of: value)
      let page = Self.page(children.count, start: start, count: count)
      return children[page].map { child in
        self.variable(child.label, child.value, path: path?.appending(child.component))
      }
    }
  }

  /// A variable for `value`: its summary, and a reference when it has values inside.
  func variable(_ name: String, _ value: Any, path: StatePath?) -> JSONValue {
    let count = StatePath.childCount(of: value)
    let indexed = StatePath.isIndexed(value)
    let reference = count > 0 ? self.add(.value(value, path: path)) : 0
    return .fields([
      "name": .string(name),
      "value": .string(Self.summary(value, count: count, indexed: indexed)),
      "type": .string(Self.typeName(value)),
      "variablesReference": .integer(Int64(reference)),
      "indexedVariables": count > 0 && indexed ? .integer(Int64(count)) : nil,
      "namedVariables": count > 0 && !indexed ? .integer(Int64(count)) : nil,
      "evaluateName": .text(path?.description),
    ])
  }

  /// A value in one line: a leaf as the REPL prints it, a collection by its count, anything
  /// else by its type (and an enum by its case).
  static func summary(_ value: Any, count: Int, indexed: Bool) -> String {
    if count == 0
      || Mirror(reflecting: value).displayStyle == .enum && count == 1
        && !(StatePath.children(of: value).first.map { StatePath.childCount(of: $0.value) > 0 }
          ?? false)
    {
      let text = oneLine(String(customDumping: value))
      return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }
    if indexed { return "\(count) element\(count == 1 ? "" : "s")" }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .enum, let label = StatePath.children(of: value).first?.label {
      return ".\(label)(…)"
    }
    return Self.typeName(value)
  }

  static func typeName(_ value: Any) -> String {
    var name = String(describing: type(of: value))
    // NB: A property wrapper's or an optional's type says less than what it holds.
    if name.hasPrefix("Optional<"), name.hasSuffix(">") {
      name = String(name.dropFirst(9).dropLast())
    }
    return name
  }

  private static func page(_ total: Int, start: Int?, count: Int?) -> Range<Int> {
    let from = min(max(0, start ?? 0), total)
    let wanted = count.flatMap { $0 > 0 ? $0 : nil } ?? (start == nil ? Self.pageSize : total)
    return from..<min(total, from + wanted)
  }
}
