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
    public static func send(
      _ action: Action, animation: Animation?, fileID: StaticString = #fileID,
      line: UInt = #line
    ) -> Self {
      .send(action, fileID: fileID, line: line)
    }
  }

  extension Store {
    /// Sends an action with an animation for the view: here the state changes at once (see
    /// ``Animation``).
    @discardableResult
    public func send(
      _ action: Action, animation: Animation?, fileID: StaticString = #fileID,
      line: UInt = #line
    ) -> StoreTask {
      self.send(action, fileID: fileID, line: line)
    }
  }
#endif
