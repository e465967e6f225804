import Foundation

/// A part of a shared value that a decoded state holds apart from the whole
/// (`state.$settings.theme` handed to a child): recorded as `NAME#/theme`, decoded as a value
/// of its own, and linked to its whole so that a change of either reaches the other, as it did
/// in the app.
struct _SharedPart: Hashable {
  /// The part's name in the recording: `.fileStorage(settings.json)#/theme`.
  var name: String
  /// The whole value's name.
  var whole: String
  /// Where the part sits in the whole's JSON.
  var pointer: [String]

  /// The parts among the names of a state's places: a name that is another name of them, `#`,
  /// and a JSON Pointer.
  static func parts(among names: some Collection<String>) -> [_SharedPart] {
    let names = Set(names)
    return names.compactMap { name in
      // NB: The longest whole that fits, should one name be a prefix of another.
      let whole = names.filter { name.count > $0.count + 1 && name.hasPrefix($0 + "#/") }
        .max { $0.count < $1.count }
      guard let whole else { return nil }
      let pointer = name.dropFirst(whole.count + 2).split(
        separator: "/", omittingEmptySubsequences: false
      )
      .map {
        $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      }
      return _SharedPart(name: name, whole: whole, pointer: pointer)
    }
  }

  /// Keeps `part` and `whole` one value from now on: each change of one is written into the
  /// other.
  func link(
    part: any _AnySharedBox, whole: any _AnySharedBox
  ) -> [SharedSubscription] {
    let pointer = self.pointer
    let fromWhole = whole.listenForChanges { [weak part, weak whole] in
      guard let part, let whole, let json = try? whole.encodedValue(),
        let value = try? Self.value(in: json, at: pointer)
      else { return }
      // NB: Not told on: the part's listeners are the link that told the whole, if any.
      try? part.set(json: value, telling: false)
    }
    let fromPart = part.listenForChanges { [weak part, weak whole] in
      guard let part, let whole, let partJSON = try? part.encodedValue(),
        let wholeJSON = try? whole.encodedValue(),
        let updated = try? Self.replacing(in: wholeJSON, at: pointer, with: partJSON)
      else { return }
      // NB: Told on, so that the whole's other parts follow.
      try? whole.set(json: updated, telling: true)
    }
    return [fromWhole, fromPart]
  }

  static func value(in json: Data, at pointer: [String]) throws -> Data {
    var value = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    for token in pointer {
      if let object = value as? [String: Any], let member = object[token] {
        value = member
      } else if let array = value as? [Any], let index = Int(token), array.indices.contains(index) {
        value = array[index]
      } else {
        throw _SharedReplayError.noPart(pointer: pointer)
      }
    }
    return try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)
  }

  static func replacing(in json: Data, at pointer: [String], with part: Data) throws -> Data {
    func replace(_ value: Any, _ tokens: ArraySlice<String>, _ part: Any) throws -> Any {
      guard let token = tokens.first else { return part }
      if var object = value as? [String: Any], let member = object[token] {
        object[token] = try replace(member, tokens.dropFirst(), part)
        return object
      }
      if var array = value as? [Any], let index = Int(token), array.indices.contains(index) {
        array[index] = try replace(array[index], tokens.dropFirst(), part)
        return array
      }
      throw _SharedReplayError.noPart(pointer: pointer)
    }
    let whole = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
    let value = try JSONSerialization.jsonObject(with: part, options: .fragmentsAllowed)
    return try JSONSerialization.data(
      withJSONObject: try replace(whole, pointer[...], value), options: .fragmentsAllowed)
  }
}
