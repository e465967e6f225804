import CasePaths

/// The actions of a presented feature: its own, and its dismissal.
///
/// ```swift
/// enum Action {
///   case destination(PresentationAction<Destination.Action>)
/// }
/// ```
///
/// Case key paths reach the presented feature's actions without naming `presented`, as TCA's
/// tests write them: `\.destination.edit.saveButtonTapped`, `\.alert.confirmDeletion`, and
/// `\.destination.dismiss`.
///
/// In a recording: `{"dismiss":{}}`, or `{"presented":{"_0":ACTION}}`.
public enum PresentationAction<Action> {
  /// Dismisses the presented feature: its parent sees the action with the state still there,
  /// then the state is `nil` and the feature's effects are cancelled.
  case dismiss
  /// An action of the presented feature.
  indirect case presented(Action)
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}

extension PresentationAction: CasePathable {
  /// The case paths of a presentation action, and of the presented feature's actions through it.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// `\.dismiss`.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    }

    /// `\.presented`.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        }
      )
    }

    /// A case of the presented feature's actions, through `presented`.
    public subscript<Value>(
      dynamicMember keyPath: CaseKeyPath<Action, Value>
    ) -> AnyCasePath<PresentationAction, Value> where Action: CasePathable {
      let child = AnyCasePath(keyPath)
      return AnyCasePath(
        embed: { .presented(child.embed($0)) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return child.extract(from: action)
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}
