import Foundation
import TestSupport
import Testing

/// The REPL on recordings of features written as TCA 1.x writes them: presentations, alerts and
/// stacks printed and watched by the names a feature gives them.
@Suite struct NavigationCommandTests {
  static let root = packageRoot

  private func session(_ recording: String, _ commands: String...) async throws -> ProcessResult {
    try await run(
      "replay", [recording], input: commands.joined(separator: "\n") + "\n", in: Self.root
    )
  }

  @Test func aSheetAndAnAlertPrintByThePropertysName() async throws {
    let result = try await self.session(
      "Recordings/inventory.actionlog",
      "goto 11", "print destination", "step", "print destination.addItem.quantity", "goto 80",
      "print destination", "print path"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            11/85  +3.850s  effect ← 9 at ItemForm.swift:65  Inventory.Action.destination(.dismiss)
            nil
            12/85  +4.200s  send at RecordSamples.swift:374  Inventory.Action.addButtonTapped
            1
            80/85  +28.000s  send at RecordSamples.swift:388  Inventory.Action.deleteButtonTapped(id: \
            UUID(00000000-0000-0000-0000-000000000000))
            .alert(
              AlertState(
                title: "Delete Apples?",
                message: "All 6 will be removed from the inventory.",
                buttons: [
                  [0]: ButtonState(
                    role: .destructive,
                    action: .confirmDeletion(id: UUID(00000000-0000-0000-0000-000000000000)),
                    label: "Delete"
                  ),
                  [1]: ButtonState(
                    role: .cancel,
                    action: nil,
                    label: "Cancel"
                  )
                ]
              )
            )
            "path": the state has no "path"; it has destination, items.

            """,
          errors: ""
        )
    )
  }

  @Test func aStacksScreensByIdentity() async throws {
    let result = try await self.session(
      "Recordings/contacts.actionlog",
      "goto 15", "print path[id: 0].detail.name", "watch path[id: 0].detail.hasChanges",
      "reverse-continue", "continue", "print path[id: 7]", "print path[id:]", "verify"
    )
    #expect(
      result
        == ProcessResult(
          status: 1,
          output: """
            15/55  +5.250s  effect ← 14 at ContactDetail.swift:95  Contacts.Action.path(.element(\
            id: #0, action: \
            .detail(.delegate(.saveContact(Contact(id: UUID(00000000-0000-0000-0000-0000000003E8), \
            name: "Ada Lovelace", phone: "555-0101"))))))
            "Ada Lovelace"
            Watchpoint 1: path[id: 0].detail.hasChanges (now true)
            Watchpoint 1: path[id: 0].detail.hasChanges
              false → true
            5/55  +1.750s  send at RecordSamples.swift:425  Contacts.Action.path(.element(id: #0, \
            action: \
            .detail(.binding(.set(\\.name, "Ada ")))))
            Watchpoint 1: path[id: 0].detail.hasChanges
              true → (no value)
            16/55  +5.600s  effect ← 14 at ContactDetail.swift:95  Contacts.Action.path(.popFrom(\
            id: #0))
            "path[id: 7]": "path" has no element with identity 7; it is empty.
            "path[id:]" is not a state path (column 5): an identity is missing after "id:".
            Today's reducer reproduces every step of 55 actions.

            """,
          errors: ""
        )
    )
  }

  @Test func eachRecordingVerifies() async throws {
    for name in ["inventory", "contacts", "search"] {
      let result = try await run(
        "replay", ["verify", "Recordings/\(name).actionlog"], in: Self.root)
      #expect(result.status == 0, "\(name): \(result)")
      #expect(result.output.contains("today's reducer reproduces every step"), "\(name): \(result)")
    }
  }
}
