import Foundation
import MoneyFlowImporters

#if canImport(Glibc)
    import Glibc
#endif

/// Where passwords come from: an environment variable, a file, or a no-echo prompt on a terminal.
/// A password is never printed, logged or stored.
enum PasswordSource {
    static func provider(env: String?, file: String?) throws -> PasswordProvider? {
        if let env {
            guard let value = ProcessInfo.processInfo.environment[env], !value.isEmpty else {
                throw CLIError("environment variable \(env) (for --password-env) is not set")
            }
            return { _ in value }
        }
        if let file {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw CLIError("cannot read password file \(file)")
            }
            let value = String(text.split(whereSeparator: \.isNewline).first ?? "")
            return { _ in value }
        }
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let cache = PromptCache()
        return { name in try cache.password(for: name) }
    }
}

/// Prompts once per run (the same code usually opens every file of one download).
final class PromptCache: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    func password(for name: String) throws -> String? {
        lock.lock(); defer { lock.unlock() }
        if let value { return value }
        let v = Self.readNoEcho(prompt: "Password for \((name as NSString).lastPathComponent): ")
        value = v
        return v
    }

    /// One line from the terminal with echo off (the prompt goes to stderr).
    static func readNoEcho(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var old = termios()
        tcgetattr(STDIN_FILENO, &old)
        var noEcho = old
        noEcho.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &noEcho)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &old)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
