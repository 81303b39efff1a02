import Foundation
import Testing

/// `unlink`, `edit` and `undo` as a user sees them.
@Suite struct UndoEditCLITests {
    func json(_ r: CLI.Result) throws -> [[String: Any]] {
        try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
    }

    @Test func unlinkingTwiceKeepsTheTransactionAndItsEditAndUndoSaysWhatItRemoved() throws {
        let store = try CLI.tempStore()
        let imp = try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv", "--json"], store: store)
        #expect(imp.status == 0, "\(imp.stderr)")
        let batch = try json(imp)[0]["batch"] as! Int
        let first = try json(try CLI.run(["transactions", "--format", "json"], store: store))[0]
        let t = first["id"] as! Int
        let record = (first["sources"] as! [[String: Any]])[0]["id"] as! Int
        let u1 = try CLI.run(["unlink", String(record)], store: store)
        #expect(u1.status == 0)
        #expect(u1.stdout.contains("already alone in transaction \(t) (unchanged)"), "\(u1.stdout)")
        #expect(try CLI.run(["edit", String(t), "--note", "keep me"], store: store).status == 0)
        let u2 = try CLI.run(["unlink", String(record)], store: store)
        #expect(u2.stdout.contains("transaction \(t)"))
        let after = try json(try CLI.run(["transactions", "--format", "json"], store: store)).first { ($0["id"] as! Int) == t }
        #expect(after?["note"] as? String == "keep me")
        let undo = try CLI.run(["undo", String(batch)], store: store)
        #expect(undo.stdout.contains("1 edited transactions removed (edits kept"), "\(undo.stdout)")
        #expect(try CLI.run(["import", "Samples/csv/wells_fargo_checking.csv"], store: store).status == 0)
        let back = try json(try CLI.run(["transactions", "--format", "json"], store: store))
        #expect(back.filter { $0["note"] as? String == "keep me" }.count == 1)
    }
}
