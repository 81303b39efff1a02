@testable import MoneyFlowReconcile

/// The dense form of ``SparseAssignmentProblem``, kept as the tests' oracle (the engine solved
/// every block with it until session 14; the sparse solver must return its solution bit for
/// bit): `rows` x `columns` costs (absent pairs cost ``forbidden``) plus one private "stay
/// unmatched" column per row, solved by the O(rows² · (columns + rows)) Hungarian algorithm for
/// rectangular matrices. Columns may stay unused at no cost.
struct AssignmentProblem {
    static let forbidden = SparseAssignmentProblem.forbidden
    let rows: Int
    let columns: Int
    /// Width of the matrix: real columns, then one unmatched slot per row.
    let width: Int
    var cost: [Double]

    init(rows: Int, columns: Int, unmatchedCost: Double = 0) {
        self.rows = rows; self.columns = columns; width = columns + rows
        cost = [Double](repeating: Self.forbidden, count: rows * width)
        for i in 0..<rows { cost[i * width + columns + i] = unmatchedCost }
    }

    subscript(row: Int, column: Int) -> Double {
        get { cost[row * width + column] }
        set { cost[row * width + column] = newValue }
    }

    func allowed(_ row: Int, _ column: Int) -> Bool { cost[row * width + column] < Self.forbidden / 2 }

    func solve() -> AssignmentSolution {
        let n = rows, m = width
        var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: m + 1)
        var p = [Int](repeating: 0, count: m + 1), way = [Int](repeating: 0, count: m + 1)
        guard n > 0 else { return AssignmentSolution(columns: [], cost: 0, u: u, v: v) }
        var minv = [Double](repeating: .infinity, count: m + 1)
        var used = [Bool](repeating: false, count: m + 1)
        cost.withUnsafeBufferPointer { a in
            for i in 1...n {
                p[0] = i
                var j0 = 0
                for j in 0...m { minv[j] = .infinity; used[j] = false }
                repeat {
                    used[j0] = true
                    let i0 = p[j0]
                    var delta = Double.infinity
                    var j1 = 0
                    let base = (i0 - 1) * m - 1
                    let ui0 = u[i0]
                    for j in 1...m where !used[j] {
                        let cur = a[base + j] - ui0 - v[j]
                        if cur < minv[j] { minv[j] = cur; way[j] = j0 }
                        if minv[j] < delta { delta = minv[j]; j1 = j }
                    }
                    for j in 0...m {
                        if used[j] { u[p[j]] += delta; v[j] -= delta } else { minv[j] -= delta }
                    }
                    j0 = j1
                } while p[j0] != 0
                repeat {
                    let j1 = way[j0]
                    p[j0] = p[j1]
                    j0 = j1
                } while j0 != 0
            }
        }
        var out = [Int?](repeating: nil, count: n)
        var total = 0.0
        for j in 1...m where p[j] > 0 && j - 1 < columns && allowed(p[j] - 1, j - 1) {
            out[p[j] - 1] = j - 1
            total += self[p[j] - 1, j - 1]
        }
        return AssignmentSolution(columns: out, cost: total, u: u, v: v)
    }

    /// Reduced cost of a pair under a solution's potentials.
    func reducedCost(_ s: AssignmentSolution, _ row: Int, _ column: Int) -> Double {
        self[row, column] - s.u[row + 1] - s.v[column + 1]
    }

    /// The same problem as the engine builds it: each row's allowed pairs, in column order.
    var sparse: SparseAssignmentProblem {
        var s = SparseAssignmentProblem(rows: rows, columns: columns, unmatchedCost: cost.isEmpty ? 0 : cost[columns])
        for i in 0..<rows {
            for j in 0..<columns where allowed(i, j) { s.add(column: j, cost: self[i, j]) }
            s.closeRow()
        }
        return s
    }
}
