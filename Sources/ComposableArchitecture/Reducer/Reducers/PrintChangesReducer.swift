import CustomDump

extension Reducer {
  /// Enhances a reducer with debug logging of received actions and state mutations.
  ///
  /// ```
  /// received action:
  ///   Counter.Action.incrementButtonTapped
  ///   Counter.State(
  /// -   count: 0
  /// +   count: 1
  ///   )
  /// ```
  ///
  /// > Note: Meant for debugging: the printer dumps the whole state for each action.
  ///
  /// - Parameter printer: A printer for printing debug messages; `nil` prints nothing.
  /// - Returns: A reducer that prints debug messages for all received actions.
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// Prints what a reducer did with each action: used by ``Reducer/_printChanges(_:)``.
public struct _ReducerPrinter<State, Action> {
  private let _printChange: (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// Creates a printer from a function that handles each change.
  public init(
    printChange: @escaping (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void
  ) {
    self._printChange = printChange
  }

  /// Handles one change.
  public func printChange(receivedAction: Action, oldState: State, newState: State) {
    self._printChange(receivedAction, oldState, newState)
  }

  /// A printer that writes the action and a diff of the state, to standard output.
  public static var customDump: Self {
    Self.customDump { Swift.print($0) }
  }

  /// A printer that writes the action and a diff of the state to `write`.
  ///
  /// - Parameter write: Receives the text of each change, without a trailing newline.
  public static func customDump(to write: @escaping (String) -> Void) -> Self {
    Self { receivedAction, oldState, newState in
      var target = "received action:\n"
      CustomDump.customDump(receivedAction, to: &target, indent: 2)
      target.write("\n")
      target.write(prunedDiff(oldState, newState).map { "\($0)\n" } ?? "  (No state changes)\n")
      write(String(target.dropLast()))
    }
  }

  /// A printer that writes only the action's case label, to standard output.
  public static var actionLabels: Self {
    Self.actionLabels { Swift.print($0) }
  }

  /// A printer that writes only the action's case label to `write`.
  public static func actionLabels(to write: @escaping (String) -> Void) -> Self {
    Self { receivedAction, _, _ in
      write("received action: \(_actionLabel(receivedAction))")
    }
  }
}

/// The reducer behind ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  let base: Base
  let printer: _ReducerPrinter<Base.State, Base.Action>?

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let printer = self.printer else {
      return self.base.reduce(into: &state, action: action)
    }
    // NB: Both states hold their shared values by reference: the printer diffs them from the
    // values they had when the action began, kept as the reducer changes them.
    let moments = _SharedHolders.anyExist ? _SharedMomentLine() : nil
    let moment = moments?.mark()
    let oldState = state
    let effects = self.base.reduce(into: &state, action: action)
    _SharedDiffing.$moment.withValue(moment) {
      printer.printChange(receivedAction: action, oldState: oldState, newState: state)
    }
    withExtendedLifetime(moments) {}
    return effects
  }
}

/// The case path of an action without associated values: `Feature.Action.child(.tapped)`.
func _actionLabel(_ action: Any) -> String {
  "\(type(of: action)).\(_caseLabel(action))"
}

private func _caseLabel(_ value: Any) -> String {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return "\(value)" }
  guard let child = mirror.children.first, let label = child.label else { return "\(value)" }
  let payload = Mirror(reflecting: child.value)
  let nested: Any? =
    payload.displayStyle == .enum
    ? child.value
    : Array(payload.children).last { Mirror(reflecting: $0.value).displayStyle == .enum }?.value
  guard let nested else { return label }
  return "\(label)(.\(_caseLabel(nested)))"
}
