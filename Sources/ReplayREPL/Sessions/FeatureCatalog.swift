import ActionLog
import TimeTravel

/// The features a `replay` can re-run: what `ReplayCommand.main(features:)` was given, handed
/// by the command to what opens sessions and words what it shows (the REPL, the debugger), so
/// that nothing below the command reads them from a global.
public struct FeatureCatalog: Sendable {
  /// The features, as registered.
  public let features: [ReplayFeature]

  /// A catalog of `features`.
  public init(_ features: [ReplayFeature]) {
    self.features = features
  }

  /// The feature registered as `id`.
  func feature(_ id: String) -> ReplayFeature? {
    self.features.first { $0.id == id }
  }

  /// The feature a recording is of: the one its header names, else, for a test store's
  /// recording (which names its feature by its state's type) or a child's recording cut from an
  /// app's, the one of that state type.
  func feature(for header: LogHeader) -> ReplayFeature? {
    if let feature = self.feature(header.feature) { return feature }
    // NB: A child's recording cut from an app's may name a feature by its type's name alone.
    guard header.metadata["recorded by"] == "TestStore" || header.metadata["scope"] != nil
    else { return nil }
    let matches = self.features.filter { $0.stateType == header.stateType }
    return matches.count == 1 ? matches[0] : nil
  }

  /// The identifier of the feature whose state is of `stateType`, if one is.
  func id(ofStateType stateType: String) -> String? {
    self.features.first { $0.stateType == stateType }?.id
  }
}
