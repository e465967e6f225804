import ArgumentParser
import ComposableArchitecture
import CustomDump
import ExampleFeatures
import Foundation

extension ReplayBench {
  // The diff at a step of a large state with one field changed: `prunedDiff` against
  // `CustomDump.diff`, which it must match line for line.

  static func diff(todos: Int, rounds: Int) throws {
    print("diff at a step, \(todos) todos, one field changed: prunedDiff vs CustomDump.diff")
    var before = Todos.State()
    for index in 0..<todos {
      before.todos.append(
        Todo.State(
          description: "todo \(index)",
          id: UUID(
            uuidString: String(
              format: "00000000-0000-0000-0000-%012X", index))!,
          isComplete: index.isMultiple(of: 3), priority: index % 4))
    }
    var after = before
    after.todos[todos / 2].isComplete.toggle()
    guard prunedDiff(before, after) == CustomDump.diff(before, after) else {
      print("  error: the two diffs differ")
      throw ExitCode.failure
    }
    var custom: [Duration] = []
    var pruned: [Duration] = []
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [false, true] : [true, false]
      for isPruned in order {
        let start = ContinuousClock.now
        let text = isPruned ? prunedDiff(before, after) : CustomDump.diff(before, after)
        let elapsed = ContinuousClock.now - start
        precondition(text != nil)
        if isPruned { pruned.append(elapsed) } else { custom.append(elapsed) }
      }
    }
    let ratios = zip(custom, pruned).map { $0 / $1 }
    self.figure("CustomDump.diff", format(median(custom)), "the baseline")
    self.figure("prunedDiff", format(median(pruned)), "narrowed to the changed subtrees")
    self.ratio(
      median(ratios), goal: "≥ 10× faster than CustomDump.diff", met: median(ratios) >= 10,
      note: rangeOfRounds(ratios))
    print()
  }
}
