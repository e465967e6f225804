import ReplayREPL
import Spending
import TimeTravel
import Wallet

ReplayCommand.main(features: [
  ReplayFeature("wallet") { Wallet() },
  ReplayFeature("payees") { Payees() },
  ReplayFeature("allowance") { Allowance() },
])
