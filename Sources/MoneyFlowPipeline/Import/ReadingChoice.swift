import MoneyFlowCore

/// Chooses among a file's readings (``ImportedStatement/alternatives``) when the file alone
/// cannot tell which account is its own: the importer knows nothing of the store, so it offers
/// every reading and the import, which can read the store, takes one here.
///
/// `--account` decides (the importer's own first reading is used and every record goes to the
/// named account); else the one reading whose own account the store already has (the account
/// this series of statements landed in before); else, when none or several have one, the
/// importer's first reading. A choice made here is always said in a warning, with its reason.
enum ReadingChoice {
    static func choose(_ statement: ImportedStatement, view: any LedgerView, accountGiven: Bool) throws -> ImportedStatement {
        guard !statement.alternatives.isEmpty else { return statement }
        var first = statement
        first.alternatives = []
        first.ambiguity = nil
        if accountGiven { return first }
        let readings = [first] + statement.alternatives
        var known: [Int] = []
        for (i, r) in readings.enumerated() {
            if let key = r.accounts.first?.key, try view.accountID(forKey: key) != nil { known.append(i) }
        }
        let pick = known.count == 1 ? known[0] : 0
        let names = readings.compactMap { $0.accounts.first?.suggestedName }
        let why: String
        switch known.count {
        case 1: why = "the one of these accounts this store already has"
        case 0: why = "the first the file names (this store has none of these accounts yet)"
        default: why = "the first the file names (this store has \(known.count) of these accounts)"
        }
        var chosen = readings[pick]
        chosen.alternatives = []
        chosen.ambiguity = nil
        chosen.warnings.append(
            ImportWarning(
                "\(statement.ambiguity ?? "the file does not say which account is its own"): the records go to "
                    + "\(names[pick]), \(why); candidates \(names.joined(separator: ", ")); use --account to choose"))
        return chosen
    }
}
