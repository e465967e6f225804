/// Makes a struct a feature's reducer, or an enum a reducer of one feature at a time.
///
/// On a struct, it adds the ``Reducer`` conformance, `@CasePathable` to `Action` (and
/// `@CasePathable @dynamicMemberLookup` to an enum `State`), the ``ReducerBuilder`` attribute to
/// `body`, and what is missing of `State`, `Action` and `body`:
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Codable, Equatable {
///     var count = 0
///   }
///   enum Action: Codable, Equatable {
///     case incrementButtonTapped
///   }
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       state.count += 1
///       return .none
///     }
///   }
/// }
/// ```
///
/// On an enum whose cases each hold a feature, it makes `State` and `Action` enums of the
/// features' and a `body` that runs the feature of the current case: the destinations of a
/// ``PresentationState`` or the screens of a stack.
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case edit(EditItem)
///   case alert(AlertState<Alert>)
/// }
/// ```
///
/// A case holding an ``AlertState`` or a ``ConfirmationDialogState`` gets no reducer (its
/// actions are its buttons'); a case of several values, or marked ``ReducerCaseIgnored()``, holds
/// them as they are and has no actions.
@attached(extension, conformances: Reducer, CaseReducer)
@attached(
  member, names: named(State), named(Action), named(body), named(_$bodyCache), named(reduce))
@attached(memberAttribute)
public macro Reducer() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerMacro")

/// ``Reducer()`` on an enum of features, with conformances for the `State` and `Action` it
/// makes: `@Reducer(state: .codable, .equatable, action: .codable, .equatable)`.
@attached(extension, conformances: Reducer, CaseReducer)
@attached(
  member, names: named(State), named(Action), named(body), named(_$bodyCache), named(reduce))
@attached(memberAttribute)
public macro Reducer(
  state: _SynthesizedConformance...,
  action: _SynthesizedConformance...
) = #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerMacro")

/// A conformance ``Reducer(state:action:)`` adds to the `State` or `Action` it makes.
public enum _SynthesizedConformance {
  /// `Codable`: what a recording needs.
  case codable
  /// `Decodable`.
  case decodable
  /// `Encodable`.
  case encodable
  /// `Equatable`: what a `TestStore` needs of state.
  case equatable
  /// `Hashable`.
  case hashable
  /// `Sendable`.
  case sendable
}

/// Marks a feature's state, struct or enum, as observable: it conforms to ``ObservableState``,
/// and a struct's stored `var`s tell observers when they are written (see
/// ``ObservationStateTracked()``). On a struct it also lists the stored properties, by which a recording
/// names the field a ``BindingAction`` writes, and works out what changed from one value to the
/// next (``StepChanges/_StepChanging``), which a recorder writes without encoding the state.
/// A state that says nothing of `Codable` gets the `Codable` conformance a recording needs, as
/// `@Reducer` gives the types of a feature (see ``_RecordCodec()``).
@attached(
  extension, conformances: ObservableState, _BindableFields, _StepChanging, _JSONEncodable,
  _JSONDecodable, Decodable, Encodable, CustomReflectable, _ObservedProperties,
  names: named(_$bindableFields), named(_$observedProperties), named(_$storage(of:)),
  named(_appendStepChanges),
  named(_isIdentical),
  named(_encodeJSON), named(init(_json:at:)), named(init(from:)), named(encode(to:)),
  named(customMirror))
@attached(
  member,
  names: named(init(_json:at:)), named(_$observationRegistrar), named(_$id), named(_$willModify),
  named(CodingKeys))
@attached(memberAttribute)
public macro ObservableState() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservableStateMacro")

/// Generates, for a struct or enum whose `Codable` conformance is synthesized, the code that
/// writes its JSON as that conformance does, which a recording uses in its place
/// (``StepChanges/_JSONEncodable``). ``Reducer()`` puts it on a feature's `Action`;
/// ``ObservableState()`` writes the same code.
@attached(
  extension, conformances: _JSONEncodable, _JSONDecodable, names: named(_encodeJSON),
  named(init(_json:at:)))
@attached(member, names: named(init(_json:at:)))
public macro _GeneratedCodec() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "GeneratedCodecMacro")

/// Generates, for a struct or enum that does not say it is `Codable`, a `Codable` conformance in
/// the shape synthesized `Codable` would have: what lets a recording of a feature written as
/// TCA's apps write it replay. ``Reducer()`` puts it on a feature's `State` and `Action` and the
/// types declared in the feature; it puts itself on the types declared inside those. A member
/// whose type cannot be read back (not `Decodable`, not reached by a macro) is still recorded;
/// replaying throws ``RecordCodingError``, which names it and what to add. A type that is
/// `Codable` elsewhere keeps its own conformance.
@attached(
  extension, conformances: Decodable, Encodable, _JSONEncodable, _JSONDecodable, _BindableFields,
  names: named(init(from:)), named(encode(to:)), named(_encodeJSON), named(init(_json:at:)),
  named(_$bindableFields))
@attached(memberAttribute)
public macro _RecordCodec() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "RecordCodecMacro")

/// ``_RecordCodec()`` on a type declared inside one that has it: the same, a level deeper (an
/// expansion may not expand its own macro again).
@attached(
  extension, conformances: Decodable, Encodable, _JSONEncodable, _JSONDecodable, _BindableFields,
  names: named(init(from:)), named(encode(to:)), named(_encodeJSON), named(init(_json:at:)),
  named(_$bindableFields))
@attached(memberAttribute)
public macro _RecordCodec1() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "RecordCodecMacro")

/// ``_RecordCodec()`` two levels deeper.
@attached(
  extension, conformances: Decodable, Encodable, _JSONEncodable, _JSONDecodable, _BindableFields,
  names: named(init(from:)), named(encode(to:)), named(_encodeJSON), named(init(_json:at:)),
  named(_$bindableFields))
@attached(memberAttribute)
public macro _RecordCodec2() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "RecordCodecMacro")

/// ``_RecordCodec()`` three levels deeper, the last.
@attached(
  extension, conformances: Decodable, Encodable, _JSONEncodable, _JSONDecodable, _BindableFields,
  names: named(init(from:)), named(encode(to:)), named(_encodeJSON), named(init(_json:at:)),
  named(_$bindableFields))
@attached(memberAttribute)
public macro _RecordCodec3() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "RecordCodecMacro")

/// Marks a case of a ``Reducer()`` enum whose state is data presented without a reducer.
@attached(peer)
public macro ReducerCaseEphemeral() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerCaseEphemeralMacro")

/// Marks a case of a ``Reducer()`` enum that holds a value, not a feature: no reducer runs for
/// it and it has no actions.
@attached(peer)
public macro ReducerCaseIgnored() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ReducerCaseIgnoredMacro")

/// Marks a property of ``ObservableState()`` state that observers need not track: it stays a
/// stored property, and writing it tells no one.
@attached(peer)
public macro ObservationStateIgnored() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservationStateIgnoredMacro")

/// What ``ObservableState()`` puts on each stored `var` of a struct state: the property becomes
/// accessors over `_name` storage that tell the state's observers of each read and write.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_))
public macro ObservationStateTracked() =
  #externalMacro(module: "ComposableArchitectureMacros", type: "ObservationStateTrackedMacro")
