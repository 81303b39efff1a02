import ArgumentParser
import Foundation
import MoneyFlowPipeline
import MoneyFlowServer

/// `moneyflow users ...`: the server's users and their API tokens (thin: UserDirectory calls).
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage the users of `moneyflow serve` and their API tokens.",
        discussion: """
            A token is printed once, as the last line of stdout (only its hash is kept):
              TOKEN=$(moneyflow users add alice --data /var/lib/moneyflow | tail -1)
            """,
        subcommands: [Add.self, List.self, Remove.self, RotateToken.self, Passwd.self])

    struct DataOption: ParsableArguments {
        @Option(name: .long, help: ArgumentHelp("The server's data folder (env MONEYFLOW_DATA).", valueName: "dir"))
        var data: String?

        /// The user list of the data folder. Only `users add` (`creating`) makes the folder: a
        /// command that reads or changes users of a folder holding none says so and creates nothing
        /// (a mistyped `--data` must not leave a new empty server folder behind).
        func directory(creating: Bool = false) throws -> UserDirectory {
            guard let dir = data ?? ProcessInfo.processInfo.environment["MONEYFLOW_DATA"], !dir.isEmpty else {
                throw CLIError("give --data DIR (or MONEYFLOW_DATA): the folder `moneyflow serve --data` uses")
            }
            if !creating && !FileManager.default.fileExists(atPath: (dir as NSString).appendingPathComponent("users.sqlite")) {
                throw CLIError("\(dir) holds no users (no users.sqlite): check --data, or add the first user with `moneyflow users add NAME --data \(dir)`")
            }
            do { return try UserDirectory(dataDirectory: dir) } catch let e as UserDirectoryError { throw CLIError(e.description) }
        }
    }

    static func mapErrors<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as UserDirectoryError { throw CLIError(e.description) }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a user with a ledger of their own; prints their token once.")
        @OptionGroup var data: DataOption
        @Argument(help: "User name (letters, digits, '.', '_', '-').") var name: String
        func run() throws {
            let users = try data.directory(creating: true)
            let (user, token) = try mapErrors { try users.add(name: name) }
            printOut("user \(user.name) added (id \(user.id)); ledger \(users.ledgerPath(for: user))")
            printOut("API token (shown once; send it as Authorization: Bearer <token>):")
            printOut(token)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List users (never their tokens).")
        @OptionGroup var data: DataOption
        @Option(help: "table or json.") var format: ListFormat = .table
        func run() throws {
            let list = try mapErrors { try data.directory().list() }
            switch format {
            case .json:
                printOut(
                    JSONOutput.array(
                        list.map {
                            .object([
                                ("name", .string($0.name)), ("id", .string($0.id)), ("created_at", .string($0.createdAt)),
                                ("token_issued_at", .string($0.tokenIssuedAt)),
                            ])
                        }
                    ).render(pretty: true))
            case .table:
                var t = TextTable(["name", "id", "created", "token issued"])
                for u in list { t.add([u.name, u.id, u.createdAt, u.tokenIssuedAt]) }
                printOut(SafeText.escapedLines(t.render()))
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a user: their token stops working; their ledger folder is moved to removed/.")
        @OptionGroup var data: DataOption
        @Argument(help: "User name.") var name: String
        func run() throws {
            try mapErrors { try data.directory().remove(name: name) }
            printOut("user \(name) removed; their ledger folder is kept under removed/ in the data folder")
        }
    }

    struct RotateToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-token", abstract: "Give a user a new token; the old one stops working at once.")
        @OptionGroup var data: DataOption
        @Argument(help: "User name.") var name: String
        func run() throws {
            let token = try mapErrors { try data.directory().rotateToken(name: name) }
            printOut("new API token for \(name) (shown once; the old one no longer works):")
            printOut(token)
        }
    }
}
