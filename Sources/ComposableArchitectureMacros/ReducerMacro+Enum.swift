import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

// `@Reducer` on an enum of features: its cases, and the State, Action and body made of them.

/// A case of a `@Reducer` enum, and what it holds.
struct ReducerCase {
  enum Kind {
    /// A feature: `case edit(EditItem)`, scoped to its reducer.
    case feature(type: String, initializer: String)
    /// Data presented with no reducer, whose actions are its buttons':
    /// `case alert(AlertState<Alert>)`.
    case ephemeral(state: String, action: String)
    /// A value with no reducer and no actions: `@ReducerCaseIgnored`, or several values.
    case ignored(parameters: String?)
  }

  let name: String
  let kind: Kind

  init(_ element: EnumCaseElementSyntax, attributes: AttributeListSyntax) {
    self.name = element.name.text
    guard let parameters = element.parameterClause?.parameters else {
      self.kind = .ignored(parameters: nil)
      return
    }
    guard !attributes.contains("ReducerCaseIgnored"), parameters.count == 1,
      let parameter = parameters.first, parameter.firstName == nil
    else {
      self.kind = .ignored(parameters: parameters.trimmedDescription)
      return
    }
    let type = parameter.type
    if ["AlertState", "ConfirmationDialogState"].contains(type.lastNameComponent),
      let action = type.genericArguments.first
    {
      self.kind = .ephemeral(state: type.trimmedDescription, action: action)
    } else if attributes.contains("ReducerCaseEphemeral") {
      self.kind = .ephemeral(state: type.trimmedDescription, action: "Swift.Never")
    } else {
      let initializer =
        parameter.defaultValue?.value.trimmedDescription ?? "\(type.trimmedDescription)()"
      self.kind = .feature(type: type.trimmedDescription, initializer: initializer)
    }
  }

  /// The case of the generated `State`.
  var stateCase: String {
    switch self.kind {
    case .feature(let type, _): "case \(self.name)(\(type).State)"
    case .ephemeral(let state, _): "case \(self.name)(\(state))"
    case .ignored(let parameters?): "case \(self.name)(\(parameters))"
    case .ignored(nil): "case \(self.name)"
    }
  }

  /// The case of the generated `Action`.
  var actionCase: String {
    switch self.kind {
    case .feature(let type, _): "case \(self.name)(\(type).Action)"
    case .ephemeral(_, let action): "case \(self.name)(\(action))"
    case .ignored: "case \(self.name)(Swift.Never)"
    }
  }
}

extension ReducerMacro {
  /// The cases of a `@Reducer` enum, in order.
  static func cases(of declaration: EnumDeclSyntax) -> [ReducerCase] {
    declaration.memberDecls.flatMap { decl -> [ReducerCase] in
      guard let caseDecl = decl.as(EnumCaseDeclSyntax.self) else { return [] }
      return caseDecl.elements.map { ReducerCase($0, attributes: caseDecl.attributes) }
    }
  }

  /// `@ReducerCaseEphemeral` on a case that presents data, `@ReducerCaseIgnored` on one that
  /// holds several values, as TCA marks them.
  static func caseAttributes(
    for member: some DeclSyntaxProtocol, in declaration: EnumDeclSyntax
  ) -> [AttributeSyntax] {
    guard let caseDecl = member.as(EnumCaseDeclSyntax.self), caseDecl.elements.count == 1,
      let element = caseDecl.elements.first,
      !caseDecl.attributes.contains("ReducerCaseEphemeral"),
      !caseDecl.attributes.contains("ReducerCaseIgnored")
    else { return [] }
    switch ReducerCase(element, attributes: caseDecl.attributes).kind {
    case .ephemeral: return ["@ReducerCaseEphemeral"]
    case .ignored(.some): return ["@ReducerCaseIgnored"]
    case .feature, .ignored(nil): return []
    }
  }

  /// The conformances `@Reducer(state: …, action: …)` asks for, by the type they are for.
  static func conformances(in node: AttributeSyntax) -> (state: [String], action: [String]) {
    guard case .argumentList(let arguments)? = node.arguments else { return ([], []) }
    var state: [String] = []
    var action: [String] = []
    var current: String?
    for argument in arguments {
      if let label = argument.label?.text { current = label }
      guard let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
        let conformance = synthesizedConformances[name]
      else { continue }
      if current == "state" { state.append(conformance) }
      if current == "action" { action.append(conformance) }
    }
    return (state, action)
  }

  static let synthesizedConformances = [
    "codable": "Codable", "decodable": "Decodable", "encodable": "Encodable",
    "equatable": "Equatable", "hashable": "Hashable", "sendable": "Sendable",
  ]

  static func enumMembers(
    of declaration: EnumDeclSyntax, conformances: (state: [String], action: [String]),
    access: String
  ) -> [DeclSyntax] {
    let cases = Self.cases(of: declaration)
    let stateInheritance = (["ComposableArchitecture.CaseReducerState"] + conformances.state)
      .joined(separator: ", ")
    // NB: A `Codable` action gets the code that writes and reads its JSON; one that is not,
    // a `Codable` conformance of its own, so that a recording replays.
    let actionCodec: InlineCodec =
      conformances.action.contains { $0 == "Codable" || $0 == "Encodable" }
      ? .generated : conformances.action.contains("Decodable") ? .none : .record
    let stateCodec: InlineCodec =
      conformances.state.contains { ["Codable", "Encodable", "Decodable"].contains($0) }
      ? .generated : .record
    let actionInheritance =
      conformances.action.isEmpty ? "" : ": " + conformances.action.joined(separator: ", ")
    let scopes = cases.compactMap { reducerCase -> String? in
      guard case .feature(_, let initializer) = reducerCase.kind else { return nil }
      return """
        ComposableArchitecture.Scope(\
        state: \\Self.State.Cases.\(reducerCase.name), \
        action: \\Self.Action.Cases.\(reducerCase.name)) {
            \(initializer)
          }
        """
    }
    // NB: Lines after the first of an interpolation are not indented with it.
    let body =
      scopes.isEmpty
      ? "ComposableArchitecture.EmptyReducer<Self.State, Self.Action>()"
      : scopes.joined(separator: "\n  ")
    // NB: The type the builder makes of the scopes, written out: an opaque `some Reducer` would
    // leave `Body` for the compiler to infer, and it would pick `Never` (a reducer with a
    // `reduce` method) over it.
    let features = cases.compactMap { reducerCase -> String? in
      guard case .feature(let type, _) = reducerCase.kind else { return nil }
      return "ComposableArchitecture.Scope<Self.State, Self.Action, \(type)>"
    }
    let bodyType =
      features.dropFirst().reduce(features.first) { accumulated, next in
        "ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>._Sequence<"
          + "\(accumulated ?? ""), \(next)>"
      } ?? "ComposableArchitecture.EmptyReducer<Self.State, Self.Action>"
    var members: [DeclSyntax] = [
      Self.withConformancesInline(
        """
        \(raw: access)enum State: \(raw: stateInheritance) {
          \(raw: access)typealias StateReducer = \(declaration.name.trimmed)
          \(raw: cases.map(\.stateCase).joined(separator: "\n"))
        }
        """,
        attributes: ["@CasePathable", "@dynamicMemberLookup"], isObservableState: true,
        codec: stateCodec)
    ]
    // NB: An `Action` or a `body` the enum declares itself is the one TCA uses: its own
    // actions (`case alert(Alert)` rather than the alert state's), or its own reducer.
    if !declaration.declaresType("Action") {
      members.append(
        Self.withConformancesInline(
          """
          \(raw: access)enum Action\(raw: actionInheritance) {
            \(raw: cases.map(\.actionCase).joined(separator: "\n"))
          }
          """,
          attributes: ["@CasePathable"], isObservableState: false, codec: actionCodec))
    }
    if declaration.bodyProperty == nil {
      members.append(
        """
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        \(raw: access)static var body: \(raw: bodyType) {
          \(raw: body)
        }
        """)
    }
    return members
  }
}
