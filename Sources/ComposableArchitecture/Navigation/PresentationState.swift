import CustomDump

/// The state of a feature presented by its parent: a sheet, an alert, a drill-down, or an enum of
/// destinations. `nil` when nothing is presented.
///
/// Written as a property wrapper, the way TCA's features write it:
///
/// ```swift
/// @ObservableState
/// struct State: Codable, Equatable {
///   @Presents var destination: Destination.State?
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
///
/// and run with ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)`` over its
/// projection, `\.$destination`.
///
/// In a recording, a property wrapped this way is encoded under its own name as the value it
/// wraps (`null` when nothing is presented).
@propertyWrapper
public struct PresentationState<State> {
  /// What is presented, or `nil`.
  public var wrappedValue: State?

  /// Presents `wrappedValue`, or nothing.
  public init(wrappedValue: State?) {
    self.wrappedValue = wrappedValue
  }

  /// The presentation itself, for ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``:
  /// `\.$destination`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

/// `@Presents var destination: Destination.State?`: TCA's name for ``PresentationState``.
public typealias Presents<State> = PresentationState<State>

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self.wrappedValue)
  }
}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(State.self))
  }
}

extension PresentationState: CustomDumpRepresentable {
  /// What is presented, as a diff shows it.
  public var customDumpValue: Any {
    self.wrappedValue as Any
  }
}
