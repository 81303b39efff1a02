import PlaidTestServer
import Testing

/// Test controls that shape timing without timers.
@Suite struct ControlTests {
    @Test func heldRequestIsAnsweredOnlyAfterRelease() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            let hold = server.holdNext(path: "/transactions/sync", itemID: itemID)
            let before = server.requests().count
            let pending = Task { try await calls.sync(token, cursor: nil, count: 5) }
            await hold.waitUntilHeld()
            // Requests are recorded when answered: the held one is not.
            #expect(server.requests().count == before)
            hold.release()
            let reply = try await pending.value
            #expect(reply.status == 200 && reply.json["has_more"] == .bool(true))
            #expect(server.requests().count == before + 1)
            // The hold was for one request only.
            #expect(try await calls.sync(token, cursor: nil, count: 5).status == 200)
        }
    }

    @Test func stopReleasesHeldRequests() async throws {
        let server = try await PlaidTestServer.start()
        let calls = PlaidCalls(server: server)
        let (token, _) = try await calls.link()
        let hold = server.holdNext(path: "/accounts/get")
        let pending = Task { try await calls.post("/accounts/get", ["access_token": .string(token)]) }
        await hold.waitUntilHeld()
        await server.stop()
        #expect(try await pending.value.status == 200)
    }

    @Test func startOnABusyPortThrows() async throws {
        try await withServer { server, _ in
            await #expect(throws: (any Error).self) { _ = try await PlaidTestServer.start(port: server.port) }
        }
    }
}
