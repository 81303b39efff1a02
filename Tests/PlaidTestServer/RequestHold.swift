import Foundation

/// A request the server holds before answering, until the test releases it (`holdNext`).
///
/// Why: "kill the client in the middle of an update" must be deterministic, not a race against
/// a timer. The test waits until the client's request is held (the client is then blocked on
/// that page), kills the client, and releases. `stop()` releases every hold so a server never
/// waits forever on a test that forgot to.
public final class RequestHold: @unchecked Sendable {
    public let path: String
    public let itemID: String?
    private let lock = NSLock()
    private var held = false
    private var released = false
    private var heldWaiters: [CheckedContinuation<Void, Never>] = []
    private var releaseWaiters: [CheckedContinuation<Void, Never>] = []

    init(path: String, itemID: String?) {
        self.path = path
        self.itemID = itemID
    }

    /// Returns once a matching request has arrived and is being held.
    public func waitUntilHeld() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if held { lock.unlock(); c.resume(); return }
            heldWaiters.append(c)
            lock.unlock()
        }
    }

    /// Lets the held request (or the next matching one) through.
    public func release() {
        lock.lock()
        released = true
        let waiters = releaseWaiters
        releaseWaiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// Called by the responder for the matching request: marks it held and waits for `release`.
    func hold() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            held = true
            let waiters = heldWaiters
            heldWaiters = []
            if released {
                lock.unlock()
                c.resume()
            } else {
                releaseWaiters.append(c)
                lock.unlock()
            }
            for waiter in waiters { waiter.resume() }
        }
    }
}
