import Foundation
import MoneyFlowCore

extension MatchGroup {
    /// Decides every row that has a pair: components of the pair graph, each solved optimally
    /// (large ones in date-ordered blocks), abstaining on near ties.
    mutating func decide() -> [(Int, RecordDecision)] {
        guard !pairs.isEmpty else { return [] }
        let n = idx.count, m = candidates.count
        var parent = Array(0..<(n + m))
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        for p in pairs {
            let a = find(Int(p.row)), b = find(n + Int(p.col))
            if a != b { parent[a] = b }
        }
        // Pairs grouped by component (counting sort by root).
        var start = [Int](repeating: 0, count: n + m + 1)
        var root = [Int](repeating: 0, count: pairs.count)
        for (k, p) in pairs.enumerated() { root[k] = find(Int(p.row)); start[root[k] + 1] += 1 }
        for x in 0..<(n + m) { start[x + 1] += start[x] }
        var fill = start
        var byComponent = [Int](repeating: 0, count: pairs.count)
        for k in pairs.indices { byComponent[fill[root[k]]] = k; fill[root[k]] += 1 }

        var components: [Range<Int>] = []
        for x in 0..<(n + m) where start[x + 1] > start[x] { components.append(start[x]..<start[x + 1]) }
        // Components are independent: big imports solve them on every core, in contiguous
        // shares of about equal pair counts (each share in its own solver, so the result does
        // not depend on the number of threads).
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, pairs.count / 20_000))
        if workers == 1 {
            var solver = ComponentSolver(group: self)
            for c in components { solver.solve(pairIndices: byComponent[c]) }
            return solver.out
        }
        var shares: [Range<Int>] = []
        var first = 0, acc = 0
        for (k, c) in components.enumerated() {
            acc += c.count
            if acc * workers >= pairs.count * (shares.count + 1) || k == components.count - 1 {
                shares.append(first..<(k + 1)); first = k + 1
            }
        }
        let group = self, parts = components, split = shares, members = byComponent
        var outs = ParallelMap.map(split.count, workers: split.count) { w, _ in
            var solver = ComponentSolver(group: group)
            for c in parts[split[w]] { solver.solve(pairIndices: members[c]) }
            return solver.out
        }
        return ParallelMap.joined(&outs)
    }
}
