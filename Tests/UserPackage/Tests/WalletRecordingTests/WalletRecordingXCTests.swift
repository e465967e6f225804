import Foundation
import ReplayTesting
import Wallet
import XCTest

final class WalletRecordingXCTests: XCTestCase {
  func testCorrectRecordingReplays() async throws {
    let url = try await recordSession()
    defer { discard(url) }
    try assertReplay(url) { Wallet() }
  }

  func testMistakenRecordingDiverges() async throws {
    let url = try await recordSession()
    defer { discard(url) }
    try assertReplay(url) { Wallet(fee: 1) }
  }
}
