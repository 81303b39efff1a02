import Foundation

/// A ``LocalDate`` encodes as it did when it held three integers: a keyed `year`, `month`, `day`
/// (in that order), which stored JSON and the CLI's outputs already contain. A decoded date must
/// name a real day: the components are checked, not trusted.
extension LocalDate: Codable {
    private enum CodingKeys: String, CodingKey { case year, month, day }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let y = try c.decode(Int.self, forKey: .year), m = try c.decode(Int.self, forKey: .month)
        let d = try c.decode(Int.self, forKey: .day)
        guard let date = LocalDate(year: y, month: m, day: d) else {
            throw DecodingError.dataCorruptedError(
                forKey: .day, in: c, debugDescription: "no such day: year \(y), month \(m), day \(d) (a date needs a real day in years 1...9999)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let civil = civil
        try c.encode(civil.year, forKey: .year)
        try c.encode(civil.month, forKey: .month)
        try c.encode(civil.day, forKey: .day)
    }
}
