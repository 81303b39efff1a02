import MoneyFlowCMB
import MoneyFlowImporters
import MoneyFlowWallets

/// The importers a default MoneyFlow knows. A new format is one conforming type added here.
public enum DefaultImporters {
    public static var registry: ImporterRegistry {
        ImporterRegistry([
            CSVImporter(), CMBStatementImporter(), CMBCardHTMLImporter(), PlaidImporter(), OFXImporter(),
            AlipayImporter(), WeChatImporter(), WalletZipImporter(),
        ])
    }
}
