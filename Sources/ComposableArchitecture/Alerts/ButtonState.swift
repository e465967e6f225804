/// A button of an alert or a dialog, as data: its label, its role, and the action it sends.
///
/// ```swift
/// ButtonState(role: .destructive, action: .confirmDeletion) {
///   TextState("Delete")
/// }
/// ```
///
/// In a recording: `{"action":ACTION,"label":"Delete","role":"destructive"}`, `action` `null`
/// for a button that only dismisses, `role` left out when it has none.
public struct ButtonState<Action> {
  /// What the button means.
  public let role: ButtonStateRole?
  /// What it sends when tapped.
  public let action: ButtonStateAction<Action>
  /// Its label.
  public let label: TextState

  /// A button that sends `action` (or only dismisses, with `.send(nil)`).
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.role = role
    self.action = action
    self.label = label()
  }

  /// A button that sends `action`.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// The button with its action transformed: what a parent feature embeds.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    ButtonState<NewAction>(
      role: self.role,
      action: .send(transform(self.action.action), animation: self.action.animation),
      label: { self.label })
  }
}

/// What a button means, as platforms show it.
public enum ButtonStateRole: String, Codable, Equatable, Hashable, Sendable {
  /// Cancels: the alert goes away and nothing happens.
  case cancel
  /// Destroys something: shown as a warning.
  case destructive
}

/// What a button sends.
public struct ButtonStateAction<Action> {
  /// The action sent, or `nil` for a button that only dismisses.
  public let action: Action?
  /// The animation the action is sent with, if any.
  public let animation: Animation?

  init(action: Action?, animation: Animation? = nil) {
    self.action = action
    self.animation = animation
  }

  /// Sends `action`, or nothing.
  public static func send(_ action: Action?) -> Self {
    Self(action: action)
  }

  /// Sends `action` with `animation`: the state changes at once here, as in TCA's tests, and a
  /// recording keeps the action alone.
  public static func send(_ action: Action?, animation: Animation?) -> Self {
    Self(action: action, animation: animation)
  }
}

extension ButtonState: Equatable where Action: Equatable {}
extension ButtonState: Hashable where Action: Hashable {}
extension ButtonState: Sendable where Action: Sendable {}
extension ButtonState: Encodable where Action: Encodable {}
extension ButtonState: Decodable where Action: Decodable {}

extension ButtonStateAction: Equatable where Action: Equatable {}
extension ButtonStateAction: Hashable where Action: Hashable {}
extension ButtonStateAction: Sendable where Action: Sendable {}

extension ButtonStateAction: Encodable where Action: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.action)
  }
}

extension ButtonStateAction: Decodable where Action: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(action: container.decodeNil() ? nil : try container.decode(Action.self))
  }
}

/// Builds the buttons of an alert or a dialog, one expression each.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }

  public static func buildExpression(_ button: ButtonState<Action>) -> [ButtonState<Action>] {
    [button]
  }

  public static func buildExpression(_ buttons: [ButtonState<Action>]) -> [ButtonState<Action>] {
    buttons
  }

  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }

  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }

  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
}
