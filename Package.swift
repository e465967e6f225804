// swift-tools-version: 6.1

import CompilerPluginSupport
import PackageDescription

let package = Package(
  name: "ComposableReplay",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "ComposableArchitecture", targets: ["ComposableArchitecture"]),
    // For test targets only: it links the test frameworks (see "Use it in your package").
    .library(name: "ComposableArchitectureTesting", targets: ["ComposableArchitectureTesting"]),
    .library(name: "ActionLog", targets: ["ActionLog"]),
    .library(name: "ExampleFeatures", targets: ["ExampleFeatures"]),
    .library(name: "TimeTravel", targets: ["TimeTravel"]),
    .library(name: "ReplayREPL", targets: ["ReplayREPL"]),
    .library(name: "ReplayViewer", targets: ["ReplayViewer"]),
    .library(name: "ReplayTesting", targets: ["ReplayTesting"]),
    .executable(name: "replay", targets: ["replay"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // Schedulers for the deprecated `debounce`/`throttle(…, scheduler:)`, as TCA's; on Linux
    // through OpenCombine (both come with swift-dependencies already).
    .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.2.2"),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // The macros' compiler plugin; the versions swift-case-paths and swift-dependencies accept.
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.1"..<"604.0.0"),
  ],
  targets: [
    .target(
      name: "ComposableArchitecture",
      dependencies: [
        "ComposableArchitectureMacros",
        "StepChanges",
        "SwiftUINavigation",
        .product(name: "CasePaths", package: "swift-case-paths"),
        .product(name: "Clocks", package: "swift-clocks"),
        .product(name: "CombineSchedulers", package: "combine-schedulers"),
        .product(
          name: "OpenCombineShim", package: "OpenCombine",
          condition: .when(platforms: [.linux, .android])),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "DependenciesMacros", package: "swift-dependencies"),
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
        // NB: Not imported here: built so that a feature file's `import XCTestDynamicOverlay`
        // (TCA's apps still write it) finds the module, as TCA's dependency graph provides it.
        .product(name: "XCTestDynamicOverlay", package: "xctest-dynamic-overlay"),
      ]
    ),
    // `@Reducer`, `@ObservableState` and the reducer-case markers, as a compiler plugin.
    .macro(
      name: "ComposableArchitectureMacros",
      dependencies: [
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
        .product(name: "SwiftDiagnostics", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
      ]
    ),
    .target(
      name: "ComposableArchitectureTesting",
      dependencies: [
        "ComposableArchitecture",
        // NB: Starts the XCTest observer that expected failures on Linux end with.
        "ComposableArchitectureTestingLoader",
        // NB: Clears the dependencies' cached defaults as each XCTest test starts.
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
        // NB: What records a test store's run, which the test store finds at run time.
        "TimeTravel",
      ]
    ),
    .target(name: "ComposableArchitectureTestingLoader"),
    .target(name: "CRC32C"),
    // The byte-level reading of records that opening a recording does a million times over.
    .target(name: "ActionLogScan", dependencies: ["CRC32C"]),
    .target(
      name: "ActionLog",
      dependencies: ["ActionLogScan", "CRC32C", "StepChanges"]
    ),
    // What the macros' generated code and the log both see: the sink a state's changes go to.
    .target(name: "StepChanges"),
    // `import SwiftUINavigation`, as TCA's apps write it: its types are the architecture's here,
    // and it re-exports Foundation as TCA's does (through SwiftUI) on Apple's systems.
    .target(name: "SwiftUINavigation"),
    .target(
      name: "TimeTravel",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "StepChanges",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .systemLibrary(
      name: "CLibEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    // zlib, for the compressed data a recording's HTML page carries.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // A recording as one self-contained HTML page: from the log alone, no reducer.
    .target(
      name: "ReplayViewer",
      dependencies: ["ActionLog", "CZlib"],
      resources: [
        .embedInCode("Page/viewer.html"),
        .embedInCode("Page/viewer.css"),
        .embedInCode("Page/viewer.js"),
      ]
    ),
    .target(
      name: "ReplayREPL",
      dependencies: [
        "ActionLog",
        "CLibEdit",
        "ComposableArchitecture",
        "ReplayTestGeneration",
        "ReplayViewer",
        "StepChanges",
        "TimeTravel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .target(
      name: "ReplayTesting",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ComposableArchitectureTesting",
        "ReplayTestGeneration", "TimeTravel",
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ],
      path: "Sources/ReplayTesting/Assertions"
    ),
    // The source of a regression test, apart from assertReplay so that `replay export-test`
    // writes tests without linking the test frameworks ReplayTesting brings.
    .target(
      name: "ReplayTestGeneration",
      dependencies: ["ActionLog"],
      path: "Sources/ReplayTesting/Generation"
    ),
    .executableTarget(
      name: "replay",
      dependencies: [
        "ComposableArchitecture", "ExampleFeatures", "ExampleSchemas", "ReplayREPL", "TimeTravel",
      ]
    ),
    .executableTarget(
      name: "replay-bench",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ExampleFeatures", "ExampleSchemas", "ReplayREPL", "ReplayViewer",
        "StepChanges", "TimeTravel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    // Hostile recordings through the real commands: Tools/fuzz.
    .executableTarget(
      name: "replay-fuzz",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ExampleFeatures", "ExampleSchemas", "ReplayREPL",
        "TimeTravel",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The record decoder under libFuzzer (Tools/fuzz-decoder), or replaying a corpus.
    .executableTarget(name: "decode-fuzz", dependencies: ["ActionLog"]),
    .executableTarget(
      name: "record-samples",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ExampleFeatures", "ExampleSchemas", "TimeTravel",
      ]
    ),
    .executableTarget(
      name: "record-stress",
      dependencies: ["ActionLog", "ComposableArchitecture", "ExampleFeatures", "TimeTravel"]
    ),
    .target(
      name: "ExampleFeatures",
      dependencies: ["ComposableArchitecture", "ExampleContactDetail", "ExampleModels"]
    ),
    // One feature in a module of its own, as an app splits them: the contact's screen, pushed
    // by the Contacts example, whose tests link it without the app.
    .target(
      name: "ExampleContactDetail",
      dependencies: ["ComposableArchitecture"]
    ),
    // The models of the example features, as an app keeps them in a module of their own: no
    // `Codable`, no macros.
    .target(name: "ExampleModels"),
    // The example features' schemas (versions and migrations), beside them: the features
    // themselves know nothing of the log format.
    .target(
      name: "ExampleSchemas",
      dependencies: ["ActionLog", "ExampleFeatures"]
    ),
    .target(
      name: "TestSupport",
      dependencies: ["ActionLog", "ComposableArchitecture", .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras")],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "ComposableArchitectureTests",
      dependencies: [
        "ComposableArchitecture",
        "TestSupport",
        "ComposableArchitectureTesting",
        "SwiftUINavigation",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ]
    ),
    .testTarget(
      name: "ComposableArchitectureMacrosTests",
      dependencies: [
        "ComposableArchitectureMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        // NB: `MacroSpec`, which tells an extension macro what a type does not conform to yet.
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ]
    ),
    .testTarget(
      name: "ActionLogTests",
      dependencies: [
        "ActionLog", "ActionLogScan", "StepChanges", "TestSupport",
        .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "TimeTravelTests",
      dependencies: [
        .product(name: "PropertyBased", package: "swift-property-based"),
        "ActionLog",
        "ComposableArchitecture",
        "ExampleFeatures",
        "ExampleSchemas",
        "TestSupport",
        "TimeTravel",
        "ComposableArchitectureTesting",
        "ReplayViewer",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(
      name: "ReplayCommandTests",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ComposableArchitectureTesting", "ExampleFeatures",
        "ExampleSchemas", "ReplayREPL", "TestSupport", "TimeTravel",
      ],
      // The pseudo-terminal driver the tests run with python3.
      exclude: ["Support"]
    ),
    .testTarget(
      name: "ReplayTestingTests",
      dependencies: [
        "ActionLog",
        "ExampleFeatures",
        "ExampleSchemas",
        "ComposableArchitecture",
        "ReplayTesting",
        "TimeTravel",
        "TestSupport",
        "ComposableArchitectureTesting",
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
        .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
      ]
    ),
    .testTarget(
      name: "ExampleFeaturesTests",
      dependencies: [
        "ActionLog",
        "ComposableArchitecture",
        "ExampleFeatures",
        "TestSupport",
        "ComposableArchitectureTesting",
        "TimeTravel",
      ]
    ),
    // The list, stack and search features and their tests again, compiled in the Swift 5
    // language mode: the sources are links to ExampleFeatures' and ExampleFeaturesTests'.
    .testTarget(
      name: "ExampleFeaturesSwift5Tests",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ComposableArchitectureTesting", "ExampleModels",
        "TestSupport", "TimeTravel",
      ],
      swiftSettings: [.swiftLanguageMode(.v5), .define("FEATURES_INLINE")]
    ),
    // A child feature's own tests: its recordings cut out of the app's, replayed without it.
    .testTarget(
      name: "ContactDetailTests",
      dependencies: [
        "ActionLog", "ComposableArchitecture", "ExampleContactDetail", "ReplayTesting", "TimeTravel",
      ]
    ),
    // Builds Tests/UserPackage, a user's package, outside this repository: Tools/test runs it last.
    .testTarget(
      name: "UserPackageTests",
      dependencies: ["ActionLog", "TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
