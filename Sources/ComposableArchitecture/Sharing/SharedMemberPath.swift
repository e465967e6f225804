@_spi(Reflection) import Swift

/// The names of the stored properties a key path goes through (`\Settings.theme` → `theme`),
/// found by its offset in the root's layout; `nil` for a key path that is not a chain of stored
/// properties of structs (a computed property, a class, an optional chain).
///
/// What a recording keeps of a part of a shared value (`state.$settings.theme`) is where the
/// part sits in the whole's JSON, so that a replay can join the two again: these names are
/// that place's keys when the types' `Codable` is synthesized (the recorder checks it against
/// the JSON).
func _storedPropertyNames<Root, Value>(_ keyPath: KeyPath<Root, Value>) -> [String]? {
  guard Root.self != Value.self else { return [] }
  guard var offset = MemoryLayout<Root>.offset(of: keyPath) else { return nil }
  var type: Any.Type = Root.self
  var names: [String] = []
  // NB: Bounded: each turn goes one type deeper, and a type nests only so deep.
  for _ in 0..<32 {
    var found: (name: String, offset: Int, type: Any.Type)?
    let isStruct = _forEachField(of: type, options: []) { name, fieldOffset, fieldType, _ in
      if fieldOffset <= offset, found.map({ fieldOffset >= $0.offset }) ?? true {
        found = (String(cString: name), fieldOffset, fieldType)
      }
      return true
    }
    guard isStruct, let field = found else { return nil }
    names.append(field.name)
    offset -= field.offset
    type = field.type
    if offset == 0, type == Value.self { return names }
  }
  return nil
}
