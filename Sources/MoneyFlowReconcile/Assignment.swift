/// Minimum-cost one-to-one assignment (Hungarian algorithm, O(n^3)) with an "unmatched" option.
public enum Assignment {
    /// `cost[i][j]` = cost of pairing row i with column j, or nil when not allowed.
    /// Each row may stay unmatched at `unmatchedCost`. Returns the column of each row (or nil).
    public static func solve(cost: [[Double?]], unmatchedCost: Double) -> [Int?] {
        let n = cost.count
        guard n > 0 else { return [] }
        let m = cost[0].count
        // Square matrix of size n + m: real columns, then one "unmatched" slot per row.
        let size = n + m
        let big = 1e9
        var a = [[Double]](repeating: [Double](repeating: 0, count: size), count: size)
        for i in 0..<size {
            for j in 0..<size {
                if i < n && j < m { a[i][j] = cost[i][j] ?? big }
                else if i < n { a[i][j] = (j - m == i) ? unmatchedCost : big }
                else if j < m { a[i][j] = (i - n == j) ? unmatchedCost : big }   // column stays unmatched
                else { a[i][j] = 0 }
            }
        }
        let assign = hungarian(a)
        return (0..<n).map { i in
            let j = assign[i]
            return j < m && cost[i][j] != nil ? j : nil
        }
    }

    /// Classic O(n^3) Hungarian on a square matrix; returns column for each row.
    static func hungarian(_ a: [[Double]]) -> [Int] {
        let n = a.count
        var u = [Double](repeating: 0, count: n + 1), v = [Double](repeating: 0, count: n + 1)
        var p = [Int](repeating: 0, count: n + 1), way = [Int](repeating: 0, count: n + 1)
        for i in 1...n {
            p[0] = i
            var j0 = 0
            var minv = [Double](repeating: .infinity, count: n + 1)
            var used = [Bool](repeating: false, count: n + 1)
            repeat {
                used[j0] = true
                let i0 = p[j0]
                var delta = Double.infinity
                var j1 = 0
                for j in 1...n where !used[j] {
                    let cur = a[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j] { minv[j] = cur; way[j] = j0 }
                    if minv[j] < delta { delta = minv[j]; j1 = j }
                }
                for j in 0...n {
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
        var result = [Int](repeating: 0, count: n)
        for j in 1...n where p[j] > 0 { result[p[j] - 1] = j - 1 }
        return result
    }
}
