import Foundation

/// A duration as `serve`'s options take it: a whole number and a unit, `45s`, `30m`, `6h`, `1d`.
/// A unit is required, so `30` cannot be read as seconds by one person and minutes by another.
public enum ServerDuration {
    /// `text` as a duration, or a one-line error naming `option`.
    public static func parse(_ text: String, option: String) throws -> Duration {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = t.last, let scale = units[unit], let n = Int64(t.dropLast()), n > 0, n <= 366 * 86_400 / scale else {
            throw ServerConfigurationError("\(option) '\(text)': expected a whole number and a unit, like 45s, 30m, 6h or 1d")
        }
        return .seconds(n * scale)
    }

    /// `d` the way ``parse(_:option:)`` reads it (the largest unit that divides it).
    public static func text(_ d: Duration) -> String {
        let s = d.components.seconds
        for (unit, scale) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where s >= scale && s % scale == 0 {
            return "\(s / scale)\(unit)"
        }
        return "\(s)s"
    }
}
