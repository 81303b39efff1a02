import ArgumentParser
import MoneyFlowPipeline

/// `--wide` for the commands whose tables cut long text (descriptions, account names, reasons,
/// a failed file's error) to keep rows within a terminal: with it every cell is shown whole,
/// so nothing a table hides needs the JSON output to be read.
struct WideOption: ParsableArguments {
    @Flag(name: .long, help: "Show every table cell whole (default: long text is cut to fit, ending with …).")
    var wide = false

    /// How a table cell shows `text`: cut to `width` display cells, or whole with `--wide`
    /// (escaped either way).
    var cells: CellText { CellText(wide: wide) }
}

/// The one rule for long text in a table cell (see ``WideOption``).
struct CellText {
    var wide = false
    func callAsFunction(_ text: String, _ width: Int) -> String {
        wide ? SafeText.escaped(text) : TextTable.truncate(text, to: width)
    }
}
