import IdentifiedCollections
import StepChanges

extension IdentifiedArray: _StepChangingArray {
  /// The elements, as the array encodes them.
  public var _stepElements: [Element] { self.elements }
}

extension _StepChanges {
  /// Compares member `key` of an object, an identified array of values with generated code:
  /// its elements, as it encodes them.
  @inlinable
  public static func member<ID, Element: _StepChanging, Sink>(
    _ key: String, _ old: IdentifiedArray<ID, Element>, _ new: IdentifiedArray<ID, Element>,
    in object: inout Object<Sink>
  ) {
    if object.isRemovals || isIdentical(old, new) { return }
    generatedElements(
      old.elements, new.elements, at: object.path + [key], into: &object.sink, whole: (old, new))
  }
}
