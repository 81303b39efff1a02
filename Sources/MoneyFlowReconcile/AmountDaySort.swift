extension MatchGroup.AmountDay {
    /// Sorts `keys` into (amount, day, row) order, as `keys.sort()` does, by least-significant-
    /// digit radix passes: the day, then the amount, each offset by its minimum and read 11 bits
    /// at a time, each pass stable. The two sorts of a match group (its candidates for the
    /// amount buckets, its rows for the unique-amount sweep) run on one core before and between
    /// the parallel phases; compared through `<` they cost about 500 instructions per key, these
    /// passes a few dozen (a day range needs one pass, a statement's amounts two or three).
    ///
    /// The keys' rows must be distinct and ascending (both callers number them in order): the
    /// passes keep that order among equal (amount, day), which is then the whole order. Other
    /// input, and short arrays, take `sort()`. `EngineFastPathTests.radixSortedAmountDayKeys`
    /// holds the two equal.
    static func sort(_ keys: inout [Self]) {
        let n = keys.count
        guard n >= 512, (1..<n).allSatisfy({ keys[$0 - 1].row < keys[$0].row }) else {
            keys.sort()
            return
        }
        var dayMin = Int.max, dayMax = Int.min, amountMin = Int64.max, amountMax = Int64.min
        for k in keys {
            dayMin = min(dayMin, k.day); dayMax = max(dayMax, k.day)
            amountMin = min(amountMin, k.amount); amountMax = max(amountMax, k.amount)
        }
        // Offsets from the minimum, as unsigned numbers (the wrapping difference is exact there).
        let dayRange = UInt64(bitPattern: Int64(dayMax) &- Int64(dayMin))
        let amountRange = UInt64(bitPattern: amountMax &- amountMin)
        let bits = 11, mask: UInt64 = (1 << 11) - 1
        var other = keys
        var counts = [Int](repeating: 0, count: 1 << bits)
        func passes(over range: UInt64, _ digitSource: (Self) -> UInt64) {
            var shift = 0
            while shift < 64 && range >> UInt64(shift) != 0 {
                let s = UInt64(shift)
                keys.withUnsafeBufferPointer { from in
                    other.withUnsafeMutableBufferPointer { to in
                        counts.withUnsafeMutableBufferPointer { count in
                            for i in 0..<count.count { count[i] = 0 }
                            for k in from { count[Int((digitSource(k) >> s) & mask)] += 1 }
                            var sum = 0
                            for i in 0..<count.count { let c = count[i]; count[i] = sum; sum += c }
                            for k in from {
                                let d = Int((digitSource(k) >> s) & mask)
                                to[count[d]] = k
                                count[d] += 1
                            }
                        }
                    }
                }
                swap(&keys, &other)
                shift += bits
            }
        }
        passes(over: dayRange) { UInt64(bitPattern: Int64($0.day) &- Int64(dayMin)) }
        passes(over: amountRange) { UInt64(bitPattern: $0.amount &- amountMin) }
    }
}
