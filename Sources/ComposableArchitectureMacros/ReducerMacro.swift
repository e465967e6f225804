import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: on a struct, the `Reducer` conformance, `@CasePathable` on `Action` (and
/// `@CasePathable @dynamicMemberLookup` on an enum `State`), the `@ReducerBuilder` of `body`,
/// and stubs for a missing `State`, `Action` or `body`; on an enum of features, the `State`,
/// `Action` and `body` that hold one of them at a time.
public enum ReducerMacro {}

// MARK: - Extension: the conformance

extension ReducerMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    let conformances: String
    if declaration.is(EnumDeclSyntax.self) {
      guard !declaration.inherits("CaseReducer") else { return [] }
      conformances = "ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer"
    } else if declaration.is(StructDeclSyntax.self) {
      guard !declaration.inherits("Reducer") else { return [] }
      conformances = "ComposableArchitecture.Reducer"
    } else {
      return []
    }
    let decl: DeclSyntax = """
      \(raw: declaration.availability)extension \(type.trimmed): \(raw: conformances) {
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

// MARK: - Member attributes

extension ReducerMacro: MemberAttributeMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return Self.caseAttributes(for: member, in: enumDecl)
    }
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    if let nested = member.as(StructDeclSyntax.self), nested.name.text == "State",
      GeneratedCodecMacro.isSynthesizedEncodable(nested)
    {
      return ["@ComposableArchitecture._GeneratedCodec"]
    }
    if let nested = member.as(EnumDeclSyntax.self) {
      let name = nested.name.text
      guard name == "State" || name == "Action" else { return [] }
      var attributes: [AttributeSyntax] = []
      // NB: The code that writes its JSON as its synthesized `Codable` does.
      if GeneratedCodecMacro.isSynthesizedEncodable(nested) {
        attributes.append("@ComposableArchitecture._GeneratedCodec")
      }
      if !nested.attributes.contains("CasePathable"), !nested.inherits("CasePathable") {
        attributes.append("@CasePathable")
      }
      if name == "State", !nested.attributes.contains("dynamicMemberLookup") {
        attributes.append("@dynamicMemberLookup")
      }
      return attributes
    }
    if let variable = member.as(VariableDeclSyntax.self), !variable.isStatic,
      let binding = variable.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      binding.accessorBlock != nil,
      !variable.attributes.contains("ReducerBuilder")
    {
      let (state, action) = Self.builderTypes(of: binding)
      return ["@ComposableArchitecture.ReducerBuilder<\(raw: state), \(raw: action)>"]
    }
    return []
  }

  /// The state and action types a `body` builds a reducer of, from its type: `some Reducer<A,
  /// B>`, `some ReducerOf<Base>`, or this reducer's own.
  static func builderTypes(of binding: PatternBindingSyntax) -> (String, String) {
    let type = binding.typeAnnotation?.type
    let base = type?.as(SomeOrAnyTypeSyntax.self)?.constraint ?? type
    if let base {
      let arguments = base.genericArguments
      switch base.lastNameComponent {
      case "Reducer" where arguments.count == 2:
        return (arguments[0], arguments[1])
      case "ReducerOf" where arguments.count == 1 && arguments[0] != "Self":
        return ("\(arguments[0]).State", "\(arguments[0]).Action")
      default:
        break
      }
    }
    return ("Self.State", "Self.Action")
  }
}

// MARK: - Members: stubs and enum reducers

extension ReducerMacro: MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return Self.enumMembers(of: enumDecl, conformances: Self.conformances(in: node))
    }
    guard let structDecl = declaration.as(StructDeclSyntax.self) else {
      context.diagnose(Self.notAStructOrEnum(declaration))
      return []
    }
    return Self.structMembers(of: structDecl, in: context)
  }

  /// A struct's missing `State`, `Action` and `body`, as TCA writes them; the misuse of a
  /// `reduce` method beside a `body` diagnosed.
  static func structMembers(
    of declaration: StructDeclSyntax, in context: some MacroExpansionContext
  ) -> [DeclSyntax] {
    let access = declaration.accessPrefix
    let body = declaration.bodyProperty
    let reduce = declaration.reduceMethod
    if let reduce, let body, !body.decl.isStatic {
      context.diagnose(
        Diagnostic(
          node: reduce.name,
          message: ReducerDiagnostic.reduceBesideBody,
          highlights: [Syntax(body.binding.pattern)]
        ))
    }
    // A body or reduce method that names other types says what State and Action are.
    let bodyNamesTypes =
      body.map { Self.builderTypes(of: $0.binding) != ("Self.State", "Self.Action") } ?? false
    let reduceNamesTypes =
      reduce.map { method in
        let type = method.signature.parameterClause.parameters.first?.type
          .as(AttributedTypeSyntax.self)?.baseType.trimmedDescription
        return type != "State" && type != "Self.State"
      } ?? false
    let namesItsTypes = bodyNamesTypes || reduceNamesTypes
    var members: [DeclSyntax] = []
    if !declaration.declaresType("State"), !namesItsTypes {
      members.append(
        """
        @ObservableState
        \(raw: access)struct State: Codable, Equatable, Hashable, Sendable {
          \(raw: access)init() {
          }
        }
        """)
    }
    if !declaration.declaresType("Action"), !namesItsTypes {
      members.append(
        """
        \(raw: access)enum Action: Equatable, Hashable, Sendable {
        }
        """)
    }
    if body == nil, reduce == nil {
      members.append(
        "\(raw: access)let body = ComposableArchitecture.EmptyReducer<State, Action>()")
    }
    // The body, built once rather than for every action (its builder's key paths and case key
    // paths are made again each time it is read), when the feature has nested `State` and
    // `Action` types and no `reduce` of its own.
    if let body, !body.decl.isStatic, body.binding.accessorBlock != nil, reduce == nil,
      !namesItsTypes, !declaration.declaresType("_$bodyCache")
    {
      members.append(
        """
        let _$bodyCache = ComposableArchitecture._ReducerBodyCache<Self>()
        """)
      members.append(
        """
        \(raw: access)func reduce(\
        into state: inout State, action: Action) -> ComposableArchitecture.Effect<Action> {
          self._$bodyCache.body(of: self).reduce(into: &state, action: action)
        }
        """)
    }
    return members
  }

  static func notAStructOrEnum(_ declaration: some DeclGroupSyntax) -> Diagnostic {
    guard let classDecl = declaration.as(ClassDeclSyntax.self) else {
      return Diagnostic(node: declaration, message: ReducerDiagnostic.notAStructOrEnum)
    }
    return Diagnostic(
      node: classDecl.classKeyword,
      message: ReducerDiagnostic.notAStructOrEnum,
      fixIt: FixIt(
        message: ReducerFixIt.useStruct,
        changes: [
          .replace(
            oldNode: Syntax(classDecl.classKeyword),
            newNode: Syntax(
              TokenSyntax.keyword(
                .struct, leadingTrivia: classDecl.classKeyword.leadingTrivia,
                trailingTrivia: classDecl.classKeyword.trailingTrivia)))
        ]
      )
    )
  }
}

// MARK: - Enum reducers

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
    of declaration: EnumDeclSyntax, conformances: (state: [String], action: [String])
  ) -> [DeclSyntax] {
    let access = declaration.accessPrefix
    let cases = Self.cases(of: declaration)
    let stateInheritance = (["ComposableArchitecture.CaseReducerState"] + conformances.state)
      .joined(separator: ", ")
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
    return [
      """
      @CasePathable
      @dynamicMemberLookup
      @ObservableState
      \(raw: access)enum State: \(raw: stateInheritance) {
        \(raw: access)typealias StateReducer = \(declaration.name.trimmed)
        \(raw: cases.map(\.stateCase).joined(separator: "\n"))
      }
      """,
      """
      @CasePathable\(raw: conformances.action.contains { $0 == "Codable" || $0 == "Encodable" } ? "\n@ComposableArchitecture._GeneratedCodec" : "")
      \(raw: access)enum Action\(raw: actionInheritance) {
        \(raw: cases.map(\.actionCase).joined(separator: "\n"))
      }
      """,
      """
      @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
      \(raw: access)static var body: \(raw: bodyType) {
        \(raw: body)
      }
      """,
    ]
  }
}

// MARK: - Diagnostics

enum ReducerDiagnostic: String, DiagnosticMessage {
  case notAStructOrEnum
  case reduceBesideBody

  var message: String {
    switch self {
    case .notAStructOrEnum:
      "'@Reducer' can only be applied to a struct (a feature) or an enum (of features)"
    case .reduceBesideBody:
      """
      A 'reduce' method should not be defined in a reducer with a 'body': it takes precedence \
      and 'body' will never be invoked
      """
    }
  }

  var diagnosticID: MessageID {
    MessageID(domain: "ComposableArchitectureMacros", id: self.rawValue)
  }

  var severity: DiagnosticSeverity { .error }
}

enum ReducerFixIt: String, FixItMessage {
  case useStruct

  var message: String {
    switch self {
    case .useStruct: "Make it a struct: a reducer is a value"
    }
  }

  var fixItID: MessageID {
    MessageID(domain: "ComposableArchitectureMacros", id: self.rawValue)
  }
}
