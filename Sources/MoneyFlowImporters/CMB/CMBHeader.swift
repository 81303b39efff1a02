import Foundation
import MoneyFlowCore

extension CMBWork {
    // MARK: header

    func parseHeader(_ scan: CMBPageScan) -> (value: CMBStatement.Header, layout: CMBStatement.Layout?)? {
        let top = scan.columns.map { $0.top } ?? Double.infinity
        var fields = CMBHeaderFields()
        for line in scan.lines where line.midY < top { fields.read(line.spacedText) }
        guard let account = fields.account, !account.isEmpty else { return nil }
        var layout: CMBStatement.Layout? = nil
        if fields.appliedAt != nil || fields.verificationCode != nil { layout = .v2024 } else if fields.serial != nil { layout = .v2020 }
        let header = CMBStatement.Header(
            name: fields.name, accountNumber: account, accountType: fields.accountType,
            branch: fields.branch, periodStart: fields.periodStart, periodEnd: fields.periodEnd,
            appliedAt: fields.appliedAt, serialNumber: fields.serial,
            verificationCode: fields.verificationCode, layout: layout ?? .v2024)
        return (header, layout)
    }
}

// MARK: - Header fields

/// Label-driven reading of the header lines (two label/value pairs may share a line).
struct CMBHeaderFields {
    var name: String?
    var account: String?
    var accountType: String?
    var branch: String?
    var periodStart: LocalDate?
    var periodEnd: LocalDate?
    var appliedAt: String?
    var serial: String?
    var verificationCode: String?

    /// Labels (spaces allowed between their characters) followed by `：` or `:`.
    private static let labels: [(key: String, chars: String)] = [
        ("name", "户名"), ("account", "账号"), ("type", "账户类型"), ("branch", "开户行"),
        ("applied", "申请时间"), ("code", "验证码"), ("serial", "电子流水号"),
    ]

    mutating func read(_ line: String) {
        let scalars = Array(line.unicodeScalars)
        // Find every label occurrence: chars in order, separated only by spaces, then a colon.
        var hits: [(key: String, start: Int, valueStart: Int)] = []
        var i = 0
        while i < scalars.count {
            var matched = false
            for label in CMBHeaderFields.labels {
                let chars = Array(label.chars.unicodeScalars)
                var j = i, k = 0
                while k < chars.count && j < scalars.count {
                    if scalars[j] == chars[k] { j += 1; k += 1 } else if scalars[j] == " " && k > 0 { j += 1 } else { break }
                }
                guard k == chars.count else { continue }
                while j < scalars.count && scalars[j] == " " { j += 1 }
                guard j < scalars.count, scalars[j] == "：" || scalars[j] == ":" else { continue }
                hits.append((label.key, i, j + 1))
                i = j + 1
                matched = true
                break
            }
            if !matched { i += 1 }
        }
        for (n, hit) in hits.enumerated() {
            let end = n + 1 < hits.count ? hits[n + 1].start : scalars.count
            var v = String.UnicodeScalarView()
            if hit.valueStart < end { v.append(contentsOf: scalars[hit.valueStart..<end]) }
            let value = String(v).trimmed(.whitespacesAndNewlines)
            switch hit.key {
            case "name": name = value
            case "account":
                // Usually one token (`6214********8705`); keep a number printed in groups whole.
                let numberish = value.unicodeScalars.allSatisfy {
                    ($0.value >= 48 && $0.value <= 57) || $0 == "*" || $0 == " " || $0 == "x" || $0 == "X"
                }
                account = numberish ? value : (value.split(separator: " ").first.map(String.init) ?? value)
            case "type": accountType = value
            case "branch": branch = value
            case "applied":
                let parts = value.split(separator: " ")
                appliedAt = parts.prefix(2).joined(separator: " ")
            case "code": verificationCode = value.split(separator: " ").first.map(String.init) ?? value
            case "serial": serial = value.split(separator: " ").first.map(String.init) ?? value
            default: break
            }
        }
        if hits.isEmpty, periodStart == nil {
            // Statement period `YYYY-MM-DD -- YYYY-MM-DD`, possibly after a label.
            let compact = Array(line.unicodeScalars.filter { $0 != " " })
            var i = 0
            while i + 21 <= compact.count {
                if let s = CMBWork.parseDate(Array(compact[i..<(i + 10)])) {
                    for sepLength in 1...3 where i + 10 + sepLength + 10 <= compact.count {
                        let sep = String(String.UnicodeScalarView(compact[(i + 10)..<(i + 10 + sepLength)]))
                        guard ["--", "-", "—", "——", "–", "~", "～", "至", "到"].contains(sep) else { continue }
                        let from = i + 10 + sepLength
                        if let e = CMBWork.parseDate(Array(compact[from..<(from + 10)])) {
                            periodStart = s; periodEnd = e
                            return
                        }
                    }
                }
                i += 1
            }
        }
    }
}
