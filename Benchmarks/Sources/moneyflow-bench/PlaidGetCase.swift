import Foundation
import MoneyFlowCore
import MoneyFlowPipeline

// The Plaid `/transactions/get` file a user saves and imports: its size against the peak memory
// of importing it (#30: peak ≤ 3x the file).

extension Dataset {
    /// Plaid's category (legacy list and id) and personal finance category of a merchant kind.
    fileprivate static func plaidCategory(_ kind: Merchant.Kind) -> (legacy: String, id: String, primary: String, detailed: String) {
        switch kind {
        case .cafe: return (#"["Food and Drink","Restaurants","Coffee Shop"]"#, "13005043", "FOOD_AND_DRINK", "FOOD_AND_DRINK_COFFEE")
        case .subscription: return (#"["Service","Subscription"]"#, "18061000", "ENTERTAINMENT", "ENTERTAINMENT_TV_AND_MOVIES")
        case .retail: return (#"["Shops"]"#, "19000000", "GENERAL_MERCHANDISE", "GENERAL_MERCHANDISE_OTHER_GENERAL_MERCHANDISE")
        case .bill: return (#"["Payment","Billpay"]"#, "16001000", "RENT_AND_UTILITIES", "RENT_AND_UTILITIES_GAS_AND_ELECTRICITY")
        case .income: return (#"["Transfer","Payroll"]"#, "21009000", "INCOME", "INCOME_WAGES")
        }
    }

    /// Writes the Plaid side as one `/transactions/get` response: every transaction with the
    /// full current schema (location, counterparties, payment_meta, personal finance category),
    /// compact JSON. Compact is the hard case for the memory target: the raw copy the store keeps
    /// of each transaction is then as large as the file's text of it. `lean` leaves out the legacy
    /// category, counterparties, payment_meta and the category icon (about 850 bytes a
    /// transaction instead of 1,360: the fixed cost per record weighs more against the file).
    func writePlaidGet(to path: String, lean: Bool = false) throws {
        let account = """
            {"account_id":"\(Self.plaidAccountID)","balances":{"available":null,"current":25000.0,"iso_currency_code":"USD","limit":null,"unofficial_currency_code":null},"mask":"0000","name":"\(Self.accountName)","official_name":"Bench Checking","subtype":"checking","type":"depository"}
            """
        try BufferedFileWriter.write(path) { w in
            w.buf += "{\"accounts\":[\(account)],\"item\":{\"available_products\":[\"balance\"],\"billed_products\":[\"transactions\"],"
            w.buf += "\"consent_expiration_time\":null,\"error\":null,\"institution_id\":\"ins_56\",\"item_id\":\"bench-item-\(n)-\(seed)\","
            w.buf += "\"update_type\":\"background\",\"webhook\":\"\"},\"request_id\":\"bench\(seed)\",\"total_transactions\":\(plaidTxn.count),\"transactions\":["
            for (j, ti) in plaidTxn.enumerated() {
                let t = txns[ti], m = merchants[t.merchant], s = m.stores[t.store]
                let date = LocalDate(dayNumber: plaidDay(t)).iso, auth = LocalDate(dayNumber: authorizedDay(t)).iso
                let c = Self.plaidCategory(m.kind)
                let entity = String(plaidID(txns.count + t.merchant).prefix(27))
                let inStore = m.kind == .cafe || m.kind == .retail
                if j > 0 { w.buf += "," }
                w.buf += "{\"account_id\":\"\(Self.plaidAccountID)\",\"account_owner\":null,\"amount\":\(Self.decimal(-t.amount)),"
                w.buf += "\"authorized_date\":\"\(auth)\",\"authorized_datetime\":null,"
                if !lean {
                    w.buf += "\"category\":\(c.legacy),\"category_id\":\"\(c.id)\",\"check_number\":null,"
                    w.buf += "\"counterparties\":[{\"confidence_level\":\"VERY_HIGH\",\"entity_id\":\"\(entity)\",\"logo_url\":null,\"name\":\"\(m.name)\",\"phone_number\":null,\"type\":\"merchant\",\"website\":null}],"
                }
                w.buf += "\"date\":\"\(date)\",\"datetime\":null,\"iso_currency_code\":\"USD\","
                w.buf += "\"location\":{\"address\":null,\"city\":\(inStore ? "\"\(s.city)\"" : "null"),\"country\":\"US\",\"lat\":null,\"lon\":null,\"postal_code\":null,\"region\":\"\(s.state)\",\"store_number\":\(inStore ? "\"\(s.num)\"" : "null")},"
                w.buf += "\"logo_url\":null,\"merchant_entity_id\":\"\(entity)\",\"merchant_name\":\"\(m.name)\",\"name\":\"\(plaidName(t))\",\"payment_channel\":\"\(inStore ? "in store" : "online")\","
                if !lean {
                    w.buf += "\"payment_meta\":{\"by_order_of\":null,\"payee\":null,\"payer\":null,\"payment_method\":null,\"payment_processor\":null,\"ppd_id\":null,\"reason\":null,\"reference_number\":null},"
                }
                w.buf += "\"pending\":false,\"pending_transaction_id\":null,\"personal_finance_category\":{\"confidence_level\":\"VERY_HIGH\",\"detailed\":\"\(c.detailed)\",\"primary\":\"\(c.primary)\"},"
                if !lean { w.buf += "\"personal_finance_category_icon_url\":\"https://plaid-category-icons.plaid.com/PFC_\(c.primary).png\"," }
                w.buf += "\"transaction_code\":null,\"transaction_id\":\"\(plaidID(ti))\",\"transaction_type\":\"\(inStore ? "place" : "special")\",\"unofficial_currency_code\":null,\"website\":null}"
                try w.maybeFlush()
            }
            w.buf += "]}\n"
        }
    }
}

/// `plaid-get-file --n N [--seed S] [--lean] --out FILE`: writes the Plaid side of `gen --n N` as one
/// `/transactions/get` response (separate from the import, so the import's process peak is its own).
func runPlaidGetFile(_ a: Args) throws {
    let n = a.int("n", 10_000), seed = UInt64(a.int("seed", 7))
    guard let out = a.values["out"] else { throw BenchError("--out FILE required") }
    let data = Dataset(n: n, seed: seed)
    try data.writePlaidGet(to: out, lean: a.has("lean"))
    var line = ResultLine()
    line.set("case", "plaid-get-file"); line.set("n", n); line.set("seed", Int(seed))
    line.set("plaid_rows", data.plaidTxn.count); line.set("lean", a.has("lean")); line.set("out", out)
    line.emit()
}

/// `plaid-import --file FILE [--store PATH]`: the user's `moneyflow import FILE` of a Plaid
/// file into a fresh store (``ImportService/read(path:displayName:options:)`` then
/// ``ImportService/apply(_:fileName:sha256:options:)``), in a fresh process. Reports the file
/// size, the process peak after the read and after the write, and the peak's ratio to the file.
func runPlaidImport(_ a: Args) throws {
    guard let file = a.values["file"] else { throw BenchError("--file FILE required") }
    let path = a.string("store", "/tmp/moneyflow-bench-plaidimport.sqlite")
    let fileBytes = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
    var line = ResultLine()
    line.set("case", "plaid-import")
    line.set("file_mib", Double(fileBytes) / 1_048_576)
    let store = try freshStore(path)
    defer { removeStore(path) }
    let service = ImportService(store: store)
    let options = FileImportOptions(format: "plaid")
    let baseline = peakMiB()
    let ((stmt, sha), readWall, _) = try measure { try service.read(path: file, options: options) }
    let peakRead = peakMiB()
    // The write's own peak: VmHWM restarts from the current RSS (Linux >= 4.0), then the process
    // peak is the larger of the two.
    let resetPeak = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    let (result, applyWall, _) = try measure { try service.apply(stmt, fileName: file, sha256: sha, options: options) }
    guard result.plan.counts.new == stmt.records.count else { throw BenchError("expected every record new") }
    let peakApply = peakMiB()
    let peak = resetPeak ? max(peakRead, peakApply) : peakApply
    line.set("rows", stmt.records.count); line.set("read_s", readWall); line.set("apply_s", applyWall); line.set("total_s", readWall + applyWall)
    line.set("peak_start_mib", baseline); line.set("peak_read_mib", peakRead)
    if resetPeak { line.set("peak_apply_mib", peakApply) }
    line.set("peak_mib", peak)
    line.set("peak_over_file", peak / (Double(fileBytes) / 1_048_576))
    line.emit()
}
