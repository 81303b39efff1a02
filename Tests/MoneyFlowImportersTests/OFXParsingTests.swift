import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// A minimal OFX 1.x bank file around `body` (the STMTTRNs), with LEDGERBAL `ledger`.
func ofxFile(
    _ trns: String, ledger: String = "100.00", header: String = "OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n",
    acct: String = "<BANKID>111000025<ACCTID>12345678<ACCTTYPE>CHECKING"
) -> Data {
    let text =
        header
        + "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><FI><ORG>Test Bank<FID>1</FI></SONRS></SIGNONMSGSRSV1>\n"
        + "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STMTRS><CURDEF>USD<BANKACCTFROM>\(acct)</BANKACCTFROM>\n"
        + "<BANKTRANLIST><DTSTART>20250101<DTEND>20250131\n" + trns + "\n</BANKTRANLIST>"
        + "<LEDGERBAL><BALAMT>\(ledger)<DTASOF>20250131</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n"
    return Data(text.utf8)
}

func readOFX(_ data: Data, name: String = "t.ofx") throws -> ImportedStatement {
    try OFXImporter().read(ImportInput(fileName: name, data: data), options: ImportOptions())
}

func ofxError(_ data: Data) -> ImportError? {
    do { _ = try readOFX(data); return nil } catch { return error as? ImportError }
}

@Suite struct OFXParsingTests {
    @Test func datesAreTheLocalDayInTheirOwnOffset() {
        let cases: [(String, String, String?)] = [
            ("20250131", "2025-01-31", nil), ("20250131120000", "2025-01-31", "12:00:00"),
            ("20250131120000.000", "2025-01-31", "12:00:00"), ("20250131120000.000[-5:EST]", "2025-01-31", "12:00:00"),
            // 22:30 in New York is 03:30 UTC the next day; the statement shows the 31st.
            ("20250131223000.000[-5:EST]", "2025-01-31", "22:30:00"), ("20250201013000[0:GMT]", "2025-02-01", "01:30:00"),
            ("20250131230000[+5.45]", "2025-01-31", "23:00:00"), ("202501312359[-3.30:NST]", "2025-01-31", "23:59:00"),
        ]
        for (text, day, time) in cases {
            guard case .success(let d) = OFXValues.date(text) else { Issue.record("rejected \(text)"); continue }
            #expect(d.date.iso == day && d.time == time, "\(text)")
        }
        for bad in [
            "2025013", "20250230", "20251301", "20250131250000", "20250131120000[-5:EST", "20250131[x:EST]",
            "2025-01-31", "20250131120000.0000", "20250131[-25:XYZ]", "",
        ] {
            if case .success = OFXValues.date(bad) { Issue.record("accepted \(bad)") }
        }
    }

    @Test func amountsAreExactWithEitherDecimalPoint() throws {
        #expect(try OFXValues.amount("-12.34", currency: "USD").minorUnits == -1234)
        #expect(try OFXValues.amount("+5", currency: "USD").minorUnits == 500)
        #expect(try OFXValues.amount("1,5", currency: "EUR").minorUnits == 150)
        #expect(try OFXValues.amount("0.10", currency: "USD").minorUnits == 10)
        for bad in ["1,234.56", "12.345", "$5.00", "12 .00", "abc", "", "1.2.3"] {
            #expect(throws: OFXValues.ValueError.self, "\(bad)") { try OFXValues.amount(bad, currency: "USD") }
        }
    }

    /// The same transactions, written as closed XML leaves, unclosed SGML leaves on one line, or
    /// one element per line with CRLF, read the same; empty leaves and INTU.* elements are harmless.
    @Test func tokenizerIgnoresLineStructureAndClosingStyle() throws {
        let sgml = "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-1.50<FITID>A1<NAME>SHOP &amp; GO<MEMO></STMTTRN>"
        let xml =
            "<STMTTRN>\n  <TRNTYPE>DEBIT</TRNTYPE>\n  <DTPOSTED>20250105</DTPOSTED>\n  <TRNAMT>-1.50</TRNAMT>\n  <FITID>A1</FITID>\n  <NAME>SHOP &amp; GO</NAME>\n  <MEMO></MEMO>\n  <INTU.XID>77</INTU.XID>\n</STMTTRN>"
        let crlf =
            "<STMTTRN>\r\n<TRNTYPE>DEBIT\r\n<DTPOSTED>20250105\r\n<TRNAMT>\r\n-1.50\r\n<FITID>A1\r\n<NAME>SHOP &amp; GO\r\n<MEMO>\r\n<INTU.XID>77\r\n</STMTTRN>"
        let rows = try [sgml, xml, crlf].map { try readOFX(ofxFile($0)).records }
        for r in rows {
            #expect(r.count == 1)
            #expect(r.first?.description == "SHOP & GO" && r.first?.amount.minorUnits == -150 && r.first?.note == nil)
            #expect(r.first?.raw.contains("INTU") == false)
        }
    }

    @Test func entitiesAreDecodedAndStrayAmpersandsKept() {
        #expect(OFXTree.decodeEntities("A&amp;B &lt;x&gt; &#233;&#xE9; AT&T &bogus;") == "A&B <x> éé AT&T &bogus;")
    }

    @Test func errorsNameFileLineAndElement() {
        let trn = { (amt: String, date: String) in "<STMTTRN><TRNTYPE>DEBIT\n<DTPOSTED>\(date)\n<TRNAMT>\(amt)\n<FITID>X1<NAME>A</STMTTRN>"
        }
        // The STMTTRNs start on line 9 (5 header lines, then 3 lines of envelope).
        let badAmount = ofxError(ofxFile(trn("-12.3.4", "20250105")))
        #expect(
            badAmount?.kind == .malformed && badAmount?.locator?.line == 11 && badAmount?.column == "TRNAMT",
            "\(String(describing: badAmount))")
        #expect(
            badAmount?.description.hasPrefix("t.ofx: line 11, column TRNAMT: ") == true && badAmount?.description.contains("\n") == false)
        let badDate = ofxError(ofxFile(trn("-1.00", "20250230")))
        #expect(badDate?.locator?.line == 10 && badDate?.column == "DTPOSTED" && badDate?.problem.contains("no such day") == true)
        let noFITID = ofxError(ofxFile("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-1</STMTTRN>"))
        #expect(noFITID?.locator?.line == 9 && noFITID?.column == "FITID")
        let noCurrency = ofxError(Data(String(decoding: ofxFile(""), as: UTF8.self).replacingOccurrences(of: "<CURDEF>USD", with: "").utf8))
        #expect(noCurrency?.column == "CURDEF")
        let badBalance = ofxError(ofxFile("", ledger: "1O0.00"))
        #expect(badBalance?.column == "LEDGERBAL/BALAMT")
    }

    /// Corrections would need removals/replacements keyed to OFX ids, which the engine lacks: refused, never half-applied.
    @Test func correctionsAreRefused() {
        let e = ofxError(
            ofxFile("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-1<FITID>X2<CORRECTFITID>X1<CORRECTACTION>REPLACE</STMTTRN>"))
        #expect(e?.kind == .rejected && e?.column == "CORRECTACTION" && e?.problem.contains("X1") == true)
    }

    @Test func aBankErrorStatusIsAProviderError() {
        let text =
            "OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Signon invalid</STATUS></SONRS></SIGNONMSGSRSV1></OFX>"
        let e = ofxError(Data(text.utf8))
        #expect(e?.kind == .providerError && e?.problem.contains("15500") == true && e?.problem.contains("Signon invalid") == true)
    }

    @Test func encodings() throws {
        // Declared UTF-8 but not: an error naming the line. Undeclared non-UTF-8: 1252 with a warning.
        var bad = ofxFile(
            "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-1<FITID>X1<NAME>CAF\u{1}</STMTTRN>",
            header: "OFXHEADER:100\nENCODING:UTF-8\nCHARSET:NONE\n\n")
        bad[bad.firstIndex(of: 0x01)!] = 0xC9
        #expect(ofxError(bad)?.locator?.line == 8) // 4 header lines, 3 of envelope
        var undeclared = bad
        undeclared.replaceSubrange(undeclared.range(of: Data("ENCODING:UTF-8".utf8))!, with: Data("ENCODING:USASCII".utf8))
        let s = try readOFX(undeclared)
        #expect(s.records.first?.description == "CAFÉ" && s.warnings.count == 1)
        // OFX 2 XML is UTF-8.
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?OFX OFXHEADER=\"200\" VERSION=\"211\"?>\n"
        let utf8 = try readOFX(
            ofxFile(
                "<STMTTRN><TRNTYPE>DEBIT</TRNTYPE><DTPOSTED>20250105</DTPOSTED><TRNAMT>-1</TRNAMT><FITID>X</FITID><NAME>Café 北京</NAME></STMTTRN>",
                header: xml))
        #expect(utf8.records.first?.description == "Café 北京")
    }

    /// Two statements of one account chain: a missing row makes LEDGERBAL not add up (a warning
    /// naming the statement), while one statement alone is never "checked" against nothing.
    @Test func ledgerBalanceChainsAcrossStatementsOfOneAccount() throws {
        let sample = try String(contentsOf: ofxSamples.appendingPathComponent("checking_two_periods.ofx"), encoding: .utf8)
        #expect(try readOFX(Data(sample.utf8)).warnings.isEmpty)
        let broken = sample.replacingOccurrences(of: "<TRNAMT>-45.67", with: "<TRNAMT>-45.76")
        let w = try readOFX(Data(broken.utf8)).warnings
        #expect(w.count == 1 && w[0].message.contains("Lakeshore Bank 8811") && w[0].message.contains("does not add up"), "\(w)")
        #expect(
            try readOFX(ofxFile("<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-1<FITID>X1</STMTTRN>", ledger: "-999.99")).warnings
                .isEmpty)
    }

    /// CURRENCY means the amount is in that currency; ORIGCURRENCY means it was converted to
    /// CURDEF (the amount stays in CURDEF, the original currency is kept raw).
    @Test func foreignCurrencies() throws {
        let s = try readOFX(
            ofxFile(
                """
                <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-50.00<FITID>F1<NAME>HOTEL<CURRENCY><CURRATE>1.0834<CURSYM>EUR</CURRENCY></STMTTRN>
                <STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20250105<TRNAMT>-54.17<FITID>F2<NAME>HOTEL<ORIGCURRENCY><CURRATE>1.0834<CURSYM>EUR</ORIGCURRENCY></STMTTRN>
                """))
        #expect(s.records.map(\.amount) == [Money(minorUnits: -5000, currency: "EUR"), Money(minorUnits: -5417, currency: "USD")])
        #expect(s.records[1].raw.contains("\"ORIGCURRENCY/CURSYM\":\"EUR\""))
        #expect(s.accounts.first?.currencies == ["EUR", "USD"])
    }

    /// Hostile input: nesting beyond any real file is refused, not walked into a stack overflow.
    @Test func deepNestingIsALimitNotACrash() {
        let deep =
            "OFXHEADER:100\n\n<OFX>" + String(repeating: "<X>", count: 100_000) + String(repeating: "</X>", count: 100_000) + "</OFX>"
        let e = ofxError(Data(deep.utf8))
        #expect(e?.kind == .limitExceeded && e?.locator?.line == 3)
    }

    /// Only a file that starts as OFX is claimed: text that merely mentions it is not.
    @Test func sniffNeedsOFXAtTheStart() {
        func sniff(_ s: String) -> Double {
            OFXImporter().sniff(ImportInput(fileName: "f.ofx", data: Data(s.utf8)), options: ImportOptions())
        }
        #expect(sniff("\u{FEFF}\r\nOFXHEADER:100\r\n") > 0.9 && sniff("<OFX><SIGNONMSGSRSV1>") > 0.8)
        #expect(sniff("<?xml version=\"1.0\"?>\n<?OFX OFXHEADER=\"200\"?>") > 0.9)
        #expect(sniff("Date,Description,Amount\n01/02/2025,\"<OFX> import fee\",-1.00\n") == 0)
        #expect(sniff("<?xml version=\"1.0\"?><rss></rss>") == 0)
    }

    /// A transfer's other account number is kept as its last 4 only; a failed statement request
    /// next to a good one is a warning.
    @Test func transferAccountsMaskedAndFailedRequestsWarned() throws {
        let xfer =
            "<STMTTRN><TRNTYPE>XFER<DTPOSTED>20250105<TRNAMT>-5<FITID>T1<NAME>TO SAVINGS<BANKACCTTO><BANKID>111000025<ACCTID>99887766554433<ACCTTYPE>SAVINGS</BANKACCTTO></STMTTRN>"
        let s = try readOFX(ofxFile(xfer))
        #expect(s.records.first?.raw.contains("99887766554433") == false && s.records.first?.raw.contains("4433") == true)
        var text = String(decoding: ofxFile(xfer), as: UTF8.self)
        text = text.replacingOccurrences(
            of: "</BANKMSGSRSV1>",
            with: "<STMTTRNRS><TRNUID>2<STATUS><CODE>2003<SEVERITY>ERROR<MESSAGE>Account not found</STATUS></STMTTRNRS></BANKMSGSRSV1>")
        let w = try readOFX(Data(text.utf8)).warnings
        #expect(w.count == 1 && w[0].message.contains("2003") && w[0].message.contains("Account not found"), "\(w)")
    }
}
