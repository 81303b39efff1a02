/// Comparing secrets (token hashes, signed digests) without an early exit on the first
/// differing byte, which would let a caller find a valid value byte by byte from the timing.
public enum ConstantTime {
    /// Equal strings, compared in time that depends only on their length.
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
