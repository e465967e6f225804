import ReplayREPL
import TimeTravel
import Wallet

ReplayCommand.main(features: [
  ReplayFeature("wallet") { Wallet() },
  ReplayFeature("payees") { Payees() },
])
