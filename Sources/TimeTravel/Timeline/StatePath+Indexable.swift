import ComposableArchitecture

extension IdentifiedArray: _PathIndexable {
  func _element(at index: Int) -> Any? {
    self.indices.contains(index) ? self[index] : nil
  }
}

extension StackState: _PathIndexable {
  func _element(at index: Int) -> Any? {
    self.indices.contains(index) ? self[self.index(self.startIndex, offsetBy: index)] : nil
  }
}
