import Foundation
import PlaidTestServer

// `plaid-test-server [PORT]`: runs the Plaid-shaped test server on 127.0.0.1 with its default
// institution (First Platypus Bank, ins_109508) until interrupted, for trying `moneyflow plaid`
// without Plaid keys: PLAID_ENV=<printed URL> PLAID_CLIENT_ID=test-client-id PLAID_SECRET=test-secret.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count <= 1, let port = Int(arguments.first ?? "8080"), (0...65535).contains(port) else {
    FileHandle.standardError.write(Data("usage: plaid-test-server [PORT]   (default 8080; 0 picks a free port)\n".utf8))
    exit(2)
}
do {
    let server = try await PlaidTestServer.start(port: port)
    // Written unbuffered: a script reading the URL from a pipe needs it now, not at exit.
    FileHandle.standardOutput.write(
        Data(
            """
            \(server.baseURL)
            client_id test-client-id, secret test-secret, institution \(DefaultInstitution.id) (\(DefaultInstitution.name))

            """.utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("plaid-test-server: \(error)\n".utf8))
    exit(1)
}
