import ActionLog
import Foundation
import StepChanges

/// `3` (the third hit), `>= 3`, `> 3`, `== 3`, `% 3` (every third).
struct HitCondition {
  enum Comparison: String { case equal = "==", atLeast = ">=", over = ">", every = "%" }
  let comparison: Comparison
  let count: Int

  init(_ text: String) throws {
    var text = text.trimmingCharacters(in: .whitespaces)
    var comparison = Comparison.equal
    for candidate in [Comparison.atLeast, .equal, .over, .every]
    where text.hasPrefix(candidate.rawValue) {
      comparison = candidate
      text = text.dropFirst(candidate.rawValue.count).trimmingCharacters(in: .whitespaces)
      break
    }
    guard let count = Int(text), count > 0 else {
      throw DAPError(
        "A hit count is a number of hits from 1, with ==, >=, > or % before it: not \"\(text)\".")
    }
    self.comparison = comparison
    self.count = count
  }

  func stops(atHit hit: Int) -> Bool {
    switch self.comparison {
    case .equal: hit == self.count
    case .atLeast: hit >= self.count
    case .over: hit > self.count
    case .every: hit % self.count == 0
    }
  }
}
