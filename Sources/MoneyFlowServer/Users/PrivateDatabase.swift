import Foundation
import GRDB

/// The server's own small SQLite files beside the ledgers (`users.sqlite`, `web.sqlite`): each
/// made 0600 before SQLite opens it (SQLite would create it with the umask's mode, and these
/// hold token and session hashes), opened as a pool that waits for a writer instead of failing.
enum PrivateDatabase {
    static func open(_ path: String) throws -> DatabasePool {
        let fm = FileManager.default
        if !fm.fileExists(atPath: path) && !fm.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) {
            throw UserDirectoryError("cannot create \(path); check that the data folder is writable")
        }
        var config = Configuration()
        config.busyMode = .timeout(30)
        return try DatabasePool(path: path, configuration: config)
    }
}
