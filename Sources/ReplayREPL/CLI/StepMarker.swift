import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A step number a child `replay` shares with its parent through a small file mapped into
/// both: the child stores the step it is about to replay, with no system call, and the parent
/// reads the last one stored when the child has died.
final class StepMarker {
  private let pointer: UnsafeMutableRawPointer

  init?(path: String) {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { _ = closeFile(descriptor) }
    guard let mapped = mmap(nil, 8, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
      mapped != MAP_FAILED
    else { return nil }
    self.pointer = mapped
  }

  /// Says that `step` is about to be replayed.
  func mark(_ step: Int) {
    self.pointer.storeBytes(of: Int64(step), as: Int64.self)
  }
}

/// Closes a file descriptor; a free function, as `close` is a method name nearby.
private func closeFile(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
