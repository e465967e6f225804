extension String {
  /// Indents every line of the string by the given number of spaces; empty lines stay empty.
  ///
  /// For the layers above the core, which show dumps inside their messages too.
  @_spi(Internals) public func indent(by indent: Int) -> String {
    let indentation = String(repeating: " ", count: indent)
    return self.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }
}
