import Foundation

#if !canImport(Darwin)
  extension URL {
    /// The user's documents folder, as Apple's Foundation names it: where apps keep
    /// `.fileStorage` files (`.documentsDirectory.appending(component: "sync-ups.json")`).
    /// Foundation elsewhere lacks these names; here they are the XDG-style folders
    /// `FileManager` reports (`~/Documents`).
    public static var documentsDirectory: URL {
      Self.directory(.documentDirectory, else: "Documents")
    }

    /// The user's caches folder (`~/.cache`).
    public static var cachesDirectory: URL {
      Self.directory(.cachesDirectory, else: ".cache")
    }

    /// The user's application support folder (`~/.local/share`).
    public static var applicationSupportDirectory: URL {
      Self.directory(.applicationSupportDirectory, else: ".local/share")
    }

    private static func directory(
      _ directory: FileManager.SearchPathDirectory, else path: String
    ) -> URL {
      FileManager.default.urls(for: directory, in: .userDomainMask).first
        ?? URL.homeDirectory.appendingPathComponent(path, isDirectory: true)
    }
  }
#endif
