import ActionLog

extension ChildRecording {
  /// The names of the types of the child at `path` in `state`, a feature's typed state: the
  /// child's state type, as a recording names it, and its action type where the state type is a
  /// feature's `State` (the `Action` beside it, as `@Reducer` declares them).
  public static func typeNames(
    ofChildAt path: StatePath, in state: Any
  ) throws -> (state: String, action: String?) {
    var child = try path.value(in: state)
    while Mirror(reflecting: child).displayStyle == .optional {
      let unwrapped = StatePath.unwrapped(child)
      guard Mirror(reflecting: unwrapped).displayStyle != .optional else { break }
      child = unwrapped
    }
    let name = recordedTypeName(type(of: child))
    let action = name.hasSuffix(".State") ? String(name.dropLast(6)) + ".Action" : nil
    return (name, action)
  }

  /// A feature name for a child whose state type is `stateType`: `contactDetail` for
  /// `Module.ContactDetail.State`.
  public static func featureName(forStateType stateType: String) -> String {
    let parts = stateType.split(separator: ".")
    let base = parts.count >= 2 && parts.last == "State" ? parts[parts.count - 2] : parts.last ?? ""
    return base.prefix(1).lowercased() + base.dropFirst()
  }
}

/// Steps written as ranges, `3-9,12,15-16`, in a header's metadata, and read back.
public enum StepList {
  /// The text of `steps`, in increasing order.
  public static func text(_ steps: [Int]) -> String {
    guard var start = steps.first else { return "" }
    var parts: [String] = []
    var last = start
    for step in steps.dropFirst() {
      if step == last + 1 {
        last = step
        continue
      }
      parts.append(start == last ? "\(start)" : "\(start)-\(last)")
      (start, last) = (step, step)
    }
    parts.append(start == last ? "\(start)" : "\(start)-\(last)")
    return parts.joined(separator: ",")
  }

  /// The steps `text` lists; `nil` when it is not such a list.
  public static func steps(_ text: String) -> [Int]? {
    guard !text.isEmpty else { return [] }
    var steps: [Int] = []
    for part in text.split(separator: ",") {
      let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
      switch bounds.count {
      case 1:
        guard let step = bounds[0] else { return nil }
        steps.append(step)
      case 2:
        guard let low = bounds[0], let high = bounds[1], low <= high, high - low < 10_000_000
        else { return nil }
        steps.append(contentsOf: low...high)
      default:
        return nil
      }
    }
    return steps
  }
}
