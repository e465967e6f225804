import CasePaths

/// The actions of a navigation stack: a screen's own, a push and a pop.
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
/// ```
///
/// Case key paths reach a screen's actions by its identity, as TCA's tests write them:
/// `\.path[id: 0].detail.saveButtonTapped`, and `\.path.popFrom`, `\.path.push`.
///
/// In a recording: `{"element":{"action":ACTION,"id":N}}`, `{"popFrom":{"id":N}}`,
/// `{"push":{"id":N,"state":STATE}}`.
public enum StackAction<State, Action> {
  /// An action of the screen with an identity.
  indirect case element(id: StackElementID, action: Action)
  /// Pops the screen with an identity and every screen above it.
  case popFrom(id: StackElementID)
  /// Pushes a screen with an identity.
  case push(id: StackElementID, state: State)
}

/// The stack actions of a reducer's screens: `StackActionOf<Path>`.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}
extension StackAction: Decodable where State: Decodable, Action: Decodable {}
extension StackAction: Encodable where State: Encodable, Action: Encodable {}

extension StackAction: CasePathable {
  /// The case paths of a stack action.
  public struct AllCasePaths: Sendable {
    /// `\.element`: a screen's identity and action.
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case let .element(id, action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    /// `\.popFrom`: the identity popped from.
    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case let .popFrom(id) = $0 else { return nil }
          return id
        }
      )
    }

    /// `\.push`: the identity and state pushed.
    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case let .push(id, state) = $0 else { return nil }
          return (id, state)
        }
      )
    }

    /// The actions of the screen with an identity.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case let .element(elementID, action) = $0, elementID == id else { return nil }
          return action
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension Case {
  /// The actions of the screen with an identity: `\.path[id: 0].detail.saveButtonTapped`.
  public subscript<Element, ElementAction>(
    id id: StackElementID
  ) -> Case<ElementAction> where Value == StackAction<Element, ElementAction> {
    let path = Value.allCasePaths[id: id]
    return Case<ElementAction>(
      embed: { self._embed(path.embed($0)) },
      extract: { (root: Any) in self._extract(from: root).flatMap(path.extract(from:)) }
    )
  }
}
