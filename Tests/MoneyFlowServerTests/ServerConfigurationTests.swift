import Testing

@testable import MoneyFlowServer

@Suite("serve --listen parsing")
struct ServerConfigurationTests {
    @Test("HOST:PORT, [IPv6]:PORT and :PORT parse; junk is refused")
    func listen() throws {
        #expect(try ServerConfiguration.parseListen("127.0.0.1:8080") == ("127.0.0.1", 8080))
        #expect(try ServerConfiguration.parseListen("[::1]:9000") == ("::1", 9000))
        #expect(try ServerConfiguration.parseListen(":0") == ("127.0.0.1", 0))
        for bad in ["8080", "host:", "host:x", "host:70000", "[::1]9000"] {
            #expect(throws: ServerConfigurationError.self) { try ServerConfiguration.parseListen(bad) }
        }
    }
}
