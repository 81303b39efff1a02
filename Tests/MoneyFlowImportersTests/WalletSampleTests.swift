import Foundation
import MoneyFlowCore
import MoneyFlowWallets
import Testing

@testable import MoneyFlowImporters

let walletSamples = repoRoot.appendingPathComponent("Samples/wallets")

/// What scripts/gen_wallet_samples.py says a wallet bill holds (written from its own orders).
struct ExpectedWallet: Decodable {
    struct Account: Decodable {
        var key, name, institution, type: String
        var number: String?
    }
    struct Row: Decodable {
        var line, row: Int?
        var account, external_id, date, time, amount, description, method, status: String
        var scope, counterparty, note, category: String?
    }
    struct Warning: Decodable {
        var line, row: Int?
        var contains: String
    }
    var accounts: [Account]
    var records: [Row]
    var warnings: [Warning]
}

/// The wallet importers and the others they must be told apart from, by content only.
let walletRegistry = ImporterRegistry([
    CSVImporter(), PlaidImporter(), OFXImporter(), AlipayImporter(), WeChatImporter(), WalletZipImporter(),
])

func walletPassword(_ stem: String) throws -> String {
    try String(contentsOf: walletSamples.appendingPathComponent("passwords/\(stem).txt"), encoding: .utf8).trimmingCharacters(
        in: .whitespacesAndNewlines)
}

/// Reads a sample the way an import does: the importer chosen by content (the name says nothing).
func readWalletSample(_ path: String, password: String? = nil) throws -> ImportedStatement {
    let input = ImportInput(fileName: "bill.dat", data: try Data(contentsOf: walletSamples.appendingPathComponent(path)))
    let options = ImportOptions(password: { _ in password })
    let importer = try #require(walletRegistry.detect(input, options: options), "no importer claims \(path)")
    return try importer.read(input, options: options)
}

@Suite struct WalletSampleTests {
    static let samples: [(file: String, expected: String, password: String?)] = [
        ("formats/alipay_2026Q2.csv", "alipay_2026Q2.expected.json", nil),
        ("alipay_2026Q2.zip", "alipay_2026Q2.expected.json", "alipay_2026Q2"),
        ("formats/alipay_utf8_shifted.csv", "formats/alipay_utf8_shifted.expected.json", nil),
        ("formats/alipay_pc_2016.csv", "formats/alipay_pc_2016.expected.json", nil),
        ("formats/wechat_2026Q2.xlsx", "wechat_2026Q2.expected.json", nil),
        ("wechat_2026Q2.zip", "wechat_2026Q2.expected.json", "wechat_2026Q2"),
        ("formats/wechat_2026Q1.csv", "formats/wechat_2026Q1.expected.json", nil),
        // The demo person's bills (scripts/walletgen/demo.py).
        ("../demo_wallets/alipay_2026Q1Q2.csv", "../demo_wallets/alipay_2026Q1Q2.expected.json", nil),
        ("../demo_wallets/wechat_2026Q1Q2.xlsx", "../demo_wallets/wechat_2026Q1Q2.expected.json", nil),
    ]

    @Test(arguments: samples.indices)
    func sampleImportsExactlyItsExpectedRows(_ i: Int) throws {
        let (file, expectedFile, passwordFile) = Self.samples[i]
        let s = try readWalletSample(file, password: try passwordFile.map(walletPassword))
        let e = try JSONDecoder().decode(ExpectedWallet.self, from: Data(contentsOf: walletSamples.appendingPathComponent(expectedFile)))
        #expect(s.accounts.map(\.key) == e.accounts.map(\.key), "\(file)")
        for (a, x) in zip(s.accounts, e.accounts) {
            #expect(
                a.suggestedName == x.name && a.institution == x.institution && a.number == x.number && a.type == x.type
                    && a.currencies == ["CNY"], "\(a)")
        }
        #expect(s.records.count == e.records.count, "\(file)")
        for (r, x) in zip(s.records, e.records) {
            let at = "\(file) \(x.line.map { "line \($0)" } ?? "row \(x.row ?? 0)") \(x.external_id)"
            #expect(r.locator.line == x.line && r.locator.row == x.row, "\(at)")
            #expect(
                r.accountKey == x.account && r.externalID == x.external_id && r.externalIDScope == x.scope,
                "\(at): \(r.accountKey) \(r.externalIDScope ?? "-")")
            #expect(r.date.iso == x.date && r.time == x.time, "\(at)")
            #expect(r.amount.decimalString == x.amount && r.amount.currency == "CNY", "\(at): \(r.amount)")
            #expect(
                r.description == x.description && r.counterparty == x.counterparty && r.note == x.note && r.category == x.category, "\(at)")
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(r.raw.utf8)) as? [String: String])
            #expect(raw["method"] == x.method && raw["status"] == x.status, "\(at): \(r.raw)")
            #expect(r.sourceKind == (file.contains("alipay") ? .alipay : .wechat) && !r.pending)
        }
        #expect(s.warnings.count == e.warnings.count, "\(file): \(s.warnings)")
        for (w, x) in zip(s.warnings, e.warnings) {
            #expect(w.message.contains(x.contains) && w.locator?.line == x.line && w.locator?.row == x.row, "\(w)")
        }
    }

    /// The real export is GBK (not UTF-8), space-padded, with a tab after order numbers and a
    /// comma ending each line; the UTF-8 copy's header sits on another line (a shorter 2026
    /// preamble, three more lines before it) and is found by its content all the same.
    @Test func gbkPaddingTabsAndShiftedHeader() throws {
        let gbk = try Data(contentsOf: walletSamples.appendingPathComponent("formats/alipay_2026Q2.csv"))
        #expect(String(data: gbk, encoding: .utf8) == nil)
        let text = try #require(String(data: gbk, encoding: String.Encoding(rawValue: 0x8000_0632)))
        #expect(text.contains("\t,") && text.contains("                    ,\r\n"))
        let utf8 = try String(contentsOf: walletSamples.appendingPathComponent("formats/alipay_utf8_shifted.csv"), encoding: .utf8)
        func headerLine(_ t: String) -> Int? { t.components(separatedBy: "\r\n").firstIndex { $0.hasPrefix("交易时间 ") } }
        #expect(headerLine(utf8) != nil && headerLine(utf8) != headerLine(text))
        let a = try readWalletSample("formats/alipay_2026Q2.csv"), b = try readWalletSample("formats/alipay_utf8_shifted.csv")
        #expect(b.records.map(\.externalID) == Array(a.records.prefix(b.records.count)).map(\.externalID))
        #expect(a.records.allSatisfy { ($0.externalID ?? "").allSatisfy { $0.isNumber || $0 == "_" } })
    }

    /// A password ZIP: the wrong password and a missing one are the errors CMB's ZIPs give.
    @Test func passwordZipErrors() throws {
        let data = try Data(contentsOf: walletSamples.appendingPathComponent("wechat_2026Q2.zip"))
        let input = ImportInput(fileName: "wechat_2026Q2.zip", data: data)
        #expect(WalletZipImporter().sniff(input, options: ImportOptions()) > 0.9)
        for (password, kind) in [("000000", ImportError.Kind.wrongPassword), (nil, .passwordRequired)] as [(String?, ImportError.Kind)] {
            let e = #expect(throws: ImportError.self) {
                try WalletZipImporter().read(input, options: ImportOptions(password: { _ in password }))
            }
            #expect(e?.kind == kind, "\(String(describing: e))")
        }
        // CMB's statement ZIPs stay CMB's: they hold a PDF.
        let cmb = try Data(contentsOf: repoRoot.appendingPathComponent("Samples/cmb/cmb2024_basic.aes256.zip"))
        #expect(WalletZipImporter().sniff(ImportInput(fileName: "x.zip", data: cmb), options: ImportOptions()) == 0)
    }

    /// An XLSX amount is the numeric cell's stored text, never a Double: `28.1` is 28.10, and a
    /// stored `28.099999999999998` is refused (naming the row), not rounded.
    @Test func xlsxNumericCellsAreTheirStoredText() throws {
        let sheet = Data(
            #"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="3"><c r="B3" t="inlineStr"><is><t>x</t></is></c><c r="F3" s="1"><v>28.1</v></c></row></sheetData></worksheet>"#
                .utf8)
        let rows = try XLSXWorkbook.rows(sheet, strings: [])
        #expect(rows.count == 1 && rows[0].locator.row == 3 && rows[0].cells == ["", "x", "", "", "", "28.1"])
        var table = WalletTable(rows: WeChatRowsFixture.rows(amount: "28.1"))
        #expect(try WeChatBill.read(table, file: "w.xlsx").records.map(\.amount.decimalString) == ["-28.10"])
        table = WalletTable(rows: WeChatRowsFixture.rows(amount: "28.099999999999998"))
        let e = #expect(throws: ImportError.self) { try WeChatBill.read(table, file: "w.xlsx") }
        #expect(e?.locator?.row == 3 && e?.column == "金额(元)")
    }

    /// A status the importer does not know is a warning naming the row and order; the row is
    /// not recorded (never guessed).
    @Test func unknownStatusIsAWarning() throws {
        for status in ["交易处理中", "支付成功"] {
            let s = try WeChatBill.read(WalletTable(rows: WeChatRowsFixture.rows(amount: "12.00", status: status)), file: "w.csv")
            #expect(s.records.count == (status == "支付成功" ? 1 : 0))
            #expect(s.warnings.count == (status == "支付成功" ? 0 : 1))
            #expect(s.warnings.allSatisfy { $0.locator?.row == 3 && $0.message.contains("交易处理中") && $0.message.contains("4200001234") })
        }
        var text = try String(contentsOf: walletSamples.appendingPathComponent("formats/alipay_utf8_shifted.csv"), encoding: .utf8)
        let line = try #require(text.components(separatedBy: "\r\n").firstIndex { $0.contains("交易成功") })
        var lines = text.components(separatedBy: "\r\n")
        lines[line] = lines[line].replacingOccurrences(of: "交易成功", with: "交易冻结")
        text = lines.joined(separator: "\r\n")
        let s = try AlipayImporter().read(ImportInput(fileName: "a.csv", data: Data(text.utf8)), options: ImportOptions())
        #expect(s.warnings.contains { $0.locator?.line == line + 1 && $0.message.contains("交易冻结") })
        #expect(!s.records.contains { $0.locator.line == line + 1 })
    }

    /// Every wallet bill is claimed by its own importer with certainty and by no other; other
    /// formats' samples are not the wallets'.
    @Test func sniffingIsByContent() throws {
        for path in ["formats/alipay_2026Q2.csv", "formats/alipay_pc_2016.csv", "formats/wechat_2026Q1.csv", "formats/wechat_2026Q2.xlsx"] {
            let input = ImportInput(fileName: "x.csv", data: try Data(contentsOf: walletSamples.appendingPathComponent(path)))
            let scores = walletRegistry.importers.map { ($0.id, $0.sniff(input, options: ImportOptions())) }
            let best = scores.max { $0.1 < $1.1 }!
            #expect(best.0 == (path.contains("alipay") ? "alipay" : "wechat") && best.1 >= 0.95, "\(path): \(scores)")
        }
        for other in ["csv/chase_checking.csv", "cmb/cmb_pc_gbk.csv", "ofx/card_xml_211.ofx"] {
            let input = ImportInput(fileName: "bill.csv", data: try Data(contentsOf: repoRoot.appendingPathComponent("Samples/" + other)))
            #expect(
                AlipayImporter().sniff(input, options: ImportOptions()) == 0 && WeChatImporter().sniff(input, options: ImportOptions()) == 0
            )
        }
    }
}

/// A WeChat bill's minimal rows: the preamble's nickname, the header on row 2, one purchase on row 3.
enum WeChatRowsFixture {
    static func rows(amount: String, status: String = "支付成功") -> [WalletTable.Row] {
        [
            WalletTable.Row(locator: Locator(row: 1), cells: ["微信昵称：[测试]"]),
            WalletTable.Row(
                locator: Locator(row: 2), cells: ["交易时间", "交易类型", "交易对方", "商品", "收/支", "金额(元)", "支付方式", "当前状态", "交易单号", "商户单号", "备注"]),
            WalletTable.Row(
                locator: Locator(row: 3),
                cells: ["2026-05-01 12:00:00", "商户消费", "某店", "午餐", "支出", amount, "零钱", status, "4200001234\t", "/", "/"]),
        ]
    }
}
