import Foundation
import GRDB

/// A new store created directly at the current schema instead of by replaying every migration.
///
/// Replaying the migrations on an empty file costs more than some imports: v3 rebuilds four
/// tables, later ones alter them again, and each migration is its own transaction after which
/// SQLite reloads the schema (77 M instructions, 8 % of a fresh process importing a 30-page CMB
/// statement). `schema.sql` is the schema every migration leaves (generated from them and kept
/// equal to them by `SchemaFileTests`), so a file with no tables at all gets that schema and the
/// migrations' identifiers in ONE transaction, and the migrator then finds nothing to do. A file
/// that has anything in it (another process's store, even one half-created by an older
/// MoneyFlow that migrates step by step) is left to the migrator.
enum FreshSchema {
    /// The statements of `schema.sql` (comments included: SQLite skips them).
    static let sql = String(decoding: PackageResources.schema_sql, as: UTF8.self)

    /// Creates the current schema when `db` holds no schema object yet; returns whether it did.
    /// Runs in an immediate transaction, so of several processes creating the same new store at
    /// once exactly one creates it and the others see it created.
    @discardableResult
    static func createIfEmpty(_ db: Database, migrations: [String]) throws -> Bool {
        var created = false
        try db.inTransaction(.immediate) {
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
            try db.execute(sql: sql)
            // The table GRDB's migrator keeps its applied identifiers in, as it creates it.
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let insert = try db.makeStatement(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)")
            for id in migrations { try insert.execute(arguments: [id]) }
            created = true
            return .commit
        }
        return created
    }
}
