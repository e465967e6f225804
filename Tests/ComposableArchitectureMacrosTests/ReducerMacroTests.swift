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
        enum State: ComposableArchitecture.CaseReducerState, CasePathable, CasePathIterable, ComposableArchitecture.ObservableState, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          typealias StateReducer = Destination
          case edit(EditItem.State)
          case detail(Nested.Detail.State)
          case alert(AlertState<Alert>)
          case dialog(ConfirmationDialogState<Dialog>)
          case meeting(Meeting, syncUp: SyncUp)
          case link(URL)
          init(from decoder: any Swift.Decoder) throws {
              let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
              switch caseKey.stringValue {
              case "edit":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .edit(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "detail":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .detail(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "alert":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .alert(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "dialog":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .dialog(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "meeting":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .meeting(try ComposableArchitecture._RecordCoding.decode(values, "_0"), syncUp: try ComposableArchitecture._RecordCoding.decode(values, "syncUp"))
              case "link":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .link(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              default:
                throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
              }
            }
          func encode(to encoder: any Swift.Encoder) throws {
              var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              switch self {
              case let .edit(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("edit"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .detail(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("detail"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .alert(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("alert"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .dialog(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("dialog"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .meeting(v0, v1):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("meeting"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
                try ComposableArchitecture._RecordCoding.encode(v1, to: &values, "syncUp")
              case let .link(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("link"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              default:
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
              }
            }
          func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .edit(v0):
                var object = json.enumCase("edit")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .detail(v0):
                var object = json.enumCase("detail")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .alert(v0):
                var object = json.enumCase("alert")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .dialog(v0):
                var object = json.enumCase("dialog")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .meeting(v0, v1):
                var object = json.enumCase("meeting")
                try json.member("_0", v0, in: &object)
                try json.member("syncUp", v1, in: &object)
                json.endCase(object)
              case let .link(v0):
                var object = json.enumCase("link")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
          init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
              let (key, value) = try reader.soleMember(ofObject: index)
              try reader.requireObject(at: value)
              if reader.key(key, is: "edit") {
                self = .edit(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "detail") {
                self = .detail(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "alert") {
                self = .alert(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "dialog") {
                self = .dialog(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "meeting") {
                self = .meeting(try reader.member("_0", of: value), syncUp: try reader.member("syncUp", of: value));
                return
            }
              if reader.key(key, is: "link") {
                self = .link(try reader.member("_0", of: value));
                return
            }
              throw ComposableArchitecture._JSONUnsupported()
            }
        }

        @CasePathable
        enum Action: CasePathable, CasePathIterable, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          case edit(EditItem.Action)
          case detail(Nested.Detail.Action)
          case alert(Alert)
          case dialog(Dialog)
          case meeting(Swift.Never)
          case link(Swift.Never)
          init(from decoder: any Swift.Decoder) throws {
              let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
              switch caseKey.stringValue {
              case "edit":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .edit(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "detail":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .detail(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "alert":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .alert(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "dialog":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .dialog(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "meeting":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .meeting(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "link":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .link(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              default:
                throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
              }
            }
          func encode(to encoder: any Swift.Encoder) throws {
              var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              switch self {
              case let .edit(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("edit"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .detail(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("detail"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .alert(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("alert"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .dialog(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("dialog"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .meeting(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("meeting"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .link(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("link"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              default:
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
              }
            }
          func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .edit(v0):
                var object = json.enumCase("edit")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .detail(v0):
                var object = json.enumCase("detail")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .alert(v0):
                var object = json.enumCase("alert")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .dialog(v0):
                var object = json.enumCase("dialog")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .meeting(v0):
                var object = json.enumCase("meeting")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .link(v0):
                var object = json.enumCase("link")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
          init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
              let (key, value) = try reader.soleMember(ofObject: index)
              try reader.requireObject(at: value)
              if reader.key(key, is: "edit") {
                self = .edit(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "detail") {
                self = .detail(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "alert") {
                self = .alert(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "dialog") {
                self = .dialog(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "meeting") {
                self = .meeting(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "link") {
                self = .link(try reader.member("_0", of: value));
                return
            }
              throw ComposableArchitecture._JSONUnsupported()
            }
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
        enum State: ComposableArchitecture.CaseReducerState, CasePathable, CasePathIterable, ComposableArchitecture.ObservableState, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          typealias StateReducer = Destination
          case alert(AlertState<Alert>)
          case edit(SyncUpForm.State)
          init(from decoder: any Swift.Decoder) throws {
              let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
              switch caseKey.stringValue {
              case "alert":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .alert(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "edit":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .edit(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              default:
                throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
              }
            }
          func encode(to encoder: any Swift.Encoder) throws {
              var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              switch self {
              case let .alert(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("alert"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .edit(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("edit"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              default:
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
              }
            }
          func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .alert(v0):
                var object = json.enumCase("alert")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .edit(v0):
                var object = json.enumCase("edit")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
          init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
              let (key, value) = try reader.soleMember(ofObject: index)
              try reader.requireObject(at: value)
              if reader.key(key, is: "alert") {
                self = .alert(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "edit") {
                self = .edit(try reader.member("_0", of: value));
                return
            }
              throw ComposableArchitecture._JSONUnsupported()
            }
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
        public enum State: ComposableArchitecture.CaseReducerState, CasePathable, CasePathIterable, ComposableArchitecture.ObservableState, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          public typealias StateReducer = TicTacToe
          case login(Login.State)
          case newGame(NewGame.State)
          public init(from decoder: any Swift.Decoder) throws {
              let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
              switch caseKey.stringValue {
              case "login":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .login(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "newGame":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .newGame(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              default:
                throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
              }
            }
          public func encode(to encoder: any Swift.Encoder) throws {
              var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              switch self {
              case let .login(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("login"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .newGame(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("newGame"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              default:
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
              }
            }
          public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .login(v0):
                var object = json.enumCase("login")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .newGame(v0):
                var object = json.enumCase("newGame")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
          public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
              let (key, value) = try reader.soleMember(ofObject: index)
              try reader.requireObject(at: value)
              if reader.key(key, is: "login") {
                self = .login(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "newGame") {
                self = .newGame(try reader.member("_0", of: value));
                return
            }
              throw ComposableArchitecture._JSONUnsupported()
            }
        }

        @CasePathable
        public enum Action: CasePathable, CasePathIterable, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          case login(Login.Action)
          case newGame(NewGame.Action)
          public init(from decoder: any Swift.Decoder) throws {
              let container = try decoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              let caseKey = try ComposableArchitecture._RecordCoding.soleKey(of: container, in: Self.self)
              switch caseKey.stringValue {
              case "login":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .login(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              case "newGame":
                let values = try container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: caseKey)
                self = .newGame(try ComposableArchitecture._RecordCoding.decode(values, "_0"))
              default:
                throw ComposableArchitecture._RecordCoding.unknownCase(caseKey, of: Self.self, container)
              }
            }
          public func encode(to encoder: any Swift.Encoder) throws {
              var container = encoder.container(keyedBy: ComposableArchitecture._RecordCodingKey.self)
              switch self {
              case let .login(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("login"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              case let .newGame(v0):
                var values = container.nestedContainer(keyedBy: ComposableArchitecture._RecordCodingKey.self, forKey: .init("newGame"))
                try ComposableArchitecture._RecordCoding.encode(v0, to: &values, "_0")
              default:
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, encoder.codingPath)
              }
            }
          public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .login(v0):
                var object = json.enumCase("login")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .newGame(v0):
                var object = json.enumCase("newGame")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
          public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
              let (key, value) = try reader.soleMember(ofObject: index)
              try reader.requireObject(at: value)
              if reader.key(key, is: "login") {
                self = .login(try reader.member("_0", of: value));
                return
            }
              if reader.key(key, is: "newGame") {
                self = .newGame(try reader.member("_0", of: value));
                return
            }
              throw ComposableArchitecture._JSONUnsupported()
            }
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
        public enum State: ComposableArchitecture.CaseReducerState, Codable, Equatable, CasePathable, CasePathIterable, ComposableArchitecture.ObservableState, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          public typealias StateReducer = Path
          case detail(Detail.State)
          case meeting(Meeting.State)
          public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
            let (key, value) = try reader.soleMember(ofObject: index)
            try reader.requireObject(at: value)
            if reader.key(key, is: "detail") {
              self = .detail(try reader.member("_0", of: value, as: (Detail.State).self));
              return
          }
            if reader.key(key, is: "meeting") {
              self = .meeting(try reader.member("_0", of: value, as: (Meeting.State).self));
              return
          }
            throw ComposableArchitecture._JSONUnsupported()
          }
          public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .detail(v0):
                var object = json.enumCase("detail")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .meeting(v0):
                var object = json.enumCase("meeting")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
        }

        @CasePathable
        public enum Action: Codable, Equatable, CasePathable, CasePathIterable, ComposableArchitecture._JSONEncodable, ComposableArchitecture._JSONDecodable {
          case detail(Detail.Action)
          case meeting(Meeting.Action)
          public init(_json reader: ComposableArchitecture._JSONReader, at index: Int) throws {
            let (key, value) = try reader.soleMember(ofObject: index)
            try reader.requireObject(at: value)
            if reader.key(key, is: "detail") {
              self = .detail(try reader.member("_0", of: value, as: (Detail.Action).self));
              return
          }
            if reader.key(key, is: "meeting") {
              self = .meeting(try reader.member("_0", of: value, as: (Meeting.Action).self));
              return
          }
            throw ComposableArchitecture._JSONUnsupported()
          }
          public func _encodeJSON(into json: inout ComposableArchitecture._JSONBuffer) throws {
              switch self {
              case let .detail(v0):
                var object = json.enumCase("detail")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              case let .meeting(v0):
                var object = json.enumCase("meeting")
                try json.member("_0", v0, in: &object)
                json.endCase(object)
              default:
                throw ComposableArchitecture._JSONUnsupported()
              }
            }
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
          enum State: ComposableArchitecture.CaseReducerState, CasePathable, CasePathIterable, ComposableArchitecture.ObservableState, Swift.Codable {
            typealias StateReducer = Destination
            init(from decoder: any Swift.Decoder) throws {
                throw ComposableArchitecture._RecordCoding.noCase(Self.self, decoder.codingPath)
              }
            func encode(to encoder: any Swift.Encoder) throws {

              }
          }

          @CasePathable
          enum Action: CasePathable, CasePathIterable, Swift.Codable {
            init(from decoder: any Swift.Decoder) throws {
              throw ComposableArchitecture._RecordCoding.noCase(Self.self, decoder.codingPath)
            }
            func encode(to encoder: any Swift.Encoder) throws {

              }
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
