import Foundation

// Foundation writes an object's keys sorted by their UTF-8 bytes; the stream writer writes them
// as they come and sorts an object's members when it closes, only if they came out of order.

extension JSONStreamWriter {
  /// Whether `left`'s key sorts before `right`'s, by the keys' UTF-8 bytes as Foundation sorts
  /// them.
  func precedes(_ left: Member, _ right: Member) -> Bool {
    if left.escapedKey != nil || right.escapedKey != nil {
      return self.keyBytes(left).lexicographicallyPrecedes(self.keyBytes(right))
    }
    return self.output.withUnsafeBufferPointer { bytes in
      let leftKey = UnsafeBufferPointer(rebasing: bytes[(left.start + 1)..<(left.keyEnd - 1)])
      let rightKey = UnsafeBufferPointer(rebasing: bytes[(right.start + 1)..<(right.keyEnd - 1)])
      let common = min(leftKey.count, rightKey.count)
      if common > 0, let leftBase = leftKey.baseAddress, let rightBase = rightKey.baseAddress {
        let order = memcmp(leftBase, rightBase, common)
        if order != 0 { return order < 0 }
      }
      return leftKey.count < rightKey.count
    }
  }

  private func keyBytes(_ member: Member) -> [UInt8] {
    if let key = member.escapedKey { return Array(key.utf8) }
    return Array(self.output[(member.start + 1)..<(member.keyEnd - 1)])
  }

  /// Moves the members of an object about to close into key order, keeping only the last value
  /// of a key set twice, as Foundation's dictionary does.
  func sortMembers(of frame: Frame) {
    let first = frame.firstMember
    let end = self.output.count
    var spans: [(member: Member, end: Int)] = []
    spans.reserveCapacity(frame.count)
    for offset in 0..<frame.count {
      let member = self.members[first + offset]
      // NB: Every member but the last is followed by a comma.
      let memberEnd =
        offset + 1 < frame.count ? self.members[first + offset + 1].start - 1 : end
      spans.append((member, memberEnd))
    }
    var order = Array(spans.indices)
    order.sort { left, right in
      if self.precedes(spans[left].member, spans[right].member) { return true }
      if self.precedes(spans[right].member, spans[left].member) { return false }
      return left < right
    }
    // NB: A key that does not sort before the next one is the same key: the later value wins.
    let kept = order.indices.filter { position in
      position + 1 == order.count
        || self.precedes(spans[order[position]].member, spans[order[position + 1]].member)
    }.map { order[$0] }
    let regionStart = frame.start + 1
    self.scratch.removeAll(keepingCapacity: true)
    self.scratch.append(contentsOf: self.output[regionStart..<end])
    self.output.removeLast(end - regionStart)
    for (position, index) in kept.enumerated() {
      if position > 0 { self.output.append(UInt8(ascii: ",")) }
      let span = spans[index]
      self.output.append(
        contentsOf: self.scratch[(span.member.start - regionStart)..<(span.end - regionStart)])
    }
  }

  /// Whether the object `handle`, whose last member was just begun, had a member for `key`
  /// before it.
  func hasEarlierMember(_ handle: FrameHandle, key: String) -> Bool {
    guard handle.depth >= 0, handle.depth < self.frames.count else { return false }
    let frame = self.frames[handle.depth]
    let last = frame.firstMember + frame.count - 1
    let bytes = Array(key.utf8)
    for index in frame.firstMember..<last {
      let member = self.members[index]
      if let escaped = member.escapedKey {
        if escaped == key { return true }
      } else if self.output[(member.start + 1)..<(member.keyEnd - 1)].elementsEqual(bytes) {
        return true
      }
    }
    return false
  }
}
