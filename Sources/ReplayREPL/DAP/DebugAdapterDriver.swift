import ActionLog
import Foundation
import TimeTravel

/// The debugger driven in process, for `replay-bench` to time beside the REPL
/// (`InterpreterDriver`): requests go straight to the adapter, with no pipe between.
@_spi(Benchmarks) public final class DebugAdapterDriver {
  private var sent: [JSONValue] = []
  private let catalog: FeatureCatalog
  private lazy var adapter = DebugAdapter(catalog: self.catalog) { [unowned self] in
    self.sent.append($0)
  }
  private var seq = 0

  /// An adapter whose `replay` has `features`.
  public init(features: [ReplayFeature]) {
    self.catalog = FeatureCatalog(features)
  }

  /// Handles a request; returns the messages it sent (the response and any events).
  public func request(_ command: String, _ arguments: JSONValue = [:]) -> [JSONValue] {
    self.seq += 1
    let body: JSONValue = [
      "seq": .integer(Int64(self.seq)), "type": "request", "command": .string(command),
      "arguments": arguments,
    ]
    self.sent = []
    self.adapter.handle(body.bytes)
    return self.sent
  }
}
