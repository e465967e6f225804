import CustomDump
import Foundation

/// State that is presented and goes away after any of its buttons: an alert or a dialog. A
/// ``PresentationState`` of it needs no reducer (`ifLet(\.$alert, action: \.alert)`).
public protocol _EphemeralState<Action> {
  /// What its buttons send.
  associatedtype Action
}

extension _EphemeralState {
  static var _actionType: Any.Type { Action.self }
}

/// An alert, as data: its title, message and buttons, each sending an action of the feature.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Delete \(item.name)?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmDeletion) {
///     TextState("Delete")
///   }
///   ButtonState(role: .cancel) {
///     TextState("Cancel")
///   }
/// } message: {
///   TextState("This cannot be undone.")
/// }
/// ```
///
/// In a recording: `{"buttons":[BUTTON,…],"message":"…","title":"…"}`, `message` left out when
/// there is none (see ``ButtonState`` for a button).
///
/// Each alert made is a new presentation (its ``id``): when a button's action makes the parent
/// present another alert, even one that reads the same, the new one stays. Two alerts with the
/// same title, message and buttons are equal, whatever their `id`.
public struct AlertState<Action>: _EphemeralState, Identifiable {
  /// Who this alert is: new for each alert made, kept by ``map(_:)``; neither compared nor
  /// recorded.
  public let id: UUID
  /// The title.
  public var title: TextState
  /// The message under the title.
  public var message: TextState?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// An alert with its title, buttons and message.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(id: UUID(), title: title(), buttons: actions(), message: message?())
  }

  init(id: UUID, title: TextState, buttons: [ButtonState<Action>], message: TextState?) {
    self.id = id
    self.title = title
    self.buttons = buttons
    self.message = message
  }

  /// The alert with its buttons' actions transformed; the same alert (its `id` kept).
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      id: self.id, title: self.title, buttons: self.buttons.map { $0.map(transform) },
      message: self.message)
  }

  enum CodingKeys: String, CodingKey {
    case buttons, message, title
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Encodable where Action: Encodable {}
extension AlertState: Decodable where Action: Decodable {
  /// An alert read from a recording: a new presentation.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: UUID(),
      title: try container.decode(TextState.self, forKey: .title),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons),
      message: try container.decodeIfPresent(TextState.self, forKey: .message)
    )
  }
}

extension AlertState: CustomDumpReflectable {
  /// The title, the message and the buttons, as a diff shows them.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", self.title.string)]
    if let message = self.message { children.append(("message", message.string)) }
    children.append(("buttons", self.buttons))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ButtonState: CustomDumpReflectable {
  /// The label, the role and the action, as a diff shows them.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role = self.role { children.append(("role", role)) }
    children.append(("action", self.action.action as Any))
    children.append(("label", self.label.string))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
