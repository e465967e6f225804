/// The lines two texts differ in, as `CustomDump.diff` writes a diff: `−` before a line only the
/// first has, `+` before a line only the second has, and two spaces before a line both have.
///
/// - Returns: `nil` when the texts are equal.
/// - Complexity: O(*n* × *m*) in the numbers of lines.
func _lineDifference(_ old: String, _ new: String) -> String? {
  guard old != new else { return nil }
  let lhs = old.split(separator: "\n", omittingEmptySubsequences: false)
  let rhs = new.split(separator: "\n", omittingEmptySubsequences: false)
  // The longest common subsequence's lengths, from the end.
  var lengths = [[Int]](
    repeating: [Int](repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
  for i in stride(from: lhs.count - 1, through: 0, by: -1) {
    for j in stride(from: rhs.count - 1, through: 0, by: -1) {
      lengths[i][j] =
        lhs[i] == rhs[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
    }
  }
  var lines: [String] = []
  var (i, j) = (0, 0)
  while i < lhs.count || j < rhs.count {
    if i < lhs.count, j < rhs.count, lhs[i] == rhs[j] {
      lines.append("  \(lhs[i])")
      i += 1
      j += 1
    } else if i < lhs.count, j == rhs.count || lengths[i + 1][j] >= lengths[i][j + 1] {
      lines.append("− \(lhs[i])")
      i += 1
    } else {
      lines.append("+ \(rhs[j])")
      j += 1
    }
  }
  return lines.joined(separator: "\n")
}
