extension CMBCardWork {
    /// The bill's standard notes, printed in the transaction table's area of real bills: the
    /// numbered explanations of its figures (`(1) 本期账单金额 = …`, `（2）本期还款总额 = …`) and
    /// the starred or headed reminders (`★友情提醒：…`, `温馨提示：…`, `注：…`). They are no rows
    /// and not worth a warning; any other text in the table still is one (it may be a row
    /// the reader could not cut into columns).
    static func isFootnote(_ text: String) -> Bool {
        let t = Substring(text.filter { $0 != " " && $0 != "\u{3000}" && $0 != "\u{A0}" })
        if let first = t.first, "★☆※◆■●".contains(first) { return t.count > 1 }
        for head in ["友情提醒", "温馨提示", "重要提示", "注：", "注:", "备注："] where t.hasPrefix(head) { return true }
        // `(1)`, `（1）`, `1.`, `1、` followed by one of the bill's own figures or the word 说明.
        var rest = t
        if let open = rest.first, open == "(" || open == "（" {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count) else { return false }
            rest = rest.dropFirst(digits.count)
            guard let close = rest.first, close == ")" || close == "）" else { return false }
            rest = rest.dropFirst()
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count) else { return false }
            rest = rest.dropFirst(digits.count)
            guard let mark = rest.first, mark == "." || mark == "、" else { return false }
            rest = rest.dropFirst()
        }
        return CMBCardFact.allCases.contains { rest.hasPrefix($0.label) } || rest.hasPrefix("说明")
    }
}
