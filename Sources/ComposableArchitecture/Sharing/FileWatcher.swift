import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Calls back when a file is written, renamed into place or removed.
enum FileWatcher {
  static func watch(_ url: URL, onChange: @escaping @Sendable () -> Void) -> SharedSubscription {
    #if os(Linux)
      if let subscription = Self.inotify(url, onChange: onChange) { return subscription }
    #endif
    return Self.poll(url, onChange: onChange)
  }

  #if os(Linux)
    /// Watches the file's folder with inotify: a file replaced by a rename is a new file.
    private static func inotify(
      _ url: URL, onChange: @escaping @Sendable () -> Void
    ) -> SharedSubscription? {
      let folder = url.deletingLastPathComponent()
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let mask =
        UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM)
      guard inotify_add_watch(descriptor, folder.path, mask) >= 0 else {
        close(descriptor)
        return nil
      }
      let name = Array(url.lastPathComponent.utf8)
      let source = DispatchSource.makeReadSource(
        fileDescriptor: descriptor, queue: DispatchQueue(label: "FileWatcher \(url.path)"))
      source.setEventHandler {
        var buffer = [UInt8](repeating: 0, count: 8_192)
        var changed = false
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          guard count > 0 else { break }
          // NB: Each event: wd (4 bytes), mask (4), cookie (4), len (4), then `len` bytes of
          // NUL-padded name.
          var offset = 0
          while offset + 16 <= count {
            let length = buffer.withUnsafeBytes {
              Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            }
            let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
            if Array(nameBytes.prefix { $0 != 0 }) == name { changed = true }
            offset += 16 + length
          }
        }
        if changed { onChange() }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
      let held = _Locked(source)
      return SharedSubscription { held.withValue { $0.cancel() } }
    }
  #endif

  /// Looks at the file's size and modification date every half second.
  private static func poll(
    _ url: URL, onChange: @escaping @Sendable () -> Void
  ) -> SharedSubscription {
    @Sendable func signature() -> String {
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
      let size = attributes?[.size] as? Int
      let date = attributes?[.modificationDate] as? Date
      return "\(size ?? -1) \(date?.timeIntervalSince1970 ?? -1)"
    }
    return _pollForChanges("FileWatcher \(url.path)", signature: signature) { _ in onChange() }
  }
}
