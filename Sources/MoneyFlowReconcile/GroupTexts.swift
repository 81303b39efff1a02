import Foundation
import MoneyFlowCore

/// The texts of a match group's paired rows and columns as pair scoring reads them: each one's
/// token set (ids of one ``TokenTable``, weighted by how rare they are) and what it says of the
/// place of payment (``PlaceRule``).
///
/// A document is a paired row or column, in the order the pairs first name it (a pair's row
/// before its column). The plain form reads them one after the other: `TokenTable.add` per
/// document, which gives each new token the next id, and `PlaceRule.claims` per document. The
/// ids fix the order in which weights are summed, so every score to the last bit, and must stay
/// as the plain form gives them. This form reads the same documents faster:
/// - many records share a text (one merchant, one store), so each distinct text (with its
///   provider's places) is tokenised and its place read once;
/// - large groups are read on every core, each worker a contiguous share of the documents with
///   token ids of its own; the table then numbers each share's tokens in its own first-seen
///   order, share after share. A token new to the table first occurs in the first share that
///   holds it, at its first occurrence there, so the ids are those of the plain form, whatever
///   the number of workers (`EngineFastPathTests` holds the two forms equal).
///
/// Token sets are kept once per distinct set, back to back in one pool, so a row costs two
/// integers instead of an array of its own.
struct GroupTexts: Sendable {
    /// The token ids of every distinct token set, back to back, each sorted; set `s` is
    /// `pool[start[s]..<start[s + 1]]`. Set 0 is the empty set (also of rows and columns
    /// without a pair). Equal sets have equal numbers.
    private(set) var pool: [Int32] = []
    private(set) var start: [Int32] = [0, 0]
    /// Each set's weight: its tokens' weights summed in id order.
    private(set) var weight: [Double] = [0]
    /// The token set of each row and column.
    private(set) var rowSet: [Int32] = [], colSet: [Int32] = []
    /// Claims of each distinct text (entry 0 claims nothing), and of each row and column.
    private(set) var claims: [PlaceRule.Claims] = [PlaceRule.Claims()]
    private(set) var rowClaims: [Int32] = [], colClaims: [Int32] = []
    private(set) var table = TokenTable()

    init() {}

    /// Reads the texts of every row and column that `pairs` name. `workers`: nil for the
    /// machine's cores when the group is large (tests pass a number).
    init(
        pairs: [MatchPair], rows idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction],
        workers requested: Int? = nil
    ) {
        let n = idx.count, m = candidates.count
        rowSet = [Int32](repeating: 0, count: n); colSet = [Int32](repeating: 0, count: m)
        rowClaims = rowSet; colClaims = colSet
        // Documents in first-seen order: a row r as r, a column c as ~c.
        var docs: [Int32] = []
        var rowSeen = [Bool](repeating: false, count: n), colSeen = [Bool](repeating: false, count: m)
        for p in pairs {
            if !rowSeen[Int(p.row)] { rowSeen[Int(p.row)] = true; docs.append(p.row) }
            if !colSeen[Int(p.col)] { colSeen[Int(p.col)] = true; docs.append(~p.col) }
        }
        guard !docs.isEmpty else { return }
        let workers = max(1, min(requested ?? min(ProcessInfo.processInfo.activeProcessorCount, 8, docs.count / 20_000), docs.count))
        let all = docs
        let shares = ParallelMap.map(workers, workers: workers) { w, _ in
            Share(docs: all[ParallelMap.range(of: w, workers: workers, count: all.count)], rows: idx, records: records, candidates: candidates)
        }
        // Table ids, share after share, each share's tokens in its first-seen order.
        var table = TokenTable()
        let toTable = shares.map { s in s.table.strings.map { table.intern($0) } }
        let lists = ParallelMap.map(workers, workers: workers) { w, _ in
            shares[w].texts.map { local in local.map { toTable[w][Int($0)] }.sorted() }
        }
        // Distinct sets; each text counts as many documents as hold it.
        var number: [[Int32]: Int32] = [[]: 0]
        var setOf: [[Int32]] = []
        for w in 0..<workers {
            var sets = [Int32](repeating: 0, count: lists[w].count)
            for (k, list) in lists[w].enumerated() {
                table.count(list, documents: Int(shares[w].documents[k]))
                if let s = number[list] {
                    sets[k] = s
                    continue
                }
                let s = Int32(start.count - 1)
                number[list] = s
                pool.append(contentsOf: list)
                start.append(Int32(pool.count))
                sets[k] = s
            }
            setOf.append(sets)
        }
        table.finishWeights()
        weight = (0..<(start.count - 1)).map { s in table.totalWeight(pool[Int(start[s])..<Int(start[s + 1])]) }
        self.table = table
        var offset = 0
        for w in 0..<workers {
            let range = ParallelMap.range(of: w, workers: workers, count: docs.count)
            for (k, d) in docs[range].enumerated() {
                let t = Int(shares[w].textOf[k])
                let set = setOf[w][t], claim = Int32(1 + offset + t)
                if d >= 0 { rowSet[Int(d)] = set; rowClaims[Int(d)] = claim } else { colSet[Int(~d)] = set; colClaims[Int(~d)] = claim }
            }
            offset += shares[w].claims.count
        }
        for s in shares { claims.append(contentsOf: s.claims) }
    }

    /// The token ids of set `s`.
    func tokens(ofSet s: Int32) -> ArraySlice<Int32> { pool[Int(start[Int(s)])..<Int(start[Int(s) + 1])] }

    /// Text similarity of a row and a column (``TokenTable/similarity(_:_:_:_:)``).
    func similarity(row: Int, col: Int) -> Double {
        let a = rowSet[row], b = colSet[col]
        return table.similarity(tokens(ofSet: a), weight[Int(a)], tokens(ofSet: b), weight[Int(b)])
    }

    /// The two sides of a pair name different stores or states (``PlaceRule``).
    func placesDisagree(row: Int, col: Int) -> Bool { PlaceRule.disagree(claims[Int(rowClaims[row])], claims[Int(colClaims[col])]) }

    /// One worker's share of the documents, read with token ids of its own.
    private struct Share: Sendable {
        var table = TokenTable()
        /// Per distinct text (with its places): sorted token ids of the share's table, its
        /// place claims, and how many of the share's documents hold it.
        var texts: [[Int32]] = []
        var claims: [PlaceRule.Claims] = []
        var documents: [Int32] = []
        /// Per document of the share: its distinct text.
        var textOf: [Int32] = []

        /// A text with its provider's places. Hashed by the text alone: records that share a text
        /// nearly always share the rest, hashing the counterparty and the places cost as much
        /// again, and a text at several places is a few keys of one hash, told apart by `==`.
        private struct Key: Hashable {
            var text: String
            var more: String?
            var places: InlineList<PaymentPlace>
            func hash(into hasher: inout Hasher) { hasher.combine(text) }
            static func == (a: Key, b: Key) -> Bool {
                guard a.text == b.text, a.more == b.more, a.places.count == b.places.count else { return false }
                // Place by place: the lists' generic `==` copies both first (half the cost of a hit).
                for k in 0..<a.places.count where a.places[k] != b.places[k] { return false }
                return true
            }
        }

        init(docs: ArraySlice<Int32>, rows idx: [Int], records: [IncomingRecord], candidates: [CandidateTransaction]) {
            var seen: [Key: Int32] = [:]
            textOf.reserveCapacity(docs.count)
            for d in docs {
                let key: Key
                if d >= 0 {
                    let i = idx[Int(d)] // fields read in place: copying the record retains all of them
                    let (a, b) = TextSimilarity.matchTexts(
                        description: records[i].description, counterparty: records[i].counterparty, note: records[i].note)
                    var places = InlineList<PaymentPlace>()
                    if let place = records[i].place { places.append(place) }
                    key = Key(text: a, more: b, places: places)
                } else {
                    let c = Int(~d)
                    let (a, b) = TextSimilarity.matchTexts(
                        description: candidates[c].description, counterparty: candidates[c].counterparty, note: candidates[c].note)
                    key = Key(text: a, more: b, places: candidates[c].places)
                }
                if let t = seen[key] {
                    documents[Int(t)] += 1
                    textOf.append(t)
                    continue
                }
                let t = Int32(texts.count)
                seen[key] = t
                texts.append(table.tokens(of: key.text, key.more))
                claims.append(PlaceRule.claims(key.text, key.more, places: Array(key.places)))
                documents.append(1)
                textOf.append(t)
            }
        }
    }
}
