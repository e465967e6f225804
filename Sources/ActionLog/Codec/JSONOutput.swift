import Foundation
import StepChanges

/// The forms Foundation's `JSONEncoder` writes values in (with its default strategies, slashes
/// unescaped), written straight into a byte buffer: those the generated codecs write too
/// (``StepChanges/_JSONOutput``).
typealias JSONOutput = _JSONOutput
