import CustomDump

/// A confirmation dialog, as data: its title (and whether it shows), message and buttons.
///
/// ```swift
/// state.dialog = ConfirmationDialogState(titleVisibility: .visible) {
///   TextState("Share")
/// } actions: {
///   ButtonState(action: .copyLink) { TextState("Copy link") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
///
/// In a recording as an ``AlertState``, with `"titleVisibility"`.
public struct ConfirmationDialogState<Action>: _EphemeralState {
  /// Whether the title shows.
  public enum Visibility: String, Codable, Equatable, Hashable, Sendable {
    /// As the platform decides.
    case automatic
    /// Never.
    case hidden
    /// Always.
    case visible
  }

  /// Whether the title shows.
  public var titleVisibility: Visibility
  /// The title.
  public var title: TextState
  /// The message under the title.
  public var message: TextState?
  /// The buttons, in order.
  public var buttons: [ButtonState<Action>]

  /// A dialog with its title, buttons and message.
  public init(
    titleVisibility: Visibility = .automatic,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {}
extension ConfirmationDialogState: Hashable where Action: Hashable {}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Encodable where Action: Encodable {}
extension ConfirmationDialogState: Decodable where Action: Decodable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// The title, the message and the buttons, as a diff shows them.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", self.title.string)]
    if let message = self.message { children.append(("message", message.string)) }
    children.append(("buttons", self.buttons))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
