import CustomDump

/// State that is presented and goes away after any of its buttons: an alert or a dialog. A
/// ``PresentationState`` of it needs no reducer (`ifLet(\.$alert, action: \.alert)`).
public protocol _EphemeralState {}

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
public struct AlertState<Action>: _EphemeralState {
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
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// The alert with its buttons' actions transformed.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    AlertState<NewAction>(
      title: { self.title }, actions: { self.buttons.map { $0.map(transform) } },
      message: self.message.map { message in { message } })
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}
extension AlertState: Encodable where Action: Encodable {}
extension AlertState: Decodable where Action: Decodable {}

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
