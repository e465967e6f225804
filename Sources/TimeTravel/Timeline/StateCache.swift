/// States the timeline computed, kept with bounded memory: every state near the current
/// position, and further away only states at spacings that double with the distance, so a
/// jump anywhere replays at most a bounded number of actions from a cached state.
struct StateCache<State> {
  /// How many steps on either side of the position are kept densely.
  let denseRadius: Int
  /// The most states kept at once.
  let capacity: Int
  private(set) var states: [Int: State] = [:]

  init(denseRadius: Int = 32, capacity: Int = 512) {
    self.denseRadius = max(1, denseRadius)
    self.capacity = max(4, capacity)
  }

  var count: Int { self.states.count }

  subscript(step: Int) -> State? {
    self.states[step]
  }

  /// The cached step closest at or before `step`.
  func nearest(atOrBefore step: Int) -> Int? {
    var nearest: Int?
    for cached in self.states.keys where cached <= step && cached > (nearest ?? .min) {
      nearest = cached
    }
    return nearest
  }

  mutating func insert(_ state: State, at step: Int) {
    self.states[step] = state
  }

  /// Drops states that are neither near `position` nor on the thinned grid far from it.
  mutating func thin(around position: Int) {
    // NB: The steps to drop are listed first: removing while iterating the keys would copy
    // the whole cache, which the keys still hold.
    let dropped = self.states.keys.filter { !self.keeps($0, around: position) }
    for step in dropped {
      self.states[step] = nil
    }
    if self.states.count > self.capacity {
      let farthest = self.states.keys.sorted { abs($0 - position) > abs($1 - position) }
      for step in farthest.prefix(self.states.count - self.capacity) {
        self.states[step] = nil
      }
    }
  }

  /// Whether thinning around `position` keeps `step`.
  func keeps(_ step: Int, around position: Int) -> Bool {
    let distance = abs(step - position)
    if distance <= self.denseRadius { return true }
    // Spacing doubles every time the distance doubles past the dense radius.
    var spacing = 2
    var reach = self.denseRadius * 2
    while distance > reach {
      spacing *= 2
      reach *= 2
    }
    return step % spacing == 0
  }
}
