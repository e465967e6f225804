import Foundation

/// Why a value could not be written into a recording, in words that name the value's type,
/// where it sits, and what to do: what a `note` record and the recorder's report say.
public enum EncodingFailure {
  /// `error`, thrown while encoding a record's value, described: the type and coding path of the
  /// value that failed and its true cause (a number JSON cannot hold, a type's own `encode(to:)`
  /// that threw), with what to do about it.
  public static func describe(_ error: any Error) -> String {
    guard case let .invalidValue(value, context) = error as? EncodingError else {
      return "\(error)"
    }
    let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
      .joined(separator: ".")
    let place = path.isEmpty ? "" : " at \(path)"
    if let number = value as? any BinaryFloatingPoint, !Double(number).isFinite {
      return """
        a \(type(of: value)) of \(number)\(place) cannot be written: JSON has no infinite or NaN \
        numbers. Keep such values out of state and actions, or give the type that holds them an \
        encode(to:) that writes them as strings
        """
    }
    // NB: A failure that an inner value threw holds the inner one's description: the first
    // line says it.
    let reason = context.debugDescription.isEmpty ? "\(error)" : context.debugDescription
    return "a \(type(of: value))\(place) cannot be written: \(reason)"
  }
}
