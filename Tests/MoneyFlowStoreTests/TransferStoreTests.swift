import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// Transfers between own accounts as the store keeps them, on both stores: the Chase checking
/// export pays the Chase card twice ("Payment to Chase card ending in 4821" / "Payment Thank
/// You-Mobile"). Whatever the order, re-imports, undos and the user's decisions, the store
/// shows the transfers a fresh decision over its transactions gives.
@Suite("transfers in the store: settled by every write, on both stores")
struct TransferStoreTests {
    static let checking = sample("csv/chase_checking.csv"), card = sample("csv/chase_card.csv")
    static let january = "Chase Checking 2026-01-21 -1264.18 USD -> Chase Card 2026-01-21 1264.18 USD"
    static let february = "Chase Checking 2026-02-20 -987.45 USD -> Chase Card 2026-02-20 987.45 USD"

    static func describe(_ store: LedgerStore, review: Bool = false) throws -> [String] {
        let t = try store.transfers()
        return (review ? t.review : t.linked).map {
            "\($0.out.account) \($0.out.date.iso) \($0.out.amount) -> \($0.into.account) \($0.into.date.iso) \($0.into.amount)"
                + (review || $0.decidedBy == "auto" ? "" : " [\($0.decidedBy)]")
        }.sorted()
    }

    @discardableResult
    static func importFile(_ store: LedgerStore, _ path: String) throws -> FileImportResult {
        try ImportService(store: store).importFile(path: path, options: FileImportOptions())
    }

    @Test(arguments: StoreKind.testable)
    func eitherOrderAndReimportsGiveTheSameTransfers(_ kind: StoreKind) throws {
        var outputs: [[String]] = []
        for order in [[Self.checking, Self.card], [Self.card, Self.checking]] {
            let (store, location) = try freshStore(kind)
            for path in order + order { try Self.importFile(store, path) }
            #expect(try Self.describe(store) == [Self.january, Self.february])
            #expect(try Self.describe(store, review: true) == [])
            let reopened = try reopenTestStore(location, access: .readOnly)
            #expect(try Self.describe(reopened) == [Self.january, Self.february], "what was committed")
            // Each leg names the other; nothing else is a transfer.
            let txs = try reopened.transactions()
            let legs = txs.filter { $0.transfer != nil }
            #expect(legs.count == 4)
            for leg in legs {
                let other = try #require(txs.first { $0.id == leg.transfer!.otherTransactionID })
                #expect(other.transfer?.otherTransactionID == leg.id)
                #expect(other.amount.minorUnits == -leg.amount.minorUnits && other.account != leg.account)
            }
            outputs.append(txs.map { "\($0.account) \($0.date.iso) \($0.amount) \($0.transfer?.direction ?? "-")" }.sorted())
        }
        #expect(outputs[0] == outputs[1])
    }

    /// The checking export cut into two overlapping files (rows 1-30 and 15-43, as two downloads
    /// of overlapping periods): whatever the order of the three files, the transfers are those
    /// of the whole export.
    @Test(arguments: StoreKind.testable)
    func overlappingFilesInAnyOrderGiveTheSameTransfers(_ kind: StoreKind) throws {
        let text = try String(contentsOfFile: Self.checking, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline)
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        let dir = try TestPaths.tempDir("transfer-overlap")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func part(_ name: String, _ rows: ClosedRange<Int>) throws -> String {
            let path = dir + "/" + name
            try ([String(lines[0])] + rows.map { String(lines[$0]) }).joined(separator: newline).appending(newline)
                .write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let early = try part("chase_checking_a.csv", 1...30), late = try part("chase_checking_b.csv", 15...(lines.count - 1))
        for order in [[early, late, Self.card], [Self.card, late, early], [late, Self.card, early, late]] {
            let (store, _) = try freshStore(kind)
            for path in order { try Self.importFile(store, path) }
            #expect(try Self.describe(store) == [Self.january, Self.february], "order: \(order.map { ($0 as NSString).lastPathComponent })")
            #expect(try store.transactions().filter { $0.account == "Chase Checking" }.count == lines.count - 1)
        }
    }

    @Test(arguments: StoreKind.testable)
    func undoTakesTheTransfersAwayAndAReimportBringsThemBack(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        try Self.importFile(store, Self.checking)
        let card = try Self.importFile(store, Self.card)
        #expect(try Self.describe(store).count == 2)
        try store.undo(batchID: try #require(card.batchID))
        #expect(try Self.describe(store) == [])
        #expect(try store.transactions().allSatisfy { $0.transfer == nil && $0.transferCandidates.isEmpty })
        try Self.importFile(store, Self.card)
        #expect(try Self.describe(reopenTestStore(location, access: .readOnly)) == [Self.january, Self.february])
    }

    @Test(arguments: StoreKind.testable)
    func theUsersDecisionsSurviveUndoAndReimport(_ kind: StoreKind) throws {
        let (store, location) = try freshStore(kind)
        let checking = try Self.importFile(store, Self.checking)
        try Self.importFile(store, Self.card)
        let jan = try #require(try store.transfers().linked.first { $0.out.date.iso == "2026-01-21" })
        // "Not a transfer": the pair is never made again, not even after both files come back.
        #expect(try store.unlinkTransfer(jan.into.id) == jan.out.id)
        #expect(try Self.describe(store) == [Self.february])
        try store.undo(batchID: try #require(checking.batchID))
        try Self.importFile(store, Self.checking)
        #expect(try Self.describe(store) == [Self.february])
        #expect(throws: StoreError.self) { try store.unlinkTransfer(jan.into.id) }
        // The user links it after all: linked by the user, through undo and re-import too.
        let out = try #require(try store.transactions().first { $0.date.iso == "2026-01-21" && $0.amount.minorUnits == -126_418 })
        try store.linkTransfer(jan.into.id, out.id)
        #expect(try Self.describe(store) == [Self.january + " [user]", Self.february])
        let cardBatch = try #require(try store.batches().first { $0.fileName.hasSuffix("chase_card.csv") && $0.undoneAt == nil })
        try store.undo(batchID: cardBatch.id)
        try Self.importFile(store, Self.card)
        #expect(try Self.describe(reopenTestStore(location, access: .readOnly)) == [Self.january + " [user]", Self.february])
        // The user may link legs of different amounts (a repayment with a fee taken off): it holds.
        let fee = try #require(
            try store.transactions().first { $0.account == "Chase Checking" && $0.amount.minorUnits < 0 && $0.transfer == nil })
        let refund = try #require(
            try store.transactions().first { $0.account == "Chase Card" && $0.amount.minorUnits > 0 && $0.transfer == nil })
        try store.linkTransfer(fee.id, refund.id)
        #expect(try store.transactions().first { $0.id == fee.id }?.transfer?.otherTransactionID == refund.id)
        #expect(try Self.describe(reopenTestStore(location, access: .readOnly)).count == 3)
        // What a transfer cannot be.
        let txs = try store.transactions()
        let twoOut = txs.filter { $0.account == "Chase Checking" && $0.amount.minorUnits < 0 }.prefix(2).map(\.id)
        #expect(throws: StoreError.self) { try store.linkTransfer(twoOut[0], twoOut[1]) }
        #expect(throws: StoreError.self) { try store.linkTransfer(out.id, 999_999) }
    }
}
