import Foundation

@testable import MoneyFlowZip

/// Fixtures live next to this file; located through #filePath so no resources are needed.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let password = "secret123"

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

    static func original(_ name: String) throws -> Data { try data("originals/" + name) }

    static func archive(_ name: String, limits: ZipLimits = .default) throws -> ZipArchive {
        try ZipArchive(contentsOf: url(name), limits: limits)
    }
}

/// Peak resident set size of this process in bytes (Linux VmHWM), or nil elsewhere.
func peakResidentBytes() -> UInt64? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
        return digits.map { $0 * 1024 }
    }
    return nil
}

/// Runs `body` and returns the ZipError it throws, or nil if it succeeded.
func zipError<T>(_ body: () throws(ZipError) -> T) -> ZipError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
