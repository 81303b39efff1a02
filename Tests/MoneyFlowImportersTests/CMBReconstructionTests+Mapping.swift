import MoneyFlowCore
import MoneyFlowImporters
import Testing

/// From the reconstructed statement to records and accounts.
extension CMBReconstructionTests {
    // MARK: mapping

    @Test func mapsToImportedStatement() throws {
        let s = CMBSyntheticStatement.v2024()
        let st = try reconstruct(s.statement([Self.basicRows]))
        let imported = st.importedStatement()
        #expect(imported.importerID == "cmb-pdf")
        #expect(imported.accounts.count == 1)
        let account = try #require(imported.accounts.first)
        #expect(account.key == "cmb:6214********8705")
        #expect(account.suggestedName == "CMB 8705")
        #expect(account.institution == "China Merchants Bank")
        #expect(account.number == "6214********8705")
        #expect(account.type == "ALL/全币种")
        #expect(account.currencies == ["CNY"])
        #expect(account.details["holder"] == "张三")
        #expect(account.details["branch"] == "北京中关村支行")
        #expect(imported.coverage == LocalDate(year: 2026, month: 6, day: 1)!...LocalDate(year: 2026, month: 6, day: 14)!)
        #expect(imported.records.count == 5)
        let r = imported.records[3]
        #expect(r.accountKey == "cmb:6214********8705")
        #expect(r.sourceKind == .cmbPDF)
        #expect(r.date.iso == "2026-06-03")
        #expect(r.amount == Money(minorUnits: -294223, currency: "CNY"))
        #expect(r.balance == Money(minorUnits: -272558, currency: "CNY"))
        #expect(r.description == "转账汇款")
        #expect(r.counterparty == "冯某某 6222518998449223045")
        #expect(r.note == "房租")
        #expect(r.locator == Locator(page: 1, row: 4))
        #expect(
            r.raw
                == #"{"amount":"-2,942.23","balance":"-2,725.58","counterparty":"冯某某 6222518998449223045","currency":"CNY","date":"2026-06-03","description":"转账汇款","note":"房租"}"#
        )
        #expect(imported.records[0].raw.contains(#""note":null"#))
        #expect(imported.warnings.isEmpty)
    }

    @Test func currencyNames() {
        #expect(CMBCurrency.isoCode("人民币") == "CNY")
        #expect(CMBCurrency.isoCode("CNY") == "CNY")
        #expect(CMBCurrency.isoCode("美元") == "USD")
        #expect(CMBCurrency.isoCode("港币") == "HKD")
        #expect(CMBCurrency.isoCode("日元") == "JPY")
        #expect(CMBCurrency.isoCode("usd") == "USD")
        #expect(CMBCurrency.isoCode("金币") == nil)
        #expect(CMBCurrency.isoCode("") == nil)
    }
}
