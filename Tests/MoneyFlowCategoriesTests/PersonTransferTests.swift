import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

/// Which records are transfers to (or from) a person (``PersonTransfer``), source by source.
@Suite struct PersonTransferTests {
    @Test func walletTypesBetweenPeople() {
        for t in ["转账", "微信红包", "微信红包（单发）", "群收款", "二维码收款"] { #expect(PersonTransfer.wallet(.wechat, category: t), "\(t)") }
        for t in ["商户消费", "扫二维码付款", "零钱提现", "亲属卡交易"] { #expect(!PersonTransfer.wallet(.wechat, category: t), "\(t)") }
        for t in ["转账红包", "亲友代付"] { #expect(PersonTransfer.wallet(.alipay, category: t), "\(t)") }
        for t in ["餐饮美食", "转账"] { #expect(!PersonTransfer.wallet(.alipay, category: t), "\(t)") }
        #expect(!PersonTransfer.wallet(.cmbCSV, category: "转账"))
    }

    @Test func cmbTransfersToAPersonalName() {
        #expect(PersonTransfer.cmb(summary: "转账汇款", counterparty: "李昶乐"))
        #expect(PersonTransfer.cmb(summary: "网联付款", counterparty: "张三"))
        #expect(PersonTransfer.cmb(summary: "汇入汇款", counterparty: "欧阳 娜娜"))
        #expect(PersonTransfer.cmb(summary: "网联收款", counterparty: "阿依·买买"))
        // Not a transfer, not a personal name, or a company.
        #expect(!PersonTransfer.cmb(summary: "快捷支付", counterparty: "张三"))
        #expect(!PersonTransfer.cmb(summary: "跨行转账还款", counterparty: "张三"))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: nil))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: "张"))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: "深圳市腾讯计算机系统有限公司"))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: "招商银行"))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: "张三小店"))
        #expect(!PersonTransfer.cmb(summary: "转账汇款", counterparty: "John Smith"))
    }

    /// The byte search on plain text (a bank's 交易摘要) finds exactly what Foundation's search
    /// finds; text with combining marks, kana or compatibility ideographs takes Foundation's.
    @Test func wordSearchAgreesWithFoundation() {
        let texts = [
            "转账汇款", "跨行转账还款", "快捷支付", "ATM取款 转账", "（转账）", "转 账", "", "a转账b", "网联付款-微信",
            "转账\u{0301}汇款", "转\u{0301}账", "がが転账", "\u{F9B5}转账", "转账\t汇款", "深圳市腾讯计算机系统有限公司", "张三小店",
        ]
        let words = PersonTransfer.cmbTransferWords + PersonTransfer.organisationWords + ["还款"]
        for t in texts {
            for w in words { #expect(PersonTransfer.contains(t, w) == t.contains(w), "\(t) / \(w)") }
        }
    }

    /// ``PersonTransfer/cmb(summary:counterparty:)`` answers as its first spelling (Foundation's
    /// search, both filters on every counterparty) on names of every length and shape.
    @Test func cmbAgreesWithItsFirstSpelling() {
        func reference(_ summary: String, _ counterparty: String?) -> Bool {
            guard PersonTransfer.cmbTransferWords.contains(where: summary.contains), !summary.contains("还款"),
                let name = counterparty?.filter({ !$0.isWhitespace })
            else { return false }
            let letters = name.filter { $0 != "·" && $0 != "•" }
            guard (2...4).contains(letters.count), letters.unicodeScalars.allSatisfy({ (0x4E00...0x9FFF).contains($0.value) || (0x3400...0x4DBF).contains($0.value) })
            else { return false }
            return !PersonTransfer.organisationWords.contains(where: name.contains)
        }
        let names: [String?] = [
            nil, "", "张", "张三", "欧阳娜娜", "欧阳娜娜娜", "阿依·买买", "阿依·买买提", "欧 阳 娜 娜", "欧\u{3000}阳娜娜娜", "张三\u{0301}",
            "张三小店", "John", "张三 Li", "李·四·五·六", "深圳市腾讯计算机系统有限公司", "\u{0387}张三", "张\r\n三",
        ]
        for summary in ["转账汇款", "快捷支付", "跨行转账还款", "网联收款"] {
            for name in names { #expect(PersonTransfer.cmb(summary: summary, counterparty: name) == reference(summary, name), "\(summary) / \(name ?? "nil")") }
        }
    }

    @Test func plaidPersonToPersonTransfers() throws {
        func fields(_ primary: String, _ detailed: String, _ types: [String]) throws -> PlaidRecordFields {
            let object: [String: Any] = [
                "personal_finance_category": ["primary": primary, "detailed": detailed],
                "counterparties": types.map { ["name": "X", "type": $0] },
            ]
            let raw = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            return try #require(PlaidRecordFields(raw: raw))
        }
        #expect(try fields("TRANSFER_OUT", "TRANSFER_OUT_TRANSFER_OUT_FROM_APPS", []).isPersonTransfer)
        #expect(try fields("TRANSFER_IN", "TRANSFER_IN_OTHER_TRANSFER_IN", ["payment_app"]).isPersonTransfer)
        #expect(!(try fields("TRANSFER_OUT", "TRANSFER_OUT_SAVINGS", ["financial_institution"]).isPersonTransfer))
        #expect(!(try fields("TRANSFER_OUT", "TRANSFER_OUT_TRANSFER_OUT_FROM_APPS", ["payment_app", "merchant"]).isPersonTransfer))
        #expect(!(try fields("FOOD_AND_DRINK", "FOOD_AND_DRINK_COFFEE", ["payment_app"]).isPersonTransfer))
        #expect(PlaidRecordFields(raw: "{\"merchant_name\":\"Walmart\"}")?.isPersonTransfer == false)
    }
}
