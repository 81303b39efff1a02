import MoneyFlowCore

/// Solves the components of a ``MatchGroup``'s pair graph: the optimal one-to-one assignment
/// (leaving rows unmatched when that scores better), then, per assigned pair, whether the best
/// alternative that does not use it is within the review margin (then the row goes to review
/// instead of being guessed). Alternatives that only swap identical twins do not count.
struct ComponentSolver {
    let g: MatchGroup
    private(set) var out: [(Int, RecordDecision)] = []
    /// Columns claimed by an earlier block of the same large component.
    private var taken: [Bool]
    private var rowLocal: [Int32]
    private var colLocal: [Int32]
    private var rank: [Int32]
    private var rowSigCache: [Int]
    /// Rows a link decided (their columns are `taken`).
    private var linked: [Bool]
    private var colSigCache: [Int]
    private var sigIDs: [SigKey: Int] = [:]
    /// The amount reason of each amount this solver linked (``reasons(_:)``).
    let amountTexts = AmountTexts()

    /// Date, amount and token set (``GroupTexts``: equal sets, equal numbers).
    private struct SigKey: Hashable { var day: Int; var amount: Int64; var tokens: Int32 }

    init(group: MatchGroup) {
        g = group
        let n = group.idx.count, m = group.candidates.count
        taken = [Bool](repeating: false, count: m)
        rowLocal = [Int32](repeating: -1, count: n)
        colLocal = [Int32](repeating: -1, count: m)
        rank = [Int32](repeating: -1, count: n)
        linked = [Bool](repeating: false, count: n)
        rowSigCache = [Int](repeating: -1, count: n)
        colSigCache = [Int](repeating: -1, count: m)
    }

    mutating func solve(pairIndices: ArraySlice<Int>) {
        if pairIndices.count == 1 {
            // One row, one column, nothing else in this import competes: link when it scores
            // at all, unless the text does not confirm it and the row has rivals that an
            // earlier import already linked.
            let k = pairIndices.first!
            let p = g.pairs[k]
            guard p.score > 0 else { return }
            if unconfirmedWithRivals(p) || isGuess(p) { review(k, []) } else { accept(k) }
            return
        }
        let row0 = g.pairs[pairIndices.first!].row, col0 = g.pairs[pairIndices.first!].col
        if pairIndices.allSatisfy({ g.pairs[$0].row == row0 }) { return solveStar(pairIndices, rowSide: true) }
        if pairIndices.allSatisfy({ g.pairs[$0].col == col0 }) { return solveStar(pairIndices, rowSide: false) }
        var rows: [Int] = []
        for k in pairIndices {
            let r = Int(g.pairs[k].row)
            if rowLocal[r] < 0 { rowLocal[r] = 0; rows.append(r) }
        }
        for r in rows { rowLocal[r] = -1 }
        rows.sort(by: rowLess)
        if rows.count <= Scoring.exactComponentLimit {
            solveBlock(rows: rows, decide: 0..<rows.count, pairs: Array(pairIndices))
            return
        }
        // Large component: date-ordered blocks; each block's assignment also sees the next
        // block's rows, and its decided links claim their columns. The previous block's rows
        // that no link decided (reviewed, or left alone) still want the columns they could
        // take: they compete in this block too (undecided again), so a row is not linked to a
        // transaction an earlier row wants as much only because that row fell in another block.
        for (i, r) in rows.enumerated() { rank[r] = Int32(i) }
        let sorted = pairIndices.sorted { rank[Int(g.pairs[$0].row)] < rank[Int(g.pairs[$1].row)] }
        let b = Scoring.blockRows
        var s = 0, pairStart = 0, previousStart = 0
        while s < rows.count {
            // Identical rows (two equal coffees on one day) are decided in one block, so the
            // time-order rule pairs them with their transactions in booking order.
            var decideEnd = min(rows.count, s + b)
            while decideEnd < rows.count && rowSig(rows[decideEnd]) == rowSig(rows[decideEnd - 1]) { decideEnd += 1 }
            let end = min(rows.count, decideEnd + b)
            while pairStart < sorted.count && Int(rank[Int(g.pairs[sorted[pairStart]].row)]) < s { pairStart += 1 }
            var block: [Int] = []
            var context: [Int] = []
            for k in previousStart..<pairStart {
                let p = g.pairs[sorted[k]]
                guard !linked[Int(p.row)], !taken[Int(p.col)] else { continue }
                block.append(sorted[k])
                if context.last != Int(p.row) { context.append(Int(p.row)) }
            }
            var k = pairStart
            while k < sorted.count && Int(rank[Int(g.pairs[sorted[k]].row)]) < end {
                if !taken[Int(g.pairs[sorted[k]].col)] { block.append(sorted[k]) }
                k += 1
            }
            if !block.isEmpty {
                solveBlock(
                    rows: context + rows[s..<end], decide: context.count..<(context.count + decideEnd - s), pairs: block)
            }
            previousStart = pairStart
            s = decideEnd
        }
        for r in rows { rank[r] = -1 }
    }

    /// One row with several candidate columns (`rowSide`), or one column wanted by several
    /// rows: the optimum is simply the best pair, the runner-up the best pair that is not an
    /// identical twin of it, or leaving both unmatched (score 0).
    private mutating func solveStar(_ pairList: ArraySlice<Int>, rowSide: Bool) {
        // The far end of each pair: a column (rowSide) or a row; its twin signature.
        func sigOfFarEnd(_ k: Int) -> Int { rowSide ? colSig(Int(g.pairs[k].col)) : rowSig(Int(g.pairs[k].row)) }
        // Pairs weigh what they can become (``ReviewOnlyPairRule``).
        func better(_ a: Int, _ b: Int) -> Bool {
            let x = g.pairs[a], y = g.pairs[b]
            let sx = g.assignmentScore(x), sy = g.assignmentScore(y)
            if sx != sy { return sx > sy }
            return rowSide ? g.candidates[Int(x.col)].id < g.candidates[Int(y.col)].id : rowLess(Int(x.row), Int(y.row))
        }
        var best = pairList.first!
        for k in pairList where better(k, best) { best = k }
        guard g.pairs[best].score > 0 else { return }
        let bestSig = sigOfFarEnd(best)
        var second: Int? = nil
        for k in pairList where k != best && sigOfFarEnd(k) != bestSig {
            if second == nil || better(k, second!) { second = k }
        }
        let p = g.pairs[best]
        let alternative = max(0, second.map { g.assignmentScore(g.pairs[$0]) } ?? 0)
        // The runner-up is another transaction for this row (rowSide), or another row wanting
        // this row's transaction: then it is no candidate of this row, only a rival for its own.
        func reviewWith(_ rival: Int?) {
            guard let rival else { return review(best, []) }
            if rowSide { review(best, [candidate(rival)]) } else { review(best, [], contestedBy: rival) }
        }
        if g.assignmentScore(p) - alternative < g.options.reviewMargin {
            reviewWith(second.flatMap { g.pairs[$0].score > 0 ? $0 : nil })
            return
        }
        if unconfirmedWithRivals(p) {
            reviewWith(second)
            return
        }
        if isGuess(p) {
            review(best, [])
            return
        }
        accept(best)
    }

    /// Assigns `rows` (content-sorted) to the columns of `pairs`, deciding the rows at `decide`.
    private mutating func solveBlock(rows rowsArray: [Int], decide: Range<Int>, pairs pairList: [Int]) {
        // Only rows that still have a pair take part.
        var cols: [Int] = []
        for k in pairList {
            let c = Int(g.pairs[k].col)
            if colLocal[c] < 0 { colLocal[c] = 0; cols.append(c) }
        }
        cols.sort { g.candidates[$0].id < g.candidates[$1].id }
        for (j, c) in cols.enumerated() { colLocal[c] = Int32(j) }
        for (i, r) in rowsArray.enumerated() { rowLocal[r] = Int32(i) }
        defer {
            for c in cols { colLocal[c] = -1 }
            for r in rowsArray { rowLocal[r] = -1 }
        }
        let nr = rowsArray.count, nc = cols.count
        var pairAt = [Int32](repeating: -1, count: nr * nc)
        for k in pairList {
            let p = g.pairs[k]
            let i = Int(rowLocal[Int(p.row)]), j = Int(colLocal[Int(p.col)])
            let existing = pairAt[i * nc + j]
            if existing >= 0 && g.assignmentScore(g.pairs[Int(existing)]) >= g.assignmentScore(p) { continue }
            pairAt[i * nc + j] = Int32(k)
        }
        // Most of the block's pairs are forbidden: the solver walks each row's allowed ones.
        var problem = SparseAssignmentProblem(rows: nr, columns: nc, pairCapacity: pairList.count)
        for i in 0..<nr {
            for j in 0..<nc where pairAt[i * nc + j] >= 0 {
                // What the pair can become (``ReviewOnlyPairRule``).
                problem.add(column: j, cost: -g.assignmentScore(g.pairs[Int(pairAt[i * nc + j])]))
            }
            problem.closeRow()
        }
        var best = problem.solve()
        let pairs = g.pairs
        let decided = decide.clamped(to: 0..<nr)
        let group = g
        best.columns = inTimeOrder(best.columns, rows: rowsArray, cols: cols, decided: decided) { i, j in
            pairAt[i * nc + j] >= 0 ? group.assignmentScore(pairs[Int(pairAt[i * nc + j])]) : nil
        }
        let margin = g.options.reviewMargin
        for i in decided {
            guard let j = best.columns[i] else { continue }
            let k = Int(pairAt[i * nc + j])
            let row = rowsArray[i], col = cols[j]
            // Lower bound of what giving up this pair costs (dual potentials): the row needs
            // another column (or none), the column another row (or none).
            // Reduced costs (`cost - u - v`) of the row's other pairs, then of its unmatched slot.
            var rowAlt = Double.infinity
            for e in problem.pairs(ofRow: i) {
                let j2 = Int(problem.pairColumn[e])
                guard j2 != j, colSig(cols[j2]) != colSig(col) else { continue }
                rowAlt = min(rowAlt, problem.pairCost[e] - best.u[i + 1] - best.v[j2 + 1])
            }
            rowAlt = min(rowAlt, problem.unmatchedCost - best.u[i + 1] - best.v[nc + i + 1])
            var colAlt = -best.v[j + 1]
            for i2 in 0..<nr where i2 != i && pairAt[i2 * nc + j] >= 0 && rowSig(rowsArray[i2]) != rowSig(row) {
                colAlt = min(colAlt, problem.cost(i2, j)! - best.u[i2 + 1] - best.v[j + 1])
            }
            if rowAlt + colAlt < margin - 1e-9 {
                // Possibly a near tie: the exact best assignment without this pair (nor its twins).
                var without = problem
                for e in problem.pairs(ofRow: i) where colSig(cols[Int(problem.pairColumn[e])]) == colSig(col) {
                    without.forbid(i, Int(problem.pairColumn[e]))
                }
                for i2 in 0..<nr where pairAt[i2 * nc + j] >= 0 && rowSig(rowsArray[i2]) == rowSig(row) {
                    without.forbid(i2, j)
                }
                let alt = without.solve()
                if alt.cost - best.cost < margin && !interchangeable(best.columns, alt.columns, rows: rowsArray, cols: cols) {
                    if let c2 = alt.columns[i], pairAt[i * nc + c2] >= 0 {
                        review(k, [candidate(Int(pairAt[i * nc + c2]))])
                    } else if let i2 = alt.columns.indices.first(where: { alt.columns[$0] == j && $0 != i && pairAt[$0 * nc + j] >= 0 }) {
                        // Another record wants this transaction just as much.
                        review(k, [], contestedBy: Int(pairAt[i2 * nc + j]))
                    } else {
                        review(k, [])
                    }
                    continue
                }
            }
            if unconfirmedWithRivals(g.pairs[k]) {
                var bestOther: Int32 = -1
                for e in problem.pairs(ofRow: i) where Int(problem.pairColumn[e]) != j {
                    let j2 = Int(problem.pairColumn[e])
                    if bestOther < 0 || g.pairs[Int(pairAt[i * nc + j2])].score > g.pairs[Int(bestOther)].score {
                        bestOther = pairAt[i * nc + j2]
                    }
                }
                if bestOther >= 0 {
                    review(k, [candidate(Int(bestOther))])
                } else if let i2 = (0..<nr).first(where: { $0 != i && pairAt[$0 * nc + j] >= 0 }) {
                    review(k, [], contestedBy: Int(pairAt[i2 * nc + j]))
                } else {
                    review(k, [])
                }
                continue
            }
            if isGuess(g.pairs[k]) {
                review(k, [])
                continue
            }
            accept(k)
        }
    }

    /// See ``MatchGroup/isGuess(_:)``.
    private func isGuess(_ p: MatchPair) -> Bool { g.isGuess(p) }

    /// See ``MatchGroup/unconfirmedWithRivals(_:)``.
    private func unconfirmedWithRivals(_ p: MatchPair) -> Bool { g.unconfirmedWithRivals(p) }

    private mutating func accept(_ k: Int) {
        let p = g.pairs[k]
        let t = g.candidates[Int(p.col)].id
        taken[Int(p.col)] = true
        linked[Int(p.row)] = true
        let index = g.idx[Int(p.row)]
        if p.replacement >= 0 {
            let s = g.replacements[Int(p.replacement)].pendingRecordID
            out.append((index, .supersede(pendingRecordID: s, transactionID: t, reasons: reasons(p))))
        } else {
            out.append((index, .link(transactionID: t, score: p.score, reasons: reasons(p), evidence: evidence(p))))
        }
    }

    /// Flags pair `k`'s row for review. Its candidates are the row's OWN pairs, one entry per
    /// transaction, each with the reasons of that pairing: `others` are further transactions
    /// of this row. When the rival is another row wanting the same transaction (pair
    /// `contestedBy`), that is said as a reason of this row's candidate, never as a second
    /// entry for the same transaction carrying the other row's reasons.
    private mutating func review(_ k: Int, _ others: [ReviewCandidate], contestedBy rival: Int? = nil) {
        var own = candidate(k)
        if let rival {
            let r = g.records[g.idx[Int(g.pairs[rival].row)]]
            own.reasons.append(
                MatchReason(
                    "contested",
                    "another incoming record (\(r.date.iso) \(r.amount.decimalString) \"\(r.description)\") fits it as well, score \(Self.twoDecimals(g.pairs[rival].score))"
                ))
        }
        if isGuess(g.pairs[k]) {
            own.reasons.append(MatchReason("guess", "the texts share nothing: amount and date alone"))
        }
        var seen: Set<Int64> = [g.candidates[Int(g.pairs[k].col)].id]
        var list = [own]
        for c in others where c.transactionID.map({ seen.insert($0).inserted }) ?? true { list.append(c) }
        out.append((g.idx[Int(g.pairs[k].row)], .needsReview(candidates: list)))
    }

    private func candidate(_ k: Int) -> ReviewCandidate {
        let p = g.pairs[k]
        return ReviewCandidate(transactionID: g.candidates[Int(p.col)].id, score: p.score, reasons: reasons(p))
    }

    // MARK: Identity of rows and columns

    /// Rows and columns with the same date, amount and tokens cannot be told apart: swapping
    /// them is no alternative at all.
    mutating func rowSig(_ row: Int) -> Int {
        if rowSigCache[row] >= 0 { return rowSigCache[row] }
        let s = sig(SigKey(day: g.rowDay[row], amount: g.records[g.idx[row]].amount.minorUnits, tokens: g.texts.rowSet[row]))
        rowSigCache[row] = s
        return s
    }

    mutating func colSig(_ col: Int) -> Int {
        if colSigCache[col] >= 0 { return colSigCache[col] }
        let t = g.candidates[col]
        let s = sig(SigKey(day: t.date.dayNumber, amount: t.amount.minorUnits, tokens: g.texts.colSet[col]))
        colSigCache[col] = s
        return s
    }

    private mutating func sig(_ key: SigKey) -> Int {
        if let s = sigIDs[key] { return s }
        let s = sigIDs.count
        sigIDs[key] = s
        return s
    }

    /// True when `alt` only swaps identical rows or identical columns of `best`.
    private mutating func interchangeable(_ best: [Int?], _ alt: [Int?], rows: [Int], cols: [Int]) -> Bool {
        func multiset(_ a: [Int?]) -> [Int] {
            var out: [Int] = []
            for (i, c) in a.enumerated() { out.append(rowSig(rows[i]) << 32 | (c.map { colSig(cols[$0]) + 1 } ?? 0)) }
            return out.sorted()
        }
        return multiset(best) == multiset(alt)
    }

    /// Content order of incoming rows (date, amount, text, balance, id): the same records give
    /// the same assignment whatever their order in the file.
    private func rowLess(_ a: Int, _ b: Int) -> Bool {
        if g.rowDay[a] != g.rowDay[b] { return g.rowDay[a] < g.rowDay[b] }
        // Fields are read in place: a copy of each record would retain every one of its texts.
        let x = g.idx[a], y = g.idx[b], records = g.records
        if records[x].amount.minorUnits != records[y].amount.minorUnits {
            return records[x].amount.minorUnits < records[y].amount.minorUnits
        }
        if records[x].description != records[y].description { return records[x].description < records[y].description }
        if records[x].counterparty != records[y].counterparty { return (records[x].counterparty ?? "") < (records[y].counterparty ?? "") }
        if records[x].balance?.minorUnits != records[y].balance?.minorUnits {
            return (records[x].balance?.minorUnits ?? 0) < (records[y].balance?.minorUnits ?? 0)
        }
        if records[x].externalID != records[y].externalID { return (records[x].externalID ?? "") < (records[y].externalID ?? "") }
        return a < b
    }
}
