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

extension ReducerMacro: ScopedExtensionMacro {
  public static func extensions(
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
      // NB: A `body` the enum declares itself builds its reducer, as a struct's does.
      if let variable = member.as(VariableDeclSyntax.self), variable.isStatic,
        let binding = variable.bindings.first,
        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
        binding.accessorBlock != nil, !variable.attributes.contains("ReducerBuilder")
      {
        return ["@ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>"]
      }
      return Self.caseAttributes(for: member, in: enumDecl) + Self.recordCodec(for: member)
    }
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    if let nested = member.as(StructDeclSyntax.self), nested.name.text == "State",
      GeneratedCodecMacro.isSynthesizedEncodable(nested)
    {
      return ["@ComposableArchitecture._GeneratedCodec"]
    }
    if let nested = member.as(EnumDeclSyntax.self) {
      let name = nested.name.text
      guard name == "State" || name == "Action" else { return Self.recordCodec(for: member) }
      var attributes = Self.recordCodec(for: member)
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
    if member.is(StructDeclSyntax.self) {
      return Self.recordCodec(for: member)
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

  /// `@_RecordCodec` for a type declared in a feature that does not say it is `Codable`: its
  /// `State`, its `Action`, the models beside them. Not for a feature declared inside it (its own
  /// `@Reducer` sees to its state and actions).
  static func recordCodec(for member: some DeclSyntaxProtocol) -> [AttributeSyntax] {
    let nested: (any DeclGroupSyntax)? =
      member.as(StructDeclSyntax.self) ?? member.as(EnumDeclSyntax.self)
    guard let nested, !nested.attributes.contains("Reducer") else { return [] }
    return RecordCodecMacro.attributes(forNested: member)
  }

  /// The state and action types a `body` builds a reducer of, from its type: `some Reducer<A,
  /// B>`, `some ReducerOf<Base>`, a stored `let body = EmptyReducer<A, B>()`, or this reducer's
  /// own.
  static func builderTypes(of binding: PatternBindingSyntax) -> (String, String) {
    if binding.typeAnnotation == nil,
      let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
      let specialized = call.calledExpression.as(GenericSpecializationExprSyntax.self),
      specialized.genericArgumentClause.arguments.count == 2
    {
      let arguments = specialized.genericArgumentClause.arguments.map {
        $0.argument.trimmedDescription
      }
      return (arguments[0], arguments[1])
    }
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
      return Self.enumMembers(
        of: enumDecl, conformances: Self.conformances(in: node),
        access: enumDecl.accessPrefix(in: context))
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
    let access = declaration.accessPrefix(in: context)
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
