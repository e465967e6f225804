import Foundation

extension ReplayBench {
  /// A figure's line: its label, its value, and what to read it against.
  static func figure(_ label: String, _ value: String, _ note: String) {
    print("  \(pad(label))\(pad(value, 12))\(note)")
  }

  static func row(_ label: String, _ duration: Duration, per count: Int, _ unit: String = "action")
  {
    print("  \(pad(label))\(pad(format(duration), 12))\(format(duration / count)) per \(unit)")
  }

  static func ratio(_ value: Double, goal: String, met: Bool, note: String? = nil) {
    print(
      "  \(pad("ratio"))\(pad(String(format: "%.2f×", value), 12))"
        + "goal \(goal): \(met ? "met" : "NOT MET")"
        + (note.map { " (\($0))" } ?? "")
    )
  }
}

func median<Value: Comparable>(_ values: [Value]) -> Value {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// The lowest and highest of each round's ratio, as the figure's note.
func rangeOfRounds(_ ratios: [Double]) -> String {
  String(format: "rounds %.2f–%.2f×", ratios.min() ?? 0, ratios.max() ?? 0)
}

func pad(_ text: String, _ width: Int = 24) -> String {
  text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

func format(_ duration: Duration) -> String {
  let seconds = duration.seconds
  if seconds >= 1 { return String(format: "%.2f s", seconds) }
  if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
  if seconds >= 1e-6 { return String(format: "%.2f µs", seconds * 1e6) }
  return String(format: "%.0f ns", seconds * 1e9)
}

func megabytes(_ bytes: Int) -> String {
  String(format: "%.1f", Double(bytes) / 1_048_576)
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = self.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
