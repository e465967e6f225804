import ActionLogScan

// The records an export carries over as they were, each before the next kept action: call
// sites, and shared values' changes and places.

extension ExportWriter {
  /// Writes every site record due before the recording's action `seq` (all that are left, for
  /// `nil`), as written: the actions keep their numbers (`via`), and a record an action left
  /// out named comes before the next kept one.
  func appendSites(before seq: Int?) throws {
    while let next = self.sitesLeft.first, seq.map({ next.after < $0 }) ?? true {
      self.sitesLeft.removeFirst()
      self.append(try self.rewriting(next.line, replacing: [:]))
    }
  }

  /// Sorts the shared records: those with an action's places go with the action; the rest are
  /// written before the next kept action. With a cut, the places of the state the export starts
  /// from, the last ones at or before the cut, are written first.
  func prepareShared() throws {
    let recording = self.recording
    let cut = self.selection.cut
    var actionPlaces: [Int: LineRange] = [:]
    self.sharedLeft = try recording.sharedLines.filter { shared in
      guard try recording.sharedRecordHasActionPlaces(shared.line) else {
        return shared.seq >= cut
      }
      actionPlaces[shared.seq] = shared.line
      return false
    }[...]
    self.actionPlaces = actionPlaces
    if cut > 0,
      !(try self.sharedLeft.contains {
        try $0.seq == cut && recording.sharedRecordHasPlaces($0.line)
      }),
      let places = try recording.sharedLines.last(where: {
        try $0.seq < cut && recording.sharedRecordHasPlaces($0.line)
      })
    {
      self.append(try self.rewriting(places.line, replacing: ["seq": Array("0".utf8)]))
    }
  }

  /// Writes every shared record due before the recording's action `seq` (all that are left,
  /// for `nil`) as following the new recording's action `number`: a change between two kept
  /// actions still happens before the second. A shared value's change is hidden when the export
  /// redacts the state more.
  func appendShared(before seq: Int?, as number: Int) throws {
    let hidesValues = !self.options.redactions.state.isEmpty
    while let next = self.sharedLeft.first, seq.map({ next.seq < $0 }) ?? true {
      self.sharedLeft.removeFirst()
      var replacements = ["seq": Array(String(number).utf8)]
      if hidesValues, !(try self.recording.sharedRecordHasPlaces(next.line)) {
        replacements["value"] = Array(#""‹redacted shared value›""#.utf8)
      }
      self.append(try self.rewriting(next.line, replacing: replacements))
    }
  }

  /// The places of the values of the recording's action `seq`, under its new number.
  func appendActionPlaces(of seq: Int, as number: Int) throws {
    guard let places = self.actionPlaces[seq] else { return }
    self.append(try self.rewriting(places, replacing: ["seq": Array(String(number).utf8)]))
  }
}
