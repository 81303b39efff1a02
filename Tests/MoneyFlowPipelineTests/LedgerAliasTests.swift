import Foundation
import GRDB
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStoreTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowStore

/// Aliases the ledger already confirmed (``AliasLedgerView``): a transaction holding a bank
/// record and a provider record whose texts share nothing, linked on evidence other than text
/// (or by the user), teaches those two texts to later imports, as a carried pair of the same
/// import would. The confirming pair lies two months before the new one, far outside any
/// re-planning window, so only the ledger can carry what it learned.
@Suite struct LedgerAliasTests {
    typealias F = LearnedAliasFixture

    static func statement(_ records: [IncomingRecord]) -> ImportedStatement {
        ImportedStatement(importerID: "cmb-pdf", accounts: [F.facts], records: records)
    }
    static func feed(_ records: [IncomingRecord]) -> ImportedStatement {
        ImportedStatement(importerID: "plaid", accounts: [F.facts], records: records)
    }
    /// The new textless pair: the feed two days before the statement, the only candidate.
    static let lateFeed = feed([F.feed("e3", -2, -2733, row: 2)])
    static let lateStatement = statement([F.bank(0, -2733, row: 2)])

    /// Imports `earlier` in order, then the late pair (feed first or statement first), and
    /// returns the plan of the second late file.
    static func run(
        _ kind: StoreKind, _ earlier: [ImportedStatement], statementFirst: Bool,
        between: (LedgerStore) throws -> Void = { _ in }
    ) throws -> (FileImportResult, LedgerStore) {
        let store = try freshReconcileStore(kind)
        let service = ImportService(store: store)
        for (k, st) in earlier.enumerated() { try importFile(service, st, name: "earlier-\(k)") }
        try between(store)
        let (first, second) = statementFirst ? (lateStatement, lateFeed) : (lateFeed, lateStatement)
        try importFile(service, first, name: "late-first")
        return (try service.apply(second, fileName: "late-second", sha256: "sha-late-second", options: FileImportOptions()), store)
    }

    /// Two months earlier, a same-day pair with an amount found nowhere else was linked without
    /// text: its link says `carried`, and the later textless pair of the same two texts is
    /// linked on it, naming the ledger as its evidence. (Before the ledger was read, it went to
    /// review: the late imports alone hold no same-day pair to learn from.)
    @Test(arguments: StoreKind.testable, [false, true])
    func anAliasConfirmedByAStoredLinkCarriesALaterTextlessPair(_ kind: StoreKind, statementFirst: Bool) throws {
        let earlier = [Self.statement([F.bank(-60, -3012, row: 1)]), Self.feed([F.feed("e1", -60, -3012, row: 1)])]
        let (r, store) = try Self.run(kind, earlier, statementFirst: statementFirst)
        #expect(r.plan.counts.linked == 1 && r.plan.counts.needsReview == 0, "\(r.plan.entries.map { describe($0.decision) })")
        #expect(try store.pendingReviews().isEmpty)
        guard case .link(_, _, let reasons, _)? = r.plan.entries.first?.decision else { Issue.record("\(r.plan.entries)"); return }
        let alias = try #require(reasons.first { $0.factor == "alias" })
        #expect(alias.detail.contains("1 confirmed transaction(s) of the ledger") && !alias.detail.contains("this import"), "\(alias)")
        let t = try #require(try store.transactions().first { $0.amount.minorUnits == -2733 })
        #expect(Set(t.sources.map(\.kind)) == [.cmbPDF, .plaid])
    }

    /// The earlier files, then the later ones, give the ledger one combined import of both
    /// gives (there the same-day pair teaches the alias within the import).
    @Test(arguments: StoreKind.testable) func earlierThenLaterEqualsOneCombinedImport(_ kind: StoreKind) throws {
        let earlierStatement = [F.bank(-60, -3012, row: 1)], earlierFeed = [F.feed("e1", -60, -3012, row: 1)]
        let (_, store) = try Self.run(kind, [Self.statement(earlierStatement), Self.feed(earlierFeed)], statementFirst: false)
        let combined = try ledger(
            kind,
            [
                ("feed", Self.feed(earlierFeed + Self.lateFeed.records)),
                ("statement", Self.statement(earlierStatement + Self.lateStatement.records)),
            ])
        let separate = canonical(try store.transactions()), together = canonical(combined.transactions)
        #expect(Bool(separate == together), "\(diff(together, separate))")
        #expect(together.count == 2)
    }

    /// The evidence later imports act on is the link's typed `evidence`, not its reasons: with
    /// every stored reason reworded (another factor name and sentence, as a new wording would
    /// write them), the stored carried link still teaches the alias.
    @Test(arguments: StoreKind.testable) func rewordedReasonsTeachTheSame(_ kind: StoreKind) throws {
        let earlier = [Self.statement([F.bank(-60, -3012, row: 1)]), Self.feed([F.feed("e1", -60, -3012, row: 1)])]
        let (r, store) = try Self.run(kind, earlier, statementFirst: false) { store in
            let reworded = #"[{"factor":"textless","detail":"reworded for people"}]"#
            let n = try store.write { db in
                try db.execute(sql: "UPDATE link SET reasons = ?", arguments: [reworded])
                return db.changesCount
            }
            #expect(n == 2, "both earlier records' links reworded")
        }
        #expect(r.plan.counts.linked == 1 && r.plan.counts.needsReview == 0, "\(r.plan.entries.map { describe($0.decision) })")
        #expect(try store.pendingReviews().isEmpty)
    }

    /// A store written before links had `evidence` kept it only in the reason: the upgrade
    /// fills the column from it, so the stored carried link still teaches the alias.
    @Test func anUpgradedStoreKeepsWhatItsCarriedLinksTaught() throws {
        let path = try TestPaths.tempDir("alias-upgrade") + "/old.sqlite"
        try {
            let service = ImportService(store: try LedgerStore(path: path))
            try importFile(service, Self.statement([F.bank(-60, -3012, row: 1)]), name: "earlier-0")
            try importFile(service, Self.feed([F.feed("e1", -60, -3012, row: 1)]), name: "earlier-1")
        }()
        // As the older MoneyFlow stored it: no column, the reason alone.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "ALTER TABLE link DROP COLUMN evidence")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v11-link-evidence'")
        }
        let store = try LedgerStore(path: path)
        let carried = try store.write { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM link WHERE evidence = 'carried'") }
        #expect(carried == 1, "the feed record's link, linked without text")
        let service = ImportService(store: store)
        try importFile(service, Self.lateFeed, name: "late-first")
        let r = try service.apply(Self.lateStatement, fileName: "late-second", sha256: "sha-late-second", options: FileImportOptions())
        #expect(r.plan.counts.linked == 1 && r.plan.counts.needsReview == 0, "\(r.plan.entries.map { describe($0.decision) })")
    }

    /// A pair the user linked by hand teaches the alias as well; the same pair left in review
    /// teaches nothing (the later pair goes to review too).
    @Test(arguments: StoreKind.testable, [false, true])
    func aUsersLinkTeachesAPairInReviewDoesNot(_ kind: StoreKind, userLinks: Bool) throws {
        // Two days apart, textless: the earlier pair itself waits in review.
        let earlier = [Self.feed([F.feed("e1", -62, -3012, row: 1)]), Self.statement([F.bank(-60, -3012, row: 1)])]
        let (r, store) = try Self.run(kind, earlier, statementFirst: false) { store in
            let review = try #require(try store.pendingReviews().first, "the earlier textless pair is reviewed")
            if userLinks {
                try store.userLink(recordID: review.record.id, transactionID: try #require(review.candidates.first?.transactionID))
            }
        }
        let entries = r.plan.entries.map { describe($0.decision) }
        if userLinks {
            #expect(r.plan.counts.linked == 1 && r.plan.counts.needsReview == 0, "\(entries)")
        } else {
            #expect(r.plan.counts.linked == 0 && r.plan.counts.needsReview == 1, "\(entries)")
            #expect(try store.pendingReviews().count == 2)
        }
    }

    /// Only first-hand evidence teaches, as within an import: a link the engine made on an
    /// alias says `alias`, not `carried`. Earlier, e1 is a same-day, unique-amount pair and e2
    /// (two days apart) is linked on the alias e1 taught; then the user unlinks e1. e2's link
    /// alone confirms nothing, so the later pair goes to review.
    @Test(arguments: StoreKind.testable) func aLinkCarriedByAnAliasTeachesNothing(_ kind: StoreKind) throws {
        let earlier = [
            Self.statement([F.bank(-60, -3012, row: 1), F.bank(-56, -4590, row: 2)]),
            Self.feed([F.feed("e1", -60, -3012, row: 1), F.feed("e2", -58, -4590, row: 2)]),
        ]
        let (r, _) = try Self.run(kind, earlier, statementFirst: false) { store in
            let txs = try store.transactions()
            #expect(txs.filter { $0.sources.count == 2 }.count == 2, "both earlier pairs linked")
            let t = try #require(txs.first { $0.amount.minorUnits == -3012 && $0.sources.count == 2 })
            _ = try store.userUnlink(recordID: try #require(t.sources.first { $0.kind == .plaid }).id)
        }
        #expect(r.plan.counts.linked == 0 && r.plan.counts.needsReview == 1, "\(r.plan.entries.map { describe($0.decision) })")
    }
}
