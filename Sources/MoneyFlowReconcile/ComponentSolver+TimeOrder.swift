import MoneyFlowCore

extension ComponentSolver {
    /// Twins in time order. Two payments of one amount on one day at one merchant are two
    /// identical bank rows (or two identical wallet rows): any assignment of them scores the
    /// same, so without a rule the solver's tie-break, which depends on what the store already
    /// holds, would decide which wallet order (and item) each bank row shows, and the ledger
    /// would depend on the import order. The rule: within each set of decided rows whose
    /// columns are identical (or which are identical themselves), the earliest row takes the
    /// earliest column, and so on. Earliest is by date, then the time of day a record prints
    /// (a wallet's), then the position in its file (a statement lists a day's rows in the order
    /// the bank booked them) or, for a stored transaction, its id (the order it was imported).
    /// A reordering that would cost score, or use a pair that does not exist, is not made.
    ///
    /// - Parameters:
    ///   - assigned: the optimal assignment (block row -> block column).
    ///   - rows, cols: the block's rows and columns (group indices).
    ///   - decided: the rows this block decides; the others are left alone.
    ///   - score: the score of block row i with block column j, nil when they are no pair.
    mutating func inTimeOrder(
        _ assigned: [Int?], rows: [Int], cols: [Int], decided: Range<Int>, score: (Int, Int) -> Double?
    ) -> [Int?] {
        var out = assigned
        var keyed: [(sig: Int, row: Int)] = []
        for byColumns in [true, false] {
            // The sets, as runs of equal signatures (each set's rows in block order); every set
            // is reordered on its own, so the order the sets are visited in does not matter.
            keyed.removeAll(keepingCapacity: true)
            for i in decided {
                guard let j = out[i] else { continue }
                keyed.append((byColumns ? colSig(cols[j]) : rowSig(rows[i]), i))
            }
            guard keyed.count > 1 else { continue }
            keyed.sort { $0.sig != $1.sig ? $0.sig < $1.sig : $0.row < $1.row }
            var end = 0
            while end < keyed.count {
                let start = end
                end += 1
                while end < keyed.count && keyed[end].sig == keyed[start].sig { end += 1 }
                guard end - start > 1 else { continue }
                let members = keyed[start..<end].map(\.row)
                let rowOrder = members.sorted { rowBefore(rows[$0], rows[$1]) }
                let colOrder = members.compactMap { out[$0] }.sorted { colBefore(cols[$0], cols[$1]) }
                var was = 0.0, now = 0.0
                for i in members { was += score(i, out[i]!) ?? 0 }
                var exists = true
                for (i, j) in zip(rowOrder, colOrder) {
                    guard let s = score(i, j) else {
                        exists = false
                        break
                    }
                    now += s
                }
                guard exists, abs(now - was) < 1e-9 else { continue }
                for (i, j) in zip(rowOrder, colOrder) { out[i] = j }
            }
        }
        return out
    }

    /// Booking order of two incoming rows: date, time of day, position in the file.
    private func rowBefore(_ a: Int, _ b: Int) -> Bool {
        // Fields are read in place: a copy of each record would retain every one of its texts.
        let x = g.idx[a], y = g.idx[b], records = g.records
        if records[x].date != records[y].date { return records[x].date < records[y].date }
        if (records[x].time ?? "") != (records[y].time ?? "") { return (records[x].time ?? "") < (records[y].time ?? "") }
        return x < y
    }

    /// Booking order of two stored transactions: date, time of day, id.
    private func colBefore(_ a: Int, _ b: Int) -> Bool {
        let t = g.candidates
        if t[a].date != t[b].date { return t[a].date < t[b].date }
        if (t[a].time ?? "") != (t[b].time ?? "") { return (t[a].time ?? "") < (t[b].time ?? "") }
        return t[a].id < t[b].id
    }
}
