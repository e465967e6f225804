import Dependencies
import IssueReporting

/// A description of work that a store performs after a reducer has run, and that can feed actions
/// back into the store.
///
/// Effects are values: a reducer returns one, and the ``Store`` runs it. Construct them with
/// ``none``, ``send(_:)``, ``run(priority:operation:catch:fileID:filePath:line:column:)``,
/// ``merge(_:)-(Effect<Action>...)``, ``concatenate(_:)-(Effect<Action>...)``, and
/// ``cancellable(id:cancelInFlight:)``.
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    /// An action fed back at once, and where the effect was made (`nil` for the library's own).
    case send(Action, CallSite?)
    case run(TaskPriority?, _EffectRun, @Sendable (Send<Action>) async -> Void)
    case merge([Effect<Action>])
    case concatenate([Effect<Action>])
    case cancellable(_CancelID, cancelInFlight: Bool, Effect<Action>)
    case cancel(_CancelTarget)
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
  }
}

/// Where a `run` effect was made, and the name of its task.
@usableFromInline
struct _EffectRun: Sendable {
  let site: CallSite
  let name: String?
  /// The runs this one was fused from, when it is a merge or a concatenation of runs.
  let fused: _FusedRuns?

  init(site: CallSite, name: String? = nil, fused: _FusedRuns? = nil) {
    self.site = site
    self.name = name
    self.fused = fused
  }
}

/// The parts of a `run` fused from others, as `merge` and `concatenate` fuse runs: one `run`
/// whose operation runs them all, as TCA's is, that still knows its parts, so that a store
/// starts each as a task of its own and a recording names each one's site.
@usableFromInline
final class _FusedRuns: @unchecked Sendable {
  // NB: Unchecked: immutable. `parts` is the `[Effect<Action>]` of the effect holding it.
  let isMerge: Bool
  let parts: Any

  init(isMerge: Bool, parts: Any) {
    self.isMerge = isMerge
    self.parts = parts
  }
}

/// A convenience for the effect type of a reducer: `EffectOf<Feature>`.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

extension Effect {
  /// An effect that does nothing and completes immediately.
  @inlinable
  public static var none: Self {
    Self(operation: .none)
  }

  /// An effect that feeds an action back into the store immediately, before `Store.send` returns.
  ///
  /// Prefer calling shared logic directly over sending actions to share it.
  ///
  /// - Parameters:
  ///   - action: The action that is fed back into the store.
  ///   - fileID: The file that made the effect, which a recording names as the action's origin.
  ///   - line: The line that made the effect.
  public static func send(
    _ action: Action, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Self {
    Self(operation: .send(action, CallSite(fileID: fileID, line: line)))
  }

  /// Wraps an asynchronous unit of work that can feed any number of actions back into the store.
  ///
  /// ```swift
  /// return .run { [count = state.count] send in
  ///   let fact = try await numberFact.fetch(count)
  ///   await send(.factResponse(fact))
  /// } catch: { error, send in
  ///   await send(.factFailed)
  /// }
  /// ```
  ///
  /// The operation runs with the dependencies that were in force where the effect was created.
  ///
  /// - Parameters:
  ///   - priority: Priority of the underlying task. If `nil`, the priority comes from
  ///     `Task.currentPriority`.
  ///   - name: The name of the underlying task, as debuggers and profilers show it.
  ///   - operation: The operation to execute.
  ///   - handler: An error handler, invoked when the operation throws an error other than
  ///     `CancellationError`. Without one, such an error is reported as an issue.
  /// - Returns: An effect wrapping the given asynchronous work.
  public static func run(
    priority: TaskPriority? = nil,
    name: String? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    withEscapedDependencies { escaped in
      Self(
        operation: .run(
          priority, _EffectRun(site: CallSite(fileID: fileID, line: line), name: name)
        ) {
          send in
          await escaped.yield {
            do {
              try await operation(send)
            } catch is CancellationError {
              return
            } catch {
              guard let handler else {
                reportIssue(
                  """
                  An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

                  \(String(customDumping: error).indent(by: 4))

                  All non-cancellation errors must be explicitly handled via the "catch" parameter \
                  on "Effect.run", or via a "do" block.
                  """,
                  fileID: fileID,
                  filePath: filePath,
                  line: line,
                  column: column
                )
                return
              }
              await handler(error, send)
            }
          }
        }
      )
    }
  }

  /// Merges a variadic list of effects together into a single effect, which runs the effects at
  /// the same time.
  ///
  /// - Parameter effects: A variadic list of effects.
  /// - Returns: A new effect.
  @inlinable
  public static func merge(_ effects: Self...) -> Self {
    Self.merge(effects)
  }

  /// Merges a sequence of effects together into a single effect, which runs the effects at the
  /// same time.
  ///
  /// - Parameter effects: A sequence of effects.
  /// - Returns: A new effect.
  @inlinable
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    effects.reduce(.none) { $0.merge(with: $1) }
  }

  /// Merges this effect and another into a single effect that runs both at the same time.
  ///
  /// Two `run` effects merge into one `run` that runs both, as TCA's do.
  ///
  /// - Parameter other: Another effect.
  /// - Returns: An effect that runs this effect and the other at the same time.
  public func merge(with other: Self) -> Self {
    self.combined(with: other, isMerge: true)
  }

  /// Concatenates a variadic list of effects together into a single effect, which runs the
  /// effects one after the other.
  ///
  /// - Parameter effects: A variadic list of effects.
  /// - Returns: A new effect.
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    Self.concatenate(effects)
  }

  /// Concatenates a collection of effects together into a single effect, which runs the effects
  /// one after the other.
  ///
  /// - Parameter effects: A collection of effects.
  /// - Returns: A new effect.
  @inlinable
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    effects.reduce(.none) { $0.concatenate(with: $1) }
  }

  /// Concatenates this effect and another into a single effect that first runs this effect to
  /// completion, and then runs the other.
  ///
  /// Two `run` effects concatenate into one `run` that runs one after the other, as TCA's do.
  ///
  /// - Parameter other: Another effect.
  /// - Returns: An effect that runs this effect, and after it completes or is cancelled, the other.
  public func concatenate(with other: Self) -> Self {
    self.combined(with: other, isMerge: false)
  }

  /// A merge (or concatenation) of this effect and `other`, flattened: the parts of either that
  /// is one already are taken one by one. When every part is a `run`, the result is a `run`
  /// fused from them.
  private func combined(with other: Self, isMerge: Bool) -> Self {
    if case .none = self.operation { return other }
    if case .none = other.operation { return self }
    let parts = self.parts(isMerge: isMerge) + other.parts(isMerge: isMerge)
    guard case let .run(lhsPriority, first, lhs) = self.operation,
      case let .run(rhsPriority, _, rhs) = other.operation
    else {
      return Self(operation: isMerge ? .merge(parts) : .concatenate(parts))
    }
    let fused = _EffectRun(site: first.site, fused: _FusedRuns(isMerge: isMerge, parts: parts))
    if isMerge {
      return Self(
        operation: .run(nil, fused) { send in
          await withTaskGroup(of: Void.self) { group in
            group.addTask(priority: lhsPriority) { await lhs(send) }
            group.addTask(priority: rhsPriority) { await rhs(send) }
          }
        })
    }
    return Self(
      operation: .run(nil, fused) { send in
        await lhs(send)
        guard !Task.isCancelled else { return }
        await rhs(send)
      })
  }

  /// The effects this one merges (or concatenates): its parts when it is one, else itself.
  private func parts(isMerge: Bool) -> [Self] {
    switch self.operation {
    case let .merge(effects) where isMerge: return effects
    case let .concatenate(effects) where !isMerge: return effects
    case let .run(_, run, _):
      guard let fused = run.fused, fused.isMerge == isMerge else { return [self] }
      return fused.parts as! [Self]
    default: return [self]
    }
  }

  /// What the effect is made of: a `run` fused from others is the merge or concatenation it
  /// was made from. What a store starts, a recording names and a transformation rebuilds.
  var structure: Operation {
    guard case let .run(_, run, _) = self.operation, let fused = run.fused else {
      return self.operation
    }
    let parts = fused.parts as! [Self]
    return fused.isMerge ? .merge(parts) : .concatenate(parts)
  }

  /// Transforms all actions that this effect sends back into the store.
  ///
  /// - Parameter transform: A mapping function that converts the effect's actions.
  /// - Returns: An effect that sends the transformed actions.
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    switch self.structure {
    case .none:
      return .none
    case let .send(action, site):
      return Effect<T>(operation: .send(transform(action), site))
    case let .run(priority, site, operation):
      return Effect<T>(
        operation: .run(priority, site) { send in
          await operation(Send<Action> { action in send(transform(action)) })
        }
      )
    case let .merge(effects):
      return Effect<T>.merge(effects.map { $0.map(transform) })
    case let .concatenate(effects):
      return Effect<T>.concatenate(effects.map { $0.map(transform) })
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<T>(
        operation: .cancellable(id, cancelInFlight: cancelInFlight, effect.map(transform))
      )
    case let .cancel(target):
      return Effect<T>(operation: .cancel(target))
    }
  }

  /// ``map(_:)``, each asynchronous operation run inside `around`, which is handed the `send`
  /// of the mapped actions: how a presented feature's effects learn to dismiss it.
  func map<T>(
    _ transform: @escaping @Sendable (Action) -> T,
    around: @escaping @Sendable (Send<T>, @Sendable () async -> Void) async -> Void
  ) -> Effect<T> {
    switch self.structure {
    case let .run(priority, site, operation):
      return Effect<T>(
        operation: .run(priority, site) { send in
          await around(send) {
            await operation(Send<Action> { action in send(transform(action)) })
          }
        }
      )
    case let .merge(effects):
      return Effect<T>.merge(effects.map { $0.map(transform, around: around) })
    case let .concatenate(effects):
      return Effect<T>.concatenate(effects.map { $0.map(transform, around: around) })
    case let .cancellable(id, cancelInFlight, effect):
      return Effect<T>(
        operation: .cancellable(
          id, cancelInFlight: cancelInFlight, effect.map(transform, around: around))
      )
    case .none, .send, .cancel:
      return self.map(transform)
    }
  }

  /// Whether the effect finishes as soon as the store has started it: it only sends actions
  /// immediately or cancels other effects, and has no asynchronous work.
  var isSynchronous: Bool {
    switch self.operation {
    case .none, .send, .cancel:
      return true
    case .run:
      return false
    case let .merge(effects), let .concatenate(effects):
      return effects.allSatisfy(\.isSynchronous)
    case let .cancellable(_, _, effect):
      return effect.isSynchronous
    }
  }
}
