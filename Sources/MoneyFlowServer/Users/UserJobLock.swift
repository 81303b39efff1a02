import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The hold that keeps `moneyflow users remove` and a user's writing jobs apart, across
/// processes (the server and the CLI share the data folder): `DIR/locks/<id>.lock`, locked
/// with `flock`. A server's job (an import, an undo, a Plaid sync) and the making of the user's
/// folder hold it shared; a removal holds it exclusively, so it waits until the user's running
/// jobs have ended and no job starts while it moves the folder aside. A job checks that its user
/// still exists once it holds the lock: after a removal nothing writes to the moved-aside ledger
/// and nothing makes the user's folder again.
struct UserJobLock: Sendable {
    let fd: Int32

    static func path(dataDirectory: String, userID: String) -> String {
        (dataDirectory as NSString).appendingPathComponent("locks/\(userID).lock")
    }

    /// A job's hold while the user exists; nil while the user is being removed or once they
    /// are (the lock file this made is then taken away again).
    static func forJob(_ users: UserDirectory, _ user: ServerUser) throws -> UserJobLock? {
        let fd = try open(dataDirectory: users.dataDirectory, userID: user.id)
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            Glibc.close(fd)
            return nil
        }
        guard try users.exists(user) else {
            unlink(path(dataDirectory: users.dataDirectory, userID: user.id))
            Glibc.close(fd)
            return nil
        }
        return UserJobLock(fd: fd)
    }

    /// A removal's hold: waits for the user's running jobs to end.
    static func forRemoval(dataDirectory: String, userID: String) throws -> UserJobLock {
        let fd = try open(dataDirectory: dataDirectory, userID: userID)
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                Glibc.close(fd)
                throw UserDirectoryError("cannot lock \(path(dataDirectory: dataDirectory, userID: userID)): errno \(errno)")
            }
        }
        return UserJobLock(fd: fd)
    }

    func release() { Glibc.close(fd) }

    private static func open(dataDirectory: String, userID: String) throws -> Int32 {
        let locks = (dataDirectory as NSString).appendingPathComponent("locks")
        try FileManager.default.createDirectory(atPath: locks, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = path(dataDirectory: dataDirectory, userID: userID)
        let fd = Glibc.open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw UserDirectoryError("cannot open \(file): errno \(errno); check that the data folder is writable") }
        return fd
    }
}
