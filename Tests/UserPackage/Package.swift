// swift-tools-version: 6.1

import PackageDescription

let package = Package(
  name: "Wallet",
  platforms: [.macOS(.v14)],
  dependencies: [
    // ComposableReplay, cloned beside this package.
    .package(path: "../ComposableReplay")
  ],
  targets: [
    // The feature, as the app links it: the architecture and the recorder, no test framework.
    .target(
      name: "Wallet",
      dependencies: [
        .product(name: "ComposableArchitecture", package: "ComposableReplay"),
        .product(name: "TimeTravel", package: "ComposableReplay"),
      ]
    ),
    // The feature's own `replay`: the REPL and the command line over its recordings.
    .executableTarget(
      name: "wallet-replay",
      dependencies: [
        "Wallet", "Spending",
        .product(name: "ReplayREPL", package: "ComposableReplay"),
      ]
    ),
    // Three feature modules sharing the limits: two write them, one only reads them.
    .target(
      name: "Budget",
      dependencies: [.product(name: "ComposableArchitecture", package: "ComposableReplay")]
    ),
    .target(
      name: "Spending",
      dependencies: [
        "Budget", .product(name: "ComposableArchitecture", package: "ComposableReplay"),
      ]
    ),
    .target(
      name: "Summary",
      dependencies: [
        "Budget", .product(name: "ComposableArchitecture", package: "ComposableReplay"),
      ]
    ),
    .testTarget(
      name: "SharingTests",
      dependencies: [
        "Budget", "Spending", "Summary",
        .product(name: "ComposableArchitectureTesting", package: "ComposableReplay"),
      ]
    ),
    // TestStore tests, in Swift Testing or XCTest.
    .testTarget(
      name: "WalletTests",
      dependencies: [
        "Wallet",
        .product(name: "ComposableArchitectureTesting", package: "ComposableReplay"),
      ]
    ),
    // Recordings as regression tests; ReplayTesting brings ComposableArchitectureTesting.
    .testTarget(
      name: "WalletRecordingTests",
      dependencies: [
        "Wallet", "Budget", "Spending",
        .product(name: "ReplayTesting", package: "ComposableReplay"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
