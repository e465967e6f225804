import IssueReporting

/// An action as a failure or a log names it: its case path with the cases nested in it and the
/// labels of what they carry, values left out: `Feature.Action.row(id:, action: .tapped)`, or
/// `.row(id:, action: .tapped)` when `abbreviated`. A value that describes itself for debugging
/// is shown as it does.
func debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  if let value = value as? any CustomDebugStringConvertible { return value.debugDescription }
  let cases = caseOutput(value)
  return abbreviated ? cases : typeNameWithoutModules(type(of: value)) + cases
}

/// `.case(label: nested…)` for an enum value, the labels of a tuple, nothing for other values.
private func caseOutput(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  switch mirror.displayStyle {
  case .enum:
    guard let payload = mirror.children.first else {
      let name = "\(value)"
      return name == typeNameWithoutModules(type(of: value)) ? "" : ".\(name)"
    }
    let inner = caseOutput(payload.value)
    return ".\(payload.label ?? "")" + (inner.isEmpty ? "" : "(\(inner))")
  case .tuple:
    return mirror.children.map { label, element in
      let inner = caseOutput(element)
      let name = label.map { isPositional($0) ? "_:" : "\($0):" } ?? ""
      return name + (inner.isEmpty ? "" : " \(inner)")
    }
    .joined(separator: ", ")
  default:
    return ""
  }
}

/// Whether a tuple element's label is its position (`.0`), not a name.
private func isPositional(_ label: String) -> Bool {
  label.allSatisfy { $0 == "." || $0.isNumber }
}

/// Reports a change made through a case subscript (`$destination[case: \.detail]`,
/// `path[id: 0, case: \.detail]`) when the value is in another case, or absent, as TCA does:
/// `Can't modify unrelated case "alert"`.
func reportUnrelatedCaseModification(of root: Any?) {
  var description = ""
  if let root {
    let mirror = Mirror(reflecting: root)
    if mirror.displayStyle == .enum {
      let name = mirror.children.first?.label ?? "\(root)"
      description = " " + name.debugDescription
    }
  }
  reportIssue("Can't modify unrelated case\(description)")
}
