import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

/// Wallet bills and the card's own statements in one store (``WalletFixture``): whatever the
/// order of the files, the same accounts and the same transactions; re-imports add nothing;
/// undoing a wallet batch gives back the ledger before it.
@Suite("wallet rows in the card's account, linked in every import order")
struct WalletLinkStoreTests {
    typealias W = WalletFixture
    static let files: [String: ImportedStatement] = ["debit": W.debit(), "card": W.card, "alipay": W.alipay, "wechat": W.wechat]

    @discardableResult
    static func importFile(_ store: LedgerStore, _ name: String, _ statement: ImportedStatement? = nil) throws -> FileImportResult {
        try ImportService(store: store).apply(
            statement ?? files[name]!, fileName: name, sha256: "sha-\(name)", options: FileImportOptions())
    }

    /// The ledger as a user sees it: accounts, transactions (with their sources' kinds) and transfers.
    static func ledger(_ store: LedgerStore) throws -> [String] {
        let accounts = try store.accounts().map { a in
            "account \(a.name) | \(a.institution ?? "-") | \(a.number ?? "-") | \(a.type ?? "-") | \(a.subtype ?? "-")"
        }
        let txs = try store.transactions().map { t in
            [
                t.account, t.date.iso, t.amount.decimalString, t.description, t.counterparty ?? "-", t.note ?? "-",
                t.sources.map(\.kind.rawValue).sorted().joined(separator: "+"), t.needsReview ? "review" : "",
            ].joined(separator: " | ")
        }
        let transfers = try store.transfers().linked.map {
            "transfer \($0.out.account) \($0.out.amount.decimalString) -> \($0.into.account) \($0.into.amount.decimalString)"
        }
        return (accounts + txs + transfers).sorted()
    }

    @Test(arguments: StoreKind.testable)
    func everyImportOrderGivesTheSameLedger(_ kind: StoreKind) throws {
        let orders = [
            ["debit", "card", "alipay", "wechat"], ["alipay", "wechat", "debit", "card"], ["wechat", "debit", "alipay", "card"],
            ["card", "alipay", "debit", "wechat", "card", "alipay", "debit", "wechat"],
        ]
        var ledgers: [[String]] = []
        for order in orders {
            let (store, _) = try freshStore(kind)
            for name in order { try Self.importFile(store, name) }
            ledgers.append(try Self.ledger(store))
            for name in order { #expect(try Self.importFile(store, name).plan.counts.new == 0, "re-importing \(name) adds nothing") }
            #expect(try Self.ledger(store) == ledgers.last!)
        }
        for (k, l) in ledgers.enumerated().dropFirst() { #expect(l == ledgers[0], "order \(orders[k]) differs from \(orders[0])") }
        let ledger = ledgers[0]
        // The debit account: its seven statement rows, five confirmed by a wallet row.
        let debit = ledger.filter { $0.hasPrefix("CMB 3816 |") }
        #expect(debit.count == 7, "\(debit)")
        #expect(debit.filter { $0.contains("cmb-pdf+wechat") || $0.contains("alipay+cmb-pdf") }.count == 5, "\(debit)")
        #expect(
            debit.contains { $0.contains("| 快捷支付 | 美团平台商户 | 财付通-微信支付-美团平台商户 · 美团订单 |") },
            "the bank's description and note, the wallet's merchant and item")
        #expect(ledger.contains { $0.hasPrefix("CMB Card 5521 |") && $0.contains("| 多一度（泉州）电子商务有限公司 | 外套 | alipay+cmb-pdf") })
        #expect(ledger.contains("account 工商银行 debit 6093 | 工商银行 | 6093 | debit | -"), "another bank's card: its own account")
        #expect(ledger.contains("transfer CMB 3816 -100.00 -> 微信 零钱 100.00"), "\(ledger.filter { $0.hasPrefix("transfer") })")
        #expect(!ledger.contains { $0.hasSuffix("| review") }, "\(ledger)")
    }

    @Test(arguments: StoreKind.testable)
    func undoingAWalletBatchGivesBackTheLedgerBeforeIt(_ kind: StoreKind) throws {
        for first in [["debit", "card", "alipay"], ["alipay"]] {
            let (store, _) = try freshStore(kind)
            for name in first { try Self.importFile(store, name) }
            let before = try Self.ledger(store)
            let batch = try #require(try Self.importFile(store, "wechat").batchID)
            #expect(try Self.ledger(store) != before)
            _ = try store.undo(batchID: batch)
            #expect(try Self.ledger(store) == before, "after \(first)")
        }
    }

    /// A card statement after its wallets: undoing it gives back the wallets' own card account.
    @Test(arguments: StoreKind.testable)
    func undoingTheStatementGivesBackTheWalletsCardAccount(_ kind: StoreKind) throws {
        let (store, _) = try freshStore(kind)
        try Self.importFile(store, "wechat")
        let before = try Self.ledger(store)
        #expect(before.contains("account 招商银行 debit 3816 | 招商银行 | 3816 | debit | -"))
        let batch = try #require(try Self.importFile(store, "debit").batchID)
        let after = try Self.ledger(store)
        #expect(after.contains("account CMB 3816 | China Merchants Bank | 6214********3816 | ALL/全币种 | -"), "the statement's own account")
        #expect(!after.contains { $0.hasPrefix("account 招商银行 debit 3816") }, "one account, not two")
        _ = try store.undo(batchID: batch)
        #expect(try Self.ledger(store) == before)
    }

    /// `reconcile`: a card-funded wallet row the statement has not shown yet is awaiting the bank.
    @Test func reconcileShowsWalletRowsAwaitingTheBank() throws {
        let (store, _) = try freshStore(.sqlite)
        try Self.importFile(store, "wechat")
        var firstRow = W.debit()
        firstRow.records = [firstRow.records[0]]
        try Self.importFile(store, "debit-part", firstRow)
        let report = try ReconciliationReport.build(store: store)
        let debit = try #require(report.accounts.first { $0.account == "CMB 3816" })
        #expect(debit.confirmed.count == 1)
        #expect(debit.awaitingBank.map(\.date.iso).sorted() == ["2025-03-07", "2025-03-07", "2025-03-15"])
        #expect(report.accounts.first { $0.account == "微信 零钱" }?.awaitingBank.isEmpty == true, "a wallet's own account awaits nothing")
    }
}
