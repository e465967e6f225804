import IdentifiedCollections
import StepChanges

extension IdentifiedArray: _StepChangingArray {
  /// The elements, as the array encodes them.
  public var _stepElements: [Element] { self.elements }
}
