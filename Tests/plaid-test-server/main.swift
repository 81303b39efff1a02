import Foundation
import PlaidTestServer

// `plaid-test-server [PORT] [--control]`: runs the Plaid-shaped test server on 127.0.0.1 with its
// default institution (First Platypus Bank, ins_109508) until interrupted, for trying `moneyflow
// plaid` without Plaid keys: PLAID_ENV=<printed URL> PLAID_CLIENT_ID=test-client-id PLAID_SECRET=test-secret.
//
// With --control it also answers one command per line on stdin, one line each on stdout, for
// scripts that play Plaid's part (scripts/hostile-load-plaid.sh):
//   sign BASE64-BODY   the Plaid-Verification header Plaid would send with that webhook body
//   count PATH         how many requests to PATH (`*`: any) the server has answered
var arguments = Array(CommandLine.arguments.dropFirst())
let control = arguments.contains("--control")
arguments.removeAll { $0 == "--control" }
guard arguments.count <= 1, let port = Int(arguments.first ?? "8080"), (0...65535).contains(port) else {
    FileHandle.standardError.write(Data("usage: plaid-test-server [PORT] [--control]   (default 8080; 0 picks a free port)\n".utf8))
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
    if control {
        while let line = readLine() {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            let answer: String
            switch (parts.first, parts.count) {
            case ("sign", 2):
                answer = Data(base64Encoded: parts[1]).map { server.signWebhook(body: $0) } ?? "error: not base64"
            case ("count", 2):
                answer = String(server.requests().filter { parts[1] == "*" || $0.path == parts[1] }.count)
            default: answer = "error: sign BASE64-BODY | count PATH"
            }
            FileHandle.standardOutput.write(Data((answer + "\n").utf8))
        }
        await server.stop()
    } else {
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
} catch {
    FileHandle.standardError.write(Data("plaid-test-server: \(error)\n".utf8))
    exit(1)
}
