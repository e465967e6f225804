/// Where a reducer operator or a test store call was written, for issues that point at it.
public struct _SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}
