import Foundation

/// One result slot per worker of a `concurrentPerform`: each worker writes only its own slot,
/// and the slots are read after all workers finished.
final class UnsafeSlots<T>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<T>
    private let count: Int
    init(count: Int, initial: T) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: initial, count: count)
    }
    deinit { slots.deinitialize(count: count); slots.deallocate() }
    func set(_ i: Int, _ value: T) { slots[i] = value }
    var all: [T] { Array(UnsafeBufferPointer(start: slots, count: count)) }
}
