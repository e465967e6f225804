import ComposableArchitecture
import Foundation
import TestSupport
import Testing

// README: counter example begins
struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var fact: String?
  }

  @CasePathable
  enum Action: Equatable {
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.numberFact) var numberFact

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none

      case .factButtonTapped:
        return .run { [count = state.count] send in
          await send(.factResponse(try await numberFact.fetch(count)))
        } catch: { error, send in
          await send(.factResponse("No fact: \(error)"))
        }

      case let .factResponse(fact):
        state.fact = fact
        return .none

      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

struct NumberFactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

extension NumberFactClient: DependencyKey {
  static let liveValue = NumberFactClient { "\($0) is a number worth knowing." }
  static let testValue = NumberFactClient(
    fetch: unimplemented("NumberFactClient.fetch", placeholder: "")
  )
}

extension DependencyValues {
  var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

// In the app:
@MainActor
func counterSession() async {
  let store = Store(initialState: Counter.State()) {
    Counter()._printChanges()
  }
  store.send(.incrementButtonTapped)
  await store.send(.factButtonTapped).finish()
  print(store.fact ?? "no fact")  // "1 is a number worth knowing."
}

// In a test:
@Test @MainActor
func counterFetchesAFact() async {
  let store = TestStore(initialState: Counter.State()) {
    Counter()
  } withDependencies: {
    $0.numberFact.fetch = { "\($0) is a good number." }
  }
  await store.send(.incrementButtonTapped) {
    $0.count = 1
  }
  await store.send(.factButtonTapped)
  await store.receive(\.factResponse) {
    $0.fact = "1 is a good number."
  }
}
// README: counter example ends

@Suite struct ReadmeExampleTests {
  /// The README shows the code above; this keeps the two the same, so the README's example is
  /// code that compiles and whose test passes.
  @Test func readmeShowsTheCounterExampleAsCompiled() throws {
    let root = packageRoot
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)

    let begin = "// README: counter example begins\n"
    let end = "// README: counter example ends\n"
    let compiled = try #require(
      source.range(of: begin).flatMap { start in
        source.range(of: end, range: start.upperBound..<source.endIndex).map {
          String(source[start.upperBound..<$0.lowerBound])
        }
      }
    )
    let marker =
      "<!-- counter example: Tests/ComposableArchitectureTests/ReadmeExampleTests.swift -->"
    let shown = try #require(
      readme.range(of: "\(marker)\n```swift\nimport ComposableArchitecture\n\n").flatMap { start in
        readme.range(of: "```\n", range: start.upperBound..<readme.endIndex).map {
          String(readme[start.upperBound..<$0.lowerBound])
        }
      }
    )
    #expect(shown == compiled)
  }

  @Test @MainActor func counterSessionPrintsTheFact() async {
    let store = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.numberFact = .liveValue
    }
    store.send(.incrementButtonTapped)
    #expect(await finishes(store.send(.factButtonTapped)))
    #expect(store.fact == "1 is a number worth knowing.")
  }
}
