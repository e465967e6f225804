import ConcurrencyExtras
import Dependencies
import Foundation

/// A file holding a value as JSON: `@Shared(.fileStorage(url)) var settings = Settings()`.
///
/// Every shared value of the same file is one value; a change any of them makes is written (see
/// ``FileStorage``), and a change another program makes to the file is read back into all of
/// them.
public struct FileStorageKey<Value: Sendable>: SharedKey {
  let url: URL
  let storage: FileStorage
  let decode: @Sendable (Data) throws -> Value
  let encode: @Sendable (Value) throws -> Data

  init(
    url: URL, storage: FileStorage, decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) {
    self.url = url
    self.storage = storage
    self.decode = decode
    self.encode = encode
  }

  /// The storage and the file.
  public var id: [AnyHashable] {
    [AnyHashable(self.storage.id), AnyHashable(self.url.standardizedFileURL.path)]
  }

  /// The file's value; `nil` (the default value) when there is no file, or, with a runtime
  /// issue naming the file, when it cannot be read or does not hold a value of this type. The
  /// next change replaces the file whole.
  public func load(initialValue: Value?) -> Value? {
    let data: Data
    do {
      data = try self.storage.read(self.url)
    } catch {
      guard !Self.isMissing(error) else { return nil }
      reportIssue(
        """
        Could not read the shared file \(self.url.path): \(Self.reason(error)). The value \
        starts from its default; its next change replaces the file.
        """)
      return nil
    }
    do {
      return try self.decode(data)
    } catch {
      reportIssue(
        """
        The shared file \(self.url.path) does not hold a \(typeNameWithoutModules(Value.self)) \
        (\(data.count) bytes): \(Self.reason(error)). The value starts from its default; its \
        next change replaces the file.
        """)
      return nil
    }
  }

  private static func isMissing(_ error: any Error) -> Bool {
    if let error = error as? CocoaError, error.code == .fileReadNoSuchFile { return true }
    let error = error as NSError
    return (error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT))
      || (error.userInfo[NSUnderlyingErrorKey] as? NSError).map {
        $0.domain == NSPOSIXErrorDomain && $0.code == Int(ENOENT)
      } == true
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case let DecodingError.dataCorrupted(context),
      let DecodingError.keyNotFound(_, context),
      let DecodingError.typeMismatch(_, context),
      let DecodingError.valueNotFound(_, context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      let underlying = (context.underlyingError as NSError?)?.localizedDescription
      return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        + (underlying.map { " (\($0))" } ?? "")
    default:
      return (error as NSError).localizedDescription
    }
  }

  public func save(_ value: Value) {
    do {
      self.storage.saveData(try self.encode(value), self.url)
    } catch {
      reportIssue("Could not encode the shared value of \(self.url.path): \(error)")
    }
  }

  public func subscribe(
    initialValue: Value?, didSet: @escaping @Sendable (_ newValue: Value?) -> Void
  ) -> SharedSubscription {
    self._subscribe(initialValue: initialValue) { newValue, _ in didSet(newValue) }
  }
}

extension FileStorageKey: _OrderedSharedKey {
  func _subscribe(
    initialValue: Value?,
    didSet:
      @escaping @Sendable (_ newValue: Value?, _ isCurrent: @escaping @Sendable () -> Bool)
      -> Void
  ) -> SharedSubscription {
    // NB: The storage tells only of versions other programs wrote.
    self.storage.watchFile(self.url) { [decode] change in
      guard let data = change.data else {
        // The file is gone: the value starts again from its initial value.
        didSet(nil, change.isCurrent)
        return
      }
      guard let value = try? decode(data) else { return }
      didSet(value, change.isCurrent)
    }
  }
}

extension FileStorageKey: CustomStringConvertible, _SharedKeyNaming {
  public var description: String { ".fileStorage(\(self.url.path))" }
  var _recordedName: String { ".fileStorage(\(self.url.lastPathComponent))" }
}

extension SharedReaderKey {
  /// The JSON file at `url`, in `@Dependency(\.defaultFileStorage)`.
  public static func fileStorage<Value: Codable & Sendable>(
    _ url: URL, decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder? = nil
  ) -> Self where Self == FileStorageKey<Value> {
    @Dependency(\.defaultFileStorage) var storage
    let encoder =
      encoder
      ?? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
      }()
    nonisolated(unsafe) let (decoder, encoderUsed) = (decoder, encoder)
    return FileStorageKey(
      url: url, storage: storage,
      decode: { try decoder.decode(Value.self, from: $0) },
      encode: { try encoderUsed.encode($0) }
    )
  }

  /// The file at `url`, read and written with `decode` and `encode`.
  public static func fileStorage<Value: Sendable>(
    _ url: URL, decode: @escaping @Sendable (Data) throws -> Value,
    encode: @escaping @Sendable (Value) throws -> Data
  ) -> Self where Self == FileStorageKey<Value> {
    @Dependency(\.defaultFileStorage) var storage
    return FileStorageKey(url: url, storage: storage, decode: decode, encode: encode)
  }
}
