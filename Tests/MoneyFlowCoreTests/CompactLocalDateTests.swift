import Foundation
import Testing

@testable import MoneyFlowCore

/// ``LocalDate`` held as one 32-bit day number: the same dates, components, day numbers, order,
/// text and JSON as when it held three `Int`s, checked against that arithmetic over the whole
/// range a date can be made in (years 1...9999, every month's first and last day, every leap day,
/// and every day of the years at the edges and around 1970).
@Suite struct CompactLocalDateTests {
    /// The layout before: three integers, with the synthesized JSON form.
    struct ThreeInts: Codable, Equatable { var year: Int; var month: Int; var day: Int }

    /// days_from_civil as `LocalDate.dayNumber` computed it from its three stored integers.
    static func oldDayNumber(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// civil_from_days as `LocalDate(dayNumber:)` stored its three integers.
    static func oldComponents(_ z0: Int) -> ThreeInts {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return ThreeInts(year: yoe + era * 400 + (m <= 2 ? 1 : 0), month: m, day: d)
    }

    static func leap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    static func lastDay(_ y: Int, _ m: Int) -> Int { m == 2 ? (leap(y) ? 29 : 28) : [4, 6, 9, 11].contains(m) ? 30 : 31 }

    /// Every date checked: each month's first and last day in every year, Feb 28 to Mar 1 in
    /// every year, and every day of the edge years and of the years around 1970 and 2000.
    static var samples: [ThreeInts] {
        var out: [ThreeInts] = []
        let everyDay = Set([1, 2, 3, 4, 1969, 1970, 1971, 1999, 2000, 2001, 2024, 9996, 9997, 9998, 9999])
        for y in 1...9999 {
            for m in 1...12 {
                let last = lastDay(y, m)
                let days = everyDay.contains(y) ? Array(1...last) : m == 2 ? (last == 29 ? [1, 28, 29] : [1, 28]) : [1, last]
                for d in days { out.append(ThreeInts(year: y, month: m, day: d)) }
            }
        }
        return out
    }

    @Test func holdsOneThirtyTwoBitNumber() {
        #expect(MemoryLayout<LocalDate>.size <= 4)
    }

    @Test func agreesWithTheThreeIntegerArithmeticOverTheWholeRange() throws {
        let samples = Self.samples
        var mismatches: [String] = []
        var previous: LocalDate?
        for s in samples {
            guard let date = LocalDate(year: s.year, month: s.month, day: s.day) else {
                mismatches.append("\(s) refused"); continue
            }
            let n = Self.oldDayNumber(s.year, s.month, s.day)
            let back = LocalDate(dayNumber: n)
            let iso = String(format: "%04d-%02d-%02d", s.year, s.month, s.day)
            if date.year != s.year || date.month != s.month || date.day != s.day || date.dayNumber != n || back != date
                || Self.oldComponents(n) != ThreeInts(year: back.year, month: back.month, day: back.day) || date.iso != iso
                || date.description != iso || date.adding(days: 1).dayNumber != n + 1 || date.adding(days: -1).adding(days: 1) != date
            {
                mismatches.append("\(s): \(date.iso) \(date.dayNumber) vs \(n)")
            }
            if let p = previous, !(p < date) || p >= date || p == date || date < p {
                mismatches.append("order \(p.iso) !< \(date.iso)")
            }
            previous = date
            if mismatches.count > 10 { break }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(samples.count > 240_000)
        #expect(LocalDate(year: 1, month: 1, day: 1)!.dayNumber == -719_162)
        #expect(LocalDate(year: 9999, month: 12, day: 31)!.dayNumber == 2_932_896)
        #expect(LocalDate(year: 1970, month: 1, day: 1)!.dayNumber == 0)
        // Days just outside the range still name the days the old arithmetic named (windows of a
        // few days around a date are built this way).
        for n in [-719_162 - 400, -719_163, 2_932_897, 2_932_896 + 400] {
            let d = LocalDate(dayNumber: n)
            #expect(ThreeInts(year: d.year, month: d.month, day: d.day) == Self.oldComponents(n))
            #expect(d.dayNumber == n)
        }
    }

    @Test func refusesWhatIsNotADay() {
        for (y, m, d) in [(0, 12, 31), (10_000, 1, 1), (2023, 2, 29), (1900, 2, 29), (2024, 2, 30), (2024, 4, 31), (2024, 0, 1), (2024, 13, 1), (2024, 1, 0)] {
            #expect(LocalDate(year: y, month: m, day: d) == nil, "\(y)-\(m)-\(d)")
        }
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
    }

    @Test(arguments: [(1, 1, 1), (1970, 1, 1), (2024, 2, 29), (1969, 12, 31), (9999, 12, 31)])
    func encodesAsThreeIntegersAndDecodesBack(_ c: (Int, Int, Int)) throws {
        let date = try #require(LocalDate(year: c.0, month: c.1, day: c.2))
        let old = ThreeInts(year: c.0, month: c.1, day: c.2)
        // Byte for byte with sorted keys; unsorted, Foundation orders keys by hash, so compare the objects.
        for formatting in [JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .prettyPrinted]] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            #expect(try encoder.encode(date) == (try encoder.encode(old)))
        }
        let object = try JSONDecoder().decode([String: Int].self, from: JSONEncoder().encode(date))
        #expect(object == ["year": c.0, "month": c.1, "day": c.2])
        let json = try JSONEncoder().encode(old)
        #expect(try JSONDecoder().decode(LocalDate.self, from: json) == date)
        let list = [date, LocalDate(year: 2024, month: 3, day: 1)!]
        #expect(try JSONDecoder().decode([LocalDate].self, from: JSONEncoder().encode(list)) == list)
    }

    @Test func decodingRefusesADayThatDoesNotExist() {
        let json = Data(#"{"year":2023,"month":2,"day":29}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LocalDate.self, from: json) }
    }

    @Test func equalDatesHashAlikeAndKeySets() {
        let a = LocalDate(year: 2024, month: 2, day: 29)!, b = LocalDate(dayNumber: a.dayNumber)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(Set([a, b, a.adding(days: 1)]).count == 2)
    }
}
