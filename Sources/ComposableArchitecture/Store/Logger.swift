import StepChanges

/// What stores did in their lifetime, as lines (`"StoreOf<Counter>.init"`,
/// `"Store<(), ()>.deinit"`), while ``isEnabled``: for tests that check when a store is made and
/// when it goes away.
@_spi(Logging) @MainActor
public final class Logger {
  /// The one logger every store writes to.
  public static let shared = Logger()

  /// Whether stores log; off until a test turns it on.
  public var isEnabled = false

  /// The lines logged since the last ``clear()``, oldest first.
  public private(set) var logs: [String] = []

  /// Appends `line` when logging is enabled (`line` is not evaluated otherwise).
  public func log(_ line: @autoclosure () -> String) {
    guard self.isEnabled else { return }
    self.logs.append(line())
  }

  /// Forgets the lines logged so far.
  public func clear() {
    self.logs = []
  }
}

/// How a log line names a store: `StoreOf<Feature>` when its state and action are a feature's,
/// else `Store<State, Action>`, each type named without its module.
func storeTypeName<State, Action>(of _: Store<State, Action>.Type) -> String {
  let state = typeNameWithoutModules(State.self)
  let action = typeNameWithoutModules(Action.self)
  if state.hasSuffix(".State"), action.hasSuffix(".Action"),
    state.dropLast(".State".count) == action.dropLast(".Action".count)
  {
    return "StoreOf<\(state.dropLast(".State".count))>"
  }
  return "Store<\(state), \(action)>"
}

/// `type`'s qualified name with the module that begins each qualified name taken off:
/// `Optional<Parent.State>` for `Swift.Optional<App.Parent.State>`; `Optional` with its generic
/// arguments abbreviated, as TCA's warnings name a parent's state.
func typeNameWithoutModules(_ type: Any.Type, genericsAbbreviated: Bool = false) -> String {
  let name = nameWithoutModules(type)
  guard genericsAbbreviated, let open = name.firstIndex(of: "<"),
    let close = name.lastIndex(of: ">"),
    open < close
  else { return name }
  return String(name[..<open]) + String(name[name.index(after: close)...])
}

private func nameWithoutModules(_ type: Any.Type) -> String {
  let qualified = _stableTypeName(type)
  var result = ""
  var name = ""
  var dropsModule = true
  func flush() {
    if dropsModule, let dot = name.firstIndex(of: ".") {
      name = String(name[name.index(after: dot)...])
    }
    result += name
    name = ""
  }
  for character in qualified {
    if character.isLetter || character.isNumber || character == "_" || character == "." {
      name.append(character)
    } else {
      flush()
      result.append(character)
    }
  }
  flush()
  return result
}
