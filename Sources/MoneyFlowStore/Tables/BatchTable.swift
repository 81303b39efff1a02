import GRDB
import MoneyFlowCore

/// The `batch` table's one owner: one import (or account merge), with its counts, undone or
/// not. Undo takes back a batch as a whole (``BatchUndo``, from its log: ``BatchChangeTable``).
enum BatchTable {
    /// The columns after `id` as migration v1 created the table (v3 rebuilt it with the same
    /// columns and an AUTOINCREMENT id; v6 added `seen_count` and `last_seen_at`). Frozen:
    /// migrations replay it.
    static let createdColumns = """
        file_name TEXT NOT NULL, file_sha256 TEXT NOT NULL, importer TEXT NOT NULL,
        imported_at TEXT NOT NULL,
        new_count INTEGER NOT NULL DEFAULT 0, present_count INTEGER NOT NULL DEFAULT 0,
        linked_count INTEGER NOT NULL DEFAULT 0, updated_count INTEGER NOT NULL DEFAULT 0,
        review_count INTEGER NOT NULL DEFAULT 0, removed_count INTEGER NOT NULL DEFAULT 0,
        warning_count INTEGER NOT NULL DEFAULT 0,
        undone_at TEXT
        """

    /// Inserts a batch and returns its id. `importer` is the importer's id (`merge` for a merge).
    static func insert(
        _ db: Database, fileName: String, sha256: String, importer: String, at timestamp: String, counts c: ImportCounts
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO batch(file_name, file_sha256, importer, imported_at, new_count, present_count, linked_count,
                                  updated_count, review_count, removed_count, warning_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                fileName, sha256, importer, timestamp, c.new, c.alreadyPresent, c.linked, c.updated, c.needsReview, c.removed, c.warnings,
            ])
        return db.lastInsertedRowID
    }

    /// Counts a re-import of batch `id`'s bytes that changed nothing (v6: `seen_count`, `last_seen_at`).
    static func seenAgain(_ db: Database, _ id: Int64, at timestamp: String) throws {
        try db.execute(sql: "UPDATE batch SET seen_count = seen_count + 1, last_seen_at = ? WHERE id = ?", arguments: [timestamp, id])
    }

    /// Marks batch `id` undone at `timestamp`.
    static func markUndone(_ db: Database, _ id: Int64, at timestamp: String) throws {
        try db.execute(sql: "UPDATE batch SET undone_at = ? WHERE id = ?", arguments: [timestamp, id])
    }
}
