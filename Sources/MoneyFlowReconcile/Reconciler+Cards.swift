import MoneyFlowCore

extension Reconciler {
    /// Where the accounts of a card and of its wallets' rows belong (``PaymentCard``): a wallet
    /// names the card that paid (`bankcard:招商银行:debit:3816`), the card's own statement names
    /// its account (`cmb:6214********3816`, `cmb-card:5521`); both are one account, whichever
    /// file comes first.
    /// - A wallet's card key not yet known lands on the one store account that is that card by
    ///   its facts (bank, debit or credit, last four digits).
    /// - A statement account not yet known lands on the one account a wallet made for its card
    ///   before it arrived (an account only card keys name), and that account takes the
    ///   statement's name and facts (``AccountResolution/adoptsFacts``), as if the statement
    ///   had come first.
    ///
    /// Never guessed: two store accounts that are the same card (two debit cards of one bank
    /// ending in the same four digits) leave the key a new account, with a warning naming them
    /// and the fix (`moneyflow accounts link`); so does a second statement account of a card
    /// whose wallet rows already sit in another.
    func cardTargets(_ accounts: [AccountFacts], view: any LedgerView) throws -> RelinkTargets {
        var out = RelinkTargets()
        for f in accounts where try view.accountID(forKey: f.key) == nil {
            let walletCard = PaymentCard(key: f.key)
            guard let card = walletCard ?? PaymentCard(institution: f.institution, number: f.number, type: f.type, subtype: f.subtype)
            else { continue }
            let same = try view.accounts(numberEndingIn: card.last4).filter { $0.card == card }
            let fix = "if it is one of them, `moneyflow accounts link ACCOUNT \(f.key)` before importing this file again puts it there"
            if walletCard != nil {
                if same.count == 1 {
                    out.landing[f.key] = same[0]
                } else if same.count > 1 {
                    out.warnings.append(
                        ImportWarning(
                            "card \(f.key) matches accounts \(Self.names(same)) (\(card.bank) \(card.kind.rawValue) card ending \(card.last4)): "
                                + "ambiguous, so its rows go to a new account; \(fix)"))
                }
                continue
            }
            let madeByWallets = same.filter(\.madeFromCardKeys)
            let statements = same.filter { !$0.madeFromCardKeys }
            if madeByWallets.count == 1 && statements.isEmpty {
                out.landing[f.key] = madeByWallets[0]
                out.adopting.insert(f.key)
            } else if !same.isEmpty {
                out.warnings.append(
                    ImportWarning(
                        "account \(f.key) (\(f.suggestedName)) is \(card.bank) \(card.kind.rawValue) card ending \(card.last4), as are "
                            + "\(Self.names(same)): wallet rows paid with that card stay where they are and new ones go there; "
                            + "this statement is a new account; \(fix)"))
            }
        }
        return out
    }
}
