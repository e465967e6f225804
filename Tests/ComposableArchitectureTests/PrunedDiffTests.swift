import ComposableArchitecture
import Foundation
import Testing

/// `prunedDiff` writes what `CustomDump.diff` writes, line for line, for every kind of change:
/// checked on generated states against CustomDump itself.
@Suite struct PrunedDiffTests {
  struct Item: Equatable, Identifiable {
    enum Kind: Equatable { case plain, tagged(String), pair(Int, label: String) }
    var id: Int
    var title: String
    var isDone = false
    var kind: Kind = .plain
    var note: String? = nil
    var tags: [String] = []
  }

  struct Settings: Equatable {
    var sort: Sort = .title
    var limits: [String: Int] = [:]
    var size: Double = 1
    enum Sort: Equatable { case title, date }
  }

  struct Wrapper: Equatable {
    var value: Int
  }

  struct State: Equatable {
    var items: IdentifiedArrayOf<Item> = []
    var numbers: [Int] = []
    var settings = Settings()
    var selected: Int? = nil
    var wrapper = Wrapper(value: 0)
    var nested: [[Int]] = []
  }

  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      self.state = self.state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((self.state >> 33) % UInt64(max(bound, 1)))
    }
  }

  static func state(count: Int, _ random: inout Generator) -> State {
    var state = State()
    for id in 0..<count {
      state.items.append(
        Item(
          id: id, title: "item \(id)", isDone: random.next(2) == 0,
          kind: [Item.Kind.plain, .tagged("t\(id)"), .pair(id, label: "p")][random.next(3)],
          note: random.next(3) == 0 ? "a note\nover two lines" : nil,
          tags: (0..<random.next(3)).map { "tag\($0)" }))
    }
    state.numbers = (0..<random.next(12)).map { _ in random.next(5) }
    state.settings.limits = ["a": 1, "b": 2]
    state.nested = [[1, 2], [3]]
    return state
  }

  /// One change of the kind `kind` to `state`.
  static func mutate(_ state: inout State, kind: Int, _ random: inout Generator) {
    let count = state.items.count
    switch kind {
    case 0 where count > 0: state.items[random.next(count)].isDone.toggle()
    case 1 where count > 0: state.items[random.next(count)].title += "!"
    case 2 where count > 0: state.items[random.next(count)].kind = .pair(7, label: "changed")
    case 3 where count > 0: state.items[random.next(count)].note = "new"
    case 4 where count > 0: state.items[random.next(count)].tags.append("more")
    case 5 where count > 0: state.items.remove(at: random.next(count))
    case 6: state.items.insert(Item(id: 10_000 + random.next(1_000), title: "new"), at: 0)
    case 7 where count > 1: state.items.swapAt(0, count - 1)
    case 8: state.numbers.append(random.next(5))
    case 9 where !state.numbers.isEmpty: state.numbers[random.next(state.numbers.count)] += 1
    case 10: state.settings.sort = .date
    case 11: state.settings.limits["b"] = 3
    case 12: state.selected = random.next(3)
    case 13: state.wrapper.value += 1
    case 14: state.nested[0].append(9)
    case 15: state.settings.size = -0.0
    default: state.numbers = []
    }
  }

  @Test(arguments: 0..<300)
  func writesWhatCustomDumpWrites(seed: Int) {
    var random = Generator(state: UInt64(seed))
    let before = Self.state(count: random.next(25), &random)
    var after = before
    for _ in 0..<(1 + random.next(3)) {
      Self.mutate(&after, kind: random.next(17), &random)
    }
    #expect(prunedDiff(before, after) == CustomDump.diff(before, after), "seed \(seed)")
    #expect(prunedDiff(after, before) == CustomDump.diff(after, before), "seed \(seed)")
  }

  @Test func aThousandItemsWithOneFieldChanged() throws {
    var random = Generator(state: 1)
    let before = Self.state(count: 1_000, &random)
    var after = before
    after.items[500].title = "changed"
    let pruned = try #require(prunedDiff(before, after))
    #expect(pruned == CustomDump.diff(before, after))
    #expect(pruned.contains("… (500 unchanged),"))
    #expect(pruned.contains("… (499 unchanged)"))
    #expect(prunedDiff(before, before) == nil)
  }

  @Test func valuesCustomDumpWalksItselfGoWhole() {
    final class Box: Equatable {
      var value: Int
      init(_ value: Int) { self.value = value }
      static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
    }
    #expect(prunedDiff(Box(1), Box(2)) == CustomDump.diff(Box(1), Box(2)))
    #expect(prunedDiff([1, 2, 3], [1, 3]) == CustomDump.diff([1, 2, 3], [1, 3]))
    #expect(prunedDiff(Settings.Sort.title, .date) == CustomDump.diff(Settings.Sort.title, .date))
    #expect(prunedDiff("a\nb", "a\nc") == CustomDump.diff("a\nb", "a\nc"))
  }

  @Test func partsWithoutEqualityAreLeftToCustomDump() {
    struct Plain {
      var count: Int
      var items: [Int]
    }
    struct Outer: Equatable {
      var plain: Plain
      var other = 1
      static func == (lhs: Outer, rhs: Outer) -> Bool { false }
    }
    #expect(prunedDiff(Plain(count: 1, items: [1]), Plain(count: 1, items: [1])) == nil)
    #expect(
      prunedDiff(Plain(count: 1, items: [1]), Plain(count: 2, items: [1]))
        == CustomDump.diff(Plain(count: 1, items: [1]), Plain(count: 2, items: [1])))
    // Equal by its own `==` never, but equal in every part: as CustomDump says.
    let outer = Outer(plain: Plain(count: 1, items: [2]))
    #expect(prunedDiff(outer, outer) == CustomDump.diff(outer, outer))
    var changed = outer
    changed.plain.items.append(3)
    #expect(prunedDiff(outer, changed) == CustomDump.diff(outer, changed))
  }
}
