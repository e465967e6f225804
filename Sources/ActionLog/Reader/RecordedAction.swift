import StepChanges

/// One decoded action of a recording.
public struct RecordedAction<Action> {
  /// The action's sequence number, from 1.
  public let seq: Int
  /// When the store processed it, since the recording started.
  public let time: Duration
  /// Where it came from.
  public let origin: RecordedOrigin
  /// The action.
  public let action: Action
  /// The dependency values the reducer read while processing it.
  public let captured: CapturedValues
  /// What the reducer returned, as the recorder described it; `nil` for no effect, or a
  /// recording without an effect ledger.
  public var recordedEffects: JSONValue? = nil
  /// What the action changed in the state, as recorded (empty for nothing); `nil` for a
  /// recording without step updates.
  public var recordedUpdate: [JSONPatchOperation]? = nil
  /// The source line that sent it, as recorded: the `Store.send` call, or the `Effect.run` or
  /// `Effect.send` that made the effect that fed it back; `nil` when not recorded.
  public var site: CallSite? = nil
}

extension RecordedAction: Sendable where Action: Sendable {}
extension RecordedAction: Equatable where Action: Equatable {}
