import Foundation
import MoneyFlowHTTPTestSupport
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowServer

/// The web app in real headless Chromium (Debian's chromium + chromedriver, driven over
/// WebDriver by ``WebDriver``) against the real `moneyflow serve` on loopback: sign in, import
/// the samples through the upload form, the rows against the CLI's ledger, the charts' months,
/// review and sort by clicking, undo of a batch, escaping, CSRF, another user's session, and
/// axe-core's accessibility check. Screenshots go to `.build/browser-artifacts/` (not committed).
@Suite(.serialized) struct BrowserTests {
    static let artifacts = TestPaths.repoRoot.appendingPathComponent(".build/browser-artifacts").path
    static let axe = TestPaths.repoRoot.appendingPathComponent(".build/axe/axe.min.js").path
    static let hostile = "DEBIT,01/15/2026,\"<img src=x onerror=window.__mfxss=1>\",-66.60,DEBIT_CARD,,,\n"

    @Test func theWebAppInABrowser() async throws {
        guard WebDriver.available else { return }
        let h = try await ServeHarness.start()
        let driver = try await WebDriver.start()
        do {
            try await Self.walkThrough(h, driver)
        } catch {
            try? await driver.screenshot(Self.artifacts + "/failure.png")
            try? "\(error)".write(toFile: Self.artifacts + "/failure.txt", atomically: true, encoding: .utf8)
            await driver.quit()
            await h.stop()
            throw error
        }
        await driver.quit()
        await h.stop()
    }

    static func walkThrough(_ h: ServeHarness, _ b: WebDriver) async throws {
        let alice = try await h.addUser("alice")
        _ = try await h.addUser("rita")
        let users = try UserDirectory(dataDirectory: h.data)
        let rita = try #require(try users.list().first { $0.name == "rita" })
        try WebReviewTests.addReviewItem(users, rita)
        let ritaToken = try users.rotateToken(name: "rita")

        // Sign in: every page sends a browser without a session to the sign-in page.
        try await b.open(h.baseURL + "/transactions")
        #expect(try await b.currentURL().hasSuffix("/signin"))
        try await b.type("#password", alice)
        try await b.click("form.card button[type=submit]")
        #expect(try await b.waitForURL { $0 == h.baseURL + "/" } == h.baseURL + "/")

        // Import the samples (and one hostile description) through the upload form.
        let dir = try TestPaths.tempDir("browser")
        let hostileFile = dir + "/hostile.csv"
        let chase = try String(contentsOfFile: TestPaths.sample("csv/chase_checking.csv"), encoding: .utf8)
        try (chase.split(separator: "\n").first! + "\n" + hostile).write(toFile: hostileFile, atomically: true, encoding: .utf8)
        for file in [TestPaths.sample("csv/chase_checking.csv"), TestPaths.sample("cmb/cmb2024_basic.pdf"), TestPaths.sample("csv/amex.csv"), hostileFile] {
            try await b.open(h.baseURL + "/import")
            try await b.type("input[type=file]", file)
            if file.hasSuffix("amex.csv") {
                try await b.execute(
                    "var o = document.createElement('option'); o.value = o.text = 'Amex Card'; document.querySelector('select[name=account]').add(o);")
                try await b.select("select[name=account]", value: "Amex Card")
            }
            try await b.click("form[enctype] button[type=submit]")
            let result = try await b.elements("[data-testid=import-result]") { $0.count == 1 }
            let main = try await b.execute("return document.querySelector('main').innerText")
            #expect(result.count == 1, "\(file): \(main)")
        }
        try await b.screenshot(artifacts + "/import.png")

        // The rows, page after page, are the CLI's ledger.
        let ledger = users.ledgerPath(for: try #require(try users.list().first { $0.name == "alice" }))
        let cli = try MoneyFlowBinary.run(["transactions", "--store", ledger, "--format", "json"])
        let cliRows = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [[String: Any]])
        var shown: [Int64] = []
        var next: String? = h.baseURL + "/transactions"
        while let url = next {
            try await b.open(url)
            for row in try await b.elements("[data-testid=transaction-row]") {
                shown.append(Int64(try await b.attribute(row, "data-transaction-id") ?? "") ?? -1)
            }
            next = try await b.elements("[data-testid=next-page]").first.asyncMap { try await b.attribute($0, "href") }.flatMap { $0 }
            if let n = next, !n.hasPrefix("http") { next = h.baseURL + n }
        }
        let cliIDs = cliRows.compactMap { ($0["id"] as? NSNumber)?.int64Value }
        #expect(!cliIDs.isEmpty && shown == cliIDs.sorted())
        try await b.screenshot(artifacts + "/transactions.png")

        // The hostile description is text, and nothing ran.
        try await b.open(h.baseURL + "/transactions?q=onerror")
        let hostileRow = try await b.element("[data-testid=transaction-row] td:nth-child(3) a")
        #expect(try await b.text(hostileRow) == "<img src=x onerror=window.__mfxss=1>")
        #expect(try await b.execute("return window.__mfxss === undefined && document.querySelectorAll('main img').length === 0") as? Bool == true)
        #expect(await b.alertText() == nil)

        // The monthly chart has a group per month of the main currency (at most 12).
        var months: [String: Set<String>] = [:]
        for r in cliRows { months[r["currency"] as? String ?? "", default: []].insert(String((r["date"] as? String ?? "").prefix(7))) }
        try await b.open(h.baseURL + "/")
        let bars = try await b.elements("svg[data-testid=monthly-chart] [data-testid=month]")
        #expect(bars.count == min(12, months.values.map(\.count).max() ?? 0))
        #expect(try await b.elements("svg[data-testid=category-chart]").count == 1)
        try await b.screenshot(artifacts + "/home.png")

        // Sort three at phone width: by search, by click, by key.
        try await b.call(.POST, "/window/rect", ["width": 375, "height": 812])
        var sorted: [String] = []
        for how in ["search", "click", "key"] {
            try await b.open(h.baseURL + "/sort")
            let card = try await b.element("[data-testid=sort-card]")
            let id = try #require(try await b.attribute(card, "data-transaction-id"))
            switch how {
            case "search":
                try await b.type("#other", "Expenses:Coffee")
                try await b.click("[data-testid=sort-other]")
            case "click": try await b.click("[data-testid=sort-choice]")
            default:
                try await b.execute("document.activeElement && document.activeElement.blur()")
                try await b.pressKey("1")
            }
            #expect(try await b.waitForURL { $0.contains("/sort?undo=") }.contains("/sort?undo="), "\(how)")
            sorted.append(id)
        }
        try await b.screenshot(artifacts + "/sort-375.png")
        let after = try MoneyFlowBinary.run(["transactions", "--store", ledger, "--format", "json"])
        let afterRows = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
        for id in sorted {
            let row = afterRows.first { ($0["id"] as? NSNumber)?.stringValue == id }
            #expect(row?["category_source"] as? String == "user" && row?["category"] as? String == "Expenses:Coffee", "\(id)")
        }
        let width = try await b.execute("return document.documentElement.scrollWidth") as? Int
        #expect((width ?? 999) <= 375, "the sort page fits a phone's width")
        try await b.call(.POST, "/window/rect", ["width": 1280, "height": 900])

        // A form posted without the CSRF token is refused.
        let status = try await b.executeAsync(
            "var done = arguments[arguments.length - 1]; fetch('/sort', {method: 'POST', body: new URLSearchParams({transaction: '\(sorted[0])', category: 'Expenses:X'})}).then(function (r) { done(r.status); });"
        )
        #expect(status as? Int == 403)

        // Undo the hostile file's batch from the import page.
        try await b.open(h.baseURL + "/import")
        let batch = try await b.execute(
            "var r = Array.from(document.querySelectorAll('[data-testid=batch-row]')).find(function (r) { return r.innerText.indexOf('hostile.csv') >= 0; }); return r ? r.dataset.batchId : null;"
        ) as? String
        try await b.click("tr[data-batch-id=\"\(try #require(batch))\"] [data-testid=undo-batch]")
        #expect(try await b.elements("p.notice") { $0.count == 1 }.count == 1)
        try await b.open(h.baseURL + "/transactions?q=onerror")
        #expect(try await b.elements("[data-testid=transaction-row]").isEmpty)

        // No serious or critical accessibility violation on any page.
        if FileManager.default.fileExists(atPath: axe) {
            let script = try String(contentsOfFile: axe, encoding: .utf8)
            for page in ["/", "/transactions", "/transactions/\(sorted[0])", "/review", "/sort", "/import", "/connect"] {
                try await b.open(h.baseURL + page)
                try await b.execute(script)
                let found = try await b.executeAsync(
                    "var done = arguments[arguments.length - 1]; axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; }).map(function (v) { return v.id + ' (' + v.nodes.length + '): ' + v.nodes[0].html; })); });"
                )
                #expect((found as? [String] ?? ["axe did not run"]).isEmpty, "\(page): \(found)")
            }
        } else if TestEnvironment.isCI() {
            Issue.record("CI=true: \(axe) is missing (scripts/install-deps.sh fetches it)")
        }

        // Sign out; another user's browser session shows only their own ledger.
        try await b.click(".signout button")
        #expect(try await b.waitForURL { $0.hasSuffix("/signin") }.hasSuffix("/signin"))
        try await b.type("#password", ritaToken)
        try await b.click("form.card button[type=submit]")
        #expect(try await b.waitForURL { $0 == h.baseURL + "/" } == h.baseURL + "/")
        try await b.open(h.baseURL + "/transactions")
        let ritaRows = try await b.elements("[data-testid=transaction-row]")
        #expect(ritaRows.count == 2)
        #expect(try await b.execute("return document.body.innerText.indexOf('Zelle') < 0") as? Bool == true)

        // Resolve the review item by clicking.
        try await b.open(h.baseURL + "/review")
        #expect(try await b.elements("[data-testid=review-item]").count == 1)
        #expect(try await b.elements("[data-testid=candidate]").count == 1)
        try await b.screenshot(artifacts + "/review.png")
        try await b.click("[data-testid=link-candidate]")
        #expect(try await b.elements("[data-testid=review-item]") { $0.isEmpty }.isEmpty)
        try await b.open(h.baseURL + "/transactions")
        #expect(try await b.elements("[data-testid=transaction-row]").count == 1)
    }
}
