import Foundation

extension LogWriter {
  /// How much of a rolling recording is kept: the newest actions within an age, a size, or
  /// both (whichever keeps less). The segment being written is always kept, so the disk holds
  /// at most the retention and one segment more.
  public struct Retention: Sendable, Equatable {
    /// Keep the segments that hold the actions of the last `age` (of the recording's time).
    public var age: Duration?
    /// Keep the newest segments that fit in this many bytes.
    public var bytes: Int?

    /// Creates a retention; with neither limit, everything is kept.
    public init(age: Duration? = nil, bytes: Int? = nil) {
      self.age = age
      self.bytes = bytes.map { max(1, $0) }
    }

    /// The actions of the last `minutes` minutes.
    public static func minutes(_ minutes: Int) -> Retention {
      Retention(age: .seconds(60 * max(0, minutes)))
    }

    /// As many of the newest actions as fit in `bytes` bytes.
    public static func bytes(_ bytes: Int) -> Retention {
      Retention(bytes: bytes)
    }

    /// Whichever of the two keeps less.
    public static func both(_ first: Retention, _ second: Retention) -> Retention {
      Retention(
        age: [first.age, second.age].compactMap { $0 }.min(),
        bytes: [first.bytes, second.bytes].compactMap { $0 }.min()
      )
    }
  }

  /// Where a rolling recording writes its segments, and when it starts a new one.
  ///
  /// A new segment starts after a checkpoint, once the current one holds ``segmentBytes`` bytes
  /// or ``segmentDuration`` of time. It is an ordinary recording of its own: its header holds the
  /// state at its start (the checkpoint), its actions are numbered from 1 (the metadata key
  /// `firstAction` says which action of the session that is), its times count from the
  /// session's start, and it ends with an `end` record when the next one has begun. An action fed
  /// back by an effect of an action in an earlier segment keeps its source (`effect`) and loses
  /// its trigger, as in an export that leaves the parent out.
  public struct Rolling: Sendable {
    /// The folder that holds the segments.
    public var directory: URL
    /// The session's name, which every segment's file name starts with.
    public var session: String
    /// How much to keep.
    public var retention: Retention
    /// The size at which a segment is closed; a tenth of the retention's bytes by default.
    public var segmentBytes: Int
    /// The time at which a segment is closed; a tenth of the retention's age by default.
    public var segmentDuration: Duration?

    /// Creates a rolling configuration.
    ///
    /// - Parameters:
    ///   - directory: The folder that holds the segments; it must exist.
    ///   - session: The session's name; ``LogDirectory/newSessionName(feature:startedAt:)`` by
    ///     default.
    ///   - retention: How much to keep.
    ///   - segmentBytes: The size at which a segment is closed; by default a tenth of the
    ///     retention's bytes, or 4 MB.
    ///   - segmentDuration: The time at which a segment is closed; by default a tenth of the
    ///     retention's age.
    public init(
      directory: URL, session: String, retention: Retention,
      segmentBytes: Int? = nil, segmentDuration: Duration? = nil
    ) {
      self.directory = directory
      self.session = session
      self.retention = retention
      self.segmentBytes = max(1, segmentBytes ?? retention.bytes.map { $0 / 10 } ?? (4 << 20))
      self.segmentDuration = segmentDuration ?? retention.age.map { $0 / 10 }
    }
  }
}

/// The segments of rolling recordings in a folder, and what crashes left there.
public enum LogDirectory {
  /// One segment of a rolling recording.
  public struct Segment: Sendable, Equatable, Comparable {
    /// The session it belongs to.
    public var session: String
    /// Its number in the session, from 1.
    public var index: Int
    /// Its file.
    public var url: URL

    public static func < (lhs: Segment, rhs: Segment) -> Bool {
      (lhs.session, lhs.index) < (rhs.session, rhs.index)
    }
  }

  /// The file name of segment `index` of `session`: `SESSION-NNNNNN.actionlog`.
  public static func segmentName(session: String, index: Int) -> String {
    let digits = String(index)
    return
      "\(session)-\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).actionlog"
  }

  /// A new session's name: the feature, the start in UTC to the millisecond (so that names
  /// sort by time), and a random suffix: `todos-20261124T213000.250Z-1a2b3c4d`.
  public static func newSessionName(feature: String, startedAt: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    // NB: With milliseconds: sessions started in the same second (a crash at launch, then the
    // next launch) still sort in the order they started.
    formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
    let safe = String(feature.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
    let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    return "\(safe)-\(formatter.string(from: startedAt))-\(suffix)"
  }

  /// The segments in `directory`, by session and number; temporary and other files are not
  /// among them.
  public static func segments(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [Segment] {
    let names: [String]
    do {
      names = try fileSystem.list(directory.path)
    } catch {
      throw ActionLogError.unreadable(path: directory.path, reason: error.reason)
    }
    return names.compactMap { name -> Segment? in
      guard !name.hasPrefix("."), name.hasSuffix(".actionlog") else { return nil }
      let stem = name.dropLast(".actionlog".count)
      guard let dash = stem.lastIndex(of: "-") else { return nil }
      let number = stem[stem.index(after: dash)...]
      guard number.count >= 6, number.allSatisfy({ $0.isASCII && $0.isNumber }),
        let index = Int(number), index > 0
      else { return nil }
      return Segment(
        session: String(stem[..<dash]), index: index,
        url: directory.appendingPathComponent(name))
    }.sorted()
  }

  /// The temporary files in `directory` that ended processes (a crash, a kill, a power loss)
  /// left behind. None is a recording; none holds an acknowledged action.
  public static func leftovers(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [String] {
    do {
      return try LogFile.leftovers(in: directory, fileSystem: fileSystem)
    } catch {
      throw ActionLogError.unreadable(path: directory.path, reason: error.reason)
    }
  }

  /// Removes ``leftovers(in:fileSystem:)``; returns their names.
  @discardableResult
  public static func removeLeftovers(
    in directory: URL, fileSystem: any LogFileSystem = .posix
  ) throws -> [String] {
    let names = try Self.leftovers(in: directory, fileSystem: fileSystem)
    for name in names {
      try? fileSystem.unlink(directory.appendingPathComponent(name).path)
    }
    return names
  }
}
