import ComposableArchitecture
import Foundation
import Testing

/// A shared value read inside its own `withLock`, as SyncUps' detail reads the sync-up it
/// deletes from the shared list: the read sees the value as the change has left it so far.
@Suite struct SharedReentrancyTests {
  struct Item: Equatable, Identifiable {
    var id: Int
    var name: String
  }

  @Test func aPartReadInsideTheWholesChange() throws {
    @Shared(value: IdentifiedArrayOf<Item>([Item(id: 1, name: "a"), Item(id: 2, name: "b")]))
    var items
    let second = try #require(Shared($items[id: 2]))
    $items.withLock { _ = $0.remove(id: second.id) }
    #expect(items.ids == [1])
  }

  @Test func theWholeReadInsideItsOwnChange() {
    @Shared(value: [1, 2, 3]) var numbers
    $numbers.withLock { $0.append(numbers.count) }
    #expect(numbers == [1, 2, 3, 3])
  }
}
