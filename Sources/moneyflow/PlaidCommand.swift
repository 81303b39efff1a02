import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowPlaid
import MoneyFlowStore

/// `moneyflow plaid ...`: the live Plaid connection (thin: every step is a PlaidService call).
struct PlaidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plaid",
        abstract: "Link banks through Plaid and sync their transactions into the store.",
        discussion: """
            Set-up (environment only, never arguments): PLAID_CLIENT_ID, PLAID_SECRET and
            PLAID_ENV = sandbox | production | a base URL. Access tokens are sealed with AES-GCM
            under the key file MONEYFLOW_KEY_FILE (default ~/.config/moneyflow/plaid.key, created
            on first link with mode 0600); keep a backup of it: without it the store's tokens
            cannot be opened and the banks must be linked again.

            Exit codes: 0 success, 1 a failure (for sync: any item failed; the others are still
            written), 2 usage error.
            """,
        subcommands: [Link.self, Sync.self, Items.self, Remove.self])

    /// Options every plaid subcommand shares.
    struct Common: ParsableArguments {
        @OptionGroup var storeOptions: StoreOptions
        @Option(
            name: .long,
            help: ArgumentHelp("Archive folder for Plaid's responses (default: <store>-plaid-archive beside the store).", valueName: "dir"))
        var archive: String?

        func service(store: LedgerStore) throws -> PlaidService {
            var client = PlaidClient(configuration: try Self.configuration())
            client.onRetry = { line in FileHandle.standardError.write(Data("moneyflow: \(line)\n".utf8)) }
            client.onFirstContact = { line in FileHandle.standardError.write(Data("moneyflow: \(SafeText.escaped(line))\n".utf8)) }
            var service = PlaidService(store: store, client: client, archive: archive.map(PlaidArchive.init(directory:)))
            service.notice = { line in FileHandle.standardError.write(Data("moneyflow: \(SafeText.escaped(line))\n".utf8)) }
            return service
        }

        static func configuration() throws -> PlaidConfiguration {
            do { return try PlaidConfiguration.fromEnvironment() } catch let e as PlaidConfigurationError { throw CLIError(e.description) }
        }
    }

    /// Runs `body`, turning the Plaid module's errors into one-line CLI errors.
    static func mapErrors<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let e as PlaidAPIError {
            throw CLIError(e.description)
        } catch let e as PlaidTransportError {
            throw CLIError(e.description)
        } catch let e as PlaidServiceError {
            throw CLIError(e.description)
        } catch let e as VaultError {
            throw CLIError(e.description)
        } catch let e as LinkLauncherError {
            throw CLIError(String(describing: e))
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "Link a bank (a Plaid item) and bring in its accounts.",
            discussion: """
                Default: opens a one-page Plaid Link launcher on 127.0.0.1 and prints its URL; open it
                in a browser, log in to the bank, and the item is linked when Link finishes.
                Linking a bank that is already linked (a new item for the same accounts) lands on the
                same store accounts, links the history it re-delivers to what is there, and retires
                the old item (removed at Plaid, its transactions kept).
                """)
        @OptionGroup var common: Common
        @Flag(name: .long, help: "Sandbox only: create the item without a browser (/sandbox/public_token/create).")
        var sandbox = false
        @Option(name: .long, help: ArgumentHelp("Sandbox institution for --sandbox.", valueName: "id"))
        var institution = "ins_109508"
        @Option(
            name: .long,
            help: ArgumentHelp("Exchange a public token read from this file ('-' = stdin), e.g. from an app.", valueName: "token-file"))
        var publicToken: String?
        @Option(name: .long, help: ArgumentHelp("Re-authenticate this item (update mode, with account selection).", valueName: "item"))
        var update: String?
        @Option(name: .long, help: "Days of history to request (1-730; fixed once the item exists).")
        var days = PlaidService.defaultDays
        @Option(name: .long, help: ArgumentHelp("Port of the Link launcher on 127.0.0.1 (0 = any free port).", valueName: "port"))
        var port = 0
        @Flag(
            name: .long,
            help: "Pass an OAuth redirect URI (http://localhost:PORT/oauth-return; sandbox only, register it in the dashboard).")
        var oauth = false
        @Option(name: .long, help: ArgumentHelp("Country codes offered in Link (repeatable).", valueName: "code"))
        var country: [String] = ["US"]
        @Flag(name: .long, help: "Print the result as JSON.")
        var json = false

        func validate() throws {
            guard (1...730).contains(days) else { throw ValidationError("--days must be between 1 and 730 (Plaid's limit)") }
            let modes = [sandbox, publicToken != nil, update != nil].filter { $0 }.count
            guard modes <= 1 else { throw ValidationError("choose one of --sandbox, --public-token and --update") }
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        }

        func run() async throws {
            try await PlaidCommand.mapErrors { () async throws -> Void in
                let store = try common.storeOptions.open()
                var service = try common.service(store: store)
                service.countryCodes = country.map { $0.uppercased() }
                if isatty(0) == 1 && isatty(1) == 1 && !json { service.chooseAccount = Self.askAccount }
                if let itemID = update {
                    let redirect = oauth ? LinkLauncher.oauthRedirectURI(port: port).absoluteString : nil
                    let token = try await service.createLinkToken(days: days, redirectURI: redirect, update: itemID)
                    _ = try await LinkLauncher.run(linkToken: token, port: port) { url in Self.announce(url) }
                    let result = try await service.finishUpdate(itemID: itemID)
                    try report(itemID: itemID, institution: nil, accounts: result, retired: [], failed: [])
                    return
                }
                let result: PlaidLinkResult
                if sandbox {
                    result = try await service.linkSandbox(institutionID: institution, days: days)
                } else if let file = publicToken {
                    result = try await service.finishLink(publicToken: try Self.readToken(file))
                } else {
                    let redirect = oauth ? LinkLauncher.oauthRedirectURI(port: port).absoluteString : nil
                    let token = try await service.createLinkToken(days: days, redirectURI: redirect)
                    let link = try await LinkLauncher.run(linkToken: token, port: port) { url in Self.announce(url) }
                    result = try await service.finishLink(publicToken: link.publicToken)
                }
                try report(
                    itemID: result.itemID, institution: result.institution, accounts: result.accounts, retired: result.retiredItems,
                    failed: result.retireFailures)
            }
        }

        /// On a terminal: which store account a re-linked Plaid account is, when several could be.
        @Sendable static func askAccount(_ account: String, _ mask: String?, _ candidates: [String]) -> String? {
            printOut(SafeText.escaped("The bank's account \(account)\(mask.map { " (mask \($0))" } ?? "") could be any of these accounts:"))
            for (k, name) in candidates.enumerated() { printOut(SafeText.escaped("  \(k + 1)) \(name)")) }
            printOut("Which one is it? Type its number, or press Enter to keep it as a new account: ", terminator: "")
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces), let n = Int(line), candidates.indices.contains(n - 1) else {
                return nil
            }
            return candidates[n - 1]
        }

        static func announce(_ url: URL) {
            printOut("Open \(url.absoluteString) in a browser to link your bank (waiting; Ctrl-C to stop).")
        }

        /// A public token from a file or stdin (never from argv, where `ps` would show it).
        static func readToken(_ file: String) throws -> String {
            let data: Data?
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                data = FileManager.default.contents(atPath: file)
            }
            guard let data else { throw CLIError("cannot read the public token file \(file)") }
            let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
                throw CLIError("\(file) does not hold one public token (one line, like public-sandbox-...)")
            }
            return token
        }

        func report(itemID: String, institution: String?, accounts: FileImportResult, retired: [String], failed: [String]) throws {
            if json {
                printOut(
                    PlaidContracts.link(itemID: itemID, institution: institution, accounts: accounts, retired: retired, failed: failed)
                        .render(pretty: true))
                return
            }
            printOut(SafeText.escaped("Linked item \(itemID)\(institution.map { " (\($0))" } ?? "")."))
            for a in accounts.plan.accounts {
                printOut(SafeText.escaped("  account \(a.name)\(a.accountID == nil ? " (new)" : " (existing)")"))
            }
            for w in accounts.plan.statement.warnings { printOut("  warning: " + SafeText.escaped(w.description)) }
            for r in retired { printOut("  replaced item \(r): retired (removed at Plaid; its transactions stay)") }
            printOut("Next: moneyflow plaid sync")
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync", abstract: "Bring each item's changes since its last sync into the store.",
            discussion: """
                Per item: /transactions/sync pages from the saved cursor until has_more is false, then the
                whole update is applied in one store transaction with its cursor, and the pages are kept
                in the archive. A killed sync loses nothing and duplicates nothing. Run it from cron:
                no webhook is needed. Exit 0 when every item synced (or was up to date, or Plaid was not
                ready yet), 1 when any failed.
                """)
        @OptionGroup var common: Common
        @Option(
            name: .customLong("item"), help: ArgumentHelp("Sync only this item (repeatable; default every linked item).", valueName: "id"))
        var items: [String] = []
        @Flag(name: .long, help: "Ask Plaid to fetch from the bank first (/transactions/refresh, a paid add-on).")
        var refresh = false
        @Flag(name: .long, help: "Print the results as JSON.")
        var json = false

        func run() async throws {
            let results = try await PlaidCommand.mapErrors { () async throws -> [PlaidItemSyncResult] in
                let store = try common.storeOptions.open()
                let service = try common.service(store: store)
                let tty = isatty(2) == 1 && !json
                var progress: (@Sendable (String, Int, Int) -> Void)? = nil
                if tty {
                    progress = { item, pages, changes in
                        FileHandle.standardError.write(Data("\r\u{1B}[K\(item): page \(pages), \(changes) changes".utf8))
                    }
                }
                let results = try await service.sync(itemIDs: items, refresh: refresh, progress: progress)
                if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                return results
            }
            if json {
                printOut(PlaidContracts.sync(results).render(pretty: true))
            } else {
                for r in results { printOut(SafeText.escaped(Self.line(r))) }
            }
            if results.contains(where: { $0.outcome == .failed }) { throw ExitCode(1) }
        }

        static func line(_ r: PlaidItemSyncResult) -> String {
            let name = "\(r.itemID)\(r.institution.map { " (\($0))" } ?? "")"
            switch r.outcome {
            case .synced:
                let counts = r.importResult.map { BatchReporter.countsText($0.plan.counts) } ?? ""
                let restarts = r.restarts > 0 ? "; restarted \(r.restarts)x after Plaid's data changed while paging" : ""
                let status =
                    r.updateStatus.flatMap { $0 == "HISTORICAL_UPDATE_COMPLETE" ? nil : "; Plaid status \($0): more history will follow" }
                    ?? ""
                return "\(name): synced \(r.changes) changes: \(counts)\(restarts)\(status)"
            case .upToDate: return "\(name): up to date"
            case .notReady:
                return
                    "\(name): not ready yet (Plaid is still pulling the bank's history); run `moneyflow plaid sync` again in a few minutes"
            case .failed: return "\(name): FAILED: \(r.error ?? "unknown error")"
            }
        }
    }

    struct Items: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "items",
            abstract: "List linked items: institution, accounts, last sync, Plaid's last update, status, last error.")
        @OptionGroup var common: Common
        @Option(name: .long, help: "table or json.")
        var format: ListFormat = .table
        @Flag(name: .long, help: "Do not ask Plaid (/item/get); show what the store knows.")
        var offline = false

        func run() async throws {
            let infos = try await PlaidCommand.mapErrors { () async throws -> [PlaidService.ItemInfo] in
                let store = try common.storeOptions.openExisting()
                if offline { return try await PlaidService.storedItems(store) }
                return try await common.service(store: store).items(askPlaid: true)
            }
            if format == .json {
                printOut(PlaidContracts.items(infos).render(pretty: true))
                return
            }
            var t = TextTable(["item", "institution", "accounts", "last sync", "plaid updated", "status", "last error"])
            for i in infos {
                t.add([
                    i.item.itemID, i.item.institutionName ?? i.item.institutionID ?? "", i.accounts.joined(separator: ", "),
                    i.item.lastSuccessAt ?? "never", i.item.plaidLastUpdate ?? "", i.item.status.rawValue, i.item.errorCode ?? "",
                ])
            }
            printOut(SafeText.escapedLines(t.render()))
            for i in infos where i.item.status == .needsUser {
                printOut("item \(i.item.itemID) needs you: run `moneyflow plaid link --update \(i.item.itemID)`")
            }
            for i in infos { if let e = i.statusError { printOut(SafeText.escaped("could not ask Plaid about \(i.item.itemID): \(e)")) } }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an item at Plaid (/item/remove) and delete its token; its transactions stay.")
        @OptionGroup var common: Common
        @Argument(help: "The item id (see `moneyflow plaid items`).")
        var item: String

        func run() async throws {
            try await PlaidCommand.mapErrors { () async throws -> Void in
                let store = try common.storeOptions.openExisting()
                try await common.service(store: store).remove(itemID: item)
            }
            printOut("Removed item \(item) at Plaid; its transactions stay in the store.")
        }
    }
}
