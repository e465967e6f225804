/// What an effect does, as a replay judges it: an ``EffectShape`` without the places its work
/// was written, with concurrent effects in no order.
///
/// Two reducers that return effects of the same behaviour do the same thing, even when a
/// `.run`'s code moved (comment lines above it, a function extracted) or children merged in
/// another order (`CombineReducers` reordered). What does change the behaviour: an effect added
/// or dropped, a cancellation identifier changed, added or dropped, `cancelInFlight` changed, a
/// cancel added or removed, the order of a `concatenate` changed.
///
/// ```swift
/// let recorded = EffectShape.merge([.run(site1), .cancel(id: id)])
/// let replayed = EffectShape.merge([.cancel(id: id), .run(site2)])
/// recorded.behavior == replayed.behavior  // true
/// ```
public indirect enum EffectBehavior: Hashable, Sendable, CustomStringConvertible {
  /// Nothing.
  case none
  /// Feeds an action back at once.
  case send
  /// Asynchronous work, wherever it was written.
  case run
  /// Effects that run at the same time, as a multiset: each behaviour with how many times it
  /// occurs. Never nested in another `merge`, never of fewer than two effects.
  case merge([EffectBehavior: Int])
  /// Effects that run one after the other, in order. Never nested in another `concatenate`,
  /// never of fewer than two effects.
  case concatenate([EffectBehavior])
  /// An effect made cancellable with an identifier.
  case cancellable(id: EffectID, cancelInFlight: Bool, EffectBehavior)
  /// Cancels the in-flight effects with an identifier.
  case cancel(id: EffectID)

  /// `merge(run, cancel(CancelID.sync))`: merged effects in an order of their own, so that
  /// equal behaviours read alike.
  public var description: String {
    switch self {
    case .none: "none"
    case .send: "send"
    case .run: "run"
    case .merge(let counts):
      "merge(\(Self.ordered(counts).map(\.description).joined(separator: ", ")))"
    case .concatenate(let effects):
      "concatenate(\(effects.map(\.description).joined(separator: ", ")))"
    case .cancellable(let id, let cancelInFlight, let effect):
      "cancellable(\(id)\(cancelInFlight ? ", cancelInFlight" : ""), \(effect))"
    case .cancel(let id): "cancel(\(id))"
    }
  }

  /// The behaviours of a multiset, each as many times as it occurs, by their descriptions.
  private static func ordered(_ counts: [EffectBehavior: Int]) -> [EffectBehavior] {
    counts
      .flatMap { behavior, count in repeatElement(behavior, count: count) }
      .sorted { $0.description < $1.description }
  }
}

extension EffectShape {
  /// What the effect does, without its sites and with concurrent effects in no order: what a
  /// replay compares to decide whether today's reducer still behaves as recorded.
  ///
  /// Nested merges are one merge and nested concatenations one concatenation (running `a` and
  /// `merge(b, c)` at once is running `a`, `b` and `c` at once); `none` inside either is left
  /// out, and one effect alone is that effect.
  ///
  /// - Complexity: O(*n* log *n*) in the number of effects in the shape.
  public var behavior: EffectBehavior {
    switch self {
    case .none: return .none
    case .send: return .send
    case .run: return .run
    case .merge(let effects):
      var counts: [EffectBehavior: Int] = [:]
      for effect in effects {
        switch effect.behavior {
        case .none: continue
        case .merge(let nested): counts.merge(nested, uniquingKeysWith: +)
        case let behavior: counts[behavior, default: 0] += 1
        }
      }
      switch counts.values.reduce(0, +) {
      case 0: return .none
      case 1: return counts.keys.first ?? .none
      default: return .merge(counts)
      }
    case .concatenate(let effects):
      let flattened = effects.flatMap { effect -> [EffectBehavior] in
        switch effect.behavior {
        case .none: []
        case .concatenate(let nested): nested
        case let behavior: [behavior]
        }
      }
      switch flattened.count {
      case 0: return .none
      case 1: return flattened[0]
      default: return .concatenate(flattened)
      }
    case .cancellable(let id, let cancelInFlight, let effect):
      return .cancellable(id: id, cancelInFlight: cancelInFlight, effect.behavior)
    case .cancel(let id):
      return .cancel(id: id)
    }
  }

  /// Whether the two effects do the same thing: the comparison every replay uses (verify,
  /// `assertReplay`, `check`, `shrink`, `rerecord`). Sites and the order of merged effects do
  /// not count; see ``EffectBehavior``.
  public func behavesLike(_ other: EffectShape) -> Bool {
    self.behavior == other.behavior
  }
}
