import Foundation
import Hummingbird
import MoneyFlowPipeline

/// `GET /v1/export?format=`: `moneyflow export` over HTTP, the same ``LedgerExport`` call and
/// bytes, streamed to the client as it is written.
struct ExportRoutes {
    let ledgers: Ledgers

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.get("export") { request, context in
            let store = try await ledgers.store(for: try context.requireUser())
            let q = try Query.decode(ExportQuery.self, request, context)
            let formats = ExportFormat.allCases.map(\.rawValue)
            guard let format = q.format.flatMap(ExportFormat.init(rawValue:)) else {
                throw APIError.badRequest("format must be one of \(formats.joined(separator: ", ")), e.g. ?format=beancount")
            }
            let from = q.from?.date, to = q.to?.date
            if let from, let to, from > to { throw APIError.badRequest("from is after to") }
            let account = q.account
            let currencies = (q.operatingCurrency ?? "").split(separator: ",").map(String.init)
            if !currencies.isEmpty && format != .beancount {
                throw APIError.badRequest("operating_currency only applies to format=beancount")
            }
            for c in currencies where !LedgerExport.isCurrencyCode(c) {
                throw APIError.badRequest("operating_currency must be currency codes such as USD (several: USD,CNY)")
            }
            // Checked before the 200 goes out: an unknown account is a 404, as the CLI's error.
            try await store.requireAccount(account)
            let body = StreamedBody.make(on: store) { store, write in
                _ = try LedgerExport.write(format, store: store, account: account, from: from, through: to, operatingCurrencies: currencies, to: write)
            }
            return Response(status: .ok, headers: [.contentType: Self.contentType(format)], body: body)
        }
    }

    static func contentType(_ format: ExportFormat) -> String {
        switch format {
        case .beancount, .ledger: return "text/plain; charset=utf-8"
        case .csv: return "text/csv; charset=utf-8"
        case .json: return "application/json; charset=utf-8"
        }
    }
}

/// `GET /v1/export`'s query.
struct ExportQuery: QueryParameters {
    var format: String?
    var account: String?
    var from: QueryDate?
    var to: QueryDate?
    var operatingCurrency: String?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, account, from, to
        case operatingCurrency = "operating_currency"
    }
}
