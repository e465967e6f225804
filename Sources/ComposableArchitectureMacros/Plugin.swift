import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct ComposableArchitecturePlugin: CompilerPlugin {
  let providingMacros: [any Macro.Type] = [
    ReducerMacro.self,
    ObservableStateMacro.self,
    GeneratedCodecMacro.self,
    RecordCodecMacro.self,
    ObservationStateIgnoredMacro.self,
    ObservationStateTrackedMacro.self,
    ReducerCaseEphemeralMacro.self,
    ReducerCaseIgnoredMacro.self,
  ]
}
