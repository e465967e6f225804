#if !canImport(SwiftUI)
  extension Send {
    /// Sends an action with an animation for the view: here the state changes at once (see
    /// ``Animation``).
    public func callAsFunction(_ action: Action, animation: Animation?) {
      self(action)
    }
  }

  extension Effect {
    /// An effect that feeds an action back at once, with an animation for the view: here the
    /// state changes at once (see ``Animation``).
    public static func send(_ action: Action, animation: Animation?) -> Self {
      .send(action)
    }
  }

  extension Store {
    /// Sends an action with an animation for the view: here the state changes at once (see
    /// ``Animation``).
    @discardableResult
    public func send(_ action: Action, animation: Animation?) -> StoreTask {
      self.send(action)
    }
  }
#endif
