#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the runtime's metadata says of a type that reflection rebuilds without its own
/// initializers: an enum's cases with their payload types, a tuple's elements, a class's
/// instance size. Read from the metadata and the nominal type descriptor, whose layouts are
/// Swift's stable ABI (`TargetEnumDescriptor`, `FieldDescriptor`, `TargetTupleTypeMetadata`).
///
/// Building a value writes its parts into fresh memory and lets the runtime's value witnesses
/// (`destructiveInjectEnumTag`) or its allocator (`swift_allocObject`) finish it: the same
/// steps the compiler emits for `.case(payload)` and for a class's allocation.
enum _ReflectedLayout {
  /// One case of an enum: its name, its tag, and the type of its values (a tuple for several,
  /// or for one with a label; `nil` for a case without values).
  struct EnumCase {
    let name: String
    let tag: UInt32
    let payload: Any.Type?
    let isIndirect: Bool
  }

  /// One element of a tuple: its label (`nil` when it has none), type and offset.
  struct TupleElement {
    let label: String?
    let type: Any.Type
    let offset: Int
  }

  /// The runtime's kinds of metadata that reflection rebuilds here.
  static let enumKind = 0x201
  static let tupleKind = 0x301

  static func metadataKind(of type: Any.Type) -> Int {
    let kind = unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self)
    // NB: A class's first word is its isa pointer: any value past the highest kind.
    return kind > 0x7FF ? 0 : kind
  }

  /// The cases of `type`, an enum, in tag order (cases with values first, as the runtime
  /// numbers them); `nil` where its metadata says otherwise.
  static func cases(of type: Any.Type) -> [EnumCase]? {
    guard Self.metadataKind(of: type) == Self.enumKind else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let descriptor = metadata.load(
      fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    // TargetEnumDescriptor: flags, parent, name, access function, fields, payload cases, empty.
    guard let fields = Self.relative(descriptor + 16) else { return nil }
    let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
    let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
    guard recordSize >= 12 else { return nil }
    // NB: A value type's generic arguments follow its kind and its descriptor.
    let arguments = metadata + 2 * MemoryLayout<Int>.size
    var cases: [EnumCase] = []
    for index in 0..<count {
      let record = fields + 16 + index * recordSize
      let flags = record.load(as: UInt32.self)
      guard let namePointer = Self.relative(record + 8) else { return nil }
      var payload: Any.Type?
      if let mangled = Self.relative(record + 4) {
        let bytes = mangled.assumingMemoryBound(to: UInt8.self)
        payload = _getTypeByMangledNameInContext(
          bytes, UInt(Self.mangledLength(bytes)), genericContext: descriptor,
          genericArguments: arguments)
        if payload == nil { return nil }
      }
      cases.append(
        EnumCase(
          name: String(cString: namePointer.assumingMemoryBound(to: CChar.self)),
          tag: UInt32(index), payload: payload, isIndirect: flags & 0x1 != 0))
    }
    return cases
  }

  /// The elements of `type`, a tuple; `nil` for any other type.
  static func elements(of type: Any.Type) -> [TupleElement]? {
    guard Self.metadataKind(of: type) == Self.tupleKind else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let word = MemoryLayout<Int>.size
    let count = metadata.load(fromByteOffset: word, as: Int.self)
    let labels = metadata.load(fromByteOffset: 2 * word, as: UnsafePointer<CChar>?.self)
    // NB: Labels are one string, each followed by a space; an unlabeled element's is empty.
    var names: [String?] = Array(repeating: nil, count: count)
    if let labels {
      let parts = String(cString: labels).split(separator: " ", omittingEmptySubsequences: false)
      for (index, part) in parts.prefix(count).enumerated() where !part.isEmpty {
        names[index] = String(part)
      }
    }
    return (0..<count).map { index in
      let element = metadata + 3 * word + index * 2 * word
      return TupleElement(
        label: names[index],
        type: unsafeBitCast(element.load(as: UnsafeRawPointer.self), to: Any.Type.self),
        offset: Int(element.load(fromByteOffset: word, as: UInt32.self)))
    }
  }

  /// A value of `type`, an enum, in case `tag`, its values written by `payload` at the start
  /// of its storage.
  static func makeEnum<Value>(
    _ type: Value.Type, tag: UInt32, payload: (UnsafeMutableRawPointer) -> Void
  ) -> Value {
    let storage = UnsafeMutableRawPointer.allocate(
      byteCount: max(MemoryLayout<Value>.size, 1), alignment: MemoryLayout<Value>.alignment)
    defer { storage.deallocate() }
    payload(storage)
    Self.injectEnumTag(storage, tag: tag, type: Value.self)
    return storage.assumingMemoryBound(to: Value.self).move()
  }

  /// The tag of the case of the enum of `type` at `address`.
  static func enumTag(of address: UnsafeRawPointer, type: Any.Type) -> UInt32 {
    typealias GetTag = @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
    let (metadata, witness) = Self.enumWitness(11, of: type)
    return unsafeBitCast(witness, to: GetTag.self)(address, metadata)
  }

  /// Leaves the values of the case of the enum at `address` at the start of its storage, in
  /// place of the enum: what the compiler emits before reading a case's values.
  static func projectEnumData(_ address: UnsafeMutableRawPointer, type: Any.Type) {
    typealias Project = @convention(c) (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    let (metadata, witness) = Self.enumWitness(12, of: type)
    unsafeBitCast(witness, to: Project.self)(address, metadata)
  }

  /// Makes the values at the start of `address` the enum's case `tag`.
  static func injectEnumTag(_ address: UnsafeMutableRawPointer, tag: UInt32, type: Any.Type) {
    typealias Inject = @convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void
    let (metadata, witness) = Self.enumWitness(13, of: type)
    unsafeBitCast(witness, to: Inject.self)(address, tag, metadata)
  }

  /// The metadata of `type`, an enum, and the value witness at `index` of its table
  /// (`EnumValueWitnessTable`: eight functions, size, stride, flags and extra inhabitants; then
  /// getEnumTag, destructiveProjectEnumData, destructiveInjectEnumTag).
  private static func enumWitness(
    _ index: Int, of type: Any.Type
  ) -> (UnsafeRawPointer, UnsafeRawPointer) {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let witnesses = (metadata - MemoryLayout<Int>.size).load(as: UnsafeRawPointer.self)
    return (
      metadata,
      witnesses.load(fromByteOffset: index * MemoryLayout<Int>.size, as: UnsafeRawPointer.self)
    )
  }

  /// A new instance of `type`, a class, its stored properties written by `fields` at their
  /// offsets; `nil` where the runtime's allocator is not found.
  static func makeObject(
    _ type: AnyClass, fields: (UnsafeMutableRawPointer) -> Void
  ) -> AnyObject? {
    guard let allocate = Self.allocateObject else { return nil }
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    // ClassMetadata without Objective-C: isa, superclass, flags, address point, instance size,
    // alignment mask.
    let size = Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
    let alignMask = Int(metadata.load(fromByteOffset: 28, as: UInt16.self))
    let object = allocate(metadata, size, alignMask)
    fields(object)
    return Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue()
  }

  private typealias AllocateObject =
    @convention(c) (UnsafeRawPointer, Int, Int) -> UnsafeMutableRawPointer
  private static let allocateObject: AllocateObject? = {
    #if canImport(Darwin)
      let handle = UnsafeMutableRawPointer(bitPattern: -2)
    #else
      let handle: UnsafeMutableRawPointer? = nil
    #endif
    guard let symbol = dlsym(handle, "swift_allocObject") else { return nil }
    return unsafeBitCast(symbol, to: AllocateObject.self)
  }()

  /// The target of a 32-bit relative pointer at `pointer`, `nil` when it is null.
  private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = pointer.load(as: Int32.self)
    return offset == 0 ? nil : pointer + Int(offset)
  }

  /// The length of a mangled name: up to its terminating zero, past the relative references
  /// (`0x01`–`0x17`, four bytes) and absolute ones (`0x18`–`0x1F`, a pointer) it may hold.
  private static func mangledLength(_ bytes: UnsafePointer<UInt8>) -> Int {
    var length = 0
    while true {
      switch bytes[length] {
      case 0: return length
      case 0x01...0x17: length += 1 + 4
      case 0x18...0x1F: length += 1 + MemoryLayout<Int>.size
      default: length += 1
      }
    }
  }
}
