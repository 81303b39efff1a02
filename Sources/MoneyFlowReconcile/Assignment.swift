/// Minimum-cost one-to-one assignment (Hungarian algorithm) where every row may stay unmatched.
public enum Assignment {
    /// `cost[i][j]` = cost of pairing row i with column j, or nil when not allowed.
    /// Each row may stay unmatched at `unmatchedCost`. Returns the column of each row (or nil).
    public static func solve(cost: [[Double?]], unmatchedCost: Double) -> [Int?] {
        let n = cost.count
        guard n > 0 else { return [] }
        var problem = SparseAssignmentProblem(rows: n, columns: cost[0].count, unmatchedCost: unmatchedCost)
        for row in cost {
            for (j, c) in row.enumerated() { if let c { problem.add(column: j, cost: c) } }
            problem.closeRow()
        }
        return problem.solve().columns
    }
}

/// The optimum of an assignment problem with its dual potentials (`u` per row, `v` per matrix
/// column: real columns, then one "stay unmatched" slot per row; both 1-based as the algorithm
/// keeps them): reduced cost `cost - u - v` is >= 0 everywhere, 0 on the assignment, and
/// `v <= 0`, so any other assignment costs at least the optimum plus the reduced costs of its
/// own pairs.
struct AssignmentSolution {
    /// Real column of each row, or nil (unmatched).
    var columns: [Int?]
    /// Total cost of the real pairs.
    var cost: Double
    var u: [Double]
    var v: [Double]
}
