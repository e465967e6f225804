/// A place in a program's source: the file, as `#fileID` names it (`Module/File.swift`), and a
/// line. Where a `Store.send` was called, or where an effect was made.
///
/// Made from `#fileID` without copying its text: a store makes one for every action it is
/// sent, and the text is read only when a recorder writes it.
public struct CallSite: Hashable, Sendable, CustomStringConvertible {
  private enum File: Sendable {
    case literal(StaticString)
    case text(String)
  }

  private let file: File
  /// The line, from 1.
  public let line: UInt

  /// The site of a `#fileID` and `#line`.
  public init(fileID: StaticString, line: UInt) {
    self.file = .literal(fileID)
    self.line = line
  }

  /// A site read back from a recording, or made by a test.
  public init(fileID: String, line: UInt) {
    self.file = .text(fileID)
    self.line = line
  }

  /// The site a recording writes as `Module/File.swift:80`; `nil` for other text.
  public init?(_ text: some StringProtocol) {
    guard let colon = text.lastIndex(of: ":"), colon != text.startIndex,
      let line = UInt(text[text.index(after: colon)...]), line > 0
    else { return nil }
    self.init(fileID: String(text[..<colon]), line: line)
  }

  /// The file, as `Module/File.swift`.
  public var fileID: String {
    switch self.file {
    case .literal(let literal): literal.description
    case .text(let text): text
    }
  }

  /// The file without its module: `File.swift`.
  public var fileName: String {
    let fileID = self.fileID
    return fileID.split(separator: "/", maxSplits: 1).last.map(String.init) ?? fileID
  }

  /// `Module/File.swift:80`: the form a recording writes.
  public var qualifiedDescription: String {
    "\(self.fileID):\(self.line)"
  }

  /// `File.swift:80`: the file without its module, and the line.
  public var description: String {
    "\(self.fileName):\(self.line)"
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.line == rhs.line else { return false }
    if case .literal(let left) = lhs.file, case .literal(let right) = rhs.file,
      left.hasPointerRepresentation, right.hasPointerRepresentation,
      left.utf8Start == right.utf8Start, left.utf8CodeUnitCount == right.utf8CodeUnitCount
    {
      return true
    }
    return lhs.withUTF8 { left in rhs.withUTF8 { right in left.elementsEqual(right) } }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(self.line)
    self.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  private func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch self.file {
    case .literal(let literal) where literal.hasPointerRepresentation:
      return literal.withUTF8Buffer(body)
    case .literal(let literal):
      var text = literal.description
      return text.withUTF8(body)
    case .text(let text):
      var text = text
      return text.withUTF8(body)
    }
  }
}
