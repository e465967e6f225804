import Foundation
import Testing
import Wallet

@Test func convertingReadsTheRateThroughTheEnvironment() {
  let environment = WalletEnvironment(
    now: { Date(timeIntervalSince1970: 60) },
    environment: ExchangeRates(rate: { $0 == "EUR" ? 0.5 : 1 })
  )
  let converted = environment.convert(10, to: "EUR")
  #expect(converted.amount == 5)
  #expect(converted.at == Date(timeIntervalSince1970: 60))
}

@Test func anUnimplementedClockReportsAnIssueWhenRead() {
  let environment = WalletEnvironment.unimplemented(environment: ExchangeRates(rate: { _ in 2 }))
  withKnownIssue {
    let converted = environment.convert(3, to: "USD")
    #expect(converted.amount == 6)
    #expect(converted.at == Date(timeIntervalSince1970: 0))
  } matching: { issue in
    issue.description.contains("WalletEnvironment.now")
  }
}
