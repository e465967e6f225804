import SwiftSyntax
import SwiftSyntaxMacros

/// `@ReducerCaseEphemeral`: marks a case of a `@Reducer` enum whose state is data with no
/// reducer of its own (an alert, a dialog). `@Reducer` reads the mark; the macro writes nothing.
public enum ReducerCaseEphemeralMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@ReducerCaseIgnored`: marks a case of a `@Reducer` enum that holds a value, not a feature:
/// no child reducer runs for it and it has no actions. `@Reducer` reads the mark.
public enum ReducerCaseIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@ObservationStateIgnored`: a property of `@ObservableState` state that observers need not
/// see. Stores observe a state as a whole here, so the mark changes nothing.
public enum ObservationStateIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
