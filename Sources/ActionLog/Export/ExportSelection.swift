/// The first stage of an export: which actions it keeps and the number each gets in the new
/// recording, from a cut (the last actions) or a subset (`replay shrink`).
struct ExportSelection {
  /// The last action left out at the start; 0 without a cut.
  let cut: Int
  /// The kept actions, by their numbers in the recording, in order.
  let kept: [Int]
  /// Whether only some actions are kept, renumbered in order.
  let isSubset: Bool
  /// The new number of each kept action of a subset.
  private let renumbered: [Int: Int]?

  /// The actions `options` keep of `recording`.
  ///
  /// - Throws: ``ActionLogError/noSuchAction(seq:count:)`` for a cut past the end or a subset
  ///   that names an action the recording does not have, or names them out of order.
  init(_ options: ExportOptions, of recording: Recording) throws {
    let subset = options.subset?.actions
    let cut = subset == nil ? options.cut?.after ?? 0 : 0
    guard cut >= 0, cut <= recording.count else {
      throw ActionLogError.noSuchAction(seq: cut, count: recording.count)
    }
    if let subset {
      for (index, seq) in subset.enumerated()
      where seq < 1 || seq > recording.count || index > 0 && seq <= subset[index - 1] {
        throw ActionLogError.noSuchAction(seq: seq, count: recording.count)
      }
    }
    self.cut = cut
    self.isSubset = subset != nil
    self.renumbered = subset.map {
      Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($0.element, $0.offset + 1) })
    }
    self.kept = subset ?? Array(stride(from: cut + 1, through: recording.count, by: 1))
  }

  /// The new number of the recording's action `seq`; `nil` for an action left out.
  func newNumber(_ seq: Int) -> Int? {
    guard let renumbered else { return seq > self.cut ? seq - self.cut : nil }
    return renumbered[seq]
  }
}
