import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A Plaid that cannot be reached in practice: a TCP server on 127.0.0.1 that accepts every
/// connection, reads what is sent, and never answers. It counts the connections its peers
/// closed, which is how a test sees a cancelled request leave.
final class SilentServer: @unchecked Sendable {
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let lock = NSLock()
    private var connections: [Int32] = []
    private var bytes = 0
    private var closedByPeer = 0

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw HarnessError("SilentServer: cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    /// Bytes received so far (a request arrived).
    var received: Int { lock.withLock { bytes } }
    /// Connections the other side closed.
    var closed: Int { lock.withLock { closedByPeer } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for c in lock.withLock({ connections }) { shutdown(c, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let c = accept(listener, nil, nil)
            guard c >= 0 else { return }
            lock.withLock { connections.append(c) }
            Thread { [self] in readLoop(c) }.start()
        }
    }

    private func readLoop(_ c: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(c, &buffer, buffer.count)
            if n > 0 {
                lock.withLock { bytes += n }
                continue
            }
            if n == 0 { lock.withLock { closedByPeer += 1 } }
            close(c)
            return
        }
    }
}
