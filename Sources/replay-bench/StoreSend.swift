import ActionLog
import ComposableArchitecture
import ExampleFeatures
import ExampleSchemas
import Foundation
import TimeTravel

#if canImport(Glibc)
  import Glibc
#endif

extension ReplayBench {
  // Store.send on the todos feature with recording off, on with the writer idle, and on with
  // the writer encoding at the same time.

  /// How a round records.
  enum Mode: CaseIterable {
    /// No recorder.
    case off
    /// Recording, with the writer's encoding deferred to `close()`: what the sending thread
    /// itself pays.
    case enqueueOnly
    /// Recording, with the writer encoding on its thread while the store runs.
    case concurrent
    /// As ``concurrent``, without step updates: what working out each action's change costs.
    case withoutUpdates

    /// The writer's options for the mode.
    var options: LogWriter.Options {
      switch self {
      case .enqueueOnly:
        LogWriter.Options(
          syncPolicy: .never, flushInterval: .seconds(3_600), batchSize: .max / 2,
          maximumPendingRecords: .max / 2
        )
      case .off, .concurrent, .withoutUpdates:
        LogWriter.Options(syncPolicy: .never)
      }
    }
  }

  @MainActor
  static func storeSend(scratch: URL, sends: Int, rounds: Int) throws {
    let block = 2_000
    print(
      "Store.send on todos (\(sends) actions per round, in blocks of \(block) sent to each store in"
        + " turn; median of \(rounds) rounds, and of each round's ratio to recording off)"
    )
    let script = self.todosScript(count: sends)
    var timings: [Mode: [Duration]] = [:]
    // NB: Each round's ratio compares stores that took turns in the same second, so what the
    // machine did meanwhile cancels out of it; the median of those ratios is the figure.
    var ratios: [Mode: [Double]] = [:]
    for round in 0..<rounds {
      // One store per mode, all alive at once, take turns at each block of the script: a machine
      // whose speed drifts from second to second (a shared host) slows all three alike.
      var stores: [Mode: (store: StoreOf<Todos>, recorder: RecorderOf<Todos>?)] = [:]
      for mode in Mode.allCases {
        let recorder =
          mode == .off
          ? nil
          : try RecorderOf<Todos>(
            url: scratch.appendingPathComponent("send-\(round)-\(mode).actionlog"),
            feature: "todos",
            initialState: Todos.State(), stepUpdates: mode != .withoutUpdates,
            options: mode.options
          )
        let store = Self.todosStore(recordingTo: recorder)
        stores[mode] = (store, recorder)
      }
      var totals: [Mode: Duration] = [:]
      for (index, start) in stride(from: 0, to: script.count, by: block).enumerated() {
        let actions = script[start..<min(start + block, script.count)]
        // Rotate which mode goes first, so warm-up favours none.
        let modes = Mode.allCases
        for offset in 0..<modes.count {
          let mode = modes[(offset + index + round) % modes.count]
          guard let (store, recorder) = stores[mode] else { continue }
          let start = ContinuousClock.now
          for action in actions {
            store.send(action)
          }
          totals[mode, default: .zero] += ContinuousClock.now - start
          // Untimed: what the writer still has to do waits for no other mode's turn. The busy
          // writer has worked alongside the sends (it wakes every 1,024 records); the idle one
          // encodes the whole block only now.
          try recorder?.flush()
        }
      }
      for (mode, total) in totals {
        timings[mode, default: []].append(total)
        if let off = totals[.off] { ratios[mode, default: []].append(total / off) }
      }
      for (_, recorder) in stores.values { try recorder?.close() }
    }
    let baseline = median(timings[.off] ?? [])
    let enqueueOnly = median(timings[.enqueueOnly] ?? [])
    let concurrent = median(timings[.concurrent] ?? [])
    self.row("recording off", baseline, per: sends)
    let withoutUpdates = median(timings[.withoutUpdates] ?? [])
    for (label, mode, duration) in [
      ("recording on, writer idle", Mode.enqueueOnly, enqueueOnly),
      ("recording on, writer busy", Mode.concurrent, concurrent),
      ("on, busy, no step updates", Mode.withoutUpdates, withoutUpdates),
    ] {
      self.row(label, duration, per: sends)
      let ratio = median(ratios[mode] ?? [])
      self.ratio(
        ratio, goal: "≤ 1.10× recording off", met: ratio <= 1.10,
        note: rangeOfRounds(ratios[mode] ?? [])
      )
    }
    try self.cpuPerRecordedAction(scratch: scratch, script: script, rounds: max(3, rounds / 3))
    print()
  }

  /// The whole CPU a recorded action costs, the sending thread and the writer's together (the
  /// process's user and system time, until the recorder has written everything), against the
  /// same sends with recording off: what recording always on costs a phone's battery.
  @MainActor
  static func cpuPerRecordedAction(scratch: URL, script: [Todos.Action], rounds: Int) throws {
    func cpu() -> Duration {
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      let micros =
        (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000
        + Int64(usage.ru_utime.tv_usec) + Int64(usage.ru_stime.tv_usec)
      return .microseconds(micros)
    }
    var on: [Duration] = []
    var off: [Duration] = []
    for round in 0..<rounds {
      for recording in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let url = scratch.appendingPathComponent("cpu-\(round).actionlog")
        try? FileManager.default.removeItem(at: url)
        let recorder =
          recording
          ? try RecorderOf<Todos>(
            url: url, feature: "todos", initialState: Todos.State(),
            options: LogWriter.Options(syncPolicy: .never))
          : nil
        let store = Self.todosStore(recordingTo: recorder)
        let start = cpu()
        for action in script { store.send(action) }
        try recorder?.close()
        let used = cpu() - start
        if recording { on.append(used) } else { off.append(used) }
      }
    }
    let ratios = zip(on, off).map { $0 / $1 }
    self.row("CPU, recording off", median(off), per: script.count)
    self.row("CPU, recorded (all threads)", median(on), per: script.count)
    self.ratio(
      median(ratios), goal: "≤ 2.5× the unrecorded send", met: median(ratios) <= 2.5,
      note: rangeOfRounds(ratios))
  }

  /// A todos store, recording to `recorder` when there is one, with dependencies that make
  /// every run alike: ids counted from 0, and a clock that does not wait.
  @MainActor
  static func todosStore(recordingTo recorder: RecorderOf<Todos>?) -> StoreOf<Todos> {
    Store(initialState: Todos.State()) {
      if let recorder {
        Todos().recording(to: recorder)
      } else {
        Todos()
      }
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = ImmediateClock()
    }
  }

  /// A session that grows a todo list to 50 items and then edits, filters and re-sorts it.
  static func todosScript(count: Int) -> [Todos.Action] {
    var actions: [Todos.Action] = []
    var ids: [UUID] = []
    var next = 0
    while actions.count < count {
      if ids.count < 50 {
        actions.append(.addTodoButtonTapped)
        ids.insert(UUID(next), at: 0)
        next += 1
      } else {
        let id = ids[actions.count % ids.count]
        switch actions.count % 10 {
        case 0: actions.append(.filterPicked(actions.count % 20 == 0 ? .active : .all))
        case 1: actions.append(.sortCompleted)
        default:
          let text = "item \(actions.count)"
          actions.append(.todos(.element(id: id, action: .textFieldChanged(text))))
        }
      }
    }
    return actions
  }
}
