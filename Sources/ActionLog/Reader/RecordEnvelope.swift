import ActionLogScan

/// A record's envelope: its kind, sequence number, and an action's time and trigger, which is
/// what a scan needs to index it. Read without decoding where the payload starts as this
/// library writes it (`{"kind":"action","seq":12,"source":"effect","time":3400,"trigger":11,…`),
/// by the C reader in `ActionLogScan`; decoded otherwise.
struct RecordEnvelope {
  /// The record's kind, or `nil` for a kind this reader does not know (named by `kindName`).
  var kind: RecordKind?
  var kindName: String
  var seq: Int?
  /// An action's or the end's time.
  var time: Int64?
  /// An effect action's trigger.
  var trigger: Int?

  /// The envelope fields, decoded in full when the fast path does not apply.
  struct Decoded: Decodable {
    var kind: String
    var seq: Int?
    var time: Int64?
    var trigger: Int?
  }

  init(_ record: Decoded) {
    self.kind = RecordKind(rawValue: record.kind)
    self.kindName = record.kind
    self.seq = record.seq
    self.time = record.time
    self.trigger = record.trigger
  }

  /// The envelope as this library writes it, read without decoding; `nil` when the payload
  /// does not start that way.
  init?(fastPathOf payload: UnsafeRawBufferPointer) {
    guard let base = payload.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
    self.init(base, count: payload.count)
  }

  /// The envelope at the start of a payload, comparing bytes and allocating nothing; `nil` when
  /// the payload does not start as this library writes it.
  init?(_ payload: UnsafePointer<UInt8>, count: Int) {
    var envelope = als_envelope()
    guard als_read_envelope(payload, count, &envelope) == 1,
      let kind = RecordKind(scanKind: envelope.kind)
    else { return nil }
    self.kind = kind
    self.kindName = kind.rawValue
    // NB: A site record's number is not a sequence number.
    self.seq = kind == .site ? nil : Int(envelope.seq)
    self.time = envelope.time >= 0 ? envelope.time : nil
    self.trigger = envelope.trigger >= 0 ? Int(clamping: envelope.trigger) : nil
  }
}

extension RecordKind {
  /// The kind the C scanner's `ALS_KIND_*` constant stands for: the one mapping between them.
  init?(scanKind: Int32) {
    switch scanKind {
    case Int32(ALS_KIND_ACTION): self = .action
    case Int32(ALS_KIND_CHECKPOINT): self = .checkpoint
    case Int32(ALS_KIND_NOTE): self = .note
    case Int32(ALS_KIND_END): self = .end
    case Int32(ALS_KIND_SITE): self = .site
    case Int32(ALS_KIND_SHARED): self = .shared
    default: return nil
    }
  }
}
