import Foundation

/// The URL of a product (an executable of this package) built next to the test bundle.
public func productURL(_ name: String) -> URL? {
  let candidates = [
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    Bundle.main.bundleURL,
    Bundle.main.bundleURL.deletingLastPathComponent(),
  ]
  for folder in candidates {
    let url = folder.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  return nil
}

/// What a process printed and how it exited.
public struct ProcessResult: Equatable, Sendable {
  public var status: Int32
  public var output: String
  public var errors: String

  public init(status: Int32, output: String, errors: String) {
    self.status = status
    self.output = output
    self.errors = errors
  }
}

/// Runs a product of this package (or, with `isProduct: false`, a program on the PATH) with
/// `arguments` and `input` on standard input, in `folder`, and waits for it.
public func run(
  _ product: String, _ arguments: [String], input: String = "", in folder: URL,
  isProduct: Bool = true, environment overrides: [String: String] = [:]
) async throws -> ProcessResult {
  guard let executable = isProduct ? productURL(product) : programURL(product) else {
    struct Missing: Error, CustomStringConvertible {
      let description: String
    }
    throw Missing(description: "build the \(product) product first (swift build)")
  }
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = folder
  var environment = ProcessInfo.processInfo.environment
  environment["NO_COLOR"] = "1"
  environment.merge(overrides) { $1 }
  process.environment = environment
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  async let output = readToEnd(stdout.fileHandleForReading)
  async let errors = readToEnd(stderr.fileHandleForReading)
  let (out, err) = await (output, errors)
  // NB: No bound here: Tools/test bounds the whole run, which a hang fails.
  while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
  return ProcessResult(
    status: process.terminationStatus,
    output: String(decoding: out, as: UTF8.self),
    errors: String(decoding: err, as: UTF8.self)
  )
}

/// Everything `handle` gives until its end, read on a thread of its own.
///
/// NB: Not in a task: a read blocks its thread until the program exits, and the few threads
/// that run every test's tasks (one per core) would then run nothing else. Tests whose effects
/// need them would wait for other tests' programs, and time out on a loaded machine.
func readToEnd(_ handle: FileHandle) async -> Data {
  await withCheckedContinuation { continuation in
    Thread.detachNewThread {
      continuation.resume(returning: handle.readDataToEndOfFile())
    }
  }
}

/// The URL of a program found on the PATH, or of the program at a path with a slash in it.
public func programURL(_ name: String) -> URL? {
  if name.contains("/") {
    let url = URL(fileURLWithPath: name)
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
  }
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") {
    let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  return nil
}

/// Runs a product of this package with `arguments` in a session of its own and sends its process
/// group SIGINT, as a terminal does on Ctrl-C, as soon as it has written `lines` lines: what it
/// writes says how far it got, so no wait guesses how fast it goes.
public func runInterrupted(
  _ product: String, _ arguments: [String], afterLines lines: Int, in folder: URL
) async throws -> ProcessResult {
  guard let executable = productURL(product) else {
    struct Missing: Error, CustomStringConvertible {
      let description: String
    }
    throw Missing(description: "build the \(product) product first (swift build)")
  }
  let script = """
    import os, signal, subprocess, sys
    child = subprocess.Popen(sys.argv[2:], start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = b""
    for _ in range(int(sys.argv[1])):
        out += child.stdout.readline()
    os.killpg(child.pid, signal.SIGINT)
    rest, err = child.communicate(timeout=300)  # a hang bound only
    sys.stdout.write((out + rest).decode())
    sys.stderr.write(err.decode())
    sys.exit(child.returncode if child.returncode >= 0 else 128 - child.returncode)
    """
  return try await run(
    "python3", ["-c", script, "\(lines)", executable.path] + arguments,
    in: folder, isProduct: false
  )
}
