/// Yields to other tasks until `condition` holds or `timeout` has passed; returns whether it held.
///
/// The timeout counts only the time in which tasks could run. Each round of waiting goes through
/// the global executor and back to the main actor; a round that takes longer than
/// `_pollRoundLimit` found them busy with other work (other tests, on a loaded machine), in which
/// an effect waiting to run could not run either, and counts as `_pollRoundLimit`.
@MainActor
func _poll(timeout: Duration, until condition: () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  var waited = Duration.zero
  var last = clock.now
  while !condition() {
    guard waited < timeout else { return false }
    await Task.megaYield()
    if !condition() {
      try? await Task.sleep(for: .microseconds(200))
      await Task.detached {}.value
    }
    let now = clock.now
    waited += min(now - last, _pollRoundLimit)
    last = now
  }
  return true
}

/// The most that one round of ``_poll(timeout:until:)`` counts: far more than a round takes when
/// tasks run as soon as they can (under a millisecond).
let _pollRoundLimit = Duration.milliseconds(5)
