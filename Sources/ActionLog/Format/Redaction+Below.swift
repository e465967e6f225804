// A redaction path seen from inside a value: how a child's recording keeps its app's redactions.

extension RedactionPath {
  /// What this path names inside the value at `pointer` (JSON Pointer tokens from the root): the
  /// rest of the path after the part that leads there, the value itself (`nil` components: every
  /// value in it) when the path names the value or what holds it, or `nil` when the path names
  /// nothing inside it. A child's recording cut from an app's keeps the app's redactions so.
  public func below(_ pointer: [String]) -> Below? {
    var position = 0
    for token in pointer {
      guard position < self.components.count else { return .whole }
      switch self.components[position] {
      case .anyDepth:
        // NB: `**` reaches any depth inside the value too.
        return .path(Self.text(Array(self.components[position...])))
      case let .key(name) where name == token:
        position += 1
      case let .index(index) where String(index) == token:
        position += 1
      case .anyKey:
        position += 1
      case .anyIndex where Int(token) != nil:
        position += 1
      default:
        return nil
      }
    }
    guard position < self.components.count else { return .whole }
    return .path(Self.text(Array(self.components[position...])))
  }

  /// What ``below(_:)`` finds.
  public enum Below: Sendable, Hashable {
    /// Every value in the value at the pointer.
    case whole
    /// The values at this path in it.
    case path(String)
  }

  /// Components written back as a path.
  private static func text(_ components: [Component]) -> String {
    var text = ""
    for component in components {
      switch component {
      case let .key(name): text += text.isEmpty ? name : ".\(name)"
      case .anyKey: text += text.isEmpty ? "*" : ".*"
      case let .index(index): text += "[\(index)]"
      case .anyIndex: text += "[*]"
      case .anyDepth: text += text.isEmpty ? "**" : ".**"
      }
    }
    return text
  }
}
