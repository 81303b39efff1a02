import MoneyFlowCore
import MoneyFlowStore

/// What `moneyflow export` and `GET /v1/export` write: a beancount or hledger/ledger journal,
/// or the `transactions` CSV or JSON.
public enum ExportFormat: String, CaseIterable, Sendable {
    case beancount, ledger, csv, json
}

/// The one export path shared by the CLI and the server, so a journal is the same bytes
/// whichever shell asked for it. Text goes to `write` piece by piece: CSV and JSON row by row
/// as the store is read (constant memory on large stores), journals whole (the exporters need
/// every transaction to open accounts and place assertions).
public enum LedgerExport {
    /// Writes the export of the selected transactions; returns how many were exported. The
    /// account name must already be checked (``LedgerStore/requireAccount(_:)``).
    @discardableResult
    public static func write(
        _ format: ExportFormat, store: LedgerStore, account: String?, from: LocalDate?, through: LocalDate?,
        operatingCurrencies: [String] = [], to write: (String) throws -> Void
    ) throws -> Int {
        switch format {
        case .csv, .json:
            return try TransactionStream.write(
                store, json: format == .json, includeAll: false, account: account, from: from, through: through, csvEnd: "\r\n", to: write)
        case .beancount, .ledger:
            let accounts = try store.accounts()
            let txs = try store.transactions(account: account, from: from, through: through)
            // Bills are checked on whole accounts only: a date range may cut a bill's rows.
            let bills = from == nil && through == nil ? StatementBill.bills(from: try store.batches(), accounts: accounts) : []
            try write(
                format == .beancount
                    ? BeancountExporter.export(accounts: accounts, transactions: txs, operatingCurrencies: operatingCurrencies, bills: bills)
                    : LedgerExporter.export(accounts: accounts, transactions: txs, bills: bills))
            return txs.count
        }
    }

    /// A currency code as beancount's `operating_currency` takes it (letters and digits).
    public static func isCurrencyCode(_ code: String) -> Bool {
        !code.isEmpty && code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}

/// `transactions` / `export` as JSON or CSV, written as rows are read, with the same bytes as
/// rendering the whole list (`Contracts.transactions` pretty + "\n", or
/// `CSVExport.transactions` + `csvEnd`).
public enum TransactionStream {
    @discardableResult
    public static func write(
        _ store: LedgerStore, json: Bool, includeAll: Bool, account: String?, from: LocalDate?, through: LocalDate?, csvEnd: String,
        to write: (String) throws -> Void
    ) throws -> Int {
        var count = 0
        try write(json ? "[" : CSVExport.header.joined(separator: ","))
        try store.forEachTransaction(account: account, from: from, through: through, includeAll: includeAll) { t in
            if json {
                try write((count == 0 ? "\n  " : ",\n  ") + Contracts.transaction(t, includeState: includeAll).render(pretty: true, indent: 1))
            } else {
                try write("\r\n" + CSVExport.line(t))
            }
            count += 1
        }
        try write(json ? (count == 0 ? "]\n" : "\n]\n") : csvEnd)
        return count
    }
}
