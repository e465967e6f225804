#if !canImport(SwiftUI)
  /// SwiftUI's edit mode, as data, for features that keep it in their state
  /// (`var editMode: EditMode = .inactive`). In a recording, its case name.
  public enum EditMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not editing.
    case inactive
    /// Editing for a moment (a swipe).
    case transient
    /// Editing.
    case active

    /// Whether content is being edited: `active` or `transient`.
    public var isEditing: Bool {
      self != .inactive
    }
  }
#endif
