extension Result where Failure == any Error {
  /// The value `body` returns, or the error it throws, as an effect gets a response:
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.factResponse(Result { try await self.factClient.fetch(count) }))
  /// }
  /// ```
  ///
  /// - Parameter body: The work whose outcome to keep.
  @_disfavoredOverload
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }
}
