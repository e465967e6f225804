/// Yields to other tasks until `condition` holds or `timeout` has passed; returns whether it held.
@MainActor
func _poll(timeout: Duration, until condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    await Task.megaYield()
    if !condition() {
      try? await Task.sleep(for: .microseconds(200))
    }
  }
  return true
}
