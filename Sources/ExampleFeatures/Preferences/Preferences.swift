import ComposableArchitecture
import Foundation

/// The reader's preferences, kept in a file that every screen of the app shares.
public struct ReadingPreferences: Codable, Equatable, Sendable {
  public var fontSize: Int
  public var theme: String

  public init(fontSize: Int = 14, theme: String = "light") {
    self.fontSize = fontSize
    self.theme = theme
  }
}

extension SharedKey where Self == FileStorageKey<ReadingPreferences>.Default {
  /// The preferences' file, in the app's folder of the temporary directory.
  public static var readingPreferences: Self {
    Self[
      .fileStorage(
        URL(fileURLWithPath: NSTemporaryDirectory())
          .appendingPathComponent("ComposableReplay-example/reading-preferences.json")),
      default: ReadingPreferences()]
  }
}

/// Changes the preferences.
@Reducer
public struct Appearance: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @Shared public var preferences: ReadingPreferences

    public init(preferences: Shared<ReadingPreferences>) {
      self._preferences = preferences
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    case largerTextButtonTapped
    case themePicked(String)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .largerTextButtonTapped:
        state.$preferences.withLock { $0.fontSize += 2 }
        return .none
      case let .themePicked(theme):
        state.$preferences.theme.withLock { $0 = theme }
        return .none
      }
    }
  }
}

/// Shows a page as the preferences say, which it only reads.
@Reducer
public struct Page: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    @SharedReader public var preferences: ReadingPreferences
    public var rendered: [String] = []

    public init(preferences: SharedReader<ReadingPreferences>) {
      self._preferences = preferences
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    case renderButtonTapped
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, _ in
      state.rendered.append("\(state.preferences.theme) \(state.preferences.fontSize)pt")
      return .none
    }
  }
}

/// Two screens sharing the reader's preferences through a file: one changes them, the other
/// reads them, and another program may rewrite the file at any time.
@Reducer
public struct Preferences: Sendable {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var appearance: Appearance.State
    public var page: Page.State

    public init() {
      @Shared(.readingPreferences) var preferences
      self.appearance = Appearance.State(preferences: $preferences)
      self.page = Page.State(preferences: SharedReader($preferences))
    }
  }

  public enum Action: Codable, Equatable, Sendable {
    case appearance(Appearance.Action)
    case page(Page.Action)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.appearance, action: \.appearance) { Appearance() }
    Scope(state: \.page, action: \.page) { Page() }
  }
}
