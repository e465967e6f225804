@_spi(Internals) import ComposableArchitecture
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The file behind `@Shared(.fileStorage)` left in a state the app did not write: the app gets
/// the default value and one runtime issue naming the file (none when there is no file), never a
/// crash or a hang, and the next change replaces the file whole.
@Suite struct HostileSharedFileTests {
  struct Settings: Codable, Equatable, Sendable {
    var volume = 5
    var name = "default"
  }

  /// Reads `url` into a shared value, changes it, and returns the value read, the issues said,
  /// and what the file holds after the change.
  static func readAndChange(_ url: URL) -> (read: Settings, issues: [String], saved: Data?) {
    let collector = IssueCollector()
    let read = withIssueReporters([collector]) {
      withDependencies {
        $0.defaultFileStorage = .fileSystem
      } operation: {
        @Shared(.fileStorage(url)) var settings = Settings()
        let read = settings
        $settings.withLock { $0.volume = 11 }
        FileStorage.fileSystem.flush()
        return read
      }
    }
    return (read, collector.issues.compactMap(\.message), try? Data(contentsOf: url))
  }

  static let changed = Settings(volume: 11, name: "default")

  @Test(arguments: [
    ("empty", Data()),
    ("truncated", Data(#"{"volume": 3, "na"#.utf8)),
    ("another type's JSON", Data(#"{"theme": "dark"}"#.utf8)),
    ("a number past Int", Data(#"{"volume": 9223372036854775808, "name": "x"}"#.utf8)),
    ("invalid UTF-8", Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D])),
    ("nesting", Data(String(repeating: "[", count: 10_000).utf8)),
  ])
  func aFileThatHoldsNoValueGivesTheDefaultAndOneIssueNamingIt(
    _ label: String, _ bytes: Data
  ) throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    try bytes.write(to: url)
    let (read, issues, saved) = Self.readAndChange(url)
    #expect(read == Settings(), "\(label)")
    #expect(issues.count == 1, "\(label): \(issues)")
    #expect(issues.first?.contains(url.path) == true, "\(label): \(issues)")
    #expect(issues.first?.contains("starts from its default") == true, "\(label): \(issues)")
    let value = try JSONDecoder().decode(Settings.self, from: try #require(saved))
    #expect(value == Self.changed, "\(label)")
  }

  @Test func aValidFileIsReadWithoutAnIssue() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    try Data(#"{"volume": 2, "name": "mine"}"#.utf8).write(to: url)
    let (read, issues, _) = Self.readAndChange(url)
    #expect(read == Settings(volume: 2, name: "mine"))
    #expect(issues.isEmpty)
  }

  @Test func noFileGivesTheDefaultWithoutAnIssue() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    let (read, issues, saved) = Self.readAndChange(url)
    #expect(read == Settings())
    #expect(issues.isEmpty)
    #expect(try JSONDecoder().decode(Settings.self, from: try #require(saved)) == Self.changed)
  }

  @Test func aFIFOInTheFilesPlaceIsReportedAndDoesNotStallTheApp() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    #expect(mkfifo(url.path, 0o644) == 0)
    let (read, issues, _) = Self.readAndChange(url)
    #expect(read == Settings())
    #expect(issues.first?.contains("is not a regular file") == true, "\(issues)")
    #expect(issues.allSatisfy { $0.contains(url.path) }, "\(issues)")
  }

  @Test(arguments: [".", "missing-target.json"])
  func aSymlinkInTheFilesPlaceIsReplacedByTheNextChange(_ target: String) throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    #expect(symlink(target, url.path) == 0)
    let (read, issues, saved) = Self.readAndChange(url)
    #expect(read == Settings())
    // NB: A link to nothing is no file (no issue); a link to a folder is not a regular file.
    #expect(issues.count == (target == "." ? 1 : 0), "\(issues)")
    #expect(issues.allSatisfy { $0.contains(url.path) }, "\(issues)")
    let value = try JSONDecoder().decode(Settings.self, from: try #require(saved))
    #expect(value == Self.changed)
  }

  @Test func aDirectoryInTheFilesPlaceIsReportedNotACrash() throws {
    let directory = TemporaryDirectory()
    let url = directory.file("settings.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    let (read, issues, _) = Self.readAndChange(url)
    #expect(read == Settings())
    // Said when it is read, and when the change cannot replace it.
    #expect(issues.count == 2, "\(issues)")
    #expect(issues.last?.hasPrefix("Could not save the shared file") == true, "\(issues)")
    #expect(issues.allSatisfy { $0.contains(url.path) }, "\(issues)")
  }
}
