import Foundation
import Logging
import MoneyFlowPlaid
import MoneyFlowStore
import ServiceLifecycle

/// The Plaid syncs the server starts by itself: on a webhook, and every ``every``
/// (`--plaid-sync-every`) for servers Plaid cannot reach with webhooks.
///
/// Every such sync is coalesced per item: one running and at most one waiting
/// (``PlaidSyncCoalescer``), so a burst of webhooks, or a webhook during a scheduled sync, costs
/// two syncs at most, never two at once. A sync runs in its user's writing slot once the user's
/// own job (an import, a manual sync) has finished, so it never answers the user with 409.
///
/// The schedule keeps no state of its own that a restart would lose: an item is due
/// ``every`` (times its own jitter factor, 0.9-1.1, so a household's items do not all go at
/// once) after its last sync as the ledger records it. Due items are synced one at a time,
/// taking the users in turn (each user's item before any user's second), and an item that
/// needs its user (re-login) is skipped until Link fixes it.
///
/// A service of the application: at shutdown the schedule stops and running syncs are
/// cancelled (a sync cut off before its import applies nothing; the import is one transaction).
actor PlaidAutoSync: Service {
    let ledgers: Ledgers
    let users: UserDirectory
    let plaid: PlaidConfiguration
    let logger: Logger
    /// How often each item is synced by the schedule; nil: webhooks only.
    let every: Duration?
    let coalescer = PlaidSyncCoalescer()
    /// How long a sync waits for its user's running job before it is dropped (the next
    /// trigger brings it).
    static let maxWaitForUser: Duration = .seconds(120)
    /// The schedule looks for new or changed items at least this often.
    static let maxNap: Duration = .seconds(60)
    /// When the server last started a sync of each item by itself (user/item key).
    private var lastStarted: [String: Date] = [:]
    /// When the schedule last asked for each item (a sync that records nothing is not retried
    /// before its next period).
    private var lastAsked: [String: Date] = [:]
    /// The schedule's turn each user last had, for the order of users among due items.
    private var turns: [String: Int] = [:]
    private var turn = 0

    init(ledgers: Ledgers, users: UserDirectory, plaid: PlaidConfiguration, every: Duration?, logger: Logger) {
        self.ledgers = ledgers; self.users = users; self.plaid = plaid; self.every = every; self.logger = logger
    }

    /// Asks for a sync of `itemID` in `user`'s ledger (`why`: for the log).
    @discardableResult
    nonisolated func trigger(itemID: String, user: ServerUser, why: String) async -> PlaidSyncCoalescer.Admission {
        let admission = await coalescer.request(Self.key(user, itemID)) { await self.run(itemID: itemID, user: user, why: why) }
        if admission == .joined { logger.debug("\(why) sync of \(itemID): joins the one already waiting") }
        return admission
    }

    /// When the server last started a sync of the item by itself, and when the schedule will
    /// next (nil: no schedule, or the item is not synced by it: unlinked or needing its user).
    func times(of item: PlaidItemRecord, user: ServerUser) -> (last: Date?, next: Date?) {
        let key = Self.key(user, item.itemID)
        return (lastStarted[key], nextSync(of: item, key: key))
    }

    static func key(_ user: ServerUser, _ itemID: String) -> String { user.id + "/" + itemID }

    private func noteStart(_ key: String) { lastStarted[key] = Date() }

    /// Waits for the user's running job, then syncs the item in the user's writing slot.
    private nonisolated func run(itemID: String, user: ServerUser, why: String) async {
        let giveUp = ContinuousClock.now + Self.maxWaitForUser
        while !Task.isCancelled {
            if await ledgers.isIdle(user) {
                await noteStart(Self.key(user, itemID))
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

    // MARK: - The schedule

    /// Runs the schedule (when there is one) until the server shuts down, then cancels the
    /// syncs in flight.
    func run() async throws {
        if let every {
            logger.info("Plaid items sync every \(ServerDuration.text(every)) (jittered)")
            try? await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    let nap = await self.syncDueItems()
                    try await Task.sleep(for: nap)
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        await coalescer.cancelAll()
    }

    /// Syncs the items due now, one at a time, users in turn; how long until the next is due.
    private func syncDueItems() async -> Duration {
        let now = Date()
        var due: [(user: ServerUser, itemID: String)] = []
        // A newly linked item is due one period after its link: looked for at least that often.
        var soonest = min(Self.maxNap, every ?? Self.maxNap)
        for (user, item) in await scheduledItems() {
            guard let next = nextSync(of: item, key: Self.key(user, item.itemID)) else { continue }
            if next <= now {
                due.append((user, item.itemID))
            } else {
                soonest = min(soonest, .milliseconds(Int64(next.timeIntervalSince(now) * 1000) + 1))
            }
        }
        for (user, itemID) in fairOrder(due) where !Task.isCancelled {
            let key = Self.key(user, itemID)
            lastAsked[key] = Date()
            turn += 1
            turns[user.id] = turn
            await trigger(itemID: itemID, user: user, why: "scheduled")
            while await coalescer.isBusy(key), !Task.isCancelled { try? await Task.sleep(for: .milliseconds(200)) }
        }
        return due.isEmpty ? max(soonest, .seconds(1)) : .seconds(1)
    }

    /// Due items so that every user's first item comes before any user's second, users who
    /// waited longest first.
    private func fairOrder(_ due: [(user: ServerUser, itemID: String)]) -> [(user: ServerUser, itemID: String)] {
        var byUser: [String: [(user: ServerUser, itemID: String)]] = [:]
        for d in due { byUser[d.user.id, default: []].append(d) }
        let order = byUser.keys.sorted { (turns[$0] ?? 0, $0) < (turns[$1] ?? 0, $1) }
        var out: [(user: ServerUser, itemID: String)] = []
        for round in 0..<(byUser.values.map(\.count).max() ?? 0) {
            for id in order where round < byUser[id]!.count { out.append(byUser[id]![round]) }
        }
        return out
    }

    /// When the schedule syncs `item` next: ``every`` times the item's jitter after its last
    /// sync (or its link) and after the schedule last asked for it; nil when not scheduled.
    private func nextSync(of item: PlaidItemRecord, key: String) -> Date? {
        guard let every, item.isLinked, item.status != .needsUser else { return nil }
        let period = Double(every.components.seconds) * Self.jitter(item.itemID)
        let recorded = [item.lastSyncAt, item.linkedAt].compactMap { $0.flatMap(Self.date) }.max()
        let basis = [recorded, lastAsked[key]].compactMap { $0 }.max() ?? Date()
        return basis.addingTimeInterval(period)
    }

    /// Every linked item of every user who linked one, read from their ledgers.
    private func scheduledItems() async -> [(ServerUser, PlaidItemRecord)] {
        var out: [(ServerUser, PlaidItemRecord)] = []
        do {
            for user in try await users.plaidItemOwners() {
                do {
                    let store = try await ledgers.store(for: user)
                    out += try await store.plaidItems().filter(\.isLinked).map { (user, $0) }
                } catch {
                    logger.warning("scheduled Plaid sync: cannot read \(user.name)'s items: \(String(describing: error))")
                }
            }
        } catch {
            logger.warning("scheduled Plaid sync: cannot list the users: \(String(describing: error))")
        }
        return out
    }

    /// 0.9-1.1, fixed per item (FNV-1a of its id), so items linked together spread out.
    static func jitter(_ itemID: String) -> Double {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in itemID.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return 0.9 + 0.2 * Double(h % 10_000) / 10_000
    }

    static func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// A time as the item's other times are written (ISO 8601, UTC).
    static func text(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
