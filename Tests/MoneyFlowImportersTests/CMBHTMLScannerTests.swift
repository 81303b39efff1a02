import Testing

@testable import MoneyFlowImporters

/// The e-statement's tolerant HTML reading: entities, nested layout tables, unclosed cells,
/// comments and style blocks.
@Suite("CMB e-statement HTML scanner")
struct CMBHTMLScannerTests {
    @Test func entitiesAndNestedTablesAreRead() {
        let doc = CMBHTMLScanner.scan(
            "<table><tr><td>a&amp;b<table><tr><td>&#xA5;&nbsp;1</td><td>&yen;2</td></tr></table></td><td>x</td></tr></table>")
        #expect(doc.rows == [["a&b", "x"], ["¥ 1", "¥2"]])
    }

    @Test func unclosedCellsRowsCommentsAndStylesAreTolerated() {
        let doc = CMBHTMLScanner.scan(
            "<title>招商银行</title><style>td { x: '<td>' }</style><table><!-- <tr><td>no</td></tr> --><TR><TD>1<TD> 2 <br>3<tr><td>&bogus; &amp</table><p>after")
        #expect(doc.rows == [["1", "2 3"], ["&bogus; &amp"]])
        #expect(doc.texts == ["招商银行", "after"])
    }
}
