import ComposableArchitectureMacros
import MacroTesting
import Testing

/// `@Reducer`'s whole expansion for each shape of feature TCA's documentation writes, and each
/// diagnostic.
// NB: The case marks, which expand to nothing, are left unexpanded to show where they go.
@Suite(.macros(["Reducer": ReducerMacro.self]))
struct ReducerMacroTests {
  @Test func aStructFeature() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        @ObservableState
        struct State: Equatable {
          var count = 0
        }
        enum Action {
          case incrementButtonTapped
        }
        var body: some ReducerOf<Self> {
          Reduce { state, action in
            state.count += 1
            return .none
          }
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ObservableState
        @ComposableArchitecture._RecordCodec
        struct State: Equatable {
          var count = 0
        }
        @ComposableArchitecture._RecordCodec @CasePathable
        enum Action {
          case incrementButtonTapped
        }
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          Reduce { state, action in
            state.count += 1
            return .none
          }
        }

        let _$bodyCache = ComposableArchitecture._ReducerBodyCache<Self>()

        func reduce(into state: inout State, action: Action) -> ComposableArchitecture.Effect<Action> {
          self._$bodyCache.body(of: self).reduce(into: &state, action: action)
        }
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func anEnumStateIsCasePathableWithDynamicMemberLookup() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        enum State {
          case loading
          case loaded(Int)
        }
        enum Action {
        }
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableArchitecture._RecordCodec @CasePathable @dynamicMemberLookup
        enum State {
          case loading
          case loaded(Int)
        }
        @ComposableArchitecture._RecordCodec @CasePathable
        enum Action {
        }
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }

        let _$bodyCache = ComposableArchitecture._ReducerBodyCache<Self>()

        func reduce(into state: inout State, action: Action) -> ComposableArchitecture.Effect<Action> {
          self._$bodyCache.body(of: self).reduce(into: &state, action: action)
        }
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func whatIsAlreadyWrittenIsNotWrittenAgain() {
    assertMacro {
      """
      @Reducer
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        enum State {
        }
        enum Action: CasePathable {
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }
      }
      """
    } expansion: {
      """
      struct Feature: Reducer, Sendable {
        @CasePathable
        @dynamicMemberLookup
        @ComposableArchitecture._RecordCodec
        enum State {
        }
        @ComposableArchitecture._RecordCodec
        enum Action: CasePathable {
        }
        @ReducerBuilder<State, Action>
        var body: some ReducerOf<Self> {
          EmptyReducer()
        }

        let _$bodyCache = ComposableArchitecture._ReducerBodyCache<Self>()

        func reduce(into state: inout State, action: Action) -> ComposableArchitecture.Effect<Action> {
          self._$bodyCache.body(of: self).reduce(into: &state, action: action)
        }
      }
      """
    }
  }

  @Test func aPublicFeatureWithNothingGetsPublicStubs() {
    assertMacro {
      """
      @Reducer
      public struct Feature {
      }
      """
    } expansion: {
      """
      public struct Feature {

          @ObservableState
          public struct State: Codable, Equatable, Hashable, Sendable {
            public init() {
            }
          }

          public enum Action: Equatable, Hashable, Sendable {
          }

          public let body = ComposableArchitecture.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func aBodyThatNamesItsTypesGetsNoStubs() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableArchitecture.ReducerBuilder<Int, Bool>
        var body: some Reducer<Int, Bool> { EmptyReducer() }
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
    assertMacro {
      """
      @Reducer
      struct Feature {
        var body: some ReducerOf<Base> { EmptyReducer() }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableArchitecture.ReducerBuilder<Base.State, Base.Action>
        var body: some ReducerOf<Base> { EmptyReducer() }
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func aReduceMethodIsABody() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action { case tapped }
        func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
          .none
        }
      }
      """
    } expansion: {
      """
      struct Feature {
        @ComposableArchitecture._RecordCodec
        struct State {}
        @ComposableArchitecture._RecordCodec @CasePathable
        enum Action { case tapped 
      }
        func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
          .none
        }
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func availabilityReachesTheConformance() {
    assertMacro {
      """
      @available(macOS 14, *)
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        let body = EmptyReducer<State, Action>()
      }
      """
    } expansion: {
      """
      @available(macOS 14, *)
      struct Feature {
        @ComposableArchitecture._RecordCodec
        struct State {}
        @ComposableArchitecture._RecordCodec @CasePathable
        enum Action {}
        let body = EmptyReducer<State, Action>()
      }

      @available(macOS 14, *) extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func aReduceMethodBesideABodyIsAnError() {
    assertMacro {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
          .none
        }
        var body: some ReducerOf<Self> {
          Reduce(self.reduce)
        }
      }
      """
    } diagnostics: {
      """
      @Reducer
      struct Feature {
        struct State {}
        enum Action {}
        func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
             ╰─ 🛑 A 'reduce' method should not be defined in a reducer with a 'body': it takes precedence and 'body' will never be invoked
          .none
        }
        var body: some ReducerOf<Self> {
          Reduce(self.reduce)
        }
      }
      """
    }
  }

  @Test func aClassIsAnErrorWithAFixIt() {
    assertMacro {
      """
      @Reducer
      class Feature {
      }
      """
    } diagnostics: {
      """
      @Reducer
      class Feature {
      ┬────
      ╰─ 🛑 '@Reducer' can only be applied to a struct (a feature) or an enum (of features)
         ✏️ Make it a struct: a reducer is a value
      }
      """
    } fixes: {
      """
      @Reducer
      struct Feature {
      }
      """
    } expansion: {
      """
      struct Feature {

          @ObservableState
          struct State: Codable, Equatable, Hashable, Sendable {
            init() {
            }
          }

          enum Action: Equatable, Hashable, Sendable {
          }

          let body = ComposableArchitecture.EmptyReducer<State, Action>()
      }

      extension Feature: ComposableArchitecture.Reducer {
      }
      """
    }
  }

  @Test func anActorIsAnError() {
    assertMacro {
      """
      @Reducer
      actor Feature {
      }
      """
    } diagnostics: {
      """
      @Reducer
      ╰─ 🛑 '@Reducer' can only be applied to a struct (a feature) or an enum (of features)
      actor Feature {
      }
      """
    }
  }

  @Test func anEnumOfFeatures() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        case edit(EditItem)
        case detail(Nested.Detail)
        case alert(AlertState<Alert>)
        case dialog(ConfirmationDialogState<Dialog>)
        case meeting(Meeting, syncUp: SyncUp)
        @ReducerCaseIgnored
        case link(URL)

        enum Alert {
          case confirmDeletion
        }
      }
      """
    } expansion: {
      #"""
      enum Destination {
        case edit(EditItem)
        case detail(Nested.Detail)
        @ReducerCaseEphemeral
        case alert(AlertState<Alert>)
        @ReducerCaseEphemeral
        case dialog(ConfirmationDialogState<Dialog>)
        @ReducerCaseIgnored
        case meeting(Meeting, syncUp: SyncUp)
        @ReducerCaseIgnored
        case link(URL)
        @ComposableArchitecture._RecordCodec

        enum Alert {
          case confirmDeletion
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        @ComposableArchitecture._RecordCodec
        enum State: ComposableArchitecture.CaseReducerState {
          typealias StateReducer = Destination
          case edit(EditItem.State)
          case detail(Nested.Detail.State)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          case meeting(Meeting, syncUp: SyncUp)
          case link(URL)
        }

        @CasePathable
        @ComposableArchitecture._RecordCodec
        enum Action {
          case edit(EditItem.Action)
          case detail(Nested.Detail.Action)
          case alert(Alert)
          case dialog(Dialog)
          case meeting(Swift.Never)
          case link(Swift.Never)
        }

        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        static var body: ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>._Sequence<ComposableArchitecture.Scope<Self.State, Self.Action, EditItem>, ComposableArchitecture.Scope<Self.State, Self.Action, Nested.Detail>> {
          ComposableArchitecture.Scope(state: \Self.State.Cases.edit, action: \Self.Action.Cases.edit) {
            EditItem()
          }
          ComposableArchitecture.Scope(state: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
            Nested.Detail()
          }
        }
      }

      extension Destination: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }

  /// SyncUps' `SyncUpDetail.Destination`: an `Action` of its own, whose alert case carries the
  /// alert's actions; TCA uses it, and the body scopes into it.
  @Test func anEnumOfFeaturesWithItsOwnAction() {
    assertMacro {
      """
      @Reducer
      enum Destination {
        @ReducerCaseIgnored case alert(AlertState<Alert>)
        case edit(SyncUpForm)

        @CasePathable
        enum Action {
          case alert(Alert)
          case edit(SyncUpForm.Action)
        }
      }
      """
    } expansion: {
      #"""
      enum Destination {
        @ReducerCaseIgnored case alert(AlertState<Alert>)
        case edit(SyncUpForm)

        @CasePathable
        @ComposableArchitecture._RecordCodec
        enum Action {
          case alert(Alert)
          case edit(SyncUpForm.Action)
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        @ComposableArchitecture._RecordCodec
        enum State: ComposableArchitecture.CaseReducerState {
          typealias StateReducer = Destination
          case alert(AlertState<Alert>)
          case edit(SyncUpForm.State)
        }

        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        static var body: ComposableArchitecture.Scope<Self.State, Self.Action, SyncUpForm> {
          ComposableArchitecture.Scope(state: \Self.State.Cases.edit, action: \Self.Action.Cases.edit) {
            SyncUpForm()
          }
        }
      }

      extension Destination: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }

  /// TicTacToe's root feature: a `body` of its own, which a builder builds.
  @Test func anEnumOfFeaturesWithItsOwnBody() {
    assertMacro {
      #"""
      @Reducer
      public enum TicTacToe {
        case login(Login)
        case newGame(NewGame)

        public static var body: some ReducerOf<Self> {
          Scope(state: \.login, action: \.login) { Login() }
          Scope(state: \.newGame, action: \.newGame) { NewGame() }
        }
      }
      """#
    } expansion: {
      #"""
      public enum TicTacToe {
        case login(Login)
        case newGame(NewGame)
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>

        public static var body: some ReducerOf<Self> {
          Scope(state: \.login, action: \.login) { Login() }
          Scope(state: \.newGame, action: \.newGame) { NewGame() }
        }

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        @ComposableArchitecture._RecordCodec
        public enum State: ComposableArchitecture.CaseReducerState {
          public typealias StateReducer = TicTacToe
          case login(Login.State)
          case newGame(NewGame.State)
        }

        @CasePathable
        @ComposableArchitecture._RecordCodec
        public enum Action {
          case login(Login.Action)
          case newGame(NewGame.Action)
        }
      }

      extension TicTacToe: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }

  @Test func anEnumOfFeaturesWithConformancesAndADefaultFeature() {
    assertMacro {
      """
      @Reducer(state: .codable, .equatable, action: .codable, .equatable)
      public enum Path {
        case detail(Detail)
        case meeting(Meeting = Meeting(context: .sheet))
      }
      """
    } expansion: {
      #"""
      public enum Path {
        case detail(Detail)
        case meeting(Meeting = Meeting(context: .sheet))

        @CasePathable
        @dynamicMemberLookup
        @ObservableState
        public enum State: ComposableArchitecture.CaseReducerState, Codable, Equatable {
          public typealias StateReducer = Path
          case detail(Detail.State)
          case meeting(Meeting.State)
        }

        @CasePathable
        @ComposableArchitecture._GeneratedCodec
        public enum Action: Codable, Equatable {
          case detail(Detail.Action)
          case meeting(Meeting.Action)
        }

        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        public static var body: ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>._Sequence<ComposableArchitecture.Scope<Self.State, Self.Action, Detail>, ComposableArchitecture.Scope<Self.State, Self.Action, Meeting>> {
          ComposableArchitecture.Scope(state: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) {
            Detail()
          }
          ComposableArchitecture.Scope(state: \Self.State.Cases.meeting, action: \Self.Action.Cases.meeting) {
            Meeting(context: .sheet)
          }
        }
      }

      extension Path: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """#
    }
  }

  @Test func anEmptyEnum() {
    assertMacro {
      """
      @Reducer
      enum Destination {
      }
      """
    } expansion: {
      """
      enum Destination {

          @CasePathable
          @dynamicMemberLookup
          @ObservableState
          @ComposableArchitecture._RecordCodec
          enum State: ComposableArchitecture.CaseReducerState {
            typealias StateReducer = Destination

          }

          @CasePathable
          @ComposableArchitecture._RecordCodec
          enum Action {

          }

          @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
          static var body: ComposableArchitecture.EmptyReducer<Self.State, Self.Action> {
            ComposableArchitecture.EmptyReducer<Self.State, Self.Action>()
          }
      }

      extension Destination: ComposableArchitecture.CaseReducer, ComposableArchitecture.Reducer {
      }
      """
    }
  }
}
