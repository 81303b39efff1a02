import MoneyFlowCore

/// Header facts of page 1, each found by its Chinese label.
enum CMBCardFact: CaseIterable {
    case statementDate, paymentDueDate, creditLimit, newBalance, minimumPayment, cardNumber
    case previousBalance, previousPayment, newCharges, adjustment, interest

    var label: String {
        switch self {
        case .statementDate: return "账单日"
        case .paymentDueDate: return "到期还款日"
        case .creditLimit: return "信用额度"
        case .newBalance: return "本期还款总额"
        case .minimumPayment: return "本期最低还款额"
        case .cardNumber: return "卡号"
        case .previousBalance: return "上期账单金额"
        case .previousPayment: return "上期还款金额"
        case .newCharges: return "本期账单金额"
        case .adjustment: return "本期调整金额"
        case .interest: return "循环利息"
        }
    }
}

extension CMBCardWork {
    /// Reads the title (statement month, `（补）`) and the labelled facts from the lines above
    /// the column header. The title may wrap onto a second line. A fact's value is the first
    /// readable value after its label on the same line (before the next label), else the first
    /// one below it, under the label, within a few lines (English labels in between are skipped).
    func parseHeader(_ lines: [CMBLine]) throws(ImportError) -> CMBCardStatement.Header {
        let titleKey = Array("信用卡对账单".unicodeScalars)
        var title = ""
        if let t = lines.firstIndex(where: { $0.contains(titleKey) }) {
            title = lines[t].compactText
            if CMBCardWork.yearMonth(title) == nil, t + 1 < lines.count { title += lines[t + 1].compactText }
        }
        var facts: [CMBCardFact: (text: String, value: String)] = [:]
        let runsByLine = lines.map { $0.runs(gapFactor: 1.0) }
        let labels = Dictionary(uniqueKeysWithValues: CMBCardFact.allCases.map { ($0.label, $0) })
        func label(_ run: CMBLine) -> CMBCardFact? {
            var t = run.compactText
            if t.hasSuffix("：") || t.hasSuffix(":") { t.removeLast() }
            return labels[t]
        }
        for (l, runs) in runsByLine.enumerated() {
            for (r, run) in runs.enumerated() {
                guard let fact = label(run), facts[fact] == nil else { continue }
                var value: String? = nil
                for next in runs[(r + 1)...] {
                    if label(next) != nil { break }
                    if let v = CMBCardWork.factValue(fact, next.spacedText) { value = v; break }
                }
                var below = l + 1
                let h = max(lines[l].height, 1)
                while value == nil, below < lines.count, lines[below].y0 <= lines[l].y1 + 4 * h {
                    for next in runsByLine[below] where next.x0 >= run.x0 - h && next.x0 <= run.x1 + h {
                        if label(next) != nil { break }
                        if let v = CMBCardWork.factValue(fact, next.spacedText) { value = v; break }
                    }
                    below += 1
                }
                if let value { facts[fact] = (run.compactText, value) }
            }
        }
        return try Self.header(
            title: title, facts: facts.mapValues(\.value), fileName: fileName, locator: Locator(page: 1),
            missingMonth: "not a CMB credit-card bill: no statement month (招商银行信用卡对账单（... YYYY年MM月）) and no 账单日")
    }

    /// The bill's header from its title and its facts (values as ``factValue(_:_:)`` gives
    /// them), whichever format they were read from (the PDF bill or the HTML e-statement). The
    /// statement month comes from the title (`YYYY年MM月`), else from 账单日; without either the
    /// file is not a bill (`missingMonth` says so at `locator`).
    static func header(
        title: String, facts: [CMBCardFact: String], fileName: String, locator: Locator?, missingMonth: String
    ) throws(ImportError) -> CMBCardStatement.Header {
        let statementDate = facts[.statementDate].flatMap { LocalDate(iso: $0, .exact) }
        guard let (year, month) = yearMonth(title) ?? statementDate.map({ ($0.year, $0.month) }) else {
            throw ImportError(.notAStatement, file: fileName, locator: locator, problem: missingMonth)
        }
        let card = facts[.cardNumber]
        var h = CMBCardStatement.Header(
            year: year, month: month, reissued: title.contains("（补）") || title.contains("(补)"),
            cardLast4: card.map { String($0.filter { $0.isASCII && $0.isNumber }.suffix(4)) } ?? "")
        h.cardNumber = card
        if let open = title.firstIndex(of: "（"), let end = title.range(of: "账户")?.upperBound, open < end {
            h.accountKind = String(title[title.index(after: open)..<end])
        }
        h.statementDate = statementDate
        h.paymentDueDate = facts[.paymentDueDate].flatMap { LocalDate(iso: $0, .exact) }
        func money(_ f: CMBCardFact) -> Money? { facts[f].flatMap { Int64($0) }.map { Money(minorUnits: $0, currency: "CNY") } }
        h.creditLimit = money(.creditLimit); h.newBalance = money(.newBalance); h.minimumPayment = money(.minimumPayment)
        h.previousBalance = money(.previousBalance); h.previousPayment = money(.previousPayment)
        h.newCharges = money(.newCharges); h.adjustment = money(.adjustment); h.interest = money(.interest)
        return h
    }

    /// A fact's value read from text, normalised: dates as ISO text, amounts as minor units
    /// (a `¥`, `￥`, `RMB` or `CNY` before the number is dropped), the card number as printed.
    static func factValue(_ fact: CMBCardFact, _ text: String) -> String? {
        switch fact {
        case .statementDate, .paymentDueDate:
            let t = text.filter { $0 != " " }
            return t.count == 10 ? LocalDate(iso: t, .exact(separators: "-/.")).map(\.iso) : nil
        case .cardNumber:
            let digits = text.filter { $0.isASCII && $0.isNumber }.count
            let allowed = text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "*" || $0 == " " || $0 == "x" || $0 == "X" }
            return digits >= 4 && allowed ? text : nil
        default:
            var t = Substring(text.filter { $0 != " " })
            for prefix in ["¥", "￥", "RMB", "CNY"] where t.hasPrefix(prefix) { t = t.dropFirst(prefix.count) }
            return CMBWork.parseMinorUnits(String(t), exponent: 2).map { String($0) }
        }
    }

    /// `YYYY年MM月` in the title.
    static func yearMonth(_ title: String) -> (Int, Int)? {
        let s = Array(title)
        guard let nian = s.firstIndex(of: "年"), nian >= 4, let yue = s[nian...].firstIndex(of: "月"), yue - nian >= 2, yue - nian <= 3 else {
            return nil
        }
        guard let year = Int(String(s[(nian - 4)..<nian])), let month = Int(String(s[(nian + 1)..<yue])), (1...12).contains(month) else {
            return nil
        }
        return (year, month)
    }
}
