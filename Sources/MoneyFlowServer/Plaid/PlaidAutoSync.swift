import Foundation
import Logging
import MoneyFlowPlaid
import MoneyFlowStore
import ServiceLifecycle

/// The Plaid syncs the server starts by itself (webhooks), coalesced per item: one running and
/// at most one waiting (``PlaidSyncCoalescer``), so a burst of webhooks for an item costs two
/// syncs, not one each. A sync runs in its user's writing slot once the user's own job (an
/// import, a manual sync) has finished, so it never answers the user with 409.
///
/// A service of the application: at shutdown the running syncs are cancelled (a sync cut off
/// before its import applies nothing; the import itself is one store transaction).
actor PlaidAutoSync: Service {
    let ledgers: Ledgers
    let users: UserDirectory
    let plaid: PlaidConfiguration
    let logger: Logger
    let coalescer = PlaidSyncCoalescer()
    /// How long a sync waits for its user's running job before it is dropped (the next
    /// trigger brings it).
    static let maxWaitForUser: Duration = .seconds(120)
    /// When the server last started a sync of each item by itself.
    private var lastStarted: [String: Date] = [:]

    init(ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration, logger: Logger) {
        self.ledgers = ledgers; self.users = users; self.plaid = plaid; self.logger = logger
    }

    /// Asks for a sync of `itemID` in `user`'s ledger (`why`: for the log).
    @discardableResult
    nonisolated func trigger(itemID: String, user: ServerUser, why: String) async -> PlaidSyncCoalescer.Admission {
        let admission = await coalescer.request(Self.key(user, itemID)) { await self.run(itemID: itemID, user: user, why: why) }
        if admission == .joined { logger.debug("\(why) sync of \(itemID): joins the one already waiting") }
        return admission
    }

    /// When the server last started a sync of `itemID` by itself.
    func lastStart(of itemID: String) -> Date? { lastStarted[itemID] }

    static func key(_ user: ServerUser, _ itemID: String) -> String { user.id + "/" + itemID }

    private func noteStart(_ itemID: String) { lastStarted[itemID] = Date() }

    /// Waits for the user's running job, then syncs the item in the user's writing slot.
    private nonisolated func run(itemID: String, user: ServerUser, why: String) async {
        let giveUp = ContinuousClock.now + Self.maxWaitForUser
        while !Task.isCancelled {
            if await ledgers.isIdle(user) {
                await noteStart(itemID)
                do {
                    let results = try await ledgers.exclusive(user, "a Plaid sync") { store in
                        try await PlaidService(
                            store: store, client: PlaidClient(configuration: plaid),
                            archive: PlaidArchive(directory: users.archivePath(for: user))
                        ).sync(itemIDs: [itemID], refresh: false)
                    }
                    for r in results { logger.info("\(why) sync of \(r.itemID): \(r.outcome.rawValue), \(r.changes) changes") }
                    return
                } catch let e as APIError where e.status == .conflict {
                    // Another job took the slot between the check and the start: wait for it too.
                } catch {
                    logger.warning("\(why) sync of \(itemID) did not run: \(String(describing: error))")
                    return
                }
            }
            guard ContinuousClock.now < giveUp else {
                logger.warning("\(why) sync of \(itemID) dropped: the user's job ran for over \(Self.maxWaitForUser)")
                return
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// Runs until the server shuts down, then cancels the syncs in flight.
    func run() async throws {
        try? await gracefulShutdown()
        await coalescer.cancelAll()
    }
}
