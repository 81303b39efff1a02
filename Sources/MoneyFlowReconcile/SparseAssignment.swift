/// An assignment problem kept as each row's list of allowed pairs: `rows` x `columns` costs plus one
/// private "stay unmatched" slot per row; columns may stay unused at no cost.
///
/// A block's matrix is mostly forbidden (a bank row has a handful of candidate transactions
/// among the block's dozens), yet the dense solver scans every column of the `rows` x
/// (`columns` + `rows`) matrix at every step of every row's search. This one runs the same
/// shortest-augmenting-path Hungarian over the allowed pairs only: a column no allowed pair has
/// reached yet is skipped instead of being compared at about ``forbidden``.
///
/// It returns the SAME solution as the dense solver it replaced (kept in the tests as their oracle,
/// `DenseAssignmentProblem.swift`) on the same costs, bit for bit
/// (assignment, cost and both potentials), so the engine decides exactly as before: every
/// floating-point operation on a reached column happens in the same order, the step's column is
/// the smallest-numbered one of least reduced cost as in the dense loop, and a forbidden pair can
/// never be the dense solver's choice either, because the searching row's own "unmatched" slot
/// is always free and far cheaper. That last point needs every allowed cost to be far below
/// ``forbidden`` in size (the engine's costs are minus scores of about 1).
/// `EngineInternalsTests.sparseAssignmentEqualsDense` holds the two solvers to each other.
struct SparseAssignmentProblem {
    /// The cost of a pair taken away (``forbid(_:_:)``): never chosen while any other way exists.
    static let forbidden = 1e9
    let rows: Int
    let columns: Int
    let unmatchedCost: Double
    /// Row i's allowed pairs are the entries `rowStart[i]..<rowStart[i + 1]` of `pairColumn`
    /// (ascending) and `pairCost`.
    private(set) var rowStart: [Int]
    private(set) var pairColumn: [Int32] = []
    private(set) var pairCost: [Double] = []

    /// Width of the equivalent dense matrix: real columns, then one unmatched slot per row.
    var width: Int { columns + rows }

    /// An empty problem; rows are then given in order with ``add(column:cost:)`` and
    /// ``closeRow()`` (`pairCapacity`: how many pairs to make room for).
    init(rows: Int, columns: Int, unmatchedCost: Double = 0, pairCapacity: Int = 0) {
        self.rows = rows; self.columns = columns; self.unmatchedCost = unmatchedCost
        rowStart = [0]
        rowStart.reserveCapacity(rows + 1)
        pairColumn.reserveCapacity(pairCapacity)
        pairCost.reserveCapacity(pairCapacity)
    }

    /// Allows the current row's pair with `column` (columns ascending within a row).
    mutating func add(column: Int, cost: Double) {
        precondition(column < columns && (pairColumn.count == rowStart.last! || Int(pairColumn.last!) < column))
        pairColumn.append(Int32(column))
        pairCost.append(cost)
    }

    /// Ends the current row.
    mutating func closeRow() {
        precondition(rowStart.count <= rows)
        rowStart.append(pairColumn.count)
    }

    /// The allowed pairs of `row`, as indices into `pairColumn` and `pairCost`.
    func pairs(ofRow row: Int) -> Range<Int> { rowStart[row]..<rowStart[row + 1] }

    /// Cost of a real pair, nil when it is forbidden.
    func cost(_ row: Int, _ column: Int) -> Double? {
        for e in pairs(ofRow: row) where Int(pairColumn[e]) == column {
            return pairCost[e] < Self.forbidden / 2 ? pairCost[e] : nil
        }
        return nil
    }

    /// Forbids a real pair (the problem without it); nothing when it is not allowed.
    mutating func forbid(_ row: Int, _ column: Int) {
        for e in pairs(ofRow: row) where Int(pairColumn[e]) == column { pairCost[e] = Self.forbidden }
    }

    /// The optimum, with its potentials (``AssignmentSolution``).
    func solve() -> AssignmentSolution {
        precondition(rowStart.count == rows + 1, "every row must be closed")
        let n = rows, m = width
        var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: m + 1)
        guard n > 0 else { return AssignmentSolution(columns: [], cost: 0, u: u, v: v) }
        // Scratch for the searches, on the stack when small (a block's problem is): blocks are
        // many and their searches short, so allocating it would cost as much as the search.
        let (out, total) = withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * (m + 1)) { ints in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: m + 1) { minv in
                withUnsafeTemporaryAllocation(of: Bool.self, capacity: m + 1) { used in
                    u.withUnsafeMutableBufferPointer { u in
                        v.withUnsafeMutableBufferPointer { v in search(u, v, ints, minv, used) }
                    }
                }
            }
        }
        return AssignmentSolution(columns: out, cost: total, u: u, v: v)
    }

    /// The dense solver's loop over the reached columns only. `ints` holds, (m + 1) each: the
    /// row of each column (`p`), the search's path (`way`), the columns this row's search used,
    /// and those it reached (used or not).
    private func search(
        _ u: UnsafeMutableBufferPointer<Double>, _ v: UnsafeMutableBufferPointer<Double>,
        _ ints: UnsafeMutableBufferPointer<Int>, _ minv: UnsafeMutableBufferPointer<Double>, _ used: UnsafeMutableBufferPointer<Bool>
    ) -> ([Int?], Double) {
        let n = rows, m = width, limit = Self.forbidden / 2
        ints.initialize(repeating: 0)
        minv.initialize(repeating: .infinity)
        used.initialize(repeating: false)
        let p = ints.baseAddress!, way = p + (m + 1), usedList = p + 2 * (m + 1), reached = p + 3 * (m + 1)
        var usedCount = 0, reachedCount = 0
        rowStart.withUnsafeBufferPointer { rowStart in
            pairColumn.withUnsafeBufferPointer { pairColumn in
                pairCost.withUnsafeBufferPointer { pairCost in
                    for i in 1...n {
                        for k in 0..<usedCount { used[usedList[k]] = false; minv[usedList[k]] = .infinity }
                        for k in 0..<reachedCount { used[reached[k]] = false; minv[reached[k]] = .infinity }
                        usedCount = 0; reachedCount = 0
                        p[0] = i
                        var j0 = 0
                        repeat {
                            used[j0] = true
                            usedList[usedCount] = j0; usedCount += 1
                            let i0 = p[j0]
                            let ui0 = u[i0]
                            // The row's allowed pairs, then (at `end`) its own unmatched slot.
                            let end = rowStart[i0]
                            var e = rowStart[i0 - 1]
                            while e <= end {
                                let j = e < end ? Int(pairColumn[e]) + 1 : columns + i0
                                let c = e < end ? pairCost[e] : unmatchedCost
                                e += 1
                                guard c < limit, !used[j] else { continue }
                                let cur = c - ui0 - v[j]
                                if minv[j] == .infinity { reached[reachedCount] = j; reachedCount += 1 }
                                if cur < minv[j] { minv[j] = cur; way[j] = j0 }
                            }
                            var delta = Double.infinity
                            var j1 = 0
                            for k in 0..<reachedCount {
                                let j = reached[k]
                                if !used[j] && (minv[j] < delta || (minv[j] == delta && j < j1)) { delta = minv[j]; j1 = j }
                            }
                            for k in 0..<usedCount { let j = usedList[k]; u[p[j]] += delta; v[j] -= delta }
                            for k in 0..<reachedCount where !used[reached[k]] { minv[reached[k]] -= delta }
                            j0 = j1
                        } while p[j0] != 0
                        repeat {
                            let j1 = way[j0]
                            p[j0] = p[j1]
                            j0 = j1
                        } while j0 != 0
                    }
                }
            }
        }
        var out = [Int?](repeating: nil, count: n)
        var total = 0.0
        for j in stride(from: 1, through: columns, by: 1) where p[j] > 0 {
            guard let c = cost(p[j] - 1, j - 1) else { continue }
            out[p[j] - 1] = j - 1
            total += c
        }
        return (out, total)
    }
}
