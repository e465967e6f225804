import CustomDump
import Foundation

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
public struct ConfirmationDialogState<Action>: _EphemeralState, Identifiable {
  /// Who this dialog is: new for each dialog made; neither compared nor recorded (see
  /// ``AlertState/id``).
  public let id: UUID

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
    self.init(
      id: UUID(), titleVisibility: titleVisibility, title: title(), buttons: actions(),
      message: message?())
  }

  init(
    id: UUID, titleVisibility: Visibility, title: TextState, buttons: [ButtonState<Action>],
    message: TextState?
  ) {
    self.id = id
    self.titleVisibility = titleVisibility
    self.title = title
    self.buttons = buttons
    self.message = message
  }

  enum CodingKeys: String, CodingKey {
    case buttons, message, title, titleVisibility
  }
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.titleVisibility == rhs.titleVisibility && lhs.title == rhs.title
      && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.titleVisibility)
    hasher.combine(self.title)
    hasher.combine(self.message)
    hasher.combine(self.buttons)
  }
}
extension ConfirmationDialogState: Sendable where Action: Sendable {}
extension ConfirmationDialogState: Encodable where Action: Encodable {}
extension ConfirmationDialogState: Decodable where Action: Decodable {
  /// A dialog read from a recording: a new presentation.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: UUID(),
      titleVisibility: try container.decode(Visibility.self, forKey: .titleVisibility),
      title: try container.decode(TextState.self, forKey: .title),
      buttons: try container.decode([ButtonState<Action>].self, forKey: .buttons),
      message: try container.decodeIfPresent(TextState.self, forKey: .message)
    )
  }
}

extension ConfirmationDialogState: CustomDumpReflectable {
  /// The title, the message and the buttons, as a diff shows them.
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", self.title.string)]
    if let message = self.message { children.append(("message", message.string)) }
    children.append(("buttons", self.buttons))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
