import ActionLog
import ComposableArchitecture
import ExampleFeatures
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // Overload: a loop sending as fast as it can to a store on a 1,000-todo state that records
  // with step changes. The writer cannot keep up; its queue's bound (in bytes of what the waiting
  // records hold) paces the sender. The resident memory must grow by about the bound, not with
  // the sends, and every action the store took must be in the file.

  @MainActor
  static func overload(scratch: URL, sends: Int) throws {
    print(
      "Overload: \(sends) sends as fast as a loop can, to a store on a 1,000-todo state"
        + " recording with step changes")
    var big = Todos.State()
    for index in 0..<1_000 {
      big.todos.append(Todo.State(description: "todo \(index)", id: UUID(index)))
    }
    let url = scratch.appendingPathComponent("overload.actionlog")
    try? FileManager.default.removeItem(at: url)
    let options = LogWriter.Options(syncPolicy: .never)
    let recorder = try RecorderOf<Todos>(
      url: url, feature: "todos", initialState: big, options: options)
    let store = Store(initialState: big) {
      Todos().recording(to: recorder)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
    let before = residentBytes()
    var peak = before
    let start = ContinuousClock.now
    for index in 0..<sends {
      store.send(
        .todos(
          .element(id: UUID((index * 37) % 1_000), action: .textFieldChanged("edit \(index)"))))
      if index % 1_000 == 0 { peak = max(peak, residentBytes()) }
    }
    let sent = ContinuousClock.now - start
    peak = max(peak, residentBytes())
    try recorder.close()
    let written = try Recording(contentsOf: url).count
    let bound = options.maximumPendingBytes
    self.figure(
      "sends", format(sent),
      String(format: "%.0f sends/s: the writer's pace", Double(sends) / sent.seconds))
    self.figure(
      "peak RSS growth", megabytes(peak - before) + " MB",
      "bound \(megabytes(bound)) MB of waiting records: "
        + (peak - before <= bound * 3 / 2 ? "within" : "NOT within")
        + " (the bound, and the writer's own buffers)")
    self.figure(
      "in the file", "\(written) actions",
      written == sends ? "every action the store took" : "MISSING \(sends - written)")
    print()
  }

  /// The process's resident memory, in bytes, from `/proc/self/statm`.
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
