import ArgumentParser
import Foundation
import MoneyFlowServer

#if canImport(Glibc)
    import Glibc
#endif

extension UsersCommand {
    /// `moneyflow users passwd NAME`: the user's password for the web app's sign-in page. Read
    /// from the terminal without echo (twice), or as the first line of standard input when it is
    /// not a terminal; never from the command line (argv is visible to every user of the machine).
    struct Passwd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd", abstract: "Set a user's password for the web app (read from the terminal or stdin, never argv).",
            discussion: "echo \"$PASSWORD\" | moneyflow users passwd alice --data DIR  # or run it on a terminal and type it twice")
        @OptionGroup var data: DataOption
        @Argument(help: "User name.") var name: String

        func run() throws {
            let users = try data.directory()
            let password: String
            if isatty(STDIN_FILENO) == 1 {
                let first = PromptCache.readNoEcho(prompt: "New web password for \(name): ") ?? ""
                let again = PromptCache.readNoEcho(prompt: "Again: ") ?? ""
                guard first == again else { throw CLIError("the two passwords differ; nothing changed") }
                password = first
            } else {
                password = readLine(strippingNewline: true) ?? ""
            }
            try UsersCommand.mapErrors { try WebAccounts(users: users).setPassword(name: name, password: password) }
            printOut("web password of \(name) set; their open web sessions were signed out")
        }
    }
}
