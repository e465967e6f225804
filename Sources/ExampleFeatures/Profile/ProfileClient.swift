import ComposableArchitecture
import Foundation

/// Saves a profile's name: a client declared with `@DependencyClient`, used from other modules.
@DependencyClient
public struct ProfileClient: Sendable {
  /// Saves the name; returns it as the server keeps it.
  public var save: @Sendable (_ name: String) async throws -> String
}

extension ProfileClient: DependencyKey {
  /// Trims the name, as a server would.
  public static let liveValue = ProfileClient(
    save: { name in name.trimmingCharacters(in: .whitespaces) }
  )
  public static let testValue = ProfileClient()
}

extension DependencyValues {
  /// The profile client.
  public var profileClient: ProfileClient {
    get { self[ProfileClient.self] }
    set { self[ProfileClient.self] = newValue }
  }
}
