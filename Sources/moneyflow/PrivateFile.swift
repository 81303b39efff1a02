import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file only its owner can read (mode 0600 from its first byte, as the store is): an export
/// holds the whole ledger, so it must not be readable by other users of the machine, not even
/// for the moment between writing and a later chmod.
enum PrivateFile {
    /// Writes `data` to `path`. Without `overwrite` an existing file is refused; with it the
    /// file is replaced in one rename (a reader never sees half of it).
    static func write(_ data: Data, to path: String, overwrite: Bool) throws {
        let target = overwrite ? path + ".\(UUID().uuidString.prefix(8)).tmp" : path
        let fd = open(target, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { throw CLIError("\(path) already exists (use --force to overwrite)") }
            throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        var failure: Int32 = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if failure == 0 && fsync(fd) != 0 { failure = errno }
        close(fd)
        if failure == 0 && overwrite && rename(target, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(target)
            throw CLIError("cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }
}
