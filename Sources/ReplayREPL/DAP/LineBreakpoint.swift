import ActionLog
import Foundation
import StepChanges

/// A line breakpoint, as the editor set it, and where in the recording it stops.
struct LineBreakpoint {
  let id: Int
  let path: String
  let line: Int
  let condition: ValueCondition?
  let conditionText: String?
  let hitCondition: HitCondition?
  let logMessage: String?
  /// The steps sent from the line (or fed back by effects made there), in order.
  var steps: [Int] = []
  var message: String?
  var hits = 0

  var verified: Bool { !self.steps.isEmpty }
}
