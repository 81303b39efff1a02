import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a server on 127.0.0.1, for what an HTTP client library hides: a
/// head sent without its body, a body sent after the answer, a head that never ends, and
/// whether the server closed the connection. Blocking calls (each at most ``timeout``) run on a
/// thread of their own (``run(_:)``), never on the cooperative pool the servers use.
final class RawConnection: @unchecked Sendable {
    let fd: Int32
    /// The most one read or write waits (a server that never answers fails the test, not hangs it).
    static let timeout = 15

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw HarnessError("connect to port \(port) failed: errno \(errno)")
        }
        var t = timeval(tv_sec: Self.timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &t, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    /// Runs blocking socket work on a thread of its own.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            Thread { c.resume(with: Result { try body() }) }.start()
        }
    }

    /// Sends all of `data`; false when the server no longer takes it (closed or reset).
    func send(_ data: Data) -> Bool {
        var offset = 0
        while offset < data.count {
            let n = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// One answer: status, headers (lower-cased names) and its `Content-Length` body.
    func readResponse() throws -> (status: Int, headers: [String: String], body: String) {
        var received = Data()
        let separator = Data("\r\n\r\n".utf8)
        while received.range(of: separator) == nil {
            guard let chunk = receive() else { throw HarnessError("the connection ended before an answer's head") }
            received += chunk
        }
        let end = received.range(of: separator)!
        let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw HarnessError("not an HTTP answer: \(lines.first ?? "")")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = received[end.upperBound...]
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        while body.count < length {
            guard let chunk = receive() else { break }
            body += chunk
        }
        return (status, headers, String(decoding: body, as: UTF8.self))
    }

    /// True when the server ended the connection (end of stream or reset) within `seconds`
    /// (three reads' timeouts by default: the servers' timers run on event loops the whole
    /// suite shares, which a loaded machine can hold up for seconds; a server that never
    /// closes still fails).
    func endsWithinTimeout(seconds: Int = 3 * RawConnection.timeout) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && Date() < deadline { continue }
            return n == 0 || errno == ECONNRESET
        }
    }

    private func receive() -> Data? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Data(buffer[..<n]) : nil
    }
}
