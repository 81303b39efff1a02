import ArgumentParser
import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

struct TransfersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfers", abstract: "List transfers between your own accounts, and the pairs waiting for your decision.",
        discussion: """
            A card repayment or a move to savings shows up in both accounts; the engine pairs the
            two legs (same amount, within 7 days, with wording such as 还款/AUTOPAY/TRANSFER or the
            other account's last digits) so exports book one transfer, never an expense and an income.
            Pairs it is not sure of (several candidates, weak wording, two currencies) wait here.
            Examples:
              moneyflow transfers
              moneyflow transfers --format json
              moneyflow link --transfer 120 341   # these two are one transfer
              moneyflow unlink --transfer 120     # not a transfer: never pair them again
            """)
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only transfers with a leg in this account (name).") var account: String?
    @Option(help: "table or json.") var format: ListFormat = .table
    @OptionGroup var wideOption: WideOption

    func run() throws {
        let store = try storeOptions.openForReading()
        try requireAccount(account, in: store)
        let (linked, review) = try store.transfers(account: account)
        switch format {
        case .json:
            printOut(Contracts.transfers(linked: linked, review: review).render(pretty: true))
        case .table:
            let cut = wideOption.cells
            for (k, (title, list)) in [("transfers", linked), ("to review", review)].enumerated() {
                // A blank line between the two sections, so "to review" never reads as a row.
                printOut("\(k > 0 ? "\n" : "")\(title): \(list.count)")
                guard !list.isEmpty else { continue }
                var t = TextTable(["out", "date", "from", "amount", "in", "date", "to", "amount", "by", "reasons"])
                for p in list {
                    t.add([
                        String(p.out.id), p.out.date.iso, cut(p.out.account, 20),
                        p.out.amount.description,
                        String(p.into.id), p.into.date.iso, cut(p.into.account, 20),
                        p.into.amount.description,
                        p.decidedBy, cut(p.reasons.map(\.description).joined(separator: "; "), 60),
                    ])
                }
                printOut(t.render())
            }
            if !review.isEmpty { printOut("  -> moneyflow link --transfer <out> <in>   or   moneyflow unlink --transfer <id>") }
        }
    }
}
