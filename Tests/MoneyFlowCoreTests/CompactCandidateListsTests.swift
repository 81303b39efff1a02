import Foundation
import Testing

@testable import MoneyFlowCore

/// The compact lists a ``CandidateTransaction`` keeps (``InlineList``, ``SourceKindSet``) hold
/// exactly what the `Array` and `Set` they replace held: same elements, same order, same
/// equality, hash and JSON, however many elements (the inline first one, the array from the
/// second on).
@Suite struct CompactCandidateListsTests {
    @Test(arguments: 0...5)
    func inlineListHoldsWhatTheArrayHolds(_ n: Int) throws {
        let plain = (0..<n).map { "text-\($0)-" + String(repeating: "x", count: 20) }
        var appended = InlineList<String>()
        for s in plain { appended.append(s) }
        let built = InlineList(plain)
        for list in [appended, built] {
            #expect(Array(list) == plain)
            #expect(list.count == plain.count)
            #expect(list.first == plain.first)
            #expect(list.isEmpty == plain.isEmpty)
            for (i, s) in plain.enumerated() { #expect(list[i] == s) }
        }
        #expect(appended == built)
        #expect(appended.hashValue == built.hashValue)
        let json = try JSONEncoder().encode(appended)
        #expect(json == (try JSONEncoder().encode(plain)))
        #expect(try JSONDecoder().decode(InlineList<String>.self, from: json) == built)
        // A list one element shorter or longer is another list.
        var longer = built
        longer.append("more")
        #expect(longer != built)
        #expect(Array(longer) == plain + ["more"])
    }

    @Test func sourceKindSetHoldsWhatTheSetHolds() throws {
        let all = SourceKind.allCases
        for mask in 0..<(1 << all.count) {
            let plain = Set(all.indices.filter { mask & (1 << $0) != 0 }.map { all[$0] })
            var compact = SourceKindSet()
            for k in plain { compact.insert(k) }
            #expect(Set(compact) == plain)
            #expect(compact.count == plain.count)
            #expect(compact.isEmpty == plain.isEmpty)
            for k in all { #expect(compact.contains(k) == plain.contains(k)) }
            #expect(SourceKindSet(plain) == compact)
            let back = try JSONDecoder().decode(Set<SourceKind>.self, from: try JSONEncoder().encode(compact))
            #expect(back == plain)
        }
    }
}
