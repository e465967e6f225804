import ActionLog
import ComposableArchitecture

// The effect ledger: what each action's reducer returned, as an action record's `yields`
// (see the LogFormat article), and back.

extension EffectShape {
  /// The shape as a recording holds it; `nil` for ``none``, which is left out.
  public var ledgerJSON: JSONValue? {
    switch self {
    case .none: return nil
    case .send: return "send"
    case .run(let site): return ["run": .string(site.qualifiedDescription)]
    case .merge(let effects): return ["merge": .array(effects.map { $0.ledgerJSON ?? "none" })]
    case .concatenate(let effects):
      return ["concatenate": .array(effects.map { $0.ledgerJSON ?? "none" })]
    case .cancellable(let id, let cancelInFlight, let effect):
      var members: [String: JSONValue] = [
        "id": .string(id.description), "effect": effect.ledgerJSON ?? "none",
      ]
      if cancelInFlight { members["cancelInFlight"] = true }
      return ["cancellable": .object(members)]
    case .cancel(let id): return ["cancel": .string(id.description)]
    }
  }

  /// The shape a recording holds: `nil` JSON is ``none``.
  ///
  /// - Throws: ``EffectLedgerError`` for JSON that is not a shape.
  public init(ledgerJSON json: JSONValue?) throws {
    guard let json else {
      self = .none
      return
    }
    switch json {
    case "none": self = .none
    case "send": self = .send
    case .object(let members) where members.count == 1:
      let (key, value) = members.first!
      switch (key, value) {
      case ("run", .string(let text)):
        guard let colon = text.lastIndex(of: ":"),
          let line = UInt(text[text.index(after: colon)...])
        else { throw EffectLedgerError(json: json) }
        self = .run(CallSite(fileID: String(text[..<colon]), line: line))
      case ("merge", .array(let effects)):
        self = .merge(try effects.map { try Self(ledgerJSON: $0) })
      case ("concatenate", .array(let effects)):
        self = .concatenate(try effects.map { try Self(ledgerJSON: $0) })
      case ("cancellable", .object(let fields)):
        guard case .string(let id)? = fields["id"] else { throw EffectLedgerError(json: json) }
        self = .cancellable(
          id: EffectID(id), cancelInFlight: fields["cancelInFlight"] == true,
          try Self(ledgerJSON: fields["effect"]))
      case ("cancel", .string(let id)): self = .cancel(id: EffectID(id))
      default: throw EffectLedgerError(json: json)
      }
    default:
      throw EffectLedgerError(json: json)
    }
  }
}

/// A recorded effect that is not a shape this reader knows.
public struct EffectLedgerError: Error, Equatable, CustomStringConvertible {
  /// The JSON.
  public let json: JSONValue
  /// The action whose record holds it, when known.
  public var step: Int?

  init(json: JSONValue, step: Int? = nil) {
    self.json = json
    self.step = step
  }

  public var description: String {
    let text = self.json.text
    let shown = text.count > 80 ? String(text.prefix(80)) + "…" : text
    return """
      \(self.step.map { "Action \($0)'s recorded effects" } ?? "A recorded effect") (\(shown)) \
      \(self.step == nil ? "is" : "are") not an effect shape this reader knows: the recording \
      was damaged, or written by a newer ComposableReplay. verify --integrity checks it; \
      effects: .ignore compares states only.
      """
  }
}

/// Where the effects today's reducer returns for an action differ from the recorded ones.
public struct EffectMismatch: Sendable, Equatable, CustomStringConvertible {
  /// The action's step.
  public let step: Int
  /// What the recording says the reducer returned.
  public let recorded: EffectShape
  /// What today's reducer returns.
  public let replayed: EffectShape

  /// Both sides, as a diff: `− run at Todos.swift:80` above `+ none`.
  public var description: String {
    "− \(self.recorded)\n+ \(self.replayed)"
  }
}

/// Whether a replay compares the effects today's reducer returns with the recorded ones.
public enum EffectComparison: Sendable {
  /// Compare them, when the recording has a ledger: a dropped or changed effect is a divergence.
  case compare
  /// Compare states only.
  case ignore
}
