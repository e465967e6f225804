/// Zeller's ddmin: the smallest subsequence of a failing input that still fails, tested by
/// removing chunks of it, then its complements, at finer and finer granularity. The result is
/// 1-minimal: removing any one element makes it pass.
///
/// It stops early, with the smallest failing input found so far, when `isCancelled` says so.
enum DeltaDebugging<Element> {
  /// What a search found.
  struct Result {
    /// The smallest failing input found.
    var input: [Element]
    /// Whether the search ran to its end (the input is then 1-minimal) rather than being
    /// cancelled.
    var isComplete: Bool
    /// How many inputs were tested.
    var tests: Int
  }

  /// Shrinks `input`, which must fail.
  ///
  /// - Parameters:
  ///   - fails: Whether an input still fails the same way.
  ///   - improved: Told each time a smaller failing input is found, with how many inputs were
  ///     tested so far.
  ///   - isCancelled: Polled before each test.
  static func minimize(
    _ input: [Element],
    fails: ([Element]) throws -> Bool,
    improved: (_ input: [Element], _ tests: Int) -> Void = { _, _ in },
    isCancelled: () -> Bool = { false }
  ) rethrows -> Result {
    var tests = 0
    func test(_ input: [Element]) throws -> Bool {
      tests += 1
      return try fails(input)
    }
    var current = input
    var granularity = 2
    // The empty input first: a condition that holds without any action needs none.
    if !current.isEmpty, try test([]) {
      improved([], tests)
      return Result(input: [], isComplete: true, tests: tests)
    }
    while current.count >= 2 {
      if isCancelled() { return Result(input: current, isComplete: false, tests: tests) }
      let chunks = Self.split(current, into: granularity)
      var reduced = false
      // A chunk alone.
      for chunk in chunks where chunk.count < current.count {
        if isCancelled() { return Result(input: current, isComplete: false, tests: tests) }
        if try test(chunk) {
          current = chunk
          granularity = 2
          reduced = true
          break
        }
      }
      // Everything but a chunk.
      if !reduced, chunks.count > 2 {
        for index in chunks.indices {
          if isCancelled() { return Result(input: current, isComplete: false, tests: tests) }
          let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
          if try test(complement) {
            current = complement
            granularity = max(granularity - 1, 2)
            reduced = true
            break
          }
        }
      }
      if reduced {
        improved(current, tests)
        continue
      }
      if granularity >= current.count { break }
      granularity = min(current.count, granularity * 2)
    }
    return Result(input: current, isComplete: true, tests: tests)
  }

  /// `input` in `count` contiguous chunks of near-equal size, in order.
  static func split(_ input: [Element], into count: Int) -> [[Element]] {
    var chunks: [[Element]] = []
    var start = 0
    for index in 0..<count {
      let end = start + (input.count - start) / (count - index)
      if end > start { chunks.append(Array(input[start..<end])) }
      start = end
    }
    return chunks
  }

  /// The smallest sub-input of `input` that fails, found by trying every one from the fewest
  /// elements up, within `budget` tests: what a 1-minimal input from ``minimize(_:fails:improved:isCancelled:)``
  /// may hide, when removing several elements at once fails where removing any one passes.
  /// `nil` when none smaller than `input` fails within the budget.
  static func smallest(
    _ input: [Element],
    fails: ([Element]) throws -> Bool,
    budget: Int,
    isCancelled: () -> Bool = { false }
  ) rethrows -> (input: [Element], tests: Int)? {
    var tests = 0
    guard input.count > 1 else { return nil }
    for size in 1..<input.count {
      var indices = Array(0..<size)
      while true {
        if tests >= budget || isCancelled() { return nil }
        tests += 1
        let candidate = indices.map { input[$0] }
        if try fails(candidate) { return (candidate, tests) }
        // The next combination of `size` indices, in lexicographic order.
        var position = size - 1
        while position >= 0, indices[position] == input.count - size + position { position -= 1 }
        if position < 0 { break }
        indices[position] += 1
        for next in (position + 1)..<size { indices[next] = indices[next - 1] + 1 }
      }
    }
    return nil
  }
}
