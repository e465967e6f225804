/// Where an action that a store processes came from.
public enum ActionOrigin: Hashable, Sendable {
  /// The action was sent to the store from outside: a user interface, a test, a script.
  case send
  /// The action was fed back into the store by an effect that the reducer returned while it
  /// processed the action with the given ``ActionContext/id``.
  case effect(parent: UInt64)
}

/// What a store knows about the action a reducer is processing right now.
///
/// A store sets ``current`` for the duration of each call to a reducer, so a reducer modifier
/// (middleware) can learn which action this is and where it came from without the action type
/// having to carry it:
///
/// ```swift
/// func reduce(into state: inout State, action: Action) -> Effect<Action> {
///   if let context = ActionContext.current, case let .effect(parent) = context.origin {
///     // `action` was fed back by an effect of action number `parent`.
///   }
///   return base.reduce(into: &state, action: action)
/// }
/// ```
public struct ActionContext: Hashable, Sendable {
  /// The number the root store gave this action: 1 for the first action it processed, then one
  /// more for each following action, whichever scoped store it was sent to.
  public let id: UInt64

  /// Where the action came from.
  public let origin: ActionOrigin

  /// The source line that sent the action: the `Store.send` call for a sent action; for an
  /// effect's, the `Effect.run` or `Effect.send` that made the effect. `nil` when not known.
  public let site: CallSite?

  /// Creates a context.
  public init(id: UInt64, origin: ActionOrigin, site: CallSite? = nil) {
    self.id = id
    self.origin = origin
    self.site = site
  }

  /// The context of the action being reduced, or `nil` outside a store's call to a reducer.
  @TaskLocal public static var current: ActionContext?
}
