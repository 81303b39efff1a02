/// The one seeded PRNG of the tests (SplitMix64): tiny, and the same sequence on every platform
/// for a given seed, so a failing seed can be replayed and pinned values stay pinned.
/// Helpers use their own arithmetic (not the stdlib's `random(in:using:)`), so their sequences
/// do not depend on stdlib internals either.
public struct SplitMix64: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    /// The scenario streams: the seed mixed with a fixed salt (keeps every pinned sequence).
    public init(scenarioSeed seed: UInt64) { self.init(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B) }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform integer in `r`.
    public mutating func int(_ r: ClosedRange<Int>) -> Int {
        r.lowerBound + Int(next() % UInt64(r.upperBound - r.lowerBound + 1))
    }
    public mutating func int64(_ r: ClosedRange<Int64>) -> Int64 {
        r.lowerBound + Int64(next() % UInt64(r.upperBound - r.lowerBound + 1))
    }
    /// Uniform in `0..<n`.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
    public mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }
    /// Fisher–Yates with `int`, so the order depends only on the seed.
    public mutating func shuffle<T>(_ a: inout [T]) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, int(0...i)) }
    }
}
